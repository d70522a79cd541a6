/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend: writing runs.  A batch of uploads is one
 * transaction, each run in a savepoint.  A run's results, metrics and
 * profiles are gathered and sent as one multi-row INSERT per table when
 * the run ends (or a table's rows reach a bound): one round trip for a
 * hundred results instead of a hundred.
 *
 * Several servers may write at once.  A run_id is stored once: the
 * INSERT waits for another transaction inserting the same run_id, then
 * does nothing (that upload is answered "already there").  A benchmark
 * made by two at once is made once the same way. */
#include "config.h"

#include "store_pg.h"

#include "error.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static int flush_all(struct store_tx *tx, char **err)
{
	return pg_batch_flush(tx->c, &tx->results, err) || pg_batch_flush(tx->c, &tx->metrics, err) ||
			       pg_batch_flush(tx->c, &tx->profiles, err)
		       ? -1
		       : 0;
}

struct store_tx *pg_tx_begin(struct store_db *db, char **err)
{
	struct pg_conn *c = pg_acquire(db, err);
	if (!c)
		return NULL;
	if (pg_exec(c, "BEGIN", "begin", err)) {
		pg_release(db, c);
		return NULL;
	}
	struct store_tx *tx = xcalloc(1, sizeof *tx);
	tx->db = db;
	tx->c = c;
	pg_batch_init(&tx->results, "results (run, benchmark, branch, commit_time, status, reason, speed, cycles,"
				    " time_s, " PG_EVENT_COLUMNS ")", 9 + BM_EV_STORED);
	pg_batch_init(&tx->metrics, "result_metrics (run, benchmark, name, unit, value, position)", 6);
	pg_batch_init(&tx->profiles, "profiles (run, benchmark, data, size)", 4);
	return tx;
}

/* A COMMIT of a transaction that failed earlier is a ROLLBACK, and
 * PostgreSQL answers it as a success: "ROLLBACK" is only in its tag. */
static int pg_commit(struct pg_conn *c, char **err)
{
	if (PQtransactionStatus(c->pg) == PQTRANS_INERROR)
		return bm_error(err, "database: commit: the transaction had failed: nothing of it was stored");
	PGresult *r = pg_query(c, "COMMIT", 0, NULL, NULL, "commit", err);
	if (!r)
		return -1;
	int committed = !strcmp(PQcmdStatus(r), "COMMIT");
	PQclear(r);
	return committed ? 0 : bm_error(err, "database: commit: the transaction was rolled back: nothing of it was stored");
}

int pg_tx_end(struct store_tx *tx, int commit, char **err)
{
	int rc = 0;
	if (commit)
		rc = flush_all(tx, err) || pg_commit(tx->c, err) ? -1 : 0;
	/* pg_release rolls back what was not committed. */
	pg_release(tx->db, tx->c);
	pg_batch_free(&tx->results);
	pg_batch_free(&tx->metrics);
	pg_batch_free(&tx->profiles);
	pg_batch_free(&tx->copy);
	free(tx->copy_into);
	free(tx);
	return rc;
}

int pg_savepoint(struct store_tx *tx, char **err)
{
	return pg_exec(tx->c, "SAVEPOINT run", "savepoint", err);
}

int pg_savepoint_end(struct store_tx *tx, int ok, char **err)
{
	int rc = 0;
	if (ok && flush_all(tx, err)) {
		rc = -1;
		ok = 0;
	}
	if (!ok) {
		pg_batch_clear(&tx->results);
		pg_batch_clear(&tx->metrics);
		pg_batch_clear(&tx->profiles);
		if (pg_exec(tx->c, "ROLLBACK TO SAVEPOINT run", "roll back a run", NULL))
			return STORE_TX_LOST;
	}
	if (pg_exec(tx->c, "RELEASE SAVEPOINT run", "release a run", NULL))
		return STORE_TX_LOST;
	return rc;
}

int pg_run_insert(struct store_tx *tx, int64_t project, const struct store_run_row *r, int64_t *pk, char **err)
{
	char p[24], ct[24], pr[24], at[24];
	const char *v[] = {pg_i64(p, project), r->run_id, r->branch, r->sha, pg_i64(ct, r->commit_time),
			   r->pr ? pg_i64(pr, r->pr) : NULL, r->pr ? r->base_branch : NULL, r->model, r->platform,
			   r->host, pg_i64(at, r->created_at), r->ancestors, r->pr ? r->merge_base : NULL};
	/* The run and its ancestry in one statement: no row back when the
	 * run_id was there. */
	PGresult *res = pg_query(tx->c,
				 "WITH r AS (INSERT INTO runs (project, run_id, branch, sha, commit_time, pr, base_branch,"
				 " model, platform, host, created_at, merge_base)"
				 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13)"
				 " ON CONFLICT (project, run_id) DO NOTHING RETURNING id)"
				 " INSERT INTO run_ancestors SELECT id, $12 FROM r RETURNING run",
				 13, v, NULL, "store run", err);
	if (!res)
		return -1;
	int created = PQntuples(res) > 0;
	if (created)
		*pk = pg_int(res, 0, 0);
	PQclear(res);
	return created;
}

