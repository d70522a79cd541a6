/* SPDX-License-Identifier: MIT */
/* The SQLite backend's own: its connections and statements, shared by
 * its files (store_sqlite.c: connections, schema, the table;
 * store_sqlite_admin.c: projects, tokens, acknowledgements;
 * store_sqlite_ingest.c: writing runs; store_sqlite_reads.c: reading). */
#ifndef BM_STORE_SQLITE_H
#define BM_STORE_SQLITE_H

#include "store_backend.h"

#include <pthread.h>
#include <sqlite3.h>

/* The event columns, in enum bm_event's order. */
#define EVENT_COLUMNS                                                                                          \
	"ev_Ir, ev_Dr, ev_Dw, ev_I1mr, ev_D1mr, ev_D1mw, ev_ILmr, ev_DLmr, ev_DLmw, ev_Bc, ev_Bcm, ev_Bi, ev_Bim," \
	" ev_sysCount, ev_sysTime, ev_sysCpuTime"

/* The columns results and incoming_results share, in results' order. */
#define RESULT_COLUMNS "benchmark, branch, commit_time, run, status, reason, speed, cycles, time_s, " EVENT_COLUMNS

/* Statements each connection prepares once, on first use. */
enum sql {
	SQL_BEGIN,
	SQL_COMMIT,
	SQL_ROLLBACK,
	SQL_RUN_EXISTS,
	SQL_RUN_INSERT,
	SQL_ANCESTORS_INSERT,
	SQL_BENCHMARK_INSERT,
	SQL_BENCHMARK_ID,
	SQL_RESULT_INSERT,
	SQL_PROFILE_INSERT,
	SQL_SAVEPOINT,
	SQL_RELEASE,
	SQL_ROLLBACK_TO,
	SQL_MERGE_INSERT,
	SQL_MERGE_DELETE,
	SQL_RUN_FACTS,
	SQL_METRIC_INSERT,
	SQL_COUNT
};

struct conn {
	sqlite3 *db;
	sqlite3_stmt *stmt[SQL_COUNT];
	struct conn *next; /* in the pool's free list */
};

struct store_db {
	char *path;
	pthread_mutex_t lock; /* the pool */
	struct conn *free_list;
	struct conn **all;
	size_t nall, all_alloc;
	size_t incoming;   /* rows in incoming_results (the store's writes are serial) */
	size_t merge_rows; /* merge once incoming reaches this */
	int create;        /* open with SQLITE_OPEN_CREATE (not for store_options.existing) */
};

struct conn *sq_acquire(struct store_db *db, char **err);
void sq_release(struct store_db *db, struct conn *c);
/* c's cached statement which (reset after use by sq_run), or NULL. */
sqlite3_stmt *sq_stmt(struct conn *c, enum sql which, char **err);
/* A one-off statement (finalize it), or NULL. */
sqlite3_stmt *sq_prepare(struct conn *c, const char *sql, char **err);
/* Runs a cached statement that returns no rows, then resets it. */
int sq_run(struct conn *c, sqlite3_stmt *s, char **err);
int sq_error(char **err, sqlite3 *db, const char *what);
/* Column i as a new string (NULL for NULL). */
char *sq_text(sqlite3_stmt *s, int i);
/* Binds text (or NULL). */
void sq_bind_text(sqlite3_stmt *s, int i, const char *text);

/* What sq_each calls with each row of its answer. */
typedef void (*sq_row_fn)(sqlite3_stmt *s, void *ctx);
/* Runs the one-off query sql on a connection of db, its parameters ?1,
 * ?2, ... bound from the arguments after types, a letter each: i an
 * int64_t, t a text (or NULL), b a blob (its pointer, then its size_t
 * length); calls row with each row.  The number of rows, or -1 with
 * *err naming what failed ("database: WHAT: ..."). */
long sq_each(struct store_db *db, const char *what, sq_row_fn row, void *ctx, char **err, const char *sql,
	     const char *types, ...);

