/* SPDX-License-Identifier: MIT */
/* The server's storage: projects, tokens, runs and their results.
 *
 * This header is the whole contract between bm-server's analysis and its
 * database.  store.c, store_write.c and store_series.c implement it once,
 * with what does not depend on the database (group commit, caches of what
 * never changes, the rules a backend must not decide), over a backend's table of SQL functions
 * (store_backend.h): SQLite (store_sqlite*.c: one file, WAL mode) or
 * PostgreSQL (store_pg*.c), both with versioned migrations.
 *
 * Conventions: functions that look something up return 1 when found, 0
 * when not, -1 with *err set on a database error.  Others return 0 or -1.
 * Strings passed in are borrowed; strings and arrays handed out belong to
 * the caller (free them with the matching _release or _free).  A struct
 * store is safe to use from many threads at once: each call borrows a
 * connection from a pool, and one process's writes are serialised.
 * Several processes may share one PostgreSQL database: nothing that can
 * change is cached. */
#ifndef BM_STORE_H
#define BM_STORE_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>

struct store;

struct store_options {
	/* SQLite: how many uploaded results gather (durably, read like the
	 * others) before one transaction files them into the series they
	 * belong to: fewer, larger merges write less.  0 files them with
	 * every upload.  Other backends ignore it. */
	size_t merge_rows;
	/* 1: open an existing database only, never create one (SQLite: a
	 * missing file is an error, not a new empty database): what a move
	 * copies from must be there. */
	int existing;
};
#define STORE_DEFAULT_MERGE_ROWS 5000

/* Opens (creating and migrating if needed) the database db names: a
 * PostgreSQL connection URI (postgresql://, postgres://) or key=value
 * connection string, or a SQLite file (a path, or sqlite:PATH).  o may be
 * NULL (defaults).  *err never shows a password. */
struct store *store_open(const char *db, const struct store_options *o, char **err);
/* Closes every connection; NULL is a no-op. */
void store_free(struct store *st);
/* The database db names, for messages (newly allocated): never its
 * password. */
char *store_display(const char *db);
/* Copies every project, token, run, result, profile, acknowledgement
 * and setting of database from into database to, which must be empty:
 * all or nothing, the counts checked.  progress: show it on stderr. */
int store_migrate(const char *from, const char *to, int progress, char **err);
/* The backend's name ("sqlite", "postgresql"). */
const char *store_backend_name(const struct store *st);

/* ---- projects, settings and tokens ---- */

struct project {
	int64_t id;
	double threshold; /* regression threshold, 0..0.50 */
	double dt;        /* difference tolerance of the change rule */
	unsigned st;      /* stability tolerance: values in a row */
};

#define PROJECT_DEFAULT_THRESHOLD 0.10
#define PROJECT_DEFAULT_DT 0.01
#define PROJECT_DEFAULT_ST 4

/* Creates project name with default settings; 0 when it already exists
 * (nothing changed), 1 when created. */
int store_project_create(struct store *st, const char *name, char **err);
int store_project_get(struct store *st, const char *name, struct project *p, char **err);
/* Writes p's settings (p->id names the project). */
int store_project_put_settings(struct store *st, const struct project *p, char **err);

enum access { ACCESS_NONE, ACCESS_UPLOAD, ACCESS_ADMIN };

/* Adds a token to a project and returns it (shown once; only its hash is
 * kept) in *token, which the caller owns. */
int store_token_create(struct store *st, int64_t project, int admin, char **token, char **err);
/* The same, with the new token's id in *id. */
int store_token_create_id(struct store *st, int64_t project, int admin, char **token, int64_t *id, char **err);
/* What token may do in project (ACCESS_NONE for an unknown token), or -1. */
int store_token_access(struct store *st, int64_t project, const char *token, char **err);

/* One of a project's tokens, as it can be listed: never the token itself. */
struct store_token {
	int64_t id;
	int admin;
	int64_t created_at; /* Unix seconds */
};
/* The project's tokens, oldest first, in *tokens (the caller frees it). */
int store_token_list(struct store *st, int64_t project, struct store_token **tokens, size_t *n, char **err);
/* Revokes token id of project: 1 done, 0 no such token, -1 error. */
int store_token_delete(struct store *st, int64_t project, int64_t id, char **err);

/* ---- runs ---- */

