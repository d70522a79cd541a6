/* SPDX-License-Identifier: MIT */
/* The SQLite backend: reading runs, results, series and listings.
 * Results are read from both results and incoming_results (see
 * store_sqlite.c). */
#include "config.h"

#include "store_sqlite.h"

#include "error.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define RUN_COLUMNS                                                                                            \
	"r.id, r.run_id, r.branch, r.sha, r.model, r.platform, r.commit_time, r.pr, r.base_branch, a.ancestors," \
	" r.merge_base"
#define RUN_FROM " FROM runs r JOIN run_ancestors a ON a.run = r.id"

static void run_row(sqlite3_stmt *s, void *ctx)
{
	struct store_run *run = ctx;
	memset(run, 0, sizeof *run);
	run->pk = sqlite3_column_int64(s, 0);
	run->run_id = sq_text(s, 1);
	run->branch = sq_text(s, 2);
	run->sha = sq_text(s, 3);
	run->model = sq_text(s, 4);
	run->platform = sq_text(s, 5);
	run->commit_time = sqlite3_column_int64(s, 6);
	run->pr = sqlite3_column_type(s, 7) == SQLITE_NULL ? 0 : (long)sqlite3_column_int64(s, 7);
	run->base_branch = sq_text(s, 8);
	store_run_set_ancestors(run, (const char *)sqlite3_column_text(s, 9));
	run->merge_base = sq_text(s, 10);
}

/* The query of each run lookup: ?1 the project, ?2... its texts, then pr. */
static const char *const run_queries[] = {
	[RUNQ_COMMIT] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 ORDER BY r.id DESC LIMIT 1",
	[RUNQ_COMMIT_LIKE] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND r.model = ?3"
			     " AND r.platform = ?4 AND r.pr IS NULL ORDER BY r.id DESC LIMIT 1",
	[RUNQ_COMMIT_PUSH] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND r.pr IS NULL"
			     " ORDER BY r.id DESC LIMIT 1",
	[RUNQ_BRANCH_HEAD] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.branch = ?2"
			     " AND r.model = ?3 AND r.platform = ?4 AND r.pr IS NULL"
			     " ORDER BY r.commit_time DESC, r.id DESC LIMIT 1",
	[RUNQ_BRANCH_ANY] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.branch = ?2 AND r.pr IS NULL"
			    " ORDER BY r.commit_time DESC, r.id DESC LIMIT 1",
	[RUNQ_RUN_ID] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.run_id = ?2",
};
#define RUNQ_COMMIT_PR_SQL \
	"SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND r.pr = ?3 ORDER BY r.id DESC LIMIT 1"

int sq_run_find(struct store_db *db, enum store_run_query q, int64_t project, const char *a, const char *b,
		const char *c, long pr, struct store_run *run, char **err)
{
	long rows = q == RUNQ_COMMIT && pr > 0
			    ? sq_each(db, "read run", run_row, run, err, RUNQ_COMMIT_PR_SQL, "iti", project, a, (int64_t)pr)
		    : q == RUNQ_COMMIT_LIKE || q == RUNQ_BRANCH_HEAD
			    ? sq_each(db, "read run", run_row, run, err, run_queries[q], "ittt", project, a, b, c)
			    : sq_each(db, "read run", run_row, run, err, run_queries[q], "it", project, a);
	return rows < 0 ? -1 : rows > 0;
}

static void run_list_row(sqlite3_stmt *s, void *ctx)
{
	run_row(s, sq_list_add(ctx));
}

int sq_commit_runs(struct store_db *db, int64_t project, const char *sha, long pr, struct store_run **runs,
		   size_t *n, char **err)
{
	struct sq_list l = {.items = runs, .n = n, .size = sizeof **runs};
	long rows = sq_each(db, "list runs", run_list_row, &l, err,
			    "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND (?3 = 0 OR r.pr = ?3)"
			    " ORDER BY r.id DESC LIMIT " STORE_COMMIT_RUNS_MAX_TEXT,
			    "iti", project, sha, (int64_t)pr);
	if (rows >= 0)
		return 0;
	store_runs_free(*runs, *n);
	*runs = NULL;
	*n = 0;
	return -1;
}

int sq_run_facts(struct store_db *db, int64_t pk, char *text[4], int *pr, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = sq_stmt(c, SQL_RUN_FACTS, err);
	int rc = -1;
	if (s) {
		sqlite3_bind_int64(s, 1, pk);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW) {
			for (int i = 0; i < 4; i++)
				text[i] = sq_text(s, i);
			*pr = sqlite3_column_int(s, 4);
			rc = 1;
		} else {
			rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read run");
		}
		sqlite3_reset(s);
	}
	sq_release(db, c);
	return rc;
}

