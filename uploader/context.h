/* SPDX-License-Identifier: MIT */
/* Where a report was measured, for the server: branch, commit (SHA,
 * committer time, first-parent ancestry) and pull request.  Read from the
 * flags, then GitHub Actions' or GitLab CI's variables, then git itself,
 * in that order of precedence (SPEC 3.1). */
#ifndef BM_CONTEXT_H
#define BM_CONTEXT_H

#include "report.h"

#include <jansson.h>

#define CONTEXT_MAX_ANCESTORS 256

/* What the command line said; NULL (or 0) where it said nothing. */
struct context_flags {
	const char *branch, *commit, *commit_time, *base_branch, *merge_base;
	long pr;
};

/* Fills ctx's branch, commit (always) and pull request (NULL when none;
 * its merge base may be NULL) from flags, the environment and the git
 * repository in the current directory; its platform stays NULL.  The
 * commit's ancestry holds at most CONTEXT_MAX_ANCESTORS, nearest first.
 * Returns 0 (free with report_context_release), or -1 with *err saying
 * what is missing and how to give it. */
int context_detect(const struct context_flags *flags, struct bm_context *ctx, char **err);

/* Only the commit and the pull request (0: none) that context_detect
 * would name, for bm-check, which needs neither branch nor history.
 * Returns 0 with *sha newly allocated, or -1 with *err. */
int context_commit(const struct context_flags *flags, char **sha, long *pr, char **err);

/* Sets report's context.branch, context.commit and context.pr (its
 * number, base_branch and merge_base), replacing whatever the report
 * said: a report is the measuring job's, the context the CI's own. */
void context_apply(const struct bm_context *ctx, json_t *report);

#endif
