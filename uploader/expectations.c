/* SPDX-License-Identifier: MIT */
/* Chromium-style expectations: see expectations.h. */
#include "config.h"

#include "expectations.h"

#include "error.h"
#include "json_fields.h"
#include "xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expectations {
	json_t *root; /* validated: every key but "load" names {improve, regress} */
};

const char *expectation_name(enum expectation e)
{
	static const char *const names[] = {"unlisted", "SUCCESS", "WARNING", "FAILURE"};
	return names[e];
}

/* Checks one "PLATFORM/SUITE/BENCHMARK/METRIC" entry. */
static int check_entry(const char *key, const json_t *v, char **why)
{
	const char *first = strchr(key, '/'), *last = strrchr(key, '/');
	size_t slashes = 0;
	for (const char *p = key; *p; p++)
		slashes += *p == '/';
	if (slashes < 3 || first == key)
		return bm_error(why, "key '%s': expected PLATFORM/SUITE/BENCHMARK/METRIC", key);
	enum gate_metric m;
	if (strcmp(last + 1, "speed") && (gate_metric_lookup(last + 1, &m) || m == GATE_CYCLES))
		return bm_error(why,
				"key '%s': metric '%s' is not one bm-check gates on (speed, instructions, syscalls, allocations, "
				"bytes_allocated or peak_bytes)",
				key, last + 1);
	if (!json_is_object(v))
		return bm_error(why, "key '%s': expected an object {\"improve\": X, \"regress\": Y}", key);
	double improve = 0, regress = 0;
	if (field_signed_number(v, "", "improve", &improve, why) || field_signed_number(v, "", "regress", &regress, why)) {
		char *at = xasprintf("key '%s'", key);
		bm_error_prefix(why, at);
		free(at);
		return -1;
	}
	if (regress > improve)
		return bm_error(why, "key '%s': 'regress' (%g) must not be above 'improve' (%g)", key, regress, improve);
	return 0;
}

/* expectations_parse, but for the escaping. */
static struct expectations *parse(const char *text, size_t size, const char *name, char **why)
{
	if (size > EXPECTATIONS_MAX_BYTES)
		return bm_error(why, "'%s' is larger than %u bytes", name, EXPECTATIONS_MAX_BYTES), NULL;
	json_error_t je;
	json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return bm_error(why, "%s:%d:%d: %s", name, je.line, je.column, je.text), NULL;
	const char *key;
	json_t *v;
	int rc = 0;
	if (!json_is_object(root)) {
		rc = bm_error(why, "%s: expected a JSON object", name);
	} else if (!json_is_true(json_object_get(root, "load"))) {
		rc = bm_error(why, "%s: no \"load\": true, so the expectations are not loaded", name);
	} else {
		json_object_foreach(root, key, v)
		{
			if (strcmp(key, "load") && check_entry(key, v, why)) {
				bm_error_prefix(why, name);
				rc = -1;
				break;
			}
		}
	}
	if (rc) {
		json_decref(root);
		return NULL;
	}
	struct expectations *e = xcalloc(1, sizeof *e);
	e->root = root;
	return e;
}

struct expectations *expectations_parse(const char *text, size_t size, const char *name, char **why)
{
	struct expectations *e = parse(text, size, name, why);
	if (!e)
		bm_error_escape(why);
	return e;
}

struct expectations *expectations_load(const char *path, char **why)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return bm_error(why, "cannot open '%s': %s", path, strerror(errno)), NULL;
	/* One byte past the maximum is enough for expectations_parse to
	 * refuse the file, so no more is read. */
	char *text = NULL;
	size_t size = 0, alloc = 0, got;
	do {
		xgrow(&text, &alloc, size + 65536, 1);
		size_t room = alloc - size, left = EXPECTATIONS_MAX_BYTES + 1 - size;
		got = fread(text + size, 1, room < left ? room : left, f);
		size += got;
	} while (got && size <= EXPECTATIONS_MAX_BYTES);
	int failed = ferror(f), saved = errno;
	fclose(f);
	struct expectations *e = NULL;
	if (failed)
		bm_error(why, "cannot read '%s': %s", path, strerror(saved));
	else
		e = expectations_parse(text, size, path, why);
	free(text);
	return e;
}

/* The entry for r's metric on platform (or on "*"); *key is its key. */
static const json_t *lookup(const struct expectations *e, const char *platform, const char *id, const char *metric,
			    const char **key)
{
	const char *sep = strstr(id, "::");
	int suite_len = sep ? (int)(sep - id) : 0;
	const char *rest = sep ? sep + 2 : id;
	const char *platforms[] = {platform ? platform : "unknown", "*"};
	for (size_t i = 0; i < 2; i++) {
		char *k = xasprintf("%s/%.*s/%s/%s", platforms[i], suite_len, id, rest, metric);
		void *iter = json_object_iter_at(e->root, k);
		free(k);
		if (iter) {
			*key = json_object_iter_key(iter);
			return json_object_iter_value(iter);
		}
	}
	return NULL;
}

enum expectation expectations_judge(const struct expectations *e, const char *platform, const char *metric,
				    const struct check_row *r, const char **key, char **note)
{
	*key = NULL;
	*note = NULL;
	const json_t *entry = lookup(e, platform, r->id, metric, key);
	if (!strcmp(r->status, "failed")) {
		*note = xasprintf("failed: %s", r->reason ? r->reason : "no reason given");
		return EXPECT_FAILURE;
	}
	if (!entry)
		return EXPECT_UNLISTED;
	double improve = json_number_value(json_object_get(entry, "improve"));
	double regress = json_number_value(json_object_get(entry, "regress"));
	if (!strcmp(r->status, "missing")) {
		*note = xasprintf("listed, but this commit did not run it");
		return EXPECT_WARNING;
	}
	if (!r->has_impact) {
		*note = xasprintf("not compared (%s)", r->has_base ? r->status : "no baseline speed");
		return EXPECT_SUCCESS;
	}
	if (r->impact < regress) {
		*note = xasprintf("impact %+.2f%% is beyond regress %+.2f%%", 100 * r->impact, 100 * regress);
		return EXPECT_FAILURE;
	}
	if (r->impact > improve) {
		*note = xasprintf("impact %+.2f%% is better than improve %+.2f%%: update your expectations", 100 * r->impact,
				  100 * improve);
		return EXPECT_WARNING;
	}
	*note = xasprintf("impact %+.2f%% is within [%+.2f%%, %+.2f%%]", 100 * r->impact, 100 * regress, 100 * improve);
	return EXPECT_SUCCESS;
}

const char *expectations_metric(enum gate_metric m)
{
	return m == GATE_CYCLES ? "speed" : gate_metric_name(m);
}

void expectations_free(struct expectations *e)
{
	if (!e)
		return;
	json_decref(e->root);
	free(e);
}

const char *expectations_nearest_platform(const struct expectations *e, const char *platform, size_t *len)
{
	const char *best = NULL, *key;
	size_t best_common = 0;
	json_t *v;
	*len = 0;
	json_object_foreach(e->root, key, v) {
		const char *slash = strchr(key, '/');
		if (!slash || (slash - key == 1 && key[0] == '*'))
			continue;
		size_t common = 0;
		while (platform && platform[common] && key + common < slash && platform[common] == key[common])
			common++;
		if (!best || common > best_common) {
			best = key;
			best_common = common;
			*len = (size_t)(slash - key);
		}
	}
	return best;
}