static void name_row(sqlite3_stmt *s, void *ctx)
{
	*(char **)sq_list_add(ctx) = sq_text(s, 0);
}

int sq_benchmark_names(struct store_db *db, int64_t project, const char *branch, char ***names, size_t *n,
		       char **err)
{
	*names = NULL;
	*n = 0;
	struct sq_list l = {.items = names, .n = n, .size = sizeof **names};
	/* results' key starts with (benchmark, branch): one probe each. */
	if (sq_each(db, "list benchmarks", name_row, &l, err,
		    "SELECT b.name FROM benchmarks b WHERE b.project = ?1 AND"
		    " (EXISTS (SELECT 1 FROM results r WHERE r.benchmark = b.id AND r.branch = ?2) OR"
		    " EXISTS (SELECT 1 FROM incoming_results r WHERE r.benchmark = b.id AND r.branch = ?2))"
		    " ORDER BY b.name",
		    "it", project, branch) >= 0)
		return 0;
	store_strings_free(*names, *n);
	*names = NULL;
	*n = 0;
	return -1;
}

static void head_row(sqlite3_stmt *s, void *ctx)
{
	*(struct store_series_head *)sq_list_add(ctx) =
		(struct store_series_head){sq_text(s, 0), sq_text(s, 1), sq_text(s, 2), sqlite3_column_int64(s, 3)};
}

int sq_series_heads(struct store_db *db, int64_t project, struct store_series_head **heads, size_t *n,
		    char **err)
{
	*heads = NULL;
	*n = 0;
	struct sq_list l = {.items = heads, .n = n, .size = sizeof **heads};
	if (sq_each(db, "read branches", head_row, &l, err,
		    "SELECT branch, model, platform, count(*), max(id) FROM runs WHERE project = ?1"
		    " AND pr IS NULL GROUP BY branch, model, platform ORDER BY 5 DESC",
		    "i", project) >= 0)
		return 0;
	store_series_heads_free(*heads, *n);
	*heads = NULL;
	*n = 0;
	return -1;
}

static void result_row(sqlite3_stmt *s, void *ctx)
{
	struct store_result *x = sq_list_add(ctx);
	x->id = sq_text(s, 0);
	x->status = (enum bm_status)sqlite3_column_int(s, 1);
	x->speed = sqlite3_column_double(s, 2);
	x->reason = sq_text(s, 3);
	if ((x->has_cycles = sqlite3_column_type(s, 5) != SQLITE_NULL))
		x->cycles = (uint64_t)sqlite3_column_int64(s, 5);
	for (int e = 0; e < BM_EV_STORED; e++) {
		if (sqlite3_column_type(s, 6 + e) == SQLITE_NULL)
			continue;
		x->events.v[e] = (uint64_t)sqlite3_column_int64(s, 6 + e);
		x->events.present |= 1u << e;
	}
	if (sqlite3_column_type(s, 6 + BM_EV_STORED) != SQLITE_NULL) {
		x->metric = sq_text(s, 6 + BM_EV_STORED);
		x->unit = sq_text(s, 7 + BM_EV_STORED);
		x->value = sqlite3_column_double(s, 8 + BM_EV_STORED);
	}
	x->run_id = sq_text(s, 9 + BM_EV_STORED);
	x->has_profile = sqlite3_column_int(s, 10 + BM_EV_STORED);
	int has[STORE_HEAP_METRICS];
	double v[STORE_HEAP_METRICS];
	for (int k = 0; k < STORE_HEAP_METRICS; k++) {
		has[k] = sqlite3_column_type(s, 11 + BM_EV_STORED + k) != SQLITE_NULL;
		v[k] = sqlite3_column_double(s, 11 + BM_EV_STORED + k);
	}
	store_result_set_heap(x, has, v);
}

