/* SPDX-License-Identifier: MIT */
/* The pull-request check's data: one commit against its baseline, built
 * either from two bm-report/1 files (offline) or from bm-server's commit
 * report answer (online), in one shape for the output, the expectations
 * and the exit code.  The numbers come from lib/compare.c in both cases,
 * so that `bm-check --base --head` answers what the server answers.
 *
 * Ownership: a struct check owns every string it points to;
 * check_release frees them. */
#ifndef BM_CHECK_H
#define BM_CHECK_H

#include "check_config.h"
#include "compare.h"
#include "gate.h"

#include <stddef.h>

/* |impact| below this (or exactly 0) is "unchanged": shown collapsed. */
#define CHECK_UNCHANGED 0.001

/* One benchmark, in the server's order: failed first, then by impact
 * (worst first), then those without an impact. */
struct check_row {
	char *id;
	char *status; /* "ok", "failed", "skipped" or "missing" (only the baseline has it) */
	char *reason; /* why it failed or was skipped, or NULL */
	int has_speed, has_base, has_impact;
	double speed, base_speed, impact; /* impact: in the check's gate metric */
	struct gate_counts counts, base_counts; /* what the speeds came from (zero: unknown) */
	char *unit;                             /* imported: the metric's unit, shown with... */
	int has_value, has_base_value;          /* ...its values instead of derived speeds */
	double value, base_value;
	int has_threshold;                      /* 1: its own, from --config */
	double threshold;                       /* the one it is judged with */
	char *ack_by, *ack_reason;              /* its acknowledgement (online), or NULL */
	int has_ack_impact;                     /* the impact it was acknowledged at */
	double ack_impact;
	int ack_covers;                         /* 1: it covers this impact (the server says) */
};

struct check {
	char *commit;          /* the head's commit SHA, or NULL (a report without one) */
	char *platform;        /* "ARCH-OS-COMPILER" (check_platform_key), or NULL */
	char *arch;            /* the platform's architecture, or NULL */
	char *model;           /* what the numbers are comparable with: the series identity
				* (report_series_identity), or NULL */
	int has_baseline;      /* 0: nothing was compared */
	char *baseline;        /* the baseline's SHA (offline: or its file name), or NULL */
	char *baseline_reason; /* always set: why this baseline, or "no baseline: why" */
	char *report_url;      /* where the server shows it, or NULL */
	double threshold;       /* the default for benchmarks without their own */
	enum gate_metric metric; /* what the impacts are of */
	int has_commit_impact;
	double commit_impact;
	enum verdict verdict;
	struct check_row *rows;
	size_t nrows;
};

/* Compares the report in head_path with the one in base_path as the
 * server does (lib/compare.c), with threshold t.  Two reports of another
 * series (cost model, engine, virtual CPU or simulated caches:
 * series_identity.h) or platform are not compared: an error naming the
 * field and what to rerun.  Returns 0, or -1 with *err ("cannot open
 * 'x.json': ...", "x.json:3:1: ...", "'a.json' and 'b.json' cannot be
 * compared: engine: ..."). */
int check_from_files(struct check *c, const char *base_path, const char *head_path, double t, char **err);

/* Reads bm-server's answer to GET .../commits/SHA/report (size bytes at
 * text).  Returns 0, or -1 with *err naming what is missing or mistyped. */
int check_from_answer(struct check *c, const char *text, size_t size, char **err);

/* Judges c again with gate metric m, default threshold t and the
 * per-benchmark thresholds of cfg (NULL: none): every row's impact, the
 * rows' order, the commit impact and the verdict, with lib/compare.c.  A
 * row whose sides lack what m needs gets no impact. */
void check_judge(struct check *c, enum gate_metric m, double t, const struct check_config *cfg);

/* The verdict and commit impact of the rows for which keep[i] is nonzero
 * (all rows when keep is NULL), as check_judge judged them. */
void check_verdict_of(const struct check *c, const unsigned char *keep, enum verdict *v, int *has_impact,
		      double *impact);

/* Whether a row is "unchanged" (an impact of magnitude below
 * CHECK_UNCHANGED): such rows are collapsed into one line. */
int check_row_unchanged(const struct check_row *r);

/* "ARCH-OS-COMPILER" from a platform's three names (each may be NULL,
 * written as "unknown"), lower-cased, every run of characters other than
 * [a-z0-9._+] written as one '-': "x86_64-debian-12-gcc-12.2.0".  Newly
 * allocated. */
char *check_platform_key(const char *arch, const char *os, const char *compiler);

/* 1 when the check fails (a failed benchmark or a regression beyond the
 * threshold), else 0.  No baseline is not a failure. */
int check_exit_code(const struct check *c);

void check_release(struct check *c);

#endif
