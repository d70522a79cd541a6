/* SPDX-License-Identifier: MIT */
/* Baseline selection: see baseline.h. */
#include "config.h"

#include "baseline.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static char *short_sha(const char *sha)
{
	return xstrndup(sha, 12);
}

/* Why a comparable run is missing when another kind exists. */
static char *mismatch(const struct store_run *head, const struct store_run *other, const char *where)
{
	int model = strcmp(head->model, other->model) != 0;
	char *sha = short_sha(other->sha);
	char *why = xasprintf("no baseline: %s %s has a run, but %s (%s there, %s here); only runs with the same "
			      "model and platform are compared",
			      where, sha, model ? "with another cost model" : "on another platform",
			      model ? other->model : other->platform, model ? head->model : head->platform);
	free(sha);
	return why;
}

static int pull_request(struct store *st, int64_t project, const struct store_run *head, struct baseline *out,
			char **err)
{
	const char *base = head->base_branch;
	if (head->nancestors > 0) {
		int rc = store_commit_run_like(st, project, head->ancestors[0], head->model, head->platform, &out->run, err);
		if (rc < 0)
			return -1;
		if (rc) {
			char *sha = short_sha(out->run.sha);
			out->found = 1;
			out->reason = xasprintf("pull request #%ld: the merge commit's first parent %s (the head of '%s' "
						"it merges into) has a run",
						head->pr, sha, base);
			free(sha);
			return 0;
		}
	}
	int rc = store_branch_head_run(st, project, base, head->model, head->platform, &out->run, err);
	if (rc < 0)
		return -1;
	if (rc) {
		char *sha = short_sha(out->run.sha);
		out->found = 1;
		out->reason = xasprintf("pull request #%ld: the latest commit of base branch '%s' with a run (%s)%s",
					head->pr, base, sha,
					head->nancestors ? "; the merge commit's first parent has none" : "");
		free(sha);
		return 0;
	}
	struct store_run any;
	if ((rc = store_branch_head_any(st, project, base, &any, err)) < 0)
		return -1;
	if (rc) {
		char *where = xasprintf("base branch '%s' at", base);
		out->reason = mismatch(head, &any, where);
		free(where);
		store_run_release(&any);
	} else {
		out->reason = xasprintf("no baseline: base branch '%s' of pull request #%ld has no run yet", base, head->pr);
	}
	return 0;
}

static int push(struct store *st, int64_t project, const struct store_run *head, struct baseline *out, char **err)
{
	struct store_run other = {0};
	int have_other = 0;
	for (size_t i = 0; i < head->nancestors; i++) {
		int rc = store_commit_run_like(st, project, head->ancestors[i], head->model, head->platform, &out->run, err);
		if (rc < 0)
			goto fail;
		if (rc) {
			char *sha = short_sha(out->run.sha);
			out->found = 1;
			out->reason = i == 0 ? xasprintf("push to '%s': the parent commit %s has a run", head->branch, sha)
					     : xasprintf("push to '%s': the closest first-parent ancestor with a run is %s, "
							 "%zu commits back",
							 head->branch, sha, i + 1);
			free(sha);
			store_run_release(&other);
			return 0;
		}
		if (!have_other) {
			if ((rc = store_commit_run(st, project, head->ancestors[i], 0, &other, err)) < 0)
				goto fail;
			have_other = rc;
		}
	}
	if (have_other)
		out->reason = mismatch(head, &other, "ancestor");
	else if (head->nancestors == 0)
		out->reason = xasprintf("no baseline: the run was uploaded without its commit's ancestry (a first "
					"commit, or a shallow clone: fetch the history, e.g. actions/checkout's "
					"fetch-depth: 0)");
	else
		out->reason = xasprintf("no baseline: none of the %zu first-parent ancestors uploaded with the run has a run",
					head->nancestors);
	store_run_release(&other);
	return 0;
fail:
	store_run_release(&other);
	return -1;
}

int baseline_find(struct store *st, int64_t project, const struct store_run *head, struct baseline *out,
		  char **err)
{
	memset(out, 0, sizeof *out);
	int rc = head->pr > 0 && head->base_branch ? pull_request(st, project, head, out, err)
						   : push(st, project, head, out, err);
	if (rc)
		baseline_release(out);
	return rc;
}

void baseline_release(struct baseline *b)
{
	if (b->found)
		store_run_release(&b->run);
	free(b->reason);
	memset(b, 0, sizeof *b);
}
