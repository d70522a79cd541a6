/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend: reading runs, results, series and listings.
 * The answers are SQLite's, row for row: texts sort byte by byte (the
 * schema's COLLATE "C"), and where SQLite takes a group's row from the one
 * max() picked, DISTINCT ON picks the same. */
#include "config.h"

#include "store_pg.h"

#include "error.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Runs one statement on a borrowed connection; the result or NULL. */
static PGresult *query(struct store_db *db, const char *sql, int n, const char *const *values, const char *what,
		       char **err)
{
	struct pg_conn *c = pg_acquire(db, err);
	if (!c)
		return NULL;
	PGresult *r = pg_query(c, sql, n, values, NULL, what, err);
	pg_release(db, c);
	return r;
}

#define RUN_COLUMNS                                                                                            \
	"r.id, r.run_id, r.branch, r.sha, r.model, r.platform, r.commit_time, r.pr, r.base_branch, a.ancestors," \
	" r.merge_base"
#define RUN_FROM " FROM runs r JOIN run_ancestors a ON a.run = r.id"

/* Row i of an answer of RUN_COLUMNS. */
static void read_run(const PGresult *r, int i, struct store_run *run)
{
	memset(run, 0, sizeof *run);
	run->pk = pg_int(r, i, 0);
	run->run_id = pg_text(r, i, 1);
	run->branch = pg_text(r, i, 2);
	run->sha = pg_text(r, i, 3);
	run->model = pg_text(r, i, 4);
	run->platform = pg_text(r, i, 5);
	run->commit_time = pg_int(r, i, 6);
	run->pr = PQgetisnull(r, i, 7) ? 0 : (long)pg_int(r, i, 7);
	run->base_branch = pg_text(r, i, 8);
	store_run_set_ancestors(run, PQgetvalue(r, i, 9));
	run->merge_base = pg_text(r, i, 10);
}

static const char *const run_queries[] = {
	[RUNQ_COMMIT] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.sha = $2 ORDER BY r.id DESC LIMIT 1",
	[RUNQ_COMMIT_LIKE] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.sha = $2 AND r.model = $3"
			     " AND r.platform = $4 AND r.pr IS NULL ORDER BY r.id DESC LIMIT 1",
	[RUNQ_COMMIT_PUSH] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.sha = $2 AND r.pr IS NULL"
			     " ORDER BY r.id DESC LIMIT 1",
	[RUNQ_BRANCH_HEAD] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.branch = $2"
			     " AND r.model = $3 AND r.platform = $4 AND r.pr IS NULL"
			     " ORDER BY r.commit_time DESC, r.id DESC LIMIT 1",
	[RUNQ_BRANCH_ANY] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.branch = $2 AND r.pr IS NULL"
			    " ORDER BY r.commit_time DESC, r.id DESC LIMIT 1",
	[RUNQ_RUN_ID] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.run_id = $2",
};
#define RUNQ_COMMIT_PR_SQL \
	"SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.sha = $2 AND r.pr = $3 ORDER BY r.id DESC LIMIT 1"

int pg_run_find(struct store_db *db, enum store_run_query q, int64_t project, const char *a, const char *b,
		const char *c, long pr, struct store_run *run, char **err)
{
	char p[24], number[24];
	const char *v[] = {pg_i64(p, project), a, b, c};
	int n = q == RUNQ_COMMIT_LIKE || q == RUNQ_BRANCH_HEAD ? 4 : 2;
	const char *sql = run_queries[q];
	if (q == RUNQ_COMMIT && pr > 0) {
		sql = RUNQ_COMMIT_PR_SQL;
		v[2] = pg_i64(number, pr);
		n = 3;
	}
	PGresult *r = query(db, sql, n, v, "read run", err);
	if (!r)
		return -1;
	int found = PQntuples(r) > 0;
	if (found)
		read_run(r, 0, run);
	PQclear(r);
	return found;
}

int pg_commit_runs(struct store_db *db, int64_t project, const char *sha, long pr, struct store_run **runs,
		   size_t *n, char **err)
{
	char p[24], number[24];
	const char *v[] = {pg_i64(p, project), sha, pg_i64(number, pr)};
	PGresult *r = query(db,
			    "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = $1 AND r.sha = $2 AND ($3::bigint = 0 OR r.pr = $3::bigint)"
			    " ORDER BY r.id DESC LIMIT " STORE_COMMIT_RUNS_MAX_TEXT,
			    3, v, "list runs", err);
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*runs = xcalloc(*n ? *n : 1, sizeof **runs);
	for (size_t i = 0; i < *n; i++)
		read_run(r, (int)i, &(*runs)[i]);
	PQclear(r);
	return 0;
}

