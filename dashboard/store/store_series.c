/* SPDX-License-Identifier: MIT */
/* The store: a benchmark's history and a branch's series.  What a
 * history shows of each run is cached (a run never changes once stored),
 * pull requests' runs are left out and each commit keeps its newest
 * run's point. */
#include "config.h"

#include "store_internal.h"

#include "error.h"
#include "hash.h"
#include "idmap.h"
#include "strpool.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- series ---- */

/* The column of a metric, from a fixed list: never text from a request.
 * Both backends name their columns so. */
static const char *metric_column(const char *metric)
{
	static const char *const columns[][2] = {
		{"speed", "speed"},   {"cycles", "cycles"},   {"time_s", "time_s"},
		{"Ir", "ev_Ir"},      {"Dr", "ev_Dr"},         {"Dw", "ev_Dw"},
		{"I1mr", "ev_I1mr"},  {"D1mr", "ev_D1mr"},     {"D1mw", "ev_D1mw"},
		{"ILmr", "ev_ILmr"},  {"DLmr", "ev_DLmr"},     {"DLmw", "ev_DLmw"},
		{"Bc", "ev_Bc"},      {"Bcm", "ev_Bcm"},       {"Bi", "ev_Bi"},
		{"Bim", "ev_Bim"},    {"sysCount", "ev_sysCount"}, {"sysTime", "ev_sysTime"},
		{"sysCpuTime", "ev_sysCpuTime"},
	};
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (!strcmp(metric, columns[i][0]))
			return columns[i][1];
	return NULL;
}

/* The bm engine's heap count called metric, kept as a result's own
 * metric (store_backend.h: STORE_HEAP_POSITION): its name in the table,
 * never text from a request, or NULL when metric is not one. */
static const char *heap_metric(const char *metric)
{
	for (size_t i = 0; i < STORE_HEAP_METRICS; i++)
		if (!strcmp(metric, store_heap_metrics[i].name))
			return store_heap_metrics[i].name;
	return NULL;
}

int store_metric_known(const char *metric)
{
	return metric_column(metric) != NULL || heap_metric(metric) != NULL;
}

/* A point's four strings share one allocation, which starts at sha. */
static void point_release(struct store_point *p)
{
	free(p->sha);
}

void store_points_free(struct store_point *points, size_t n)
{
	for (size_t i = 0; i < n; i++)
		point_release(&points[i]);
	free(points);
}

void store_point_set_texts(struct store_point *p, const char *const text[4])
{
	size_t len[4], total = 0;
	for (int i = 0; i < 4; i++) {
		len[i] = text[i] ? strlen(text[i]) : 0;
		total += len[i] + 1;
	}
	char *at = xmalloc(total);
	char **field[4] = {&p->sha, &p->run_id, &p->model, &p->platform};
	for (int i = 0; i < 4; i++) {
		memcpy(at, text[i] ? text[i] : "", len[i]);
		at[len[i]] = '\0';
		*field[i] = at;
		at += len[i] + 1;
	}
}

/* Keeps one point per commit, its newest run's, in place; the order of
 * what stays is kept.  (A commit's runs normally share one commit time
 * and sit side by side; the hash table finds them wherever they are.) */
static void points_one_per_commit(struct store_point *points, size_t *n)
{
	/* Open addressing over point indexes, keyed by SHA, at most half full.
	 * group[i]: the first point of i's commit; newest[g]: that commit's
	 * newest point, for each first point g. */
	const size_t none = (size_t)-1;
	size_t size = 16;
	while (size < 2 * *n)
		size *= 2;
	size_t *slot = xmalloc(size * sizeof *slot), *group = xcalloc(*n + 1, sizeof *group),
	       *newest = xcalloc(*n + 1, sizeof *newest);
	for (size_t i = 0; i < size; i++)
		slot[i] = none;
	for (size_t i = 0; i < *n; i++) {
		size_t at = (size_t)hash_bytes(points[i].sha, strlen(points[i].sha)) & (size - 1);
		while (slot[at] != none && strcmp(points[slot[at]].sha, points[i].sha))
			at = (at + 1) & (size - 1);
		if (slot[at] == none)
			slot[at] = newest[i] = i;
		group[i] = slot[at];
		if (points[i].run_pk > points[newest[group[i]]].run_pk)
			newest[group[i]] = i;
	}
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		if (newest[group[i]] == i)
			points[out++] = points[i];
		else
			point_release(&points[i]);
	}
	*n = out;
	free(slot);
	free(group);
	free(newest);
}

