/* SPDX-License-Identifier: MIT */
/* What a storage backend does for the store (store*.c): SQL and
 * connections, nothing else.  Each backend is one table of these
 * functions, filled in its own files (store_sqlite*.c, store_pg*.c);
 * the store is written once against the table and never names a backend.
 *
 * Conventions are store.h's: lookups return 1 found, 0 not, -1 with *err
 * set; the rest 0 or -1.  A struct store_db is safe to use from many
 * threads at once (each call borrows a connection); store_write.c calls the
 * write functions of one process one at a time (its write lock), and a
 * backend that several processes share keeps them correct anyway (a
 * run_id is stored once, whichever instance wins). */
#ifndef BM_STORE_BACKEND_H
#define BM_STORE_BACKEND_H

#include "store.h"

struct store_db; /* a backend's connections */
struct store_tx; /* one write transaction on one connection */

/* A run as it is written. */
struct store_run_row {
	const char *run_id, *branch, *sha, *base_branch, *merge_base, *model, *platform, *host;
	const char *ancestors; /* a JSON array of SHAs, nearest first */
	int64_t commit_time, created_at;
	long pr; /* 0: not a pull request */
};

/* A benchmark's result as it is written (store_write.c's rules made it from
 * the report: the speed of an imported benchmark, the compressed
 * profile).  Absent values are NULL in the database. */
/* A simulated result's heap counts (report.h's struct bm_heap) are kept
 * as metrics of its own (result_metrics), from this position on, so that
 * they have a history by name as imported metrics do and an imported
 * benchmark's primary metric (position 0) stays the only one at 0. */
#define STORE_HEAP_POSITION 1000
#define STORE_HEAP_METRICS 8 /* allocations, bytes_allocated, peak_bytes, leaked_bytes, leaked_blocks,
			       * frees, bytes_freed, system_bytes */
/* The SQL of a commit result's heap counts, in the order of
 * store_heap_metrics below, beside a row g of results (both backends'
 * commit reads end with these columns), and the result's heap from them
 * (has[k]: column k was not NULL). */
#define STORE_HEAP_VALUE(name)                                                                             \
	"(SELECT h.value FROM result_metrics h WHERE h.run = g.run AND h.benchmark = g.benchmark AND h.name = '" \
	name "')"
#define STORE_HEAP_COLUMNS                                                                                  \
	STORE_HEAP_VALUE("allocations") ", " STORE_HEAP_VALUE("bytes_allocated") ", "                         \
	STORE_HEAP_VALUE("peak_bytes") ", " STORE_HEAP_VALUE("leaked_bytes") ", " STORE_HEAP_VALUE("leaked_blocks") \
	", " STORE_HEAP_VALUE("frees") ", " STORE_HEAP_VALUE("bytes_freed") ", " STORE_HEAP_VALUE("system_bytes")
/* Those names and units, in that order (STORE_HEAP_COLUMNS's). */
extern const struct store_heap_metric {
	const char *name, *unit;
} store_heap_metrics[STORE_HEAP_METRICS];
struct store_result;
void store_result_set_heap(struct store_result *x, const int has[STORE_HEAP_METRICS],
			   const double v[STORE_HEAP_METRICS]);

struct store_row {
	int64_t benchmark;
	enum bm_status status;
	const char *reason;
	int has_speed, has_cycles, has_time;
	double speed, time_s;
	uint64_t cycles;
	struct bm_events events; /* those present */
	const struct bm_metric *metrics; /* an imported benchmark's, in order, or the heap's */
	size_t nmetrics;
	size_t metric_position; /* metrics[0]'s position: 0, or STORE_HEAP_POSITION */
	struct bm_metric heap[STORE_HEAP_METRICS]; /* (what metrics points to for the heap's) */
	const unsigned char *profile; /* zlib of {"profile", "syscalls"}, or NULL */
	size_t profile_size, profile_raw;
};

/* The runs store.h's run lookups name (see there); a, b and c are the
 * texts each takes, in order. */
