/* SPDX-License-Identifier: MIT */
/* A commit status on GitHub (POST /repos/OWNER/REPO/statuses/SHA): the
 * check's result where the pull request shows it.  One plain JSON request
 * with libcurl; no retries (a failed post is reported, and the CI step's
 * own result still stands). */
#ifndef BM_GITHUB_STATUS_H
#define BM_GITHUB_STATUS_H

/* What GitHub reads: state is "success", "failure" or "error". */
struct github_status {
	const char *api_url;     /* e.g. https://api.github.com (no trailing slash needed) */
	const char *repository;  /* "OWNER/REPO" */
	const char *token;       /* sent as "Authorization: Bearer TOKEN" */
	const char *sha;
	const char *context;     /* the status's name ("bm (x86_64, bm-model/1)"); NULL: "bm" */
	const char *state;
	const char *description; /* cut to 140 bytes (at a UTF-8 boundary) */
	const char *target_url;  /* or NULL */
};

/* Longest description GitHub accepts. */
#define GITHUB_STATUS_MAX_DESCRIPTION 140

/* Posts s, with a 10 s timeout.  Returns 0 when GitHub answered 201, or -1
 * with *err ("GitHub answered 404 for https://...: Not Found"). */
int github_status_post(const struct github_status *s, char **err);

#endif
