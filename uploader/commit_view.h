/* SPDX-License-Identifier: MIT */
/* bm-server's view of one commit, for bm-check: the report of one of its
 * runs, and every report it has, one per platform and model.  A CI matrix
 * uploads a run per job; the shards of a suite split over several jobs
 * share a platform and model, and the server reports them as one (their
 * newest run's report holds every shard's results).  Each job's bm-check
 * shows all of them, so the last job to finish never hides another's
 * regression. */
#ifndef BM_COMMIT_VIEW_H
#define BM_COMMIT_VIEW_H

#include "check.h"
#include "commit_runs.h"
#include "http_client.h"

/* Where the commit is on the server. */
struct commit_where {
	const char *server, *project, *sha;
	long pr; /* 0: any run of the commit */
	const char *baseline; /* the ?baseline= rule, or NULL for the server's */
	const struct http_client_options *http;
};

/* Fetches the commit's report (GET .../commits/SHA/report) of run (NULL:
 * its newest upload) into c, its report_url set.  Returns 0, or -1 with
 * *why (newly allocated: the server's own words for a 404). */
int commit_view_report(const struct commit_where *w, const char *run, struct check *c, char **why);

/* One platform and model of the commit. */
struct commit_group {
	char *run_id; /* its newest run */
	struct check check;
	char *label;   /* "x86_64, bm-model/1" (commit_view_label) */
	char *context; /* its commit status's context: "bm (x86_64, bm-model/1)" */
};

struct commit_view {
	struct commit_group *groups;
	size_t n;
	struct commit_runs runs; /* every run seen (its groups moved to groups) */
};

/* Lists the commit's runs (GET .../commits/SHA/runs) into v: one group
 * per platform and model, its check not yet fetched.  Returns 1, 0 when
 * the server does not list runs (an older bm-server: the caller shows
 * its own report alone), or -1 with *why. */
int commit_view_list(struct commit_view *v, const struct commit_where *w, char **why);

/* Fetches every group's report; returns 0 or -1 with *why. */
int commit_view_fetch(struct commit_view *v, const struct commit_where *w, char **why);

/* Whether a and b saw the same runs (no job uploaded in between). */
int commit_view_same_runs(const struct commit_view *a, const struct commit_view *b);

void commit_view_release(struct commit_view *v);

/* "ARCH, SERIES" for a check's platform and series identity (the cost
 * model and how it was measured, as the server stores it:
 * "bm-model/1+warm").  Newly allocated. */
char *commit_view_label(const struct check *c);

/* The commit status context of a label: "bm (LABEL)", at most GitHub's
 * 255 bytes.  Newly allocated. */
char *commit_view_context(const char *label);

#endif
