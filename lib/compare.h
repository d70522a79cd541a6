/* SPDX-License-Identifier: MIT */
/* Comparing a commit's results with its baseline's (SPEC 4.1): impact per
 * benchmark, the thresholded commit impact and the verdict.  The server
 * and `bm-check --base --head` both call this, so both answer the same.
 *
 *   impact        = (speed - base_speed) / base_speed   (negative: slower)
 *   commit impact = min(impact)  when any impact < -t   (worst regression)
 *                 = max(impact)  else when any > t      (best improvement)
 *                 = (prod(1 + impact_i))^(1/n) - 1      otherwise
 *
 * A benchmark may carry a threshold of its own (bm-check --config); then
 * "any impact < -t" reads "any impact_i < -t_i", and the commit impact is
 * the worst of those regressions (the best of the improvements beyond
 * their thresholds).  With one threshold for all this is the rule above.
 *
 * A regression can be acknowledged (SPEC 4.1: a note on the server, who
 * and why).  When every benchmark beyond its threshold for the worse is
 * acknowledged, the verdict is "acknowledged" instead of "regression": the
 * check passes and says so.  The commit impact stays what it is.
 */
#ifndef BM_COMPARE_H
#define BM_COMPARE_H

#include "report.h"

#include <stddef.h>

enum verdict {
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
	VERDICT_NEUTRAL,
	VERDICT_NO_BASELINE,
	VERDICT_FAILED,
	VERDICT_ACKNOWLEDGED,
	VERDICT_COUNT
};

/* "regression", "improvement", "neutral", "no-baseline", "failed" or
 * "acknowledged". */
const char *verdict_name(enum verdict v);

/* One benchmark's result as the comparison needs it (borrowed strings). */
struct result {
	const char *id;
	enum bm_status status;
	double speed; /* meaningful when status is BM_STATUS_OK */
	int has_threshold; /* 1: this benchmark's own threshold (head side only) */
	double threshold;
	int acknowledged; /* 1: its regression is acknowledged (head side only) */
};

/* A benchmark of either side.  in_head is 0 for a benchmark only the
 * baseline has; has_base and has_impact say which numbers are there. */
struct comparison_row {
	const char *id; /* borrowed from the inputs */
	int in_head, has_base, has_impact;
	enum bm_status status; /* the head's; the base's when !in_head */
	double speed, base_speed, impact;
	double threshold; /* the one this benchmark was judged with */
	int acknowledged; /* the head's result's flag */
};

struct comparison {
	struct comparison_row *rows; /* sorted: failed first, then by impact, worst first */
	size_t nrows;
	int has_commit_impact;
	double commit_impact;
	enum verdict verdict;
};

/* The commit impact of n impacts with threshold t; n must be > 0. */
double commit_impact(const double *impacts, size_t n, double threshold);

/* The same with a threshold per impact; *v is set to VERDICT_REGRESSION
 * (some impact_i < -t_i), VERDICT_IMPROVEMENT (else some impact_i > t_i)
 * or VERDICT_NEUTRAL. */
double commit_impact_each(const double *impacts, const double *thresholds, size_t n, enum verdict *v);

/* Compares head with base (base NULL: there is no baseline).  Benchmarks
 * are matched by id; an impact needs both sides "ok" with positive speed.
 * Any failed head benchmark makes the verdict "failed"; no baseline makes
 * it "no-baseline" (never success); a regression whose every benchmark
 * beyond its threshold is acknowledged, "acknowledged". */
void comparison_build(struct comparison *c, const struct result *head, size_t nhead,
		      const struct result *base, size_t nbase, double threshold);
void comparison_release(struct comparison *c);

#endif