enum store_run_query {
	RUNQ_COMMIT,       /* a = sha; pr > 0: that pull request's runs only */
	RUNQ_COMMIT_LIKE,  /* a = sha, b = model, c = platform; pushes only */
	RUNQ_COMMIT_PUSH,  /* a = sha; pushes only */
	RUNQ_BRANCH_HEAD,  /* a = branch, b = model, c = platform */
	RUNQ_BRANCH_ANY,   /* a = branch */
	RUNQ_RUN_ID,       /* a = run_id */
};

/* Gives run its ancestry from the text a backend stores it as (a JSON
 * array of SHAs, nearest first). */
void store_run_set_ancestors(struct store_run *run, const char *json);

/* One point of branch_series, whose texts (store_point_set_texts) fn
 * takes over. */
typedef int (*store_row_fn)(void *ctx, const char *benchmark, const struct store_point *p);

/* Copies sha, run_id, model and platform into p, in one allocation (a
 * history has 10,000 points; store_points_free frees it).  NULL reads as
 * "". */
void store_point_set_texts(struct store_point *p, const char *const text[4]);

/* A table as a move copies it: its columns, and their types (one letter
 * each: i integer, r real, t text, b bytes, o a boolean). */
struct store_table {
	const char *name, *columns, *types;
	const char *sequence; /* the column ids come from, or NULL */
};
/* One value of a row (null set for SQL NULL; text and bytes in p, len). */
struct store_value {
	int null;
	int64_t i;
	double r;
	const void *p;
	size_t len;
};
typedef int (*store_values_fn)(void *ctx, const struct store_value *v);

/* What savepoint_end answers when the transaction cannot go on. */
#define STORE_TX_LOST (-2)

struct store_backend {
	const char *name;
	/* Opens the database target names (a backend-specific string),
	 * applying every migration it lacks; a database newer than this
	 * program is refused. */
	struct store_db *(*open)(const char *target, const struct store_options *o, char **err);
	void (*close)(struct store_db *db);

	/* ---- projects, tokens, acknowledgements ---- */
	int (*project_create)(struct store_db *db, const char *name, int64_t now, char **err);
	int (*project_get)(struct store_db *db, const char *name, struct project *p, char **err);
	int (*project_put_settings)(struct store_db *db, const struct project *p, char **err);
	int (*token_add)(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, int admin,
			 int64_t now, int64_t *id, char **err);
	/* ACCESS_NONE, ACCESS_UPLOAD or ACCESS_ADMIN, or -1. */
	int (*token_access)(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, char **err);
	int (*token_list)(struct store_db *db, int64_t project, struct store_token **tokens, size_t *n, char **err);
	int (*token_delete)(struct store_db *db, int64_t project, int64_t id, char **err);
	int (*ack_add)(struct store_db *db, int64_t project, const struct store_ack *a, int64_t *id, char **err);
	/* pr > 0: pull request pr's; else commit sha's (pr 0); all == 1:
	 * the project's newest 1,000.  Newest first. */
	int (*acks)(struct store_db *db, int64_t project, const char *sha, long pr, int all, struct store_ack **acks,
		    size_t *n, char **err);
	int (*ack_delete)(struct store_db *db, int64_t project, int64_t id, char **err);

	/* ---- writing runs: one transaction for many, each run inside a
	 * savepoint of its own ---- */
	struct store_tx *(*tx_begin)(struct store_db *db, char **err);
	/* Commits (commit != 0) or rolls back, and frees tx. */
	int (*tx_end)(struct store_tx *tx, int commit, char **err);
	int (*savepoint)(struct store_tx *tx, char **err);
	/* Keeps (ok) or undoes what the run since the savepoint wrote: 0.  A
	 * backend that buffers writes sends them here: when they fail it
	 * undoes the run and returns -1.  STORE_TX_LOST when the run's writes
	 * could not be undone (or the database rolled the transaction back
	 * of itself): the batch is rolled back whole. */
	int (*savepoint_end)(struct store_tx *tx, int ok, char **err);
	/* 1 with *pk when written, 0 when the project has that run_id already. */
	int (*run_insert)(struct store_tx *tx, int64_t project, const struct store_run_row *r, int64_t *pk,
			  char **err);
	/* The id of benchmark name in project, made when new. */
	int (*benchmark_id)(struct store_tx *tx, int64_t project, const char *name, int64_t *id, char **err);
	int (*result_insert)(struct store_tx *tx, int64_t run_pk, const char *branch, int64_t commit_time,
			     const struct store_row *row, char **err);
	/* After a committed batch of rows results (NULL when nothing to do):
	 * SQLite files them into their series now and then. */
	void (*after_commit)(struct store_db *db, size_t rows);

