/* SPDX-License-Identifier: MIT */
/* The one comment bm-check keeps on a pull request (GitHub) or a merge
 * request (GitLab): created the first time, updated every time after,
 * never a second one (jobs that create one at once keep the oldest).  It
 * is found again by a hidden marker that names the project, on the first
 * line of a comment written by the identity bm-check posts as: a marker
 * in anyone else's comment (or anywhere else in a comment) is ignored, so
 * nobody can make bm-check overwrite their text or fail by refusing an
 * edit.  Through the host's REST API (rest.h). */
#ifndef BM_REVIEW_COMMENT_H
#define BM_REVIEW_COMMENT_H

#include <stddef.h>

/* Where the comment goes, from the CI's environment. */
struct review_target {
	const struct review_site *site;
	char *api;   /* the API's base URL, without a trailing '/' */
	char *where; /* GitHub: OWNER/REPO; GitLab: the project's id */
	long number; /* the pull request's number, the merge request's iid */
	char *auth;  /* the header with the token */
	/* Who the token is (review_whoami): the login, and the host's user id
	 * when the host said it (0: match by login). */
	char *login;
	long long user_id;
};

/* Fills t from GitHub Actions' variables (GITHUB_REPOSITORY,
 * GITHUB_TOKEN, GITHUB_API_URL; the pull request pr, else GITHUB_REF's
 * refs/pull/N/...) or GitLab CI's (CI_API_V4_URL, CI_PROJECT_ID; the merge
 * request pr, else CI_MERGE_REQUEST_IID; a token in BM_GITLAB_TOKEN, else
 * GITLAB_TOKEN).  as: the login bm-check posts as, when the caller knows
 * it (--comment-as), else NULL.  Returns 0, or -1 with *err saying what to
 * set. */
int review_target_from_env(struct review_target *t, long pr, const char *as, char **err);
void review_target_release(struct review_target *t);

/* Asks the host who the token is, unless t->login is known: GitHub's and
 * GitLab's GET /user.  A GitHub App's installation token (GitHub Actions'
 * GITHUB_TOKEN) has no user: in GitHub Actions that is the
 * github-actions[bot]; another app's bot is given with --comment-as.
 * Returns 0, or -1 with *err. */
int review_whoami(struct review_target *t, char **err);

/* The site's name ("GitHub", "GitLab") and what it calls the request
 * ("pull request", "merge request"). */
const char *review_site_name(const struct review_target *t);
const char *review_request_name(const struct review_target *t);

/* The marker of project's comment (newly allocated): an HTML comment,
 * which the hosts do not show.  The name is written with every byte other
 * than [A-Za-z0-9._] as %XX, so that no two projects share a marker and
 * nothing in a name ends the HTML comment. */
char *review_marker(const char *project);

/* What review_comment_put did. */
enum review_outcome {
	REVIEW_CREATED,
	REVIEW_UPDATED, /* also: created, then found another job's older one */
	REVIEW_REPLACED, /* the host refused to update bm's comment: a new one */
	REVIEW_SKIPPED,  /* none to update, and create was 0 */
};

/* Puts body (whose first line is marker) as bm's comment: updates bm's
 * oldest comment with marker when there is one (a refused update creates
 * a new one instead), else creates one when create is nonzero, then looks
 * again: jobs running at once may each have created one.  Either way the
 * oldest is kept, holding body, and bm's other comments with marker
 * (*removed of them) are deleted -- never anyone else's.  t's identity
 * must be known (review_whoami).  *note, when set (newly allocated), says
 * why an update was refused, or why bm's other comments could not all be
 * deleted (the next run tries again).  Returns 0 with *outcome, or -1
 * with *err (the host's answer). */
int review_comment_put(const struct review_target *t, const char *marker, const char *body, int create,
		       enum review_outcome *outcome, size_t *removed, char **note, char **err);

#endif
