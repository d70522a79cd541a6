/* SPDX-License-Identifier: MIT */
/* The SQLite backend: writing runs.  A batch of uploads is one IMMEDIATE
 * transaction, each run in a savepoint; results go to incoming_results
 * and move into results, clustered by series, once enough have gathered
 * (sq_after_commit). */
#include "config.h"

#include "store_sqlite.h"

#include "log.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct store_tx {
	struct store_db *db;
	struct conn *c;
};

struct store_tx *sq_tx_begin(struct store_db *db, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return NULL;
	sqlite3_stmt *s = sq_stmt(c, SQL_BEGIN, err);
	if (!s || sq_run(c, s, err)) {
		sq_release(db, c);
		return NULL;
	}
	struct store_tx *tx = xmalloc(sizeof *tx);
	*tx = (struct store_tx){db, c};
	return tx;
}

int sq_tx_end(struct store_tx *tx, int commit, char **err)
{
	struct conn *c = tx->c;
	int rc = -1;
	sqlite3_stmt *s;
	if (commit && (s = sq_stmt(c, SQL_COMMIT, err)))
		rc = sq_run(c, s, err);
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	sq_release(tx->db, c);
	free(tx);
	return commit ? rc : 0;
}

int sq_savepoint(struct store_tx *tx, char **err)
{
	sqlite3_stmt *s = sq_stmt(tx->c, SQL_SAVEPOINT, err);
	return s ? sq_run(tx->c, s, err) : -1;
}

int sq_savepoint_end(struct store_tx *tx, int ok, char **err)
{
	(void)err;
	sqlite3_stmt *s;
	/* An interrupt, a full disk or an I/O error rolls SQLite's whole
	 * transaction back: what the batch wrote before is gone too. */
	if (sqlite3_get_autocommit(tx->c->db))
		return STORE_TX_LOST;
	if (!ok && !((s = sq_stmt(tx->c, SQL_ROLLBACK_TO, NULL)) && !sq_run(tx->c, s, NULL)))
		return STORE_TX_LOST;
	if (!((s = sq_stmt(tx->c, SQL_RELEASE, NULL)) && !sq_run(tx->c, s, NULL)))
		return STORE_TX_LOST;
	return 0;
}

int sq_run_insert(struct store_tx *tx, int64_t project, const struct store_run_row *r, int64_t *pk, char **err)
{
	struct conn *c = tx->c;
	sqlite3_stmt *s = sq_stmt(c, SQL_RUN_EXISTS, err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, project);
	sq_bind_text(s, 2, r->run_id);
	int step = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (step == SQLITE_ROW)
		return 0;
	if (step != SQLITE_DONE)
		return sq_error(err, c->db, "read run");
	if (!(s = sq_stmt(c, SQL_RUN_INSERT, err)))
		return -1;
	sqlite3_bind_int64(s, 1, project);
	sq_bind_text(s, 2, r->run_id);
	sq_bind_text(s, 3, r->branch);
	sq_bind_text(s, 4, r->sha);
	sqlite3_bind_int64(s, 5, r->commit_time);
	if (r->pr) {
		sqlite3_bind_int64(s, 6, r->pr);
		sq_bind_text(s, 7, r->base_branch);
		sq_bind_text(s, 12, r->merge_base);
	}
	sq_bind_text(s, 8, r->model);
	sq_bind_text(s, 9, r->platform);
	sq_bind_text(s, 10, r->host);
	sqlite3_bind_int64(s, 11, r->created_at);
	if (sq_run(c, s, err))
		return -1;
	*pk = sqlite3_last_insert_rowid(c->db);
	if (!(s = sq_stmt(c, SQL_ANCESTORS_INSERT, err)))
		return -1;
	sqlite3_bind_int64(s, 1, *pk);
	sq_bind_text(s, 2, r->ancestors);
	return sq_run(c, s, err) ? -1 : 1;
}