	/* ---- reading ---- */
	int (*run_find)(struct store_db *db, enum store_run_query q, int64_t project, const char *a, const char *b,
			const char *c, long pr, struct store_run *run, char **err);
	/* Run pk's sha, run_id, model and platform (texts owned by the
	 * caller) and whether it is a pull request's. */
	int (*run_facts)(struct store_db *db, int64_t pk, char *text[4], int *pr, char **err);
	/* Every run of commit sha (pr > 0: uploaded for that pull request),
	 * newest first, at most STORE_COMMIT_RUNS_MAX. */
	int (*commit_runs)(struct store_db *db, int64_t project, const char *sha, long pr, struct store_run **runs,
			   size_t *n, char **err);
	int (*benchmark_names)(struct store_db *db, int64_t project, const char *branch, char ***names, size_t *n,
			       char **err);
	int (*series_heads)(struct store_db *db, int64_t project, struct store_series_head **heads, size_t *n,
			    char **err);
	int (*commit_results)(struct store_db *db, int64_t project, const struct store_run *run,
			      struct store_result **results, size_t *n, char **err);
	/* One benchmark's results on branch in series order (commit time,
	 * then upload order): each point's commit_time, status, value (of
	 * column, or with column NULL of the imported metric) and run_pk;
	 * those of commit times w->from to w->to, the newest w->limit of them
	 * (0: all). */
	int (*history)(struct store_db *db, int64_t project, const char *id, const char *branch, const char *column,
		       const char *imported, const struct store_window *w, struct store_point **points, size_t *n,
		       char **err);
	/* Every benchmark's ok results on branch of pushes, by benchmark name
	 * then series order, with their runs' texts: fn per point.  value is
	 * the SQL of a point's value over the result row x0 (store_series.c
	 * makes it from a fixed list, never from a request). */
	int (*branch_series)(struct store_db *db, int64_t project, const char *branch, const char *value,
			     store_row_fn fn, void *ctx, char **err);
	int (*projects)(struct store_db *db, struct store_project_row **rows, size_t *n, char **err);
	int (*branches)(struct store_db *db, int64_t project, struct store_branch_row **rows, size_t *n,
			char **err);
	/* The stored (compressed) profile of benchmark id in run run_id. */
	int (*profile)(struct store_db *db, int64_t project, const char *run_id, const char *id, unsigned char **data,
		       size_t *size, size_t *raw, char **err);

	/* ---- moving a database (store_migrate.c); NULL where a backend
	 * cannot be moved from or to ---- */
	/* The database target names, for messages: never a password. */
	char *(*display)(const char *target);
	/* How many rows table holds. */
	int (*count_rows)(struct store_db *db, const struct store_table *t, int64_t *n, char **err);
	/* Every row of table, in key order: fn per row. */
	int (*copy_out)(struct store_db *db, const struct store_table *t, store_values_fn fn, void *ctx, char **err);
	/* In a transaction of tx_begin: one row of table, as it was (its ids
	 * too); copy_done then sends what waits and moves every id sequence
	 * past the ids copied. */
	int (*copy_row)(struct store_tx *tx, const struct store_table *t, const struct store_value *v, char **err);
	int (*copy_done)(struct store_tx *tx, char **err);
};

/* The backend db names (see store_open), and in *target what to give its
 * open; NULL with *err set when this program was built without it. */
const struct store_backend *store_backend_of(const char *db, const char **target, char **err);

extern const struct store_backend store_sqlite;
#ifdef HAVE_POSTGRESQL
extern const struct store_backend store_pg;
#endif

#endif
