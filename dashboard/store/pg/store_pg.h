/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend's own: its connections and query helpers, shared
 * by its files (store_pg.c: connections, schema, the table;
 * store_pg_admin.c: projects, tokens, acknowledgements; store_pg_ingest.c:
 * writing runs; store_pg_reads.c: reading). */
#ifndef BM_STORE_PG_H
#define BM_STORE_PG_H

#include "store_backend.h"

#include <libpq-fe.h>
#include <pthread.h>

/* The event columns, in enum bm_event's order (PostgreSQL folds them to
 * lower case, in the schema and in every query alike). */
#define PG_EVENT_COLUMNS                                                                                       \
	"ev_Ir, ev_Dr, ev_Dw, ev_I1mr, ev_D1mr, ev_D1mw, ev_ILmr, ev_DLmr, ev_DLmw, ev_Bc, ev_Bcm, ev_Bi, ev_Bim," \
	" ev_sysCount, ev_sysTime, ev_sysCpuTime"

/* A connection prepares each statement it runs once (up to
 * PG_PREPARED_MAX of them): the server then parses and plans it once. */
#define PG_PREPARED_MAX 64
struct pg_conn {
	PGconn *pg;
	struct pg_conn *next; /* in the pool's free list */
	const char *prepared[PG_PREPARED_MAX]; /* their texts (copies), "bm<i>" each */
	int nprepared;
};

struct store_db {
	char *conninfo;
	char *display; /* the database, as errors name it: never a password */
	pthread_mutex_t lock;   /* the pool */
	struct pg_conn *free_list;
	struct pg_conn **all;
	size_t nall, all_alloc;
};

struct pg_conn *pg_acquire(struct store_db *db, char **err);
/* Back to the pool; a connection that broke is closed instead. */
void pg_release(struct store_db *db, struct pg_conn *c);
/* Runs sql with n text parameters (NULL is SQL NULL; lens[i] > 0 makes
 * parameter i binary of that length, for bytea).  Returns the result,
 * or NULL with *err set ("database: WHAT: the server's message") when
 * it is not PGRES_COMMAND_OK or PGRES_TUPLES_OK. */
PGresult *pg_query(struct pg_conn *c, const char *sql, int n, const char *const *values, const int *lens,
		   const char *what, char **err);
/* Sets *err to "database: WHAT: " and the server's (or libpq's) message
 * of r (or of c, with r NULL). */
void pg_fail(char **err, struct pg_conn *c, const PGresult *r, const char *what);
/* Runs sql without parameters and drops its result. */
int pg_exec(struct pg_conn *c, const char *sql, const char *what, char **err);
/* Field (row, col) as a new string, or NULL. */
char *pg_text(const PGresult *r, int row, int col);
int64_t pg_int(const PGresult *r, int row, int col);
double pg_double(const PGresult *r, int row, int col);

/* Decimal text of v in buf (at least 24 bytes); returns buf. */
const char *pg_i64(char *buf, int64_t v);
/* Text of v that reads back as exactly v, in buf (at least 32 bytes). */
const char *pg_f64(char *buf, double v);

/* store_pg_batch.c: rows of one table waiting to be sent as one
 * multi-row INSERT (one round trip for many rows). */
struct pg_batch {
	const char *table; /* "results (run, ...)": what the INSERT names */
	int columns;       /* parameters per row */
	char **values;     /* owned, NULL for SQL NULL */
	int *lens;         /* > 0: binary of that length */
	size_t n, alloc;   /* parameters */
	int any_binary;
};
/* How many parameters one INSERT carries at most (PostgreSQL's limit is
 * 65,535). */
#define PG_BATCH_MAX_PARAMS 30000
void pg_batch_init(struct pg_batch *b, const char *table, int columns);
/* The next parameter: text (NULL: SQL NULL), or len > 0 bytes. */
void pg_batch_add(struct pg_batch *b, const char *value, int len);
/* Sends what waits as one INSERT. */
int pg_batch_flush(struct pg_conn *c, struct pg_batch *b, char **err);
void pg_batch_clear(struct pg_batch *b);
void pg_batch_free(struct pg_batch *b);