int pg_run_facts(struct store_db *db, int64_t pk, char *text[4], int *pr, char **err)
{
	char id[24];
	const char *v[] = {pg_i64(id, pk)};
	PGresult *r = query(db, "SELECT sha, run_id, model, platform, pr IS NOT NULL FROM runs WHERE id = $1", 1, v,
			    "read run", err);
	if (!r)
		return -1;
	int found = PQntuples(r) > 0;
	if (found) {
		for (int i = 0; i < 4; i++)
			text[i] = pg_text(r, 0, i);
		*pr = !strcmp(PQgetvalue(r, 0, 4), "t");
	}
	PQclear(r);
	return found;
}

/* Column 0 of every row, as new strings. */
static char **column_texts(const PGresult *r, size_t *n)
{
	*n = (size_t)PQntuples(r);
	char **out = xcalloc(*n ? *n : 1, sizeof *out);
	for (size_t i = 0; i < *n; i++)
		out[i] = pg_text(r, (int)i, 0);
	return out;
}

int pg_benchmark_names(struct store_db *db, int64_t project, const char *branch, char ***names, size_t *n,
		       char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project), branch};
	PGresult *r = query(db,
			    "SELECT b.name FROM benchmarks b WHERE b.project = $1 AND"
			    " EXISTS (SELECT 1 FROM results r WHERE r.benchmark = b.id AND r.branch = $2)"
			    " ORDER BY b.name",
			    2, v, "list benchmarks", err);
	*names = NULL;
	*n = 0;
	if (!r)
		return -1;
	*names = column_texts(r, n);
	PQclear(r);
	return 0;
}

int pg_series_heads(struct store_db *db, int64_t project, struct store_series_head **heads, size_t *n,
		    char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project)};
	PGresult *r = query(db,
			    "SELECT branch, model, platform, count(*), max(id) FROM runs WHERE project = $1"
			    " AND pr IS NULL GROUP BY branch, model, platform ORDER BY 5 DESC",
			    1, v, "read branches", err);
	*heads = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*heads = xcalloc(*n ? *n : 1, sizeof **heads);
	for (int i = 0; i < PQntuples(r); i++)
		(*heads)[i] = (struct store_series_head){pg_text(r, i, 0), pg_text(r, i, 1), pg_text(r, i, 2),
							 pg_int(r, i, 3)};
	PQclear(r);
	return 0;
}