/* Gives point p its run's texts from the cache: 1 (p filled), 2 (a
 * pull-request run: not part of a history), 0 (not cached).  The caller
 * holds the cache's lock. */
static int run_cache_fill(struct run_cache *rc, struct store_point *p)
{
	uint32_t at;
	if (!idmap_lookup(rc->index, (uint64_t)p->run_pk, 0, &at))
		return 0;
	const struct run_entry *e = &rc->entries[at];
	if (e->pr)
		return 2;
	const char *text[4];
	for (int i = 0; i < 4; i++)
		text[i] = strpool_get(rc->texts, e->text[i]);
	store_point_set_texts(p, text);
	return 1;
}

static void run_cache_add(struct run_cache *rc, int64_t pk, char *const text[4], int pr)
{
	pthread_rwlock_wrlock(&rc->lock);
	uint32_t at;
	if (!idmap_lookup(rc->index, (uint64_t)pk, 0, &at)) {
		if (rc->n >= RUN_CACHE_MAX) {
			idmap_free(rc->index);
			strpool_free(rc->texts);
			rc->index = idmap_new();
			rc->texts = strpool_new();
			rc->n = 0;
		}
		xgrow(&rc->entries, &rc->alloc, rc->n + 1, sizeof *rc->entries);
		struct run_entry *e = &rc->entries[rc->n];
		for (int i = 0; i < 4; i++)
			e->text[i] = strpool_intern(rc->texts, text[i] ? text[i] : "", text[i] ? strlen(text[i]) : 0);
		e->pr = pr;
		idmap_insert(rc->index, (uint64_t)pk, 0, (uint32_t)rc->n++);
	}
	pthread_rwlock_unlock(&rc->lock);
}

/* Reads run pk into the cache from the database (a run that is not there
 * any more is left out). */
static int run_cache_load(struct store *st, int64_t pk, char **err)
{
	char *text[4] = {0};
	int pr = 0;
	int rc = st->be->run_facts(st->db, pk, text, &pr, err);
	if (rc == 1)
		run_cache_add(&st->runs, pk, text, pr);
	for (int i = 0; i < 4; i++)
		free(text[i]);
	return rc < 0 ? -1 : rc;
}

/* Gives the points their runs' texts, from the cache, loading what it
 * lacks, and leaves out the points of pull requests' runs (at most twice:
 * a run loaded can be emptied out again by a full cache). */
static int points_fill_runs(struct store *st, struct store_point *points, size_t *n, char **err)
{
	size_t out = 0;
	int rc = 0;
	for (size_t i = 0; !rc && i < *n; i++) {
		struct store_point *p = &points[i];
		int found = 0;
		for (int tries = 0; !rc && !found && tries < 3; tries++) {
			pthread_rwlock_rdlock(&st->runs.lock);
			found = run_cache_fill(&st->runs, p);
			pthread_rwlock_unlock(&st->runs.lock);
			if (!found && (rc = run_cache_load(st, p->run_pk, err)) == 0)
				break; /* gone */
			rc = rc < 0 ? -1 : 0;
		}
		if (found == 1)
			points[out++] = *p;
	}
	if (rc) {
		for (size_t i = 0; i < out; i++)
			point_release(&points[i]);
		out = 0;
	}
	*n = out;
	return rc;
}

/* Leaves out, in place, the ok points without a value: in an imported
 * metric's series, the commits whose result does not carry it. */
