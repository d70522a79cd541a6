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

#define RUN_COLUMNS "r.id, r.run_id, r.branch, r.sha, r.model, r.platform, r.commit_time, r.pr, r.base_branch, a.ancestors"
#define RUN_FROM " FROM runs r JOIN run_ancestors a ON a.run = r.id"

static void read_run(sqlite3_stmt *s, struct store_run *run)
{
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
	json_t *a = json_loads((const char *)sqlite3_column_text(s, 9), 0, NULL);
	size_t n = json_array_size(a);
	run->ancestors = xcalloc(n + 1, sizeof *run->ancestors);
	for (size_t i = 0; i < n; i++)
		if (json_is_string(json_array_get(a, i)))
			run->ancestors[run->nancestors++] = xstrdup(json_string_value(json_array_get(a, i)));
	json_decref(a);
}

/* The query of each run lookup: ?1 the project, ?2... its texts, then pr. */
static const char *const run_queries[] = {
	[RUNQ_COMMIT] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 ORDER BY r.id DESC LIMIT 1",
	[RUNQ_COMMIT_LIKE] = "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND r.model = ?3"
			     " AND r.platform = ?4 ORDER BY r.id DESC LIMIT 1",
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
	struct conn *cn = sq_acquire(db, err);
	if (!cn)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = sq_prepare(cn, q == RUNQ_COMMIT && pr > 0 ? RUNQ_COMMIT_PR_SQL : run_queries[q], err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		const char *texts[] = {a, b, c};
		int ntexts = q == RUNQ_COMMIT_LIKE || q == RUNQ_BRANCH_HEAD ? 3 : 1;
		for (int i = 0; i < ntexts; i++)
			sq_bind_text(s, i + 2, texts[i]);
		if (q == RUNQ_COMMIT && pr > 0)
			sqlite3_bind_int64(s, 3, pr);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW) {
			read_run(s, run);
			rc = 1;
		} else if (step == SQLITE_DONE) {
			rc = 0;
		} else {
			sq_error(err, cn->db, "read run");
		}
		sqlite3_finalize(s);
	}
	sq_release(db, cn);
	return rc;
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

int sq_benchmark_names(struct store_db *db, int64_t project, const char *branch, char ***names, size_t *n,
		       char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	/* results' key starts with (benchmark, branch): one probe each. */
	sqlite3_stmt *s = sq_prepare(c,
				     "SELECT b.name FROM benchmarks b WHERE b.project = ?1 AND"
				     " (EXISTS (SELECT 1 FROM results r WHERE r.benchmark = b.id AND r.branch = ?2) OR"
				     " EXISTS (SELECT 1 FROM incoming_results r WHERE r.benchmark = b.id AND r.branch = ?2))"
				     " ORDER BY b.name",
				     err);
	int rc = -1, step;
	size_t alloc = 0;
	*names = NULL;
	*n = 0;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sq_bind_text(s, 2, branch);
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(names, &alloc, *n + 1, sizeof **names);
			(*names)[(*n)++] = sq_text(s, 0);
		}
		rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "list benchmarks");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	if (rc) {
		store_strings_free(*names, *n);
		*names = NULL;
		*n = 0;
	}
	return rc;
}

int sq_series_heads(struct store_db *db, int64_t project, struct store_series_head **heads, size_t *n,
		    char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = sq_prepare(c,
				  "SELECT branch, model, platform, count(*), max(id) FROM runs WHERE project = ?1"
				  " AND pr IS NULL GROUP BY branch, model, platform ORDER BY 5 DESC",
				  err);
	int rc = -1, step;
	size_t alloc = 0;
	*heads = NULL;
	*n = 0;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(heads, &alloc, *n + 1, sizeof **heads);
			(*heads)[(*n)++] = (struct store_series_head){sq_text(s, 0), sq_text(s, 1), sq_text(s, 2),
								      sqlite3_column_int64(s, 3)};
		}
		rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read branches");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	if (rc) {
		store_series_heads_free(*heads, *n);
		*heads = NULL;
		*n = 0;
	}
	return rc;
}