int pg_commit_results(struct store_db *db, int64_t project, const struct store_run *run,
		      struct store_result **results, size_t *n, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project), run->sha, run->model, run->platform};
	/* Each benchmark's result of the newest run. */
	PGresult *r = query(db,
			    "WITH rs AS (SELECT id, run_id FROM runs WHERE project = $1 AND sha = $2 AND model = $3"
			    " AND platform = $4),"
			    " g AS (SELECT DISTINCT ON (x.benchmark) x.run, x.benchmark, x.status, x.speed, x.reason, x.cycles, "
			    PG_EVENT_COLUMNS " FROM results x JOIN rs ON rs.id = x.run ORDER BY x.benchmark, x.run DESC)"
			    " SELECT b.name, g.status, g.speed, g.reason, g.run, g.cycles, " PG_EVENT_COLUMNS
			    ", m.name, m.unit, m.value, rs.run_id,"
			    " EXISTS (SELECT 1 FROM profiles p WHERE p.run = g.run AND p.benchmark = g.benchmark), "
			    STORE_HEAP_COLUMNS
			    " FROM g JOIN rs ON rs.id = g.run JOIN benchmarks b ON b.id = g.benchmark"
			    " LEFT JOIN result_metrics m ON m.run = g.run AND m.benchmark = g.benchmark AND m.position = 0"
			    " ORDER BY b.name",
			    4, v, "read results", err);
	*results = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*results = xcalloc(*n ? *n : 1, sizeof **results);
	for (int i = 0; i < PQntuples(r); i++) {
		struct store_result *x = &(*results)[i];
		x->id = pg_text(r, i, 0);
		x->status = (enum bm_status)pg_int(r, i, 1);
		x->speed = PQgetisnull(r, i, 2) ? 0 : pg_double(r, i, 2);
		x->reason = pg_text(r, i, 3);
		if ((x->has_cycles = !PQgetisnull(r, i, 5)))
			x->cycles = (uint64_t)pg_int(r, i, 5);
		for (int e = 0; e < BM_EV_STORED; e++) {
			if (PQgetisnull(r, i, 6 + e))
				continue;
			x->events.v[e] = (uint64_t)pg_int(r, i, 6 + e);
			x->events.present |= 1u << e;
		}
		if (!PQgetisnull(r, i, 6 + BM_EV_STORED)) {
			x->metric = pg_text(r, i, 6 + BM_EV_STORED);
			x->unit = pg_text(r, i, 7 + BM_EV_STORED);
			x->value = pg_double(r, i, 8 + BM_EV_STORED);
		}
		x->run_id = pg_text(r, i, 9 + BM_EV_STORED);
		x->has_profile = !strcmp(PQgetvalue(r, i, 10 + BM_EV_STORED), "t");
		int has[STORE_HEAP_METRICS];
		double heap[STORE_HEAP_METRICS] = {0};
		for (int k = 0; k < STORE_HEAP_METRICS; k++)
			if ((has[k] = !PQgetisnull(r, i, 11 + BM_EV_STORED + k)))
				heap[k] = pg_double(r, i, 11 + BM_EV_STORED + k);
		store_result_set_heap(x, has, heap);
	}
	PQclear(r);
	return 0;
}

/* ---- series ---- */

/* Read newest first, along the primary key, so that a window of the
 * newest costs its own size; given back in series order. */
int pg_history(struct store_db *db, int64_t project, const char *id, const char *branch, const char *column,
	       const char *imported, const struct store_window *w, struct store_point **points, size_t *n, char **err)
{
	char p[24], from[24], to[24], limit[24];
	const char *v[] = {pg_i64(p, project), id, branch, pg_i64(from, w->from), pg_i64(to, w->to),
			   w->limit ? pg_i64(limit, (int64_t)w->limit) : NULL, imported};
	char *value = column ? xasprintf("x.%s", column)
			     : xstrdup("(SELECT m.value FROM result_metrics m WHERE m.run = x.run"
				       " AND m.benchmark = x.benchmark AND m.name = $7)");
	char *sql = xasprintf("SELECT x.commit_time, x.status, %s, x.run FROM results x"
			      " WHERE x.benchmark = (SELECT id FROM benchmarks WHERE project = $1 AND name = $2)"
			      " AND x.branch = $3 AND x.commit_time BETWEEN $4 AND $5"
			      " ORDER BY x.commit_time DESC, x.run DESC LIMIT $6::bigint",
			      value);
	PGresult *r = query(db, sql, imported ? 7 : 6, v, "read history", err);
	free(sql);
	free(value);
	*points = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*points = xcalloc(*n ? *n : 1, sizeof **points);
	for (int i = 0; i < PQntuples(r); i++) {
		struct store_point *pt = &(*points)[*n - 1 - (size_t)i];
		pt->commit_time = pg_int(r, i, 0);
		pt->status = (enum bm_status)pg_int(r, i, 1);
		pt->has_value = !PQgetisnull(r, i, 2);
		pt->value = pt->has_value ? pg_double(r, i, 2) : 0;
		pt->run_pk = pg_int(r, i, 3);
	}
	PQclear(r);
	return 0;
}

