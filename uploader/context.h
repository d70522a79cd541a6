/* SPDX-License-Identifier: MIT */
/* Where a report was measured, for the server: branch, commit (SHA,
 * committer time, first-parent ancestry) and pull request.  Read from the
 * flags, then GitHub Actions' or GitLab CI's variables, then git itself,
 * in that order of precedence (SPEC 3.1). */
#ifndef BM_CONTEXT_H
#define BM_CONTEXT_H

#include <jansson.h>

#define CONTEXT_MAX_ANCESTORS 256

/* What the command line said; NULL (or 0) where it said nothing. */
struct context_flags {
	const char *branch, *commit, *commit_time, *base_branch, *merge_base;
	long pr;
};

struct upload_context {
	char *branch;
	char *sha;
	char *timestamp; /* committer time, RFC 3339 */
	char **ancestors; /* nearest first, at most CONTEXT_MAX_ANCESTORS */
	size_t nancestors;
	long pr; /* 0: not a pull request */
	char *base_branch;
	char *merge_base; /* the pull request's merge base with its base branch, or NULL */
	const char *source; /* "flags", "GitHub Actions", "GitLab CI" or "git": where the commit came from */
};

/* Fills ctx from flags, the environment and the git repository in the
 * current directory.  Returns 0, or -1 with *err saying what is missing
 * and how to give it. */
int context_detect(const struct context_flags *flags, struct upload_context *ctx, char **err);
void context_release(struct upload_context *ctx);

/* Only the commit and the pull request (0: none) that context_detect
 * would name, for bm-check, which needs neither branch nor history.
 * Returns 0 with *sha newly allocated, or -1 with *err. */
int context_commit(const struct context_flags *flags, char **sha, long *pr, char **err);

/* Sets report's context.branch, context.commit and context.pr (its
 * number, base_branch and merge_base), replacing whatever the report
 * said: a report is the measuring job's, the context the CI's own. */
void context_apply(const struct upload_context *ctx, json_t *report);

#endif