int sq_commit_results(struct store_db *db, int64_t project, const struct store_run *run,
		      struct store_result **results, size_t *n, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	/* SQLite takes the bare columns from the row that max() picked: the
	 * newest run's result of each benchmark. */
	sqlite3_stmt *s = sq_prepare(c,
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
				  " EXISTS (SELECT 1 FROM profiles p WHERE p.run = g.run AND p.benchmark = g.benchmark)"
				  " FROM g JOIN benchmarks b ON b.id = g.benchmark JOIN runs r ON r.id = g.run"
				  " LEFT JOIN result_metrics m ON m.run = g.run AND m.benchmark = g.benchmark AND m.position = 0"
				  " ORDER BY b.name",
				  err);
	int rc = -1;
	size_t alloc = 0;
	*results = NULL;
	*n = 0;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sq_bind_text(s, 2, run->sha);
		sq_bind_text(s, 3, run->model);
		sq_bind_text(s, 4, run->platform);
		int step;
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(results, &alloc, *n + 1, sizeof **results);
			struct store_result *x = &(*results)[(*n)++];
			memset(x, 0, sizeof *x);
			x->id = sq_text(s, 0);
			x->status = (enum bm_status)sqlite3_column_int(s, 1);
			x->speed = sqlite3_column_double(s, 2);
			x->reason = sq_text(s, 3);
			if ((x->has_cycles = sqlite3_column_type(s, 5) != SQLITE_NULL))
				x->cycles = (uint64_t)sqlite3_column_int64(s, 5);
			for (int e = 0; e < BM_EV_COUNT; e++) {
				if (sqlite3_column_type(s, 6 + e) == SQLITE_NULL)
					continue;
				x->events.v[e] = (uint64_t)sqlite3_column_int64(s, 6 + e);
				x->events.present |= 1u << e;
			}
			if (sqlite3_column_type(s, 6 + BM_EV_COUNT) != SQLITE_NULL) {
				x->metric = sq_text(s, 6 + BM_EV_COUNT);
				x->unit = sq_text(s, 7 + BM_EV_COUNT);
				x->value = sqlite3_column_double(s, 8 + BM_EV_COUNT);
			}
			x->run_id = sq_text(s, 9 + BM_EV_COUNT);
			x->has_profile = sqlite3_column_int(s, 10 + BM_EV_COUNT);
		}
		rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read results");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	if (rc) {
		store_results_free(*results, *n);
		*results = NULL;
		*n = 0;
	}
	return rc;
}


/* ---- what the pages list ---- */

int sq_projects(struct store_db *db, struct store_project_row **rows, size_t *n, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = sq_prepare(c,
				     "SELECT p.name, (SELECT count(*) FROM runs WHERE project = p.id),"
				     " (SELECT count(*) FROM benchmarks WHERE project = p.id),"
				     " (SELECT max(created_at) FROM runs WHERE project = p.id)"
				     " FROM projects p ORDER BY p.name",
				     err);
	int rc = -1, step;
	size_t alloc = 0;
	*rows = NULL;
	*n = 0;
	if (s) {
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(rows, &alloc, *n + 1, sizeof **rows);
			(*rows)[(*n)++] = (struct store_project_row){
				.name = sq_text(s, 0),
				.runs = sqlite3_column_int64(s, 1),
				.benchmarks = sqlite3_column_int64(s, 2),
				.has_latest = sqlite3_column_type(s, 3) != SQLITE_NULL,
				.latest_upload = sqlite3_column_int64(s, 3),
			};
		}
		rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read projects");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	if (rc) {
		store_project_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}

int sq_branches(struct store_db *db, int64_t project, struct store_branch_row **rows, size_t *n, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	/* SQLite takes the bare columns from the row max() picked: the first
	 * (by id) of the branch's latest commit time. */
	sqlite3_stmt *s = sq_prepare(c,
				     "SELECT r.branch, count(*), r.sha, r.commit_time, r.run_id, max(r.commit_time)"
				     " FROM runs r WHERE r.project = ?1 AND r.pr IS NULL GROUP BY r.branch"
				     " ORDER BY 6 DESC, r.branch",
				     err);
	int rc = -1, step;
	size_t alloc = 0;
	*rows = NULL;
	*n = 0;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(rows, &alloc, *n + 1, sizeof **rows);
			(*rows)[(*n)++] = (struct store_branch_row){
				.name = sq_text(s, 0),
				.runs = sqlite3_column_int64(s, 1),
				.sha = sq_text(s, 2),
				.timestamp = sqlite3_column_int64(s, 3),
				.run_id = sq_text(s, 4),
			};
		}
		rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read branches");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	if (rc) {
		store_branch_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}

int sq_profile(struct store_db *db, int64_t project, const char *run_id, const char *id, unsigned char **data,
	       size_t *size, size_t *raw, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = sq_prepare(c,
				     "SELECT p.data, p.size FROM profiles p JOIN runs r ON r.id = p.run"
				     " JOIN benchmarks b ON b.id = p.benchmark"
				     " WHERE r.project = ?1 AND r.run_id = ?2 AND b.project = ?1 AND b.name = ?3",
				     err);
	int rc = -1;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sq_bind_text(s, 2, run_id);
		sq_bind_text(s, 3, id);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW) {
			*size = (size_t)sqlite3_column_bytes(s, 0);
			*raw = (size_t)sqlite3_column_int64(s, 1);
			*data = xmalloc(*size ? *size : 1);
			memcpy(*data, sqlite3_column_blob(s, 0), *size);
			rc = 1;
		} else {
			rc = step == SQLITE_DONE ? 0 : sq_error(err, c->db, "read profile");
		}
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}