static void points_drop_unmeasured(struct store_point *points, size_t *n)
{
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		if (points[i].status == BM_STATUS_OK && !points[i].has_value)
			point_release(&points[i]);
		else
			points[out++] = points[i];
	}
	*n = out;
}

/* A page of a window's limit: read one result more, and where there was
 * one, leave out the oldest commit time read, whose results may go on
 * beyond the page: the next page (up to that time) has all of them.  A
 * page whose every result has one commit time (more results of one time
 * than the limit) keeps them, and the next goes on before that time. */
static void page_cut(struct store_point *points, size_t *n, size_t limit, int64_t *older)
{
	*older = INT64_MIN;
	if (!limit || *n <= limit)
		return;
	int64_t t = points[0].commit_time;
	size_t first = 1;
	while (first < *n && points[first].commit_time == t)
		first++;
	if (first == *n) {
		first = 1;
		*older = t == INT64_MIN ? INT64_MIN : t - 1;
	} else {
		*older = t;
	}
	memmove(points, points + first, (*n - first) * sizeof *points);
	*n -= first;
}

int store_history(struct store *st, int64_t project, const char *id, const char *branch, const char *metric,
		  const struct store_window *w, struct store_point **points, size_t *n, int64_t *older, char **err)
{
	const char *column = metric_column(metric), *imported = column ? NULL : metric;
	struct store_window read = *w;
	if (read.limit)
		read.limit++;
	if (st->be->history(st->db, project, id, branch, column, imported, &read, points, n, err))
		return -1;
	page_cut(*points, n, w->limit, older);
	if (points_fill_runs(st, *points, n, err)) {
		free(*points);
		*points = NULL;
		*n = 0;
		return -1;
	}
	points_one_per_commit(*points, n);
	if (imported)
		points_drop_unmeasured(*points, n);
	return 0;
}

/* Gathers one benchmark's points at a time for store_branch_series. */
struct series_walk {
	store_series_fn fn;
	void *ctx;
	int drop_unmeasured;
	char *current;
	struct store_point *points;
	size_t n, alloc;
};

static int series_flush(struct series_walk *w)
{
	int rc = 0;
	if (w->current) {
		points_one_per_commit(w->points, &w->n);
		rc = w->fn(w->ctx, w->current, w->points, w->n);
	}
	store_points_free(w->points, w->n);
	w->points = NULL;
	w->n = w->alloc = 0;
	free(w->current);
	w->current = NULL;
	return rc;
}

static int series_row(void *ctx, const char *benchmark, const struct store_point *p)
{
	struct series_walk *w = ctx;
	if (w->drop_unmeasured && !p->has_value) {
		free(p->sha); /* the point's texts, which were handed over */
		return 0;
	}
	if (w->current && strcmp(w->current, benchmark) && series_flush(w)) {
		free(p->sha); /* the point's texts, which were handed over */
		return -1;
	}
	if (!w->current)
		w->current = xstrdup(benchmark);
	xgrow(&w->points, &w->alloc, w->n + 1, sizeof *w->points);
	w->points[w->n++] = *p;
	return 0;
}

int store_branch_series(struct store *st, int64_t project, const char *branch, const char *metric,
			store_series_fn fn, void *ctx, char **err)
{
	const char *column = metric_column(metric), *heap = column ? NULL : heap_metric(metric);
	if (!column && !heap)
		return bm_error(err, "unknown metric '%s'", metric);
	/* A heap count's value beside the result row x0. */
	char *value = column ? xasprintf("x0.%s", column)
			     : xasprintf("(SELECT h.value FROM result_metrics h WHERE h.run = x0.run"
					 " AND h.benchmark = x0.benchmark AND h.name = '%s')",
					 heap);
	/* (A result without heap counts has no point in their series.) */
	struct series_walk w = {.fn = fn, .ctx = ctx, .drop_unmeasured = !column};
	int rc = st->be->branch_series(st->db, project, branch, value, series_row, &w, err);
	free(value);
	if (!rc)
		return series_flush(&w);
	store_points_free(w.points, w.n);
	free(w.current);
	return rc;
}
