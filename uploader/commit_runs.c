/* SPDX-License-Identifier: MIT */
/* A commit's runs, read from bm-server's answer: see commit_runs.h. */
#include "config.h"

#include "commit_runs.h"

#include "error.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The group a run belongs to: its model and platform (newly allocated). */
static char *group_key(const json_t *run)
{
	char *platform = json_dumps(json_object_get(run, "platform"), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	char *key = xasprintf("%s\n%s", json_string_value(json_object_get(run, "model")), platform ? platform : "null");
	free(platform);
	return key;
}

int commit_runs_parse(struct commit_runs *r, const char *text, size_t size, char **err)
{
	memset(r, 0, sizeof *r);
	json_t *j = json_loadb(text, size, 0, NULL), *runs = json_object_get(j, "runs"), *run;
	if (!json_is_array(runs)) {
		json_decref(j);
		return bm_error(err, "the server's list of runs: runs: expected an array");
	}
	size_t n = json_array_size(runs), i;
	char **keys = xcalloc(n + 1, sizeof *keys);
	r->runs = xcalloc(n + 1, sizeof *r->runs);
	r->groups = xcalloc(n + 1, sizeof *r->groups);
	int rc = 0;
	json_array_foreach(runs, i, run) {
		const char *id = json_string_value(json_object_get(run, "run_id"));
		if (!id || !json_is_string(json_object_get(run, "model"))) {
			rc = bm_error(err, "the server's list of runs: runs[%zu]: expected a run_id and a model", i);
			break;
		}
		r->runs[r->nruns++] = xstrdup(id);
		char *key = group_key(run);
		size_t g = 0;
		while (g < r->ngroups && strcmp(keys[g], key))
			g++;
		if (g < r->ngroups) { /* an older run of a group: its shard is in the newest's report */
			free(key);
			continue;
		}
		keys[r->ngroups] = key;
		r->groups[r->ngroups++] = xstrdup(id);
	}
	for (size_t k = 0; k < r->ngroups; k++)
		free(keys[k]);
	free(keys);
	json_decref(j);
	if (rc) {
		commit_runs_release(r);
		return -1;
	}
	qsort(r->runs, r->nruns, sizeof *r->runs, by_text);
	return 0;
}

int commit_runs_same(const struct commit_runs *a, const struct commit_runs *b)
{
	if (a->nruns != b->nruns)
		return 0;
	for (size_t i = 0; i < a->nruns; i++)
		if (strcmp(a->runs[i], b->runs[i]))
			return 0;
	return 1;
}

void commit_runs_release(struct commit_runs *r)
{
	for (size_t i = 0; i < r->ngroups; i++)
		free(r->groups[i]);
	free(r->groups);
	for (size_t i = 0; i < r->nruns; i++)
		free(r->runs[i]);
	free(r->runs);
	memset(r, 0, sizeof *r);
}
