/* SPDX-License-Identifier: MIT */
/* Baseline selection: see baseline.h. */
#include "config.h"

#include "baseline.h"

#include "series_identity.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static char *short_sha(const char *sha)
{
	return xstrndup(sha, 12);
}

/* Why a run of commit other (found by where) is no baseline: its series
 * (series_identity.h: the runs' model column) or its platform differs. */
static char *mismatch(const struct store_run *head, const struct store_run *other, const char *where)
{
	char *sha = short_sha(other->sha), *why;
	char *diff = series_identity_difference(other->model, head->model, "there", "here");
	if (diff)
		why = xasprintf("no baseline: %s %s has a run, but measured differently: %s; only runs measured the same "
				"way on the same platform are compared",
				where, sha, diff);
	else
		why = xasprintf("no baseline: %s %s has a run, but on another platform (%s there, %s here); only runs "
				"measured the same way on the same platform are compared",
				where, sha, other->platform, head->platform);
	free(diff);
	free(sha);
	return why;
}

static int pull_request(struct store *st, int64_t project, const struct store_run *head, struct baseline *out,
			char **err)
{
	const char *base = head->base_branch;
	if (head->nancestors > 0 && strcmp(head->ancestors[0], head->sha)) {
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
		/* Never the commit itself (an ancestry stored before uploads
		 * naming it were refused): it would be its own baseline. */
		if (!strcmp(head->ancestors[i], head->sha))
			continue;
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
			if ((rc = store_commit_push_run(st, project, head->ancestors[i], &other, err)) < 0)
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

/* The merge-base rule: 1 found (out set), 0 not (*why set), -1. */
static int merge_base(struct store *st, int64_t project, const struct store_run *head, struct baseline *out,
		      char **why, char **err)
{
	const char *mb = head->merge_base;
	if (!mb) {
		*why = xasprintf("the run was uploaded without its merge base (bm-upload reads it from git, for a merge "
				 "commit, or CI_MERGE_REQUEST_DIFF_BASE_SHA; or give --merge-base)");
		return 0;
	}
	if (!strcmp(mb, head->sha)) {
		*why = xasprintf("its merge base is the commit itself");
		return 0;
	}
	char *sha = short_sha(mb);
	int rc = store_commit_run_like(st, project, mb, head->model, head->platform, &out->run, err);
	if (rc > 0)
		out->reason = xasprintf("pull request #%ld: its merge base %s with '%s' has a run", head->pr, sha,
					head->base_branch);
	/* The merge base's own ancestors: those after it in the merge commit's
	 * first-parent ancestry (the base branch's). */
	size_t at = 0;
	while (rc == 0 && at < head->nancestors && strcmp(head->ancestors[at], mb))
		at++;
	for (size_t i = at + 1; rc == 0 && i < head->nancestors; i++) {
		if ((rc = store_commit_run_like(st, project, head->ancestors[i], head->model, head->platform, &out->run,
						err)) > 0) {
			char *found = short_sha(out->run.sha);
			out->reason = xasprintf("pull request #%ld: its merge base %s with '%s' has no run; its closest "
						"first-parent ancestor with one is %s, %zu commit%s back",
						head->pr, sha, head->base_branch, found, i - at, i - at == 1 ? "" : "s");
			free(found);
		}
	}
	if (rc == 0)
		*why = xasprintf("its merge base %s has no run, nor has an ancestor of it uploaded with the run", sha);
	free(sha);
	out->found = rc > 0;
	return rc;
}

int baseline_rule_lookup(const char *name, enum baseline_rule *rule)
{
	if (!strcmp(name, "auto"))
		*rule = BASELINE_AUTO;
	else if (!strcmp(name, "merge-base"))
		*rule = BASELINE_MERGE_BASE;
	else
		return -1;
	return 0;
}

int baseline_find(struct store *st, int64_t project, const struct store_run *head, enum baseline_rule rule,
		  struct baseline *out, char **err)
{
	memset(out, 0, sizeof *out);
	int pr = head->pr > 0 && head->base_branch, rc = 0;
	char *why = NULL;
	if (pr && rule == BASELINE_MERGE_BASE && (rc = merge_base(st, project, head, out, &why, err)))
		return rc < 0 ? -1 : 0;
	rc = pr ? pull_request(st, project, head, out, err) : push(st, project, head, out, err);
	if (!rc && why) {
		/* The rule asked for could not be followed: say why. */
		char *reason = xasprintf("%s (merge-base rule: %s)", out->reason, why);
		free(out->reason);
		out->reason = reason;
	}
	free(why);
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
