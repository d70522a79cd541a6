/* SPDX-License-Identifier: MIT */
/* Impact, commit impact and verdict: see compare.h. */
#include "config.h"

#include "compare.h"

#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *verdict_name(enum verdict v)
{
	static const char *const names[VERDICT_COUNT] = {"regression", "improvement", "neutral",
							 "no-baseline", "failed", "acknowledged"};
	return names[v];
}

double commit_impact_each(const double *impacts, const double *thresholds, size_t n, enum verdict *v)
{
	double worst = 0, best = 0, log_sum = 0;
	int regressed = 0, improved = 0;
	for (size_t i = 0; i < n; i++) {
		if (impacts[i] < -thresholds[i] && (!regressed++ || impacts[i] < worst))
			worst = impacts[i];
		if (impacts[i] > thresholds[i] && (!improved++ || impacts[i] > best))
			best = impacts[i];
		log_sum += log1p(impacts[i]);
	}
	*v = regressed ? VERDICT_REGRESSION : improved ? VERDICT_IMPROVEMENT : VERDICT_NEUTRAL;
	if (regressed)
		return worst;
	if (improved)
		return best;
	/* The geometric mean in logs: a product of 1,000 factors could
	 * overflow or lose precision. */
	return expm1(log_sum / (double)n);
}

double commit_impact(const double *impacts, size_t n, double t)
{
	double *ts = xcalloc(n + 1, sizeof *ts);
	for (size_t i = 0; i < n; i++)
		ts[i] = t;
	enum verdict v;
	double x = commit_impact_each(impacts, ts, n, &v);
	free(ts);
	return x;
}

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct result *)a)->id, ((const struct result *)b)->id);
}

/* Failed first, then rows with an impact (worst first), then the rest by id. */
static int by_rank(const void *a, const void *b)
{
	const struct comparison_row *x = a, *y = b;
	int fx = x->status == BM_STATUS_FAILED, fy = y->status == BM_STATUS_FAILED;
	if (fx != fy)
		return fy - fx;
	if (x->has_impact != y->has_impact)
		return y->has_impact - x->has_impact;
	if (x->has_impact && x->impact != y->impact)
		return x->impact < y->impact ? -1 : 1;
	return strcmp(x->id, y->id);
}

static const struct result *find(const struct result *sorted, size_t n, const char *id)
{
	struct result key = {.id = id};
	return n ? bsearch(&key, sorted, n, sizeof key, by_id) : NULL;
}

/* Whether every row regressed beyond its threshold is acknowledged. */
static int all_acknowledged(const struct comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct comparison_row *r = &c->rows[i];
		if (r->has_impact && r->impact < -r->threshold && !r->acknowledged)
			return 0;
	}
	return 1;
}

void comparison_build(struct comparison *c, const struct result *head, size_t nhead,
		      const struct result *base, size_t nbase, double threshold)
{
	struct result *sorted = xcalloc(nbase + 1, sizeof *sorted);
	if (base)
		memcpy(sorted, base, nbase * sizeof *base);
	qsort(sorted, base ? nbase : 0, sizeof *sorted, by_id);
	memset(c, 0, sizeof *c);
	c->rows = xcalloc(nhead + nbase + 1, sizeof *c->rows);
	double *impacts = xcalloc(nhead + 1, sizeof *impacts), *thresholds = xcalloc(nhead + 1, sizeof *thresholds);
	size_t nimpacts = 0;
	enum verdict direction = VERDICT_NEUTRAL;
	int failed = 0;
	for (size_t i = 0; i < nhead; i++) {
		const struct result *h = &head[i], *b = base ? find(sorted, nbase, h->id) : NULL;
		struct comparison_row *r = &c->rows[c->nrows++];
		r->id = h->id;
		r->in_head = 1;
		r->status = h->status;
		r->speed = h->speed;
		r->threshold = h->has_threshold ? h->threshold : threshold;
		r->acknowledged = h->acknowledged;
		failed |= h->status == BM_STATUS_FAILED;
		if (b && b->status == BM_STATUS_OK) {
			r->has_base = 1;
			r->base_speed = b->speed;
		}
		if (r->has_base && h->status == BM_STATUS_OK && b->speed > 0 && h->speed > 0) {
			r->has_impact = 1;
			r->impact = (h->speed - b->speed) / b->speed;
			thresholds[nimpacts] = r->threshold;
			impacts[nimpacts++] = r->impact;
		}
	}
	/* Benchmarks the baseline had and this commit lacks. */
	struct result *heads = xcalloc(nhead + 1, sizeof *heads);
	memcpy(heads, head, nhead * sizeof *head);
	qsort(heads, nhead, sizeof *heads, by_id);
	for (size_t i = 0; base && i < nbase; i++) {
		if (find(heads, nhead, sorted[i].id))
			continue;
		struct comparison_row *r = &c->rows[c->nrows++];
		r->id = sorted[i].id;
		r->status = sorted[i].status;
		r->has_base = sorted[i].status == BM_STATUS_OK;
		r->base_speed = sorted[i].speed;
		r->threshold = threshold;
	}
	qsort(c->rows, c->nrows, sizeof *c->rows, by_rank);
	if (nimpacts) {
		c->has_commit_impact = 1;
		c->commit_impact = commit_impact_each(impacts, thresholds, nimpacts, &direction);
	}
	if (direction == VERDICT_REGRESSION && all_acknowledged(c))
		direction = VERDICT_ACKNOWLEDGED;
	if (failed)
		c->verdict = VERDICT_FAILED;
	else if (!base)
		c->verdict = VERDICT_NO_BASELINE;
	else
		c->verdict = direction;
	free(impacts);
	free(thresholds);
	free(heads);
	free(sorted);
}

void comparison_release(struct comparison *c)
{
	free(c->rows);
	memset(c, 0, sizeof *c);
}
