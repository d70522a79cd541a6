/* SPDX-License-Identifier: MIT */
/* The one comment bm-check keeps on a pull request (GitHub) or a merge
 * request (GitLab): found again by a hidden marker that names the
 * project, created the first time, updated every time after, never a
 * second one.  Through the host's REST API (rest.h). */
#ifndef BM_REVIEW_COMMENT_H
#define BM_REVIEW_COMMENT_H

/* Where the comment goes, from the CI's environment. */
struct review_target {
	const struct review_site *site;
	char *api;   /* the API's base URL, without a trailing '/' */
	char *where; /* GitHub: OWNER/REPO; GitLab: the project's id */
	long number; /* the pull request's number, the merge request's iid */
	char *auth;  /* the header with the token */
};

/* Fills t from GitHub Actions' variables (GITHUB_REPOSITORY,
 * GITHUB_TOKEN, GITHUB_API_URL; the pull request pr, else GITHUB_REF's
 * refs/pull/N/...) or GitLab CI's (CI_API_V4_URL, CI_PROJECT_ID; the merge
 * request pr, else CI_MERGE_REQUEST_IID; a token in BM_GITLAB_TOKEN, else
 * GITLAB_TOKEN).  Returns 0, or -1 with *err saying what to set. */
int review_target_from_env(struct review_target *t, long pr, char **err);
void review_target_release(struct review_target *t);

/* The site's name ("GitHub", "GitLab") and what it calls the request
 * ("pull request", "merge request"). */
const char *review_site_name(const struct review_target *t);
const char *review_request_name(const struct review_target *t);

/* The marker of project's comment (newly allocated): an HTML comment,
 * which the hosts do not show. */
char *review_marker(const char *project);

/* Puts body (which holds marker) as the comment: updates the first one
 * that holds marker, else creates one.  *updated says which.  Returns 0,
 * or -1 with *err (the host's answer). */
int review_comment_put(const struct review_target *t, const char *marker, const char *body, int *updated,
		       char **err);

#endif