/* Stores a validated report whose context names a branch and a commit.
 * platform is the canonical platform key (see platform_key), commit_time
 * the committer time in seconds since the epoch.  *created is
 * 1 for a new run, 0 when a run with the same run_id was already there
 * (then nothing is written).  Returns only once the run is durable.
 * An imported benchmark (one with metrics) is stored with its
 * benchmark_speed as speed (none when that is 0), its primary metric's
 * value as time_s when its unit is "s", no cycles or events, and every
 * metric kept for store_history; the report must not name one metric
 * twice in a benchmark (upload_check refuses it). */
int store_run_add(struct store *st, int64_t project, const struct bm_report *r, const char *platform,
		  int64_t commit_time, int *created, char **err);

struct store_run {
	int64_t pk;
	char *run_id, *branch, *sha, *model, *platform;
	int64_t commit_time; /* seconds since the epoch */
	long pr;             /* 0 when not a pull request */
	char *base_branch;   /* or NULL */
	char *merge_base;    /* a pull request's merge base with base_branch, or NULL */
	char **ancestors;    /* first-parent ancestry, nearest first */
	size_t nancestors;
};
void store_run_release(struct store_run *run);

/* The newest run of commit sha (any model and platform); with pr > 0 only
 * runs uploaded for that pull request. */
int store_commit_run(struct store *st, int64_t project, const char *sha, long pr, struct store_run *run,
		     char **err);
/* The newest run of a push of commit sha (never a pull request's) with
 * the given model and platform: what can be a baseline. */
int store_commit_run_like(struct store *st, int64_t project, const char *sha, const char *model,
			  const char *platform, struct store_run *run, char **err);
/* The newest run of a push of commit sha, any model and platform. */
int store_commit_push_run(struct store *st, int64_t project, const char *sha, struct store_run *run, char **err);
/* The run of the latest commit (by committer time, then upload order) on
 * branch with the given model and platform. */
int store_branch_head_run(struct store *st, int64_t project, const char *branch, const char *model,
			  const char *platform, struct store_run *run, char **err);
/* The ids of the benchmarks with a result on branch (pushes and pull
 * requests alike), sorted (strcmp order), in *ids (free with
 * store_strings_free). */
int store_benchmark_ids(struct store *st, int64_t project, const char *branch, char ***ids, size_t *n,
			char **err);
void store_strings_free(char **strings, size_t n);
/* Every run of commit sha (with pr > 0 only those uploaded for that pull
 * request), newest first, at most STORE_COMMIT_RUNS_MAX: a CI matrix and
 * the shards of a suite upload one each.  Free with store_runs_free. */
#define STORE_COMMIT_RUNS_MAX 1000
#define STORE_COMMIT_RUNS_MAX_TEXT "1000"
int store_commit_runs(struct store *st, int64_t project, const char *sha, long pr, struct store_run **runs,
		      size_t *n, char **err);
void store_runs_free(struct store_run *runs, size_t n);
/* The run with the given run_id: 1 found, 0 none, -1 error. */
int store_run_get(struct store *st, int64_t project, const char *run_id, struct store_run *run, char **err);
/* The (branch, model, platform) series of a project's pushes, each with
 * its number of runs, latest upload first: the projects page's rows. */
struct store_series_head {
	char *branch, *model, *platform;
	int64_t runs;
};
int store_series_heads(struct store *st, int64_t project, struct store_series_head **heads, size_t *n,
		       char **err);
void store_series_heads_free(struct store_series_head *heads, size_t n);
/* The run of the latest commit on branch, whatever its model and platform. */
int store_branch_head_any(struct store *st, int64_t project, const char *branch, struct store_run *run,
			  char **err);

/* One benchmark of a commit, as comparison and ranking read it. */
struct store_result {
	char *id;
	enum bm_status status;
	double speed;
	char *reason; /* why it failed or was skipped, or NULL */
	int has_cycles;
	uint64_t cycles;
	struct bm_events events; /* the counted events (present bits set) */
	char *metric, *unit;     /* an imported result's primary metric, or NULL */
	double value;
	char *run_id;            /* the run it came from (a commit may have several) */
	int has_profile;         /* whether that run stored its profile */
	struct bm_heap heap;     /* its heap counts (measured 0: none kept) */
};
/* The results of commit sha with run's model and platform: every such run
 * of the commit, a benchmark's newest result winning; sorted by id
 * (strcmp order). */
int store_commit_results(struct store *st, int64_t project, const struct store_run *run,
			 struct store_result **results, size_t *n, char **err);
void store_results_free(struct store_result *results, size_t n);

/* ---- series ---- */