/* A write transaction: its connection and what waits to be sent. */
struct store_tx {
	struct store_db *db;
	struct pg_conn *c;
	struct pg_batch results, metrics, profiles;
	struct pg_batch copy;            /* store_pg_move.c's rows */
	const struct store_table *table; /* of copy */
	char *copy_into;                 /* copy's "TABLE (COLUMNS)" */
};

/* store_pg.c */
char *pg_display(const char *conninfo);

/* store_pg_move.c */
int pg_count_rows(struct store_db *db, const struct store_table *t, int64_t *n, char **err);
int pg_copy_row(struct store_tx *tx, const struct store_table *t, const struct store_value *v, char **err);
int pg_copy_done(struct store_tx *tx, char **err);

/* store_pg_admin.c */
int pg_project_create(struct store_db *db, const char *name, int64_t now, char **err);
int pg_project_get(struct store_db *db, const char *name, struct project *p, char **err);
int pg_project_put_settings(struct store_db *db, const struct project *p, char **err);
int pg_token_add(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, int admin,
		 int64_t now, int64_t *id, char **err);
int pg_token_access(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, char **err);
int pg_token_list(struct store_db *db, int64_t project, struct store_token **tokens, size_t *n, char **err);
int pg_token_delete(struct store_db *db, int64_t project, int64_t id, char **err);
int pg_ack_add(struct store_db *db, int64_t project, const struct store_ack *a, int64_t *id, char **err);
int pg_acks(struct store_db *db, int64_t project, const char *sha, long pr, int all, struct store_ack **acks,
	    size_t *n, char **err);
int pg_ack_delete(struct store_db *db, int64_t project, int64_t id, char **err);

/* store_pg_ingest.c */
struct store_tx *pg_tx_begin(struct store_db *db, char **err);
int pg_tx_end(struct store_tx *tx, int commit, char **err);
int pg_savepoint(struct store_tx *tx, char **err);
int pg_savepoint_end(struct store_tx *tx, int ok, char **err);
int pg_run_insert(struct store_tx *tx, int64_t project, const struct store_run_row *r, int64_t *pk, char **err);
int pg_benchmark_id(struct store_tx *tx, int64_t project, const char *name, int64_t *id, char **err);
int pg_result_insert(struct store_tx *tx, int64_t run_pk, const char *branch, int64_t commit_time,
		     const struct store_row *row, char **err);

/* store_pg_reads.c */
int pg_run_find(struct store_db *db, enum store_run_query q, int64_t project, const char *a, const char *b,
		const char *c, long pr, struct store_run *run, char **err);
int pg_run_facts(struct store_db *db, int64_t pk, char *text[4], int *pr, char **err);
int pg_commit_runs(struct store_db *db, int64_t project, const char *sha, long pr, struct store_run **runs,
		   size_t *n, char **err);
int pg_benchmark_names(struct store_db *db, int64_t project, const char *branch, char ***names, size_t *n,
		       char **err);
int pg_series_heads(struct store_db *db, int64_t project, struct store_series_head **heads, size_t *n,
		    char **err);
int pg_commit_results(struct store_db *db, int64_t project, const struct store_run *run,
		      struct store_result **results, size_t *n, char **err);
int pg_history(struct store_db *db, int64_t project, const char *id, const char *branch, const char *column,
	       const char *imported, const struct store_window *w, struct store_point **points, size_t *n, char **err);
int pg_branch_series(struct store_db *db, int64_t project, const char *branch, const char *value,
		     store_row_fn fn, void *ctx, char **err);
int pg_projects(struct store_db *db, struct store_project_row **rows, size_t *n, char **err);
int pg_branches(struct store_db *db, int64_t project, struct store_branch_row **rows, size_t *n, char **err);
int pg_profile(struct store_db *db, int64_t project, const char *run_id, const char *id, unsigned char **data,
	       size_t *size, size_t *raw, char **err);

#endif
