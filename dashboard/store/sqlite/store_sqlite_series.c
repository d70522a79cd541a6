/* SPDX-License-Identifier: MIT */
/* The SQLite backend: series.  A benchmark's merged series is one
 * clustered range of results, in order already; the few incoming results
 * are merged into it here. */
#include "config.h"

#include "store_sqlite.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A point's value in a history of an imported metric (named by ?4): by
 * key, beside the result row x. */
#define IMPORTED_VALUE                                                                                       \
	"(SELECT m.value FROM result_metrics m WHERE m.run = x.run AND m.benchmark = x.benchmark AND m.name = ?4)"

/* One benchmark's results on a branch in window w from table (results or
 * incoming_results) into *points, in series order.  value is the SQL of
 * a point's value: a column of x, or IMPORTED_VALUE with imported naming
 * the metric (NULL otherwise).  Read newest first, from the end of the
 * series' clustered range, so that a window of the newest costs its own
 * size. */
static int history_part(struct conn *c, const char *table, const char *value, const char *imported,
			int64_t project, const char *id, const char *branch, const struct store_window *w,
			struct store_point **points, size_t *n, char **err)
{
	*points = NULL;
	*n = 0;
	char *sql = xasprintf("SELECT x.commit_time, x.status, %s, x.run FROM %s x"
			      " WHERE x.benchmark = (SELECT id FROM benchmarks WHERE project = ?1 AND name = ?2)"
			      " AND x.branch = ?3 AND x.commit_time BETWEEN ?5 AND ?6"
			      " ORDER BY x.commit_time DESC, x.run DESC LIMIT ?7",
			      value, table);
	sqlite3_stmt *s = sq_prepare(c, sql, err);
	free(sql);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, project);
	sq_bind_text(s, 2, id);
	sq_bind_text(s, 3, branch);
	if (imported)
		sq_bind_text(s, 4, imported);
	sqlite3_bind_int64(s, 5, w->from);
	sqlite3_bind_int64(s, 6, w->to);
	sqlite3_bind_int64(s, 7, w->limit ? (sqlite3_int64)w->limit : -1);
	size_t alloc = 0;
	int step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		xgrow(points, &alloc, *n + 1, sizeof **points);
		struct store_point *p = &(*points)[(*n)++];
		memset(p, 0, sizeof *p);
		p->commit_time = sqlite3_column_int64(s, 0);
		p->status = (enum bm_status)sqlite3_column_int(s, 1);
		p->has_value = sqlite3_column_type(s, 2) != SQLITE_NULL;
		p->value = sqlite3_column_double(s, 2);
		p->run_pk = sqlite3_column_int64(s, 3);
	}
	int rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read history");
	sqlite3_finalize(s);
	if (rc) {
		free(*points);
		*points = NULL;
		*n = 0;
	}
	for (size_t i = 0; i < *n / 2; i++) {
		struct store_point t = (*points)[i];
		(*points)[i] = (*points)[*n - 1 - i];
		(*points)[*n - 1 - i] = t;
	}
	return rc;
}

/* Series order: commit time, then upload order. */
static int point_before(const struct store_point *a, const struct store_point *b)
{
	return a->commit_time != b->commit_time ? a->commit_time < b->commit_time : a->run_pk < b->run_pk;
}

int sq_history(struct store_db *db, int64_t project, const char *id, const char *branch, const char *column,
	       const char *imported, const struct store_window *w, struct store_point **points, size_t *n, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	char *value = column ? xasprintf("x.%s", column) : xstrdup(IMPORTED_VALUE);
	/* Both reads share one snapshot, so that a merge committed between
	 * them loses nothing. */
	struct store_point *merged = NULL, *incoming = NULL;
	size_t nmerged = 0, nincoming = 0;
	int rc = sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? 0 : sq_error(err, c->db, "begin");
	if (!rc)
		rc = history_part(c, "results", value, imported, project, id, branch, w, &merged, &nmerged, err);
	if (!rc)
		rc = history_part(c, "incoming_results", value, imported, project, id, branch, w, &incoming,
				  &nincoming, err);
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
	sq_release(db, c);
	free(value);
	if (rc) {
		free(merged);
		free(incoming);
		return -1;
	}
	/* Merged in series order; of a window's limit, the newest. */
	size_t all = nmerged + nincoming, skip = w->limit && all > w->limit ? all - w->limit : 0;
	*n = all - skip;
	*points = xcalloc(*n ? *n : 1, sizeof **points);
	for (size_t i = 0, j = 0, k = 0; k < all; k++) {
		struct store_point p = j == nincoming || (i < nmerged && !point_before(&incoming[j], &merged[i]))
					       ? merged[i++]
					       : incoming[j++];
		if (k >= skip)
			(*points)[k - skip] = p;
	}
	free(merged);
	free(incoming);
	return 0;
}

int sq_branch_series(struct store_db *db, int64_t project, const char *branch, const char *value,
		     store_row_fn fn, void *ctx, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	char *sql = xasprintf("SELECT b.name, r.sha, r.run_id, r.model, r.platform, x.commit_time, x.status, x.v, x.run"
			      " FROM (SELECT x0.run, x0.benchmark, x0.commit_time, x0.status, %s AS v FROM results x0"
			      " WHERE x0.benchmark IN (SELECT id FROM benchmarks WHERE project = ?1) AND x0.branch = ?2"
			      " AND x0.status = 0"
			      " UNION ALL SELECT x0.run, x0.benchmark, x0.commit_time, x0.status, %s AS v FROM incoming_results x0"
			      " WHERE x0.benchmark IN (SELECT id FROM benchmarks WHERE project = ?1) AND x0.branch = ?2"
			      " AND x0.status = 0) x"
			      " JOIN runs r ON r.id = x.run JOIN benchmarks b ON b.id = x.benchmark"
			      " WHERE r.pr IS NULL ORDER BY b.name, x.commit_time, x.run",
			      value, value);
	sqlite3_stmt *s = sq_prepare(c, sql, err);
	free(sql);
	int rc = -1;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sq_bind_text(s, 2, branch);
		int step;
		rc = 0;
		while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
			struct store_point p = {
				.commit_time = sqlite3_column_int64(s, 5),
				.status = (enum bm_status)sqlite3_column_int(s, 6),
				.has_value = sqlite3_column_type(s, 7) != SQLITE_NULL,
				.value = sqlite3_column_double(s, 7),
				.run_pk = sqlite3_column_int64(s, 8),
			};
			const char *text[4];
			for (int i = 0; i < 4; i++)
				text[i] = (const char *)sqlite3_column_text(s, 1 + i);
			store_point_set_texts(&p, text);
			rc = fn(ctx, (const char *)sqlite3_column_text(s, 0), &p);
		}
		if (!rc && step != SQLITE_DONE)
			rc = sq_error(err, c->db, "read series");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}