int sq_benchmark_id(struct store_tx *tx, int64_t project, const char *name, int64_t *id, char **err)
{
	struct conn *c = tx->c;
	sqlite3_stmt *s = sq_stmt(c, SQL_BENCHMARK_INSERT, err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, project);
	sq_bind_text(s, 2, name);
	if (sq_run(c, s, err))
		return -1;
	if (sqlite3_changes(c->db) > 0) {
		*id = sqlite3_last_insert_rowid(c->db);
		return 0;
	}
	if (!(s = sq_stmt(c, SQL_BENCHMARK_ID, err)))
		return -1;
	sqlite3_bind_int64(s, 1, project);
	sq_bind_text(s, 2, name);
	int rc = sqlite3_step(s);
	*id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_ROW ? 0 : sq_error(err, c->db, "benchmark id");
}

/* The metrics of an imported benchmark (or a simulated one's heap
 * counts), one row each. */
static int insert_metrics(struct conn *c, int64_t run_pk, const struct store_row *row, char **err)
{
	for (size_t i = 0; i < row->nmetrics; i++) {
		sqlite3_stmt *s = sq_stmt(c, SQL_METRIC_INSERT, err);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, run_pk);
		sqlite3_bind_int64(s, 2, row->benchmark);
		sq_bind_text(s, 3, row->metrics[i].name);
		sq_bind_text(s, 4, row->metrics[i].unit);
		sqlite3_bind_double(s, 5, row->metrics[i].value);
		sqlite3_bind_int64(s, 6, (sqlite3_int64)(row->metric_position + i));
		if (sq_run(c, s, err))
			return -1;
	}
	return 0;
}

int sq_result_insert(struct store_tx *tx, int64_t run_pk, const char *branch, int64_t commit_time,
		     const struct store_row *row, char **err)
{
	struct conn *c = tx->c;
	sqlite3_stmt *s = sq_stmt(c, SQL_RESULT_INSERT, err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, run_pk);
	sqlite3_bind_int64(s, 2, row->benchmark);
	sq_bind_text(s, 3, branch);
	sqlite3_bind_int64(s, 4, commit_time);
	sqlite3_bind_int(s, 5, (int)row->status);
	sq_bind_text(s, 6, row->reason);
	if (row->has_speed)
		sqlite3_bind_double(s, 7, row->speed);
	if (row->has_cycles)
		sqlite3_bind_int64(s, 8, (sqlite3_int64)row->cycles);
	if (row->has_time)
		sqlite3_bind_double(s, 9, row->time_s);
	for (int ev = 0; ev < BM_EV_STORED; ev++)
		if (events_has(&row->events, ev))
			sqlite3_bind_int64(s, 10 + ev, (sqlite3_int64)row->events.v[ev]);
	if (sq_run(c, s, err) || insert_metrics(c, run_pk, row, err))
		return -1;
	if (!row->profile)
		return 0;
	if (!(s = sq_stmt(c, SQL_PROFILE_INSERT, err)))
		return -1;
	sqlite3_bind_int64(s, 1, run_pk);
	sqlite3_bind_int64(s, 2, row->benchmark);
	sqlite3_bind_blob(s, 3, row->profile, (int)row->profile_size, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)row->profile_raw);
	return sq_run(c, s, err);
}

/* Moves every incoming result into results, in one transaction, in
 * series order.  A failure leaves them incoming (readers see them there)
 * for the next merge to take. */
static int merge_incoming(struct store_db *db, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	static const enum sql steps[] = {SQL_BEGIN, SQL_MERGE_INSERT, SQL_MERGE_DELETE, SQL_COMMIT};
	int rc = 0;
	for (size_t i = 0; !rc && i < sizeof steps / sizeof steps[0]; i++) {
		sqlite3_stmt *s = sq_stmt(c, steps[i], err);
		rc = s ? sq_run(c, s, err) : -1;
	}
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	else if (!rc)
		db->incoming = 0;
	sq_release(db, c);
	return rc;
}

void sq_after_commit(struct store_db *db, size_t rows)
{
	db->incoming += rows;
	char *err = NULL;
	if (db->incoming > 0 && db->incoming >= db->merge_rows && merge_incoming(db, &err)) {
		/* The uploads are stored; their results wait for the next merge. */
		log_warn("cannot merge incoming results (they stay incoming): %s", err);
		free(err);
	}
}