/* A growing array for sq_each's rows: items points to the caller's
 * array (NULL to start with), n to its count; each item size bytes. */
struct sq_list {
	void *items;
	size_t *n, alloc, size;
};
/* A new zeroed item at the array's end. */
void *sq_list_add(struct sq_list *l);

/* store_sqlite_admin.c */
int sq_project_create(struct store_db *db, const char *name, int64_t now, char **err);
int sq_project_get(struct store_db *db, const char *name, struct project *p, char **err);
int sq_project_put_settings(struct store_db *db, const struct project *p, char **err);
int sq_token_add(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, int admin,
		 int64_t now, int64_t *id, char **err);
int sq_token_access(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, char **err);
int sq_token_list(struct store_db *db, int64_t project, struct store_token **tokens, size_t *n, char **err);
int sq_token_delete(struct store_db *db, int64_t project, int64_t id, char **err);
int sq_ack_add(struct store_db *db, int64_t project, const struct store_ack *a, int64_t *id, char **err);
int sq_acks(struct store_db *db, int64_t project, const char *sha, long pr, int all, struct store_ack **acks,
	    size_t *n, char **err);
int sq_ack_delete(struct store_db *db, int64_t project, int64_t id, char **err);

/* store_sqlite_ingest.c */
struct store_tx *sq_tx_begin(struct store_db *db, char **err);
int sq_tx_end(struct store_tx *tx, int commit, char **err);
int sq_savepoint(struct store_tx *tx, char **err);
int sq_savepoint_end(struct store_tx *tx, int ok, char **err);
int sq_run_insert(struct store_tx *tx, int64_t project, const struct store_run_row *r, int64_t *pk, char **err);
int sq_benchmark_id(struct store_tx *tx, int64_t project, const char *name, int64_t *id, char **err);
int sq_result_insert(struct store_tx *tx, int64_t run_pk, const char *branch, int64_t commit_time,
		     const struct store_row *row, char **err);
void sq_after_commit(struct store_db *db, size_t rows);

/* store_sqlite_reads.c */
int sq_run_find(struct store_db *db, enum store_run_query q, int64_t project, const char *a, const char *b,
		const char *c, long pr, struct store_run *run, char **err);
int sq_run_facts(struct store_db *db, int64_t pk, char *text[4], int *pr, char **err);
int sq_commit_runs(struct store_db *db, int64_t project, const char *sha, long pr, struct store_run **runs,
		   size_t *n, char **err);
int sq_benchmark_names(struct store_db *db, int64_t project, const char *branch, char ***names, size_t *n,
		       char **err);
int sq_series_heads(struct store_db *db, int64_t project, struct store_series_head **heads, size_t *n,
		    char **err);
int sq_commit_results(struct store_db *db, int64_t project, const struct store_run *run,
		      struct store_result **results, size_t *n, char **err);
int sq_history(struct store_db *db, int64_t project, const char *id, const char *branch, const char *column,
	       const char *imported, const struct store_window *w, struct store_point **points, size_t *n, char **err);
int sq_branch_series(struct store_db *db, int64_t project, const char *branch, const char *value,
		     store_row_fn fn, void *ctx, char **err);
int sq_projects(struct store_db *db, struct store_project_row **rows, size_t *n, char **err);
int sq_branches(struct store_db *db, int64_t project, struct store_branch_row **rows, size_t *n, char **err);
int sq_profile(struct store_db *db, int64_t project, const char *run_id, const char *id, unsigned char **data,
	       size_t *size, size_t *raw, char **err);

/* store_sqlite_move.c */
char *sq_display(const char *path);
int sq_count_rows(struct store_db *db, const struct store_table *t, int64_t *n, char **err);
int sq_copy_out(struct store_db *db, const struct store_table *t, store_values_fn fn, void *ctx, char **err);

#endif