int pg_benchmark_id(struct store_tx *tx, int64_t project, const char *name, int64_t *id, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project), name};
	PGresult *r = pg_query(tx->c,
			       "INSERT INTO benchmarks (project, name) VALUES ($1, $2)"
			       " ON CONFLICT (project, name) DO NOTHING RETURNING id",
			       2, v, NULL, "benchmark id", err);
	if (r && !PQntuples(r)) {
		/* It was there, or another server made it while this one waited:
		 * a statement of its own sees it (one statement's snapshot
		 * would not see what committed while it waited). */
		PQclear(r);
		r = pg_query(tx->c, "SELECT id FROM benchmarks WHERE project = $1 AND name = $2", 2, v, NULL,
			     "benchmark id", err);
	}
	if (!r)
		return -1;
	int found = PQntuples(r) > 0;
	if (found)
		*id = pg_int(r, 0, 0);
	PQclear(r);
	return found ? 0 : bm_error(err, "database: benchmark id: '%s' was not made", name);
}

int pg_result_insert(struct store_tx *tx, int64_t run_pk, const char *branch, int64_t commit_time,
		     const struct store_row *row, char **err)
{
	char run[24], bench[24], buf[32];
	pg_i64(run, run_pk);
	pg_i64(bench, row->benchmark);
	struct pg_batch *p = &tx->results;
	pg_batch_add(p, run, 0);
	pg_batch_add(p, bench, 0);
	pg_batch_add(p, branch, 0);
	pg_batch_add(p, pg_i64(buf, commit_time), 0);
	pg_batch_add(p, pg_i64(buf, row->status), 0);
	pg_batch_add(p, row->reason, 0);
	pg_batch_add(p, row->has_speed ? pg_f64(buf, row->speed) : NULL, 0);
	pg_batch_add(p, row->has_cycles ? pg_i64(buf, (int64_t)row->cycles) : NULL, 0);
	pg_batch_add(p, row->has_time ? pg_f64(buf, row->time_s) : NULL, 0);
	for (int ev = 0; ev < BM_EV_STORED; ev++)
		pg_batch_add(p, events_has(&row->events, ev) ? pg_i64(buf, (int64_t)row->events.v[ev]) : NULL, 0);
	for (size_t i = 0; i < row->nmetrics; i++) {
		pg_batch_add(&tx->metrics, run, 0);
		pg_batch_add(&tx->metrics, bench, 0);
		pg_batch_add(&tx->metrics, row->metrics[i].name, 0);
		pg_batch_add(&tx->metrics, row->metrics[i].unit, 0);
		pg_batch_add(&tx->metrics, pg_f64(buf, row->metrics[i].value), 0);
		pg_batch_add(&tx->metrics, pg_i64(buf, (int64_t)(row->metric_position + i)), 0);
	}
	if (row->profile) {
		pg_batch_add(&tx->profiles, run, 0);
		pg_batch_add(&tx->profiles, bench, 0);
		pg_batch_add(&tx->profiles, (const char *)row->profile, (int)row->profile_size);
		pg_batch_add(&tx->profiles, pg_i64(buf, (int64_t)row->profile_raw), 0);
	}
	if (p->n + (size_t)p->columns > PG_BATCH_MAX_PARAMS || tx->metrics.n > PG_BATCH_MAX_PARAMS ||
	    tx->profiles.n > PG_BATCH_MAX_PARAMS)
		return flush_all(tx, err);
	return 0;
}
