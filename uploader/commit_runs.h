/* SPDX-License-Identifier: MIT */
/* bm-server's answer to GET .../commits/SHA/runs, read: a commit's runs
 * in groups, one per platform and model (a CI matrix's job each; the
 * shards of a suite share one, which the server reports as one), each
 * named by its newest run. */
#ifndef BM_COMMIT_RUNS_H
#define BM_COMMIT_RUNS_H

#include <stddef.h>

struct commit_runs {
	char **groups; /* each group's newest run id, newest group first */
	size_t ngroups;
	char **runs; /* every run id, sorted (strcmp) */
	size_t nruns;
};

/* Reads size bytes of text (the answer's body) into r.  Returns 0, or -1
 * with *err ("the server's list of runs: ...", one line) and r empty. */
int commit_runs_parse(struct commit_runs *r, const char *text, size_t size, char **err);

/* Whether a and b hold the same runs. */
int commit_runs_same(const struct commit_runs *a, const struct commit_runs *b);

void commit_runs_release(struct commit_runs *r);

#endif
