/* SPDX-License-Identifier: MIT */
/* URLs between bm's tools and bm-server. */
#ifndef BM_URL_H
#define BM_URL_H

/* s percent-encoded as one URL path segment (every byte but unreserved
 * ASCII escaped, so a '/' in a name stays inside its segment); the caller
 * owns the result. */
char *url_escape_segment(const char *s);

/* base/api/v1/projects/PROJECT/rest (api nonzero) or base/projects/
 * PROJECT/rest (a dashboard page): base without its trailing slashes,
 * project escaped as one segment, rest as given (its segments already
 * escaped; "" for none).  The caller owns the result. */
char *url_project(const char *base, int api, const char *project, const char *rest);

/* "commits/SHA" + what (e.g. "/report"), then "?pr=N" when pr > 0 and
 * "run=ID" when run is not NULL, escaped: the part after the project of a
 * commit's report or page.  The caller owns the result. */
char *url_commit_query(const char *sha, long pr, const char *run, const char *what);

/* The dashboard's page of a commit, base/projects/PROJECT/commits/SHA
 * with url_commit_query's parameters: what bm-upload prints and bm-check
 * links to. */
char *url_commit_page(const char *base, const char *project, const char *sha, long pr, const char *run);

#endif