int pg_branch_series(struct store_db *db, int64_t project, const char *branch, const char *value,
		     store_row_fn fn, void *ctx, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project), branch};
	char *sql = xasprintf("SELECT b.name, r.sha, r.run_id, r.model, r.platform, x0.commit_time, x0.status, %s, x0.run"
			      " FROM results x0 JOIN runs r ON r.id = x0.run JOIN benchmarks b ON b.id = x0.benchmark"
			      " WHERE b.project = $1 AND x0.branch = $2 AND x0.status = 0 AND r.pr IS NULL"
			      " ORDER BY b.name, x0.commit_time, x0.run",
			      value);
	PGresult *r = query(db, sql, 2, v, "read series", err);
	free(sql);
	if (!r)
		return -1;
	int rc = 0;
	for (int i = 0; !rc && i < PQntuples(r); i++) {
		struct store_point pt = {
			.commit_time = pg_int(r, i, 5),
			.status = (enum bm_status)pg_int(r, i, 6),
			.has_value = !PQgetisnull(r, i, 7),
			.value = PQgetisnull(r, i, 7) ? 0 : pg_double(r, i, 7),
			.run_pk = pg_int(r, i, 8),
		};
		const char *text[4];
		for (int k = 0; k < 4; k++)
			text[k] = PQgetvalue(r, i, 1 + k);
		store_point_set_texts(&pt, text);
		rc = fn(ctx, PQgetvalue(r, i, 0), &pt);
	}
	PQclear(r);
	return rc;
}

/* ---- what the pages list ---- */

int pg_projects(struct store_db *db, struct store_project_row **rows, size_t *n, char **err)
{
	PGresult *r = query(db,
			    "SELECT p.name, (SELECT count(*) FROM runs WHERE project = p.id),"
			    " (SELECT count(*) FROM benchmarks WHERE project = p.id),"
			    " (SELECT max(created_at) FROM runs WHERE project = p.id)"
			    " FROM projects p ORDER BY p.name",
			    0, NULL, "read projects", err);
	*rows = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*rows = xcalloc(*n ? *n : 1, sizeof **rows);
	for (int i = 0; i < PQntuples(r); i++)
		(*rows)[i] = (struct store_project_row){
			.name = pg_text(r, i, 0),
			.runs = pg_int(r, i, 1),
			.benchmarks = pg_int(r, i, 2),
			.has_latest = !PQgetisnull(r, i, 3),
			.latest_upload = PQgetisnull(r, i, 3) ? 0 : pg_int(r, i, 3),
		};
	PQclear(r);
	return 0;
}

int pg_branches(struct store_db *db, int64_t project, struct store_branch_row **rows, size_t *n, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project)};
	/* Per branch: its runs, and the first run (by id) of its latest
	 * commit time, as SQLite's max() picks it. */
	PGresult *r = query(db,
			    "SELECT l.branch, c.runs, l.sha, l.commit_time, l.run_id FROM"
			    " (SELECT DISTINCT ON (branch) branch, sha, commit_time, run_id FROM runs"
			    "  WHERE project = $1 AND pr IS NULL ORDER BY branch, commit_time DESC, id) l"
			    " JOIN (SELECT branch, count(*) AS runs FROM runs WHERE project = $1 AND pr IS NULL"
			    "  GROUP BY branch) c ON c.branch = l.branch"
			    " ORDER BY l.commit_time DESC, l.branch",
			    1, v, "read branches", err);
	*rows = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*rows = xcalloc(*n ? *n : 1, sizeof **rows);
	for (int i = 0; i < PQntuples(r); i++)
		(*rows)[i] = (struct store_branch_row){
			.name = pg_text(r, i, 0),
			.runs = pg_int(r, i, 1),
			.sha = pg_text(r, i, 2),
			.timestamp = pg_int(r, i, 3),
			.run_id = pg_text(r, i, 4),
		};
	PQclear(r);
	return 0;
}

int pg_profile(struct store_db *db, int64_t project, const char *run_id, const char *id, unsigned char **data,
	       size_t *size, size_t *raw, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project), run_id, id};
	PGresult *r = query(db,
			    "SELECT p.data, p.size FROM profiles p JOIN runs r ON r.id = p.run"
			    " JOIN benchmarks b ON b.id = p.benchmark"
			    " WHERE r.project = $1 AND r.run_id = $2 AND b.project = $1 AND b.name = $3",
			    3, v, "read profile", err);
	if (!r)
		return -1;
	int found = PQntuples(r) > 0;
	if (found) {
		size_t len;
		unsigned char *bytes = PQunescapeBytea((const unsigned char *)PQgetvalue(r, 0, 0), &len);
		if (!bytes) {
			PQclear(r);
			return bm_error(err, "database: read profile: out of memory");
		}
		*data = xmalloc(len ? len : 1);
		memcpy(*data, bytes, len);
		PQfreemem(bytes);
		*size = len;
		*raw = (size_t)pg_int(r, 0, 1);
	}
	PQclear(r);
	return found;
}