int sq_commit_results(struct store_db *db, int64_t project, const struct store_run *run,
		      struct store_result **results, size_t *n, char **err)
{
	*results = NULL;
	*n = 0;
	struct sq_list l = {.items = results, .n = n, .size = sizeof **results};
	/* SQLite takes the bare columns from the row that max() picked: the
	 * newest run's result of each benchmark. */
	if (sq_each(db, "read results", result_row, &l, err,
		    "WITH rs AS (SELECT id FROM runs WHERE project = ?1 AND sha = ?2 AND model = ?3"
		    " AND platform = ?4),"
		    " x AS (SELECT run, benchmark, status, speed, reason, cycles, " EVENT_COLUMNS
		    " FROM results WHERE run IN rs"
		    " UNION ALL SELECT run, benchmark, status, speed, reason, cycles, " EVENT_COLUMNS
		    " FROM incoming_results WHERE run IN rs),"
		    " g AS (SELECT benchmark, status, speed, reason, max(run) AS run, cycles, " EVENT_COLUMNS
		    " FROM x GROUP BY benchmark)"
		    " SELECT b.name, g.status, g.speed, g.reason, g.run, g.cycles, " EVENT_COLUMNS
		    ", m.name, m.unit, m.value, r.run_id,"
		    " EXISTS (SELECT 1 FROM profiles p WHERE p.run = g.run AND p.benchmark = g.benchmark), "
		    STORE_HEAP_COLUMNS
		    " FROM g JOIN benchmarks b ON b.id = g.benchmark JOIN runs r ON r.id = g.run"
		    " LEFT JOIN result_metrics m ON m.run = g.run AND m.benchmark = g.benchmark AND m.position = 0"
		    " ORDER BY b.name",
		    "ittt", project, run->sha, run->model, run->platform) >= 0)
		return 0;
	store_results_free(*results, *n);
	*results = NULL;
	*n = 0;
	return -1;
}


/* ---- what the pages list ---- */

static void project_row(sqlite3_stmt *s, void *ctx)
{
	*(struct store_project_row *)sq_list_add(ctx) = (struct store_project_row){
		.name = sq_text(s, 0),
		.runs = sqlite3_column_int64(s, 1),
		.benchmarks = sqlite3_column_int64(s, 2),
		.has_latest = sqlite3_column_type(s, 3) != SQLITE_NULL,
		.latest_upload = sqlite3_column_int64(s, 3),
	};
}

int sq_projects(struct store_db *db, struct store_project_row **rows, size_t *n, char **err)
{
	*rows = NULL;
	*n = 0;
	struct sq_list l = {.items = rows, .n = n, .size = sizeof **rows};
	if (sq_each(db, "read projects", project_row, &l, err,
		    "SELECT p.name, (SELECT count(*) FROM runs WHERE project = p.id),"
		    " (SELECT count(*) FROM benchmarks WHERE project = p.id),"
		    " (SELECT max(created_at) FROM runs WHERE project = p.id)"
		    " FROM projects p ORDER BY p.name",
		    "") >= 0)
		return 0;
	store_project_rows_free(*rows, *n);
	*rows = NULL;
	*n = 0;
	return -1;
}

static void branch_row(sqlite3_stmt *s, void *ctx)
{
	*(struct store_branch_row *)sq_list_add(ctx) = (struct store_branch_row){
		.name = sq_text(s, 0),
		.runs = sqlite3_column_int64(s, 1),
		.sha = sq_text(s, 2),
		.timestamp = sqlite3_column_int64(s, 3),
		.run_id = sq_text(s, 4),
	};
}

int sq_branches(struct store_db *db, int64_t project, struct store_branch_row **rows, size_t *n, char **err)
{
	*rows = NULL;
	*n = 0;
	struct sq_list l = {.items = rows, .n = n, .size = sizeof **rows};
	/* SQLite takes the bare columns from the row max() picked: the first
	 * (by id) of the branch's latest commit time. */
	if (sq_each(db, "read branches", branch_row, &l, err,
		    "SELECT r.branch, count(*), r.sha, r.commit_time, r.run_id, max(r.commit_time)"
		    " FROM runs r WHERE r.project = ?1 AND r.pr IS NULL GROUP BY r.branch"
		    " ORDER BY 6 DESC, r.branch",
		    "i", project) >= 0)
		return 0;
	store_branch_rows_free(*rows, *n);
	*rows = NULL;
	*n = 0;
	return -1;
}

struct profile_answer {
	unsigned char **data;
	size_t *size, *raw;
};

static void profile_row(sqlite3_stmt *s, void *ctx)
{
	struct profile_answer *a = ctx;
	*a->size = (size_t)sqlite3_column_bytes(s, 0);
	*a->raw = (size_t)sqlite3_column_int64(s, 1);
	*a->data = xmalloc(*a->size ? *a->size : 1);
	memcpy(*a->data, sqlite3_column_blob(s, 0), *a->size);
}

int sq_profile(struct store_db *db, int64_t project, const char *run_id, const char *id, unsigned char **data,
	       size_t *size, size_t *raw, char **err)
{
	struct profile_answer a = {data, size, raw};
	long rows = sq_each(db, "read profile", profile_row, &a, err,
			    "SELECT p.data, p.size FROM profiles p JOIN runs r ON r.id = p.run"
			    " JOIN benchmarks b ON b.id = p.benchmark"
			    " WHERE r.project = ?1 AND r.run_id = ?2 AND b.project = ?1 AND b.name = ?3",
			    "itt", project, run_id, id);
	return rows < 0 ? -1 : rows > 0;
}
