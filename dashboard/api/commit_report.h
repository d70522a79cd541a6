/* SPDX-License-Identifier: MIT */
/* One commit's run compared with its baseline, with the acknowledgements
 * that apply to it: what the commit report, the projects summary and
 * acknowledging a regression all read, built in one place.
 *
 * An acknowledgement covers its benchmark while the benchmark is no
 * slower than when it was acknowledged: a regression that grows after
 * someone said "expected" fails the check again.  The newest one of a
 * benchmark is the one that counts. */
#ifndef BM_COMMIT_REPORT_H
#define BM_COMMIT_REPORT_H

#include "baseline.h"
#include "compare.h"
#include "store.h"

struct commit_report {
	struct store_run head;
	struct baseline base;
	struct store_result *hres, *bres; /* sorted by id */
	size_t nh, nb;
	struct store_ack *acks; /* those of the head's scope, newest first */
	size_t nacks;
	struct comparison cmp;  /* with every covered regression acknowledged */
	struct result *h, *b;   /* what cmp's rows borrow from */
	int gated;              /* holds one of the builds at once */
};

/* Compares head (r takes it over) with its baseline at threshold t; waits
 * while as many others are being built as the server allows at once
 * (until their release).  Returns 0, or -1 with *err (r is then released). */
int commit_report_build(struct commit_report *r, struct store *st, int64_t project, struct store_run *head,
			enum baseline_rule rule, double t, char **err);
void commit_report_release(struct commit_report *r);

/* The acknowledgement that counts for benchmark id, or NULL. */
const struct store_ack *commit_report_ack(const struct commit_report *r, const char *id);

/* Whether a covers a benchmark whose impact is now impact. */
int ack_covers(const struct store_ack *a, double impact);

#endif