/* Whether metric is a built-in one, a column of every result: "speed",
 * "cycles", "time_s" or an event name ("Ir", "D1mr", "sysTime", ...).
 * Any other name is taken for an imported benchmark's metric
 * ("walltime", "cpu_time", ...); a built-in name wins over an imported
 * metric of the same name. */
int store_metric_known(const char *metric);

/* One point of a benchmark's series on a branch: its commit's newest
 * result. */
struct store_point {
	char *sha, *run_id, *model, *platform;
	int64_t commit_time;
	enum bm_status status;
	int has_value;
	double value;
	int64_t run_pk; /* upload order */
};
/* A window of a history: the commits from..to (commit times, inclusive),
 * of which the newest results, at most limit of them (0: every one). */
struct store_window {
	int64_t from, to;
	size_t limit;
};
#define STORE_WINDOW_ALL {INT64_MIN, INT64_MAX, 0}

/* The series of benchmark id on branch in window w, oldest commit first.
 * metric is built-in (store_metric_known) or the name of an imported
 * metric: then the points are the commits whose result carries that
 * metric, with its value, and those whose result failed or was skipped
 * (value none, as in every series); a name that no result carries gives
 * no ok point, so an empty series for a benchmark that never failed.
 * Where the limit left older results of the window out, *older is the
 * commit time to ask up to (to) for the next page back, else INT64_MIN:
 * a page holds every result of each commit time it has, so pages neither
 * overlap nor leave a gap. */
int store_history(struct store *st, int64_t project, const char *id, const char *branch, const char *metric,
		  const struct store_window *w, struct store_point **points, size_t *n, int64_t *older, char **err);

/* Every benchmark's series on branch, "ok" results only, for the change
 * ranking: calls fn once per benchmark with its points in order.  metric
 * must be built-in (store_metric_known): an error otherwise. */
typedef int (*store_series_fn)(void *ctx, const char *id, const struct store_point *points, size_t n);
int store_branch_series(struct store *st, int64_t project, const char *branch, const char *metric,
			store_series_fn fn, void *ctx, char **err);
void store_points_free(struct store_point *points, size_t n);

/* ---- what the pages list ---- */

/* Every project, by name: its runs, benchmarks and latest upload. */
struct store_project_row {
	char *name;
	int64_t runs, benchmarks;
	int has_latest;
	int64_t latest_upload; /* Unix seconds */
};
int store_projects(struct store *st, struct store_project_row **rows, size_t *n, char **err);
void store_project_rows_free(struct store_project_row *rows, size_t n);
/* A project's branches with pushes, latest commit first: each one's runs
 * and the run of its latest commit (by committer time, the first
 * uploaded of equals). */
struct store_branch_row {
	char *name, *sha, *run_id;
	int64_t runs, timestamp;
};
int store_branches(struct store *st, int64_t project, struct store_branch_row **rows, size_t *n, char **err);
void store_branch_rows_free(struct store_branch_row *rows, size_t n);
/* The profile and system-call breakdown a run stored for benchmark id:
 * {"profile": ..., "syscalls": ...} as JSON text in *json (its length in
 * *len; the caller frees it); 0 when the run or benchmark is not there. */
int store_profile(struct store *st, int64_t project, const char *run_id, const char *id, char **json, size_t *len,
		  char **err);

/* ---- acknowledgements (SPEC 4.1) ---- */

/* A regression someone acknowledged: benchmark's in the report of commit
 * sha (pr 0), or in any report of pull request pr, at impact. */
struct store_ack {
	int64_t id;
	char *benchmark, *sha, *by, *reason;
	long pr;
	double impact;      /* the benchmark's impact when it was acknowledged */
	int64_t created_at; /* Unix seconds */
};
/* Stores a (its id is ignored) and returns the new id in *id. */
int store_ack_add(struct store *st, int64_t project, const struct store_ack *a, int64_t *id, char **err);
/* Those that apply to a report: pull request pr's when pr > 0, else
 * commit sha's own; newest first. */
int store_acks_of(struct store *st, int64_t project, const char *sha, long pr, struct store_ack **acks, size_t *n,
		  char **err);
/* The project's newest 1,000, newest first. */
int store_ack_list(struct store *st, int64_t project, struct store_ack **acks, size_t *n, char **err);
/* Withdraws acknowledgement id of project: 1 done, 0 no such one, -1 error. */
int store_ack_delete(struct store *st, int64_t project, int64_t id, char **err);
void store_acks_free(struct store_ack *acks, size_t n);

#endif
