/* The store on SQLite: see store.h.
 *
 * One database file in WAL mode with synchronous=FULL, so that a commit
 * is on disk before the API answers 2xx.  Readers run in parallel on
 * pooled connections; writers take one mutex (SQLite allows one writer at
 * a time anyway, and waiting on a mutex is cheaper than on SQLITE_BUSY),
 * and uploads that arrive together share one transaction (group commit).
 * The schema version is PRAGMA user_version; migrations[i] takes it from
 * i to i + 1, each in its own transaction.
 *
 * Results live in two tables.  An upload appends its results to
 * incoming_results, keyed by run: one report's rows share a few pages, so
 * the durable write is small.  Once enough have gathered, one transaction
 * moves them into results, which is clustered by series (benchmark,
 * branch, commit time, run): a benchmark's history is one contiguous range
 * to read, and a batch of many reports touches each series' last pages
 * once instead of once per report.  Readers look in both tables.  Results
 * keep a copy of their run's branch and commit time for that clustering.
 * Profiles and syscall breakdowns are stored zlib-compressed beside them
 * and read only by the profile view. */
#include "config.h"

#include "store.h"

#include "error.h"
#include "events.h"
#include "log.h"
#include "strpool.h"
#include "hash.h"
#include "idmap.h"
#include "token.h"
#include "xalloc.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* 0 -> 1: the first schema. */
static const char migration_1[] =
	"CREATE TABLE projects ("
	"  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
	"  threshold REAL NOT NULL, dt REAL NOT NULL, st INTEGER NOT NULL, created_at INTEGER NOT NULL);"
	"CREATE TABLE tokens ("
	"  id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id),"
	"  hash BLOB NOT NULL UNIQUE, admin INTEGER NOT NULL, created_at INTEGER NOT NULL);"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id), run_id TEXT NOT NULL,"
	"  branch TEXT NOT NULL, sha TEXT NOT NULL, commit_time INTEGER NOT NULL, pr INTEGER, base_branch TEXT,"
	"  model TEXT NOT NULL, platform TEXT NOT NULL, host TEXT, ancestors TEXT NOT NULL,"
	"  created_at INTEGER NOT NULL, UNIQUE (project, run_id));"
	"CREATE INDEX runs_by_commit ON runs (project, sha);"
	"CREATE INDEX runs_by_branch ON runs (project, branch, commit_time);"
	"CREATE TABLE benchmarks ("
	"  id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id), name TEXT NOT NULL,"
	"  UNIQUE (project, name));"
	"CREATE TABLE results ("
	"  run INTEGER NOT NULL REFERENCES runs(id), benchmark INTEGER NOT NULL REFERENCES benchmarks(id),"
	"  branch TEXT NOT NULL, commit_time INTEGER NOT NULL, status INTEGER NOT NULL, reason TEXT,"
	"  speed REAL, cycles INTEGER, time_s REAL,"
	"  ev_Ir INTEGER, ev_Dr INTEGER, ev_Dw INTEGER, ev_I1mr INTEGER, ev_D1mr INTEGER, ev_D1mw INTEGER,"
	"  ev_ILmr INTEGER, ev_DLmr INTEGER, ev_DLmw INTEGER, ev_Bc INTEGER, ev_Bcm INTEGER, ev_Bi INTEGER,"
	"  ev_Bim INTEGER, ev_sysCount INTEGER, ev_sysTime INTEGER, ev_sysCpuTime INTEGER,"
	"  PRIMARY KEY (run, benchmark)) WITHOUT ROWID;"
	"CREATE INDEX results_by_series ON results (benchmark, branch, commit_time);"
	"CREATE TABLE profiles ("
	"  run INTEGER NOT NULL, benchmark INTEGER NOT NULL, data BLOB NOT NULL, size INTEGER NOT NULL,"
	"  PRIMARY KEY (run, benchmark)) WITHOUT ROWID;";

/* 1 -> 2: results clustered by series (all of version 1's results go
 * there); new results gather in incoming_results, keyed by run, until
 * merged.  Neither declares foreign keys: only this file writes them, with
 * a run it has just inserted and a benchmark id it has just looked up, and
 * the checks were a quarter of an upload's inserts.  A run's ancestry (up
 * to 256 SHAs, 11 KB) moves to a table of its own, so that the rows a
 * history joins on stay small. */
static const char migration_2[] =
	"CREATE TABLE run_ancestors (run INTEGER PRIMARY KEY REFERENCES runs(id), ancestors TEXT NOT NULL);"
	"INSERT INTO run_ancestors SELECT id, ancestors FROM runs;"
	"ALTER TABLE runs DROP COLUMN ancestors;"
	"ALTER TABLE results RENAME TO results_1;"
	"DROP INDEX results_by_series;"
	"CREATE TABLE results ("
	"  benchmark INTEGER NOT NULL, branch TEXT NOT NULL, commit_time INTEGER NOT NULL, run INTEGER NOT NULL,"
	"  status INTEGER NOT NULL, reason TEXT, speed REAL, cycles INTEGER, time_s REAL,"
	"  ev_Ir INTEGER, ev_Dr INTEGER, ev_Dw INTEGER, ev_I1mr INTEGER, ev_D1mr INTEGER, ev_D1mw INTEGER,"
	"  ev_ILmr INTEGER, ev_DLmr INTEGER, ev_DLmw INTEGER, ev_Bc INTEGER, ev_Bcm INTEGER, ev_Bi INTEGER,"
	"  ev_Bim INTEGER, ev_sysCount INTEGER, ev_sysTime INTEGER, ev_sysCpuTime INTEGER,"
	"  PRIMARY KEY (benchmark, branch, commit_time, run)) WITHOUT ROWID;"
	"CREATE INDEX results_by_run ON results (run);"
	"CREATE TABLE incoming_results ("
	"  run INTEGER NOT NULL, benchmark INTEGER NOT NULL, branch TEXT NOT NULL, commit_time INTEGER NOT NULL,"
	"  status INTEGER NOT NULL, reason TEXT, speed REAL, cycles INTEGER, time_s REAL,"
	"  ev_Ir INTEGER, ev_Dr INTEGER, ev_Dw INTEGER, ev_I1mr INTEGER, ev_D1mr INTEGER, ev_D1mw INTEGER,"
	"  ev_ILmr INTEGER, ev_DLmr INTEGER, ev_DLmw INTEGER, ev_Bc INTEGER, ev_Bcm INTEGER, ev_Bi INTEGER,"
	"  ev_Bim INTEGER, ev_sysCount INTEGER, ev_sysTime INTEGER, ev_sysCpuTime INTEGER,"
	"  PRIMARY KEY (run, benchmark)) WITHOUT ROWID;"
	"INSERT INTO results SELECT benchmark, branch, commit_time, run, status, reason, speed, cycles, time_s,"
	"  ev_Ir, ev_Dr, ev_Dw, ev_I1mr, ev_D1mr, ev_D1mw, ev_ILmr, ev_DLmr, ev_DLmw, ev_Bc, ev_Bcm, ev_Bi, ev_Bim,"
	"  ev_sysCount, ev_sysTime, ev_sysCpuTime FROM results_1 ORDER BY benchmark, branch, commit_time, run;"
	"DROP TABLE results_1;";

/* 2 -> 3: the metrics of imported benchmarks (bm-import), the primary
 * one (position 0) and the extras in the report's order, so that their
 * values are kept and have a history.  Keyed by run like
 * incoming_results: a report's rows are appended side by side, and a
 * history finds each point's value by key beside the result it already
 * read.  Their results rows keep the comparable speed as before. */
static const char migration_3[] =
	"CREATE TABLE result_metrics ("
	"  run INTEGER NOT NULL, benchmark INTEGER NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,"
	"  value REAL NOT NULL, position INTEGER NOT NULL,"
	"  PRIMARY KEY (run, benchmark, name)) WITHOUT ROWID;";

/* 3 -> 4: acknowledged regressions (SPEC 4.1), each of one benchmark in
 * one commit's report (pr 0) or in one pull request's (any of its
 * commits), with the impact it was acknowledged at. */
static const char migration_4[] =
	"CREATE TABLE acknowledgements ("
	"  id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id), benchmark TEXT NOT NULL,"
	"  sha TEXT NOT NULL, pr INTEGER NOT NULL, impact REAL NOT NULL, author TEXT NOT NULL,"
	"  reason TEXT NOT NULL, created_at INTEGER NOT NULL);"
	"CREATE INDEX acknowledgements_by_scope ON acknowledgements (project, pr, sha);";

static const char *const migrations[] = {migration_1, migration_2, migration_3, migration_4};

/* The event columns, in enum bm_event's order. */
#define EVENT_COLUMNS                                                                                          \
	"ev_Ir, ev_Dr, ev_Dw, ev_I1mr, ev_D1mr, ev_D1mw, ev_ILmr, ev_DLmr, ev_DLmw, ev_Bc, ev_Bcm, ev_Bi, ev_Bim," \
	" ev_sysCount, ev_sysTime, ev_sysCpuTime"

/* The columns results and incoming_results share, in results' order. */
#define RESULT_COLUMNS "benchmark, branch, commit_time, run, status, reason, speed, cycles, time_s, " EVENT_COLUMNS

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

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

static const char *const sql_text[SQL_COUNT] = {
	[SQL_BEGIN] = "BEGIN IMMEDIATE",
	[SQL_COMMIT] = "COMMIT",
	[SQL_ROLLBACK] = "ROLLBACK",
	[SQL_RUN_EXISTS] = "SELECT 1 FROM runs WHERE project = ?1 AND run_id = ?2",
	[SQL_RUN_INSERT] = ("INSERT INTO runs (project, run_id, branch, sha, commit_time, pr, base_branch, model,"
			    " platform, host, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"),
	[SQL_ANCESTORS_INSERT] = "INSERT INTO run_ancestors VALUES (?1, ?2)",
	[SQL_BENCHMARK_INSERT] = "INSERT OR IGNORE INTO benchmarks (project, name) VALUES (?1, ?2)",
	[SQL_BENCHMARK_ID] = "SELECT id FROM benchmarks WHERE project = ?1 AND name = ?2",
	[SQL_RESULT_INSERT] = ("INSERT INTO incoming_results VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
			       " ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)"),
	[SQL_PROFILE_INSERT] = "INSERT INTO profiles VALUES (?1, ?2, ?3, ?4)",
	[SQL_SAVEPOINT] = "SAVEPOINT run",
	[SQL_RELEASE] = "RELEASE run",
	[SQL_ROLLBACK_TO] = "ROLLBACK TO run",
	[SQL_MERGE_INSERT] = ("INSERT INTO results (" RESULT_COLUMNS ") SELECT " RESULT_COLUMNS
			      " FROM incoming_results ORDER BY benchmark, branch, commit_time, run"),
	[SQL_MERGE_DELETE] = "DELETE FROM incoming_results",
	[SQL_RUN_FACTS] = "SELECT sha, run_id, model, platform, pr IS NOT NULL FROM runs WHERE id = ?1",
	[SQL_METRIC_INSERT] = "INSERT INTO result_metrics VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
};

/* A benchmark id an upload looked up in the database, for the cache once
 * the upload is committed. */
struct fresh_benchmark {
	char *key; /* "PROJECT/NAME" */
	int64_t id;
};

/* An upload waiting for its transaction (see store_run_add). */
struct run_job {
	int64_t project, commit_time;
	const struct bm_report *report;
	const char *platform;
	int created, rc, done;
	char *err;
	struct fresh_benchmark *fresh;
	size_t nfresh, fresh_alloc;
	struct run_job *next;
};

/* What a history shows of each point's run, cached by the run's key: a
 * run never changes once stored, and every benchmark's history on a
 * branch names the same runs, so after the first history the database is
 * asked for results alone (a third of the time: docs/performance.md).
 * Emptied when it reaches RUN_CACHE_MAX runs. */
struct run_entry {
	uint32_t text[4]; /* sha, run_id, model, platform in the pool */
	int pr;           /* a pull-request run (not in branch histories) */
};

struct run_cache {
	pthread_rwlock_t lock;
	struct idmap *index; /* run key -> entry */
	struct strpool *texts;
	struct run_entry *entries;
	size_t n, alloc;
};

#define RUN_CACHE_MAX 200000

struct conn {
	sqlite3 *db;
	sqlite3_stmt *stmt[SQL_COUNT];
	struct conn *next; /* in the pool's free list */
};

struct store {
	char *path;
	pthread_mutex_t lock;       /* the pool */
	pthread_mutex_t write_lock; /* one writer at a time */
	pthread_mutex_t queue_lock; /* uploads waiting for a commit */
	struct run_job *queue, **queue_tail;
	struct conn *free_list;
	struct conn **all;
	size_t nall, all_alloc;
	size_t incoming;   /* rows in incoming_results (under write_lock) */
	size_t merge_rows; /* merge once incoming reaches this */
	struct run_cache runs; /* for histories */
	/* Committed benchmark ids by "PROJECT/NAME" (under write_lock): an
	 * upload of known benchmarks reads none from the database. */
	struct strpool *benchmark_keys;
	int64_t *benchmark_ids;
	size_t benchmark_alloc;
};

static int db_error(char **err, sqlite3 *db, const char *what)
{
	return bm_error(err, "database: %s: %s", what, sqlite3_errmsg(db));
}

static void conn_close(struct conn *c)
{
	for (int i = 0; i < SQL_COUNT; i++)
		sqlite3_finalize(c->stmt[i]);
	sqlite3_close(c->db);
	free(c);
}

static struct conn *conn_open(const char *path, char **err)
{
	struct conn *c = xcalloc(1, sizeof *c);
	if (sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		bm_error(err, "cannot open database '%s': %s", path, sqlite3_errmsg(c->db));
		conn_close(c);
		return NULL;
	}
	sqlite3_busy_timeout(c->db, 10000);
	if (sqlite3_exec(c->db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
					 " PRAGMA cache_size = -16384; PRAGMA mmap_size = 1073741824;", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		bm_error(err, "cannot set up database '%s': %s", path, sqlite3_errmsg(c->db));
		conn_close(c);
		return NULL;
	}
	return c;
}

static struct conn *acquire(struct store *st, char **err)
{
	pthread_mutex_lock(&st->lock);
	struct conn *c = st->free_list;
	if (c)
		st->free_list = c->next;
	pthread_mutex_unlock(&st->lock);
	if (c)
		return c;
	if (!(c = conn_open(st->path, err)))
		return NULL;
	pthread_mutex_lock(&st->lock);
	xgrow(&st->all, &st->all_alloc, st->nall + 1, sizeof *st->all);
	st->all[st->nall++] = c;
	pthread_mutex_unlock(&st->lock);
	return c;
}

static void release(struct store *st, struct conn *c)
{
	pthread_mutex_lock(&st->lock);
	c->next = st->free_list;
	st->free_list = c;
	pthread_mutex_unlock(&st->lock);
}

static sqlite3_stmt *stmt(struct conn *c, enum sql which, char **err)
{
	if (!c->stmt[which] &&
	    sqlite3_prepare_v3(c->db, sql_text[which], -1, SQLITE_PREPARE_PERSISTENT, &c->stmt[which], NULL) !=
		    SQLITE_OK) {
		db_error(err, c->db, "prepare");
		return NULL;
	}
	return c->stmt[which];
}

/* A one-off statement (reads that each run once per request). */
static sqlite3_stmt *prepare(struct conn *c, const char *sql, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK) {
		db_error(err, c->db, "prepare");
		return NULL;
	}
	return s;
}

/* Runs a cached statement that returns no rows, then resets it. */
static int run(struct conn *c, sqlite3_stmt *s, char **err)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(err, c->db, "write");
	return 0;
}

static int migrate(struct conn *c, char **err)
{
	sqlite3_stmt *s = prepare(c, "PRAGMA user_version", err);
	if (!s)
		return -1;
	int version = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	if (version > SCHEMA_VERSION)
		return bm_error(err, "the database's schema version %d is newer than this bm-server's (%d): upgrade bm-server",
				version, SCHEMA_VERSION);
	for (; version < SCHEMA_VERSION; version++) {
		char *sql = xasprintf("BEGIN IMMEDIATE; %s PRAGMA user_version = %d; COMMIT;", migrations[version],
				      version + 1);
		int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
		free(sql);
		if (rc != SQLITE_OK) {
			db_error(err, c->db, "migration");
			sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return 0;
}

struct store *store_open(const char *path, char **err)
{
	struct conn *c = conn_open(path, err);
	if (!c)
		return NULL;
	sqlite3_stmt *s = prepare(c, "PRAGMA journal_mode = WAL", err);
	int wal = s && sqlite3_step(s) == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_finalize(s);
	if (!wal) {
		if (s)
			bm_error(err, "cannot put database '%s' in WAL mode: %s", path, sqlite3_errmsg(c->db));
		conn_close(c);
		return NULL;
	}
	if (migrate(c, err)) {
		bm_error_prefix(err, path);
		conn_close(c);
		return NULL;
	}
	s = prepare(c, "SELECT count(*) FROM incoming_results", err);
	if (!s || sqlite3_step(s) != SQLITE_ROW) {
		if (s)
			db_error(err, c->db, "count incoming results");
		sqlite3_finalize(s);
		conn_close(c);
		return NULL;
	}
	size_t incoming = (size_t)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	struct store *st = xcalloc(1, sizeof *st);
	st->incoming = incoming;
	st->merge_rows = STORE_DEFAULT_MERGE_ROWS;
	st->benchmark_keys = strpool_new();
	pthread_rwlock_init(&st->runs.lock, NULL);
	st->runs.index = idmap_new();
	st->runs.texts = strpool_new();
	st->path = xstrdup(path);
	pthread_mutex_init(&st->lock, NULL);
	pthread_mutex_init(&st->write_lock, NULL);
	pthread_mutex_init(&st->queue_lock, NULL);
	st->queue_tail = &st->queue;
	xgrow(&st->all, &st->all_alloc, 1, sizeof *st->all);
	st->all[st->nall++] = c;
	st->free_list = c;
	return st;
}

/* The default: a merge then writes each series' last pages once for
 * dozens of reports, and readers scan the incoming rows in well under a
 * millisecond. */
void store_set_merge_rows(struct store *st, size_t rows)
{
	st->merge_rows = rows;
}

void store_free(struct store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nall; i++)
		conn_close(st->all[i]);
	free(st->all);
	pthread_mutex_destroy(&st->lock);
	pthread_mutex_destroy(&st->write_lock);
	pthread_mutex_destroy(&st->queue_lock);
	strpool_free(st->benchmark_keys);
	pthread_rwlock_destroy(&st->runs.lock);
	idmap_free(st->runs.index);
	strpool_free(st->runs.texts);
	free(st->runs.entries);
	free(st->benchmark_ids);
	free(st->path);
	free(st);
}

/* ---- helpers for reading columns ---- */

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static void bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* ---- projects and tokens ---- */

int store_project_create(struct store *st, const char *name, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	pthread_mutex_lock(&st->write_lock);
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "INSERT OR IGNORE INTO projects (name, threshold, dt, st, created_at)"
				     " VALUES (?1, ?2, ?3, ?4, ?5)", err);
	if (s) {
		bind_text(s, 1, name);
		sqlite3_bind_double(s, 2, PROJECT_DEFAULT_THRESHOLD);
		sqlite3_bind_double(s, 3, PROJECT_DEFAULT_DT);
		sqlite3_bind_int(s, 4, PROJECT_DEFAULT_ST);
		sqlite3_bind_int64(s, 5, (sqlite3_int64)time(NULL));
		if (sqlite3_step(s) == SQLITE_DONE)
			rc = sqlite3_changes(c->db) > 0;
		else
			db_error(err, c->db, "create project");
		sqlite3_finalize(s);
	}
	pthread_mutex_unlock(&st->write_lock);
	release(st, c);
	return rc;
}

int store_project_get(struct store *st, const char *name, struct project *p, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "SELECT id, threshold, dt, st FROM projects WHERE name = ?1", err);
	if (s) {
		bind_text(s, 1, name);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW) {
			p->id = sqlite3_column_int64(s, 0);
			p->threshold = sqlite3_column_double(s, 1);
			p->dt = sqlite3_column_double(s, 2);
			p->st = (unsigned)sqlite3_column_int(s, 3);
			rc = 1;
		} else if (step == SQLITE_DONE) {
			rc = 0;
		} else {
			db_error(err, c->db, "read project");
		}
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

int store_project_put_settings(struct store *st, const struct project *p, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	pthread_mutex_lock(&st->write_lock);
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "UPDATE projects SET threshold = ?2, dt = ?3, st = ?4 WHERE id = ?1", err);
	if (s) {
		sqlite3_bind_int64(s, 1, p->id);
		sqlite3_bind_double(s, 2, p->threshold);
		sqlite3_bind_double(s, 3, p->dt);
		sqlite3_bind_int(s, 4, (int)p->st);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : db_error(err, c->db, "write settings");
		sqlite3_finalize(s);
	}
	pthread_mutex_unlock(&st->write_lock);
	release(st, c);
	return rc;
}

int store_token_create(struct store *st, int64_t project, int admin, char **token, char **err)
{
	int64_t id;
	return store_token_create_id(st, project, admin, token, &id, err);
}

int store_token_create_id(struct store *st, int64_t project, int admin, char **token, int64_t *id, char **err)
{
	char *t = token_new(err);
	if (!t)
		return -1;
	unsigned char hash[TOKEN_HASH_SIZE];
	token_hash(t, hash);
	struct conn *c = acquire(st, err);
	if (!c) {
		free(t);
		return -1;
	}
	pthread_mutex_lock(&st->write_lock);
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "INSERT INTO tokens (project, hash, admin, created_at) VALUES (?1, ?2, ?3, ?4)",
				  err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sqlite3_bind_blob(s, 2, hash, sizeof hash, SQLITE_TRANSIENT);
		sqlite3_bind_int(s, 3, admin != 0);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)time(NULL));
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : db_error(err, c->db, "store token");
		*id = sqlite3_last_insert_rowid(c->db);
		sqlite3_finalize(s);
	}
	pthread_mutex_unlock(&st->write_lock);
	release(st, c);
	if (rc)
		free(t);
	else
		*token = t;
	return rc;
}

int store_token_list(struct store *st, int64_t project, struct store_token **tokens, size_t *n, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = prepare(c, "SELECT id, admin, created_at FROM tokens WHERE project = ?1 ORDER BY id", err);
	int rc = -1, step;
	size_t alloc = 0;
	*tokens = NULL;
	*n = 0;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(tokens, &alloc, *n + 1, sizeof **tokens);
			(*tokens)[(*n)++] = (struct store_token){sqlite3_column_int64(s, 0), sqlite3_column_int(s, 1),
								 sqlite3_column_int64(s, 2)};
		}
		rc = step == SQLITE_DONE ? 0 : db_error(err, c->db, "list tokens");
		sqlite3_finalize(s);
	}
	release(st, c);
	if (rc) {
		free(*tokens);
		*tokens = NULL;
		*n = 0;
	}
	return rc;
}

int store_token_delete(struct store *st, int64_t project, int64_t id, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	pthread_mutex_lock(&st->write_lock);
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "DELETE FROM tokens WHERE project = ?1 AND id = ?2", err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sqlite3_bind_int64(s, 2, id);
		rc = sqlite3_step(s) == SQLITE_DONE ? sqlite3_changes(c->db) > 0 : db_error(err, c->db, "revoke token");
		sqlite3_finalize(s);
	}
	pthread_mutex_unlock(&st->write_lock);
	release(st, c);
	return rc;
}

int store_token_access(struct store *st, int64_t project, const char *token, char **err)
{
	unsigned char hash[TOKEN_HASH_SIZE];
	token_hash(token, hash);
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "SELECT admin FROM tokens WHERE project = ?1 AND hash = ?2", err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sqlite3_bind_blob(s, 2, hash, sizeof hash, SQLITE_STATIC);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW)
			rc = sqlite3_column_int(s, 0) ? ACCESS_ADMIN : ACCESS_UPLOAD;
		else if (step == SQLITE_DONE)
			rc = ACCESS_NONE;
		else
			db_error(err, c->db, "read token");
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

/* ---- adding a run ---- */

static int benchmark_id_db(struct conn *c, int64_t project, const char *name, int64_t *id, char **err);

/* The id of benchmark name in project, created when new: from the cache,
 * or from the database (then noted in the job, for the cache). */
static int benchmark_id(struct store *st, struct conn *c, struct run_job *j, const char *name, int64_t *id,
			char **err)
{
	int64_t project = j->project;
	char *key = xasprintf("%lld/%s", (long long)project, name);
	uint32_t at;
	if (strpool_find(st->benchmark_keys, key, strlen(key), &at)) {
		*id = st->benchmark_ids[at];
		free(key);
		return 0;
	}
	xgrow(&j->fresh, &j->fresh_alloc, j->nfresh + 1, sizeof *j->fresh);
	j->fresh[j->nfresh].key = key;
	j->fresh[j->nfresh].id = -1;
	int rc = benchmark_id_db(c, project, name, &j->fresh[j->nfresh].id, err);
	*id = j->fresh[j->nfresh++].id;
	return rc;
}

/* Caches the benchmark ids a committed upload looked up; frees the
 * job's list either way. */
static void benchmarks_remember(struct store *st, struct run_job *j, int committed)
{
	for (size_t i = 0; i < j->nfresh; i++) {
		struct fresh_benchmark *f = &j->fresh[i];
		uint32_t at;
		if (committed && f->id >= 0 && !strpool_find(st->benchmark_keys, f->key, strlen(f->key), &at)) {
			at = strpool_intern(st->benchmark_keys, f->key, strlen(f->key));
			xgrow(&st->benchmark_ids, &st->benchmark_alloc, (size_t)at + 1, sizeof *st->benchmark_ids);
			st->benchmark_ids[at] = f->id;
		}
		free(f->key);
	}
	free(j->fresh);
	j->fresh = NULL;
	j->nfresh = j->fresh_alloc = 0;
}

static int benchmark_id_db(struct conn *c, int64_t project, const char *name, int64_t *id, char **err)
{
	sqlite3_stmt *s = stmt(c, SQL_BENCHMARK_INSERT, err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, project);
	bind_text(s, 2, name);
	if (run(c, s, err))
		return -1;
	if (sqlite3_changes(c->db) > 0) {
		*id = sqlite3_last_insert_rowid(c->db);
		return 0;
	}
	if (!(s = stmt(c, SQL_BENCHMARK_ID, err)))
		return -1;
	sqlite3_bind_int64(s, 1, project);
	bind_text(s, 2, name);
	int rc = sqlite3_step(s);
	*id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_ROW ? 0 : db_error(err, c->db, "benchmark id");
}

/* The profile and syscalls of b, compact JSON compressed with zlib. */
static int profile_blob(const struct bm_benchmark *b, unsigned char **data, uLongf *size, size_t *raw)
{
	json_t *j = json_object();
	json_object_set(j, "profile", b->profile ? b->profile : json_null());
	json_object_set_new(j, "syscalls", syscalls_to_json(&b->syscalls));
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (!text)
		return -1;
	*raw = strlen(text);
	*size = compressBound(*raw);
	*data = xmalloc(*size);
	int rc = compress2(*data, size, (const Bytef *)text, *raw, 1) == Z_OK ? 0 : -1;
	free(text);
	return rc;
}

/* The metrics of an imported benchmark, one row each. */
static int insert_metrics(struct conn *c, int64_t run_pk, int64_t bench, const struct bm_benchmark *b, char **err)
{
	for (size_t i = 0; i < b->nmetrics; i++) {
		sqlite3_stmt *s = stmt(c, SQL_METRIC_INSERT, err);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, run_pk);
		sqlite3_bind_int64(s, 2, bench);
		bind_text(s, 3, b->metrics[i].name);
		bind_text(s, 4, b->metrics[i].unit);
		sqlite3_bind_double(s, 5, b->metrics[i].value);
		sqlite3_bind_int64(s, 6, (sqlite3_int64)i);
		if (run(c, s, err))
			return -1;
	}
	return 0;
}

static int insert_result(struct store *st, struct conn *c, struct run_job *j, int64_t run_pk,
			 const struct bm_benchmark *b, char **err)
{
	const struct bm_report *r = j->report;
	int64_t commit_time = j->commit_time;
	int64_t bench;
	if (benchmark_id(st, c, j, b->id, &bench, err))
		return -1;
	sqlite3_stmt *s = stmt(c, SQL_RESULT_INSERT, err);
	if (!s)
		return -1;
	int ok = b->status == BM_STATUS_OK;
	sqlite3_bind_int64(s, 1, run_pk);
	sqlite3_bind_int64(s, 2, bench);
	bind_text(s, 3, r->context.branch);
	sqlite3_bind_int64(s, 4, commit_time);
	sqlite3_bind_int(s, 5, (int)b->status);
	bind_text(s, 6, b->reason);
	if (ok && b->nmetrics) {
		/* Imported: the speed its primary metric compares by (none when
		 * there is nothing to compare), and a time in seconds as time_s. */
		double speed = benchmark_speed(b);
		if (speed > 0)
			sqlite3_bind_double(s, 7, speed);
		if (!strcmp(b->metrics[0].unit, "s"))
			sqlite3_bind_double(s, 9, b->metrics[0].value);
	} else if (ok) {
		sqlite3_bind_double(s, 7, b->speed);
		sqlite3_bind_int64(s, 8, (sqlite3_int64)b->cycles);
		sqlite3_bind_double(s, 9, b->time_s);
		for (int ev = 0; ev < BM_EV_COUNT; ev++)
			if (events_has(&b->events, ev))
				sqlite3_bind_int64(s, 10 + ev, (sqlite3_int64)b->events.v[ev]);
	}
	if (run(c, s, err) || (ok && insert_metrics(c, run_pk, bench, b, err)))
		return -1;
	/* Nothing to show in the profile view: no row (its API answers 404). */
	if (!ok || (!b->profile && b->syscalls.nby_function == 0))
		return 0;
	unsigned char *data;
	uLongf size;
	size_t raw;
	if (profile_blob(b, &data, &size, &raw))
		return bm_error(err, "cannot compress the profile of '%s'", b->id);
	if (!(s = stmt(c, SQL_PROFILE_INSERT, err))) {
		free(data);
		return -1;
	}
	sqlite3_bind_int64(s, 1, run_pk);
	sqlite3_bind_int64(s, 2, bench);
	sqlite3_bind_blob(s, 3, data, (int)size, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)raw);
	int rc = run(c, s, err);
	free(data);
	return rc;
}

static char *ancestors_text(const struct bm_commit *commit)
{
	json_t *a = json_array();
	for (size_t i = 0; i < commit->nancestors; i++)
		json_array_append_new(a, json_string(commit->ancestors[i]));
	char *text = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return text;
}

static int insert_run(struct store *st, struct conn *c, struct run_job *j, char **err)
{
	int64_t project = j->project, commit_time = j->commit_time;
	const struct bm_report *r = j->report;
	const char *platform = j->platform;
	int *created = &j->created;
	sqlite3_stmt *s = stmt(c, SQL_RUN_EXISTS, err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, project);
	bind_text(s, 2, r->run_id);
	int step = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (step == SQLITE_ROW) {
		*created = 0;
		return 0;
	}
	if (step != SQLITE_DONE)
		return db_error(err, c->db, "read run");
	if (!(s = stmt(c, SQL_RUN_INSERT, err)))
		return -1;
	sqlite3_bind_int64(s, 1, project);
	bind_text(s, 2, r->run_id);
	bind_text(s, 3, r->context.branch);
	bind_text(s, 4, r->context.commit->sha);
	sqlite3_bind_int64(s, 5, commit_time);
	if (r->context.pr) {
		sqlite3_bind_int64(s, 6, r->context.pr->number);
		bind_text(s, 7, r->context.pr->base_branch);
	}
	bind_text(s, 8, r->model.id);
	bind_text(s, 9, platform);
	bind_text(s, 10, r->context.host);
	sqlite3_bind_int64(s, 11, (sqlite3_int64)time(NULL));
	if (run(c, s, err))
		return -1;
	int64_t pk = sqlite3_last_insert_rowid(c->db);
	if (!(s = stmt(c, SQL_ANCESTORS_INSERT, err)))
		return -1;
	char *ancestors = ancestors_text(r->context.commit);
	sqlite3_bind_int64(s, 1, pk);
	bind_text(s, 2, ancestors);
	int rc = run(c, s, err);
	free(ancestors);
	if (rc)
		return -1;
	for (size_t i = 0; i < r->nbenchmarks; i++)
		if (insert_result(st, c, j, pk, &r->benchmarks[i], err))
			return -1;
	*created = 1;
	return 0;
}

/* Writes a batch of uploads in one transaction, each inside a savepoint
 * so that one bad run does not take the others with it, and sets each
 * job's outcome. */
static void commit_batch(struct store *st, struct run_job *batch)
{
	char *err = NULL;
	struct conn *c = acquire(st, &err);
	sqlite3_stmt *s = c ? stmt(c, SQL_BEGIN, &err) : NULL;
	int rc = s ? run(c, s, &err) : -1;
	for (struct run_job *j = batch; !rc && j; j = j->next) {
		if (!(s = stmt(c, SQL_SAVEPOINT, &j->err)) || run(c, s, &j->err)) {
			j->rc = -1;
			continue;
		}
		j->rc = insert_run(st, c, j, &j->err);
		if (j->rc && (s = stmt(c, SQL_ROLLBACK_TO, NULL)))
			run(c, s, NULL);
		if ((s = stmt(c, SQL_RELEASE, NULL)))
			run(c, s, NULL);
	}
	if (!rc && (!(s = stmt(c, SQL_COMMIT, &err)) || run(c, s, &err)))
		rc = -1;
	if (c && !sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	pthread_mutex_lock(&st->queue_lock);
	for (struct run_job *j = batch; j; j = j->next) {
		if (rc && !j->rc) {
			j->rc = -1;
			j->err = xstrdup(err ? err : "database: the transaction failed");
		}
		if (!j->rc && j->created)
			st->incoming += j->report->nbenchmarks;
		benchmarks_remember(st, j, !j->rc);
		j->done = 1;
	}
	pthread_mutex_unlock(&st->queue_lock);
	free(err);
	if (c)
		release(st, c);
}

/* Moves every incoming result into results, in one transaction, in
 * series order.  A failure leaves them incoming (readers see them there)
 * for the next merge to take. */
static int merge_incoming(struct store *st, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	static const enum sql steps[] = {SQL_BEGIN, SQL_MERGE_INSERT, SQL_MERGE_DELETE, SQL_COMMIT};
	int rc = 0;
	for (size_t i = 0; !rc && i < sizeof steps / sizeof steps[0]; i++) {
		sqlite3_stmt *s = stmt(c, steps[i], err);
		rc = s ? run(c, s, err) : -1;
	}
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	else if (!rc)
		st->incoming = 0;
	release(st, c);
	return rc;
}

/* Group commit: every upload queues itself, then waits for the write
 * lock; whoever holds it commits everything queued so far in one
 * transaction (one fsync for many runs).  A leader marks its jobs done
 * before it lets the lock go, so a job is either done or still queued
 * when its thread gets the lock. */
int store_run_add(struct store *st, int64_t project, const struct bm_report *r, const char *platform,
		  int64_t commit_time, int *created, char **err)
{
	struct run_job job = {.project = project, .commit_time = commit_time, .report = r, .platform = platform};
	pthread_mutex_lock(&st->queue_lock);
	*st->queue_tail = &job;
	st->queue_tail = &job.next;
	pthread_mutex_unlock(&st->queue_lock);

	pthread_mutex_lock(&st->write_lock);
	pthread_mutex_lock(&st->queue_lock);
	struct run_job *batch = job.done ? NULL : st->queue;
	if (batch) {
		st->queue = NULL;
		st->queue_tail = &st->queue;
	}
	pthread_mutex_unlock(&st->queue_lock);
	if (batch)
		commit_batch(st, batch);
	char *merge_err = NULL;
	if (st->incoming > 0 && st->incoming >= st->merge_rows && merge_incoming(st, &merge_err)) {
		/* The uploads are stored; their results wait for the next merge. */
		log_warn("cannot merge incoming results (they stay incoming): %s", merge_err);
		free(merge_err);
	}
	pthread_mutex_unlock(&st->write_lock);

	*created = job.created;
	if (job.rc) {
		if (err)
			*err = job.err;
		else
			free(job.err);
		return -1;
	}
	return 0;
}

/* ---- reading runs ---- */

#define RUN_COLUMNS "r.id, r.run_id, r.branch, r.sha, r.model, r.platform, r.commit_time, r.pr, r.base_branch, a.ancestors"
#define RUN_FROM " FROM runs r JOIN run_ancestors a ON a.run = r.id"

static void read_run(sqlite3_stmt *s, struct store_run *run)
{
	memset(run, 0, sizeof *run);
	run->pk = sqlite3_column_int64(s, 0);
	run->run_id = col_text(s, 1);
	run->branch = col_text(s, 2);
	run->sha = col_text(s, 3);
	run->model = col_text(s, 4);
	run->platform = col_text(s, 5);
	run->commit_time = sqlite3_column_int64(s, 6);
	run->pr = sqlite3_column_type(s, 7) == SQLITE_NULL ? 0 : (long)sqlite3_column_int64(s, 7);
	run->base_branch = col_text(s, 8);
	json_t *a = json_loads((const char *)sqlite3_column_text(s, 9), 0, NULL);
	size_t n = json_array_size(a);
	run->ancestors = xcalloc(n + 1, sizeof *run->ancestors);
	for (size_t i = 0; i < n; i++)
		if (json_is_string(json_array_get(a, i)))
			run->ancestors[run->nancestors++] = xstrdup(json_string_value(json_array_get(a, i)));
	json_decref(a);
}

void store_run_release(struct store_run *run)
{
	free(run->run_id);
	free(run->branch);
	free(run->sha);
	free(run->model);
	free(run->platform);
	free(run->base_branch);
	for (size_t i = 0; i < run->nancestors; i++)
		free(run->ancestors[i]);
	free(run->ancestors);
	memset(run, 0, sizeof *run);
}

/* Binds texts to ?2... of sql (?1 is the project) and reads one run. */
static int one_run(struct store *st, const char *sql, int64_t project, const char *const *texts, size_t ntexts,
		   long number, struct store_run *run, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = prepare(c, sql, err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		for (size_t i = 0; i < ntexts; i++)
			bind_text(s, (int)i + 2, texts[i]);
		if (number)
			sqlite3_bind_int64(s, (int)ntexts + 2, number);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW) {
			read_run(s, run);
			rc = 1;
		} else if (step == SQLITE_DONE) {
			rc = 0;
		} else {
			db_error(err, c->db, "read run");
		}
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

int store_commit_run(struct store *st, int64_t project, const char *sha, long pr, struct store_run *run,
		     char **err)
{
	const char *texts[] = {sha};
	if (pr > 0)
		return one_run(st, "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND r.pr = ?3"
				   " ORDER BY r.id DESC LIMIT 1",
			       project, texts, 1, pr, run, err);
	return one_run(st, "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2"
			   " ORDER BY r.id DESC LIMIT 1",
		       project, texts, 1, 0, run, err);
}

int store_commit_run_like(struct store *st, int64_t project, const char *sha, const char *model,
			  const char *platform, struct store_run *run, char **err)
{
	const char *texts[] = {sha, model, platform};
	return one_run(st, "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.sha = ?2 AND r.model = ?3"
			   " AND r.platform = ?4 ORDER BY r.id DESC LIMIT 1",
		       project, texts, 3, 0, run, err);
}

int store_branch_head_run(struct store *st, int64_t project, const char *branch, const char *model,
			  const char *platform, struct store_run *run, char **err)
{
	const char *texts[] = {branch, model, platform};
	return one_run(st, "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.branch = ?2"
			   " AND r.model = ?3 AND r.platform = ?4 AND r.pr IS NULL"
			   " ORDER BY r.commit_time DESC, r.id DESC LIMIT 1",
		       project, texts, 3, 0, run, err);
}

int store_benchmark_ids(struct store *st, int64_t project, const char *branch, json_t **out, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	/* results' key starts with (benchmark, branch): one probe each. */
	sqlite3_stmt *s = prepare(c,
				  "SELECT b.name FROM benchmarks b WHERE b.project = ?1 AND"
				  " (EXISTS (SELECT 1 FROM results r WHERE r.benchmark = b.id AND r.branch = ?2) OR"
				  " EXISTS (SELECT 1 FROM incoming_results r WHERE r.benchmark = b.id AND r.branch = ?2))"
				  " ORDER BY b.name",
				  err);
	int rc = -1, step;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		bind_text(s, 2, branch);
		json_t *a = json_array();
		while ((step = sqlite3_step(s)) == SQLITE_ROW)
			json_array_append_new(a, json_stringn((const char *)sqlite3_column_text(s, 0),
							      (size_t)sqlite3_column_bytes(s, 0)));
		if (step == SQLITE_DONE) {
			*out = a;
			rc = 0;
		} else {
			json_decref(a);
			db_error(err, c->db, "list benchmarks");
		}
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

int store_run_get(struct store *st, int64_t project, const char *run_id, struct store_run *run, char **err)
{
	const char *texts[] = {run_id};
	return one_run(st, "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.run_id = ?2", project, texts, 1,
		       0, run, err);
}

int store_series_heads(struct store *st, int64_t project, struct store_series_head **heads, size_t *n,
		       char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = prepare(c,
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
			(*heads)[(*n)++] = (struct store_series_head){col_text(s, 0), col_text(s, 1), col_text(s, 2),
								      sqlite3_column_int64(s, 3)};
		}
		rc = step == SQLITE_DONE ? 0 : db_error(err, c->db, "read branches");
		sqlite3_finalize(s);
	}
	release(st, c);
	if (rc) {
		store_series_heads_free(*heads, *n);
		*heads = NULL;
		*n = 0;
	}
	return rc;
}

void store_series_heads_free(struct store_series_head *heads, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(heads[i].branch);
		free(heads[i].model);
		free(heads[i].platform);
	}
	free(heads);
}

int store_branch_head_any(struct store *st, int64_t project, const char *branch, struct store_run *run,
			  char **err)
{
	const char *texts[] = {branch};
	return one_run(st, "SELECT " RUN_COLUMNS RUN_FROM " WHERE r.project = ?1 AND r.branch = ?2 AND r.pr IS NULL"
			   " ORDER BY r.commit_time DESC, r.id DESC LIMIT 1",
		       project, texts, 1, 0, run, err);
}

int store_commit_results(struct store *st, int64_t project, const struct store_run *run,
			 struct store_result **results, size_t *n, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	/* SQLite takes the bare columns from the row that max() picked: the
	 * newest run's result of each benchmark. */
	sqlite3_stmt *s = prepare(c,
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
		bind_text(s, 2, run->sha);
		bind_text(s, 3, run->model);
		bind_text(s, 4, run->platform);
		int step;
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(results, &alloc, *n + 1, sizeof **results);
			struct store_result *x = &(*results)[(*n)++];
			memset(x, 0, sizeof *x);
			x->id = col_text(s, 0);
			x->status = (enum bm_status)sqlite3_column_int(s, 1);
			x->speed = sqlite3_column_double(s, 2);
			x->reason = col_text(s, 3);
			if ((x->has_cycles = sqlite3_column_type(s, 5) != SQLITE_NULL))
				x->cycles = (uint64_t)sqlite3_column_int64(s, 5);
			for (int e = 0; e < BM_EV_COUNT; e++) {
				if (sqlite3_column_type(s, 6 + e) == SQLITE_NULL)
					continue;
				x->events.v[e] = (uint64_t)sqlite3_column_int64(s, 6 + e);
				x->events.present |= 1u << e;
			}
			if (sqlite3_column_type(s, 6 + BM_EV_COUNT) != SQLITE_NULL) {
				x->metric = col_text(s, 6 + BM_EV_COUNT);
				x->unit = col_text(s, 7 + BM_EV_COUNT);
				x->value = sqlite3_column_double(s, 8 + BM_EV_COUNT);
			}
			x->run_id = col_text(s, 9 + BM_EV_COUNT);
			x->has_profile = sqlite3_column_int(s, 10 + BM_EV_COUNT);
		}
		rc = step == SQLITE_DONE ? 0 : db_error(err, c->db, "read results");
		sqlite3_finalize(s);
	}
	release(st, c);
	if (rc) {
		store_results_free(*results, *n);
		*results = NULL;
		*n = 0;
	}
	return rc;
}

void store_results_free(struct store_result *results, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(results[i].id);
		free(results[i].reason);
		free(results[i].metric);
		free(results[i].unit);
		free(results[i].run_id);
	}
	free(results);
}

/* ---- series ---- */

/* The column of a metric, from a fixed list: never text from a request. */
static const char *metric_column(const char *metric)
{
	static const char *const columns[][2] = {
		{"speed", "speed"},   {"cycles", "cycles"},   {"time_s", "time_s"},
		{"Ir", "ev_Ir"},      {"Dr", "ev_Dr"},         {"Dw", "ev_Dw"},
		{"I1mr", "ev_I1mr"},  {"D1mr", "ev_D1mr"},     {"D1mw", "ev_D1mw"},
		{"ILmr", "ev_ILmr"},  {"DLmr", "ev_DLmr"},     {"DLmw", "ev_DLmw"},
		{"Bc", "ev_Bc"},      {"Bcm", "ev_Bcm"},       {"Bi", "ev_Bi"},
		{"Bim", "ev_Bim"},    {"sysCount", "ev_sysCount"}, {"sysTime", "ev_sysTime"},
		{"sysCpuTime", "ev_sysCpuTime"},
	};
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (!strcmp(metric, columns[i][0]))
			return columns[i][1];
	return NULL;
}

int store_metric_known(const char *metric)
{
	return metric_column(metric) != NULL;
}

/* A point's four strings share one allocation, which starts at sha. */
static void point_release(struct store_point *p)
{
	free(p->sha);
}

void store_points_free(struct store_point *points, size_t n)
{
	for (size_t i = 0; i < n; i++)
		point_release(&points[i]);
	free(points);
}

/* Copies sha, run_id, model and platform into p, in one allocation (a
 * history has 10,000 points).  NULL reads as "". */
static void point_set_texts(struct store_point *p, const char *const text[4])
{
	size_t len[4], total = 0;
	for (int i = 0; i < 4; i++) {
		len[i] = text[i] ? strlen(text[i]) : 0;
		total += len[i] + 1;
	}
	char *at = xmalloc(total);
	char **field[4] = {&p->sha, &p->run_id, &p->model, &p->platform};
	for (int i = 0; i < 4; i++) {
		memcpy(at, text[i] ? text[i] : "", len[i]);
		at[len[i]] = '\0';
		*field[i] = at;
		at += len[i] + 1;
	}
}

static void read_point(sqlite3_stmt *s, int first, struct store_point *p)
{
	const char *text[4];
	for (int i = 0; i < 4; i++)
		text[i] = (const char *)sqlite3_column_text(s, first + i);
	point_set_texts(p, text);
	p->commit_time = sqlite3_column_int64(s, first + 4);
	p->status = (enum bm_status)sqlite3_column_int(s, first + 5);
	p->has_value = sqlite3_column_type(s, first + 6) != SQLITE_NULL;
	p->value = sqlite3_column_double(s, first + 6);
	p->run_pk = sqlite3_column_int64(s, first + 7);
}

/* Series order: commit time, then upload order. */
static int point_before(const struct store_point *a, const struct store_point *b)
{
	return a->commit_time != b->commit_time ? a->commit_time < b->commit_time : a->run_pk < b->run_pk;
}

/* Keeps one point per commit, its newest run's, in place; the order of
 * what stays is kept.  (A commit's runs normally share one commit time
 * and sit side by side; the hash table finds them wherever they are.) */
static void points_one_per_commit(struct store_point *points, size_t *n)
{
	/* Open addressing over point indexes, keyed by SHA, at most half full.
	 * group[i]: the first point of i's commit; newest[g]: that commit's
	 * newest point, for each first point g. */
	const size_t none = (size_t)-1;
	size_t size = 16;
	while (size < 2 * *n)
		size *= 2;
	size_t *slot = xmalloc(size * sizeof *slot), *group = xcalloc(*n + 1, sizeof *group),
	       *newest = xcalloc(*n + 1, sizeof *newest);
	for (size_t i = 0; i < size; i++)
		slot[i] = none;
	for (size_t i = 0; i < *n; i++) {
		size_t at = (size_t)hash_bytes(points[i].sha, strlen(points[i].sha)) & (size - 1);
		while (slot[at] != none && strcmp(points[slot[at]].sha, points[i].sha))
			at = (at + 1) & (size - 1);
		if (slot[at] == none)
			slot[at] = newest[i] = i;
		group[i] = slot[at];
		if (points[i].run_pk > points[newest[group[i]]].run_pk)
			newest[group[i]] = i;
	}
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		if (newest[group[i]] == i)
			points[out++] = points[i];
		else
			point_release(&points[i]);
	}
	*n = out;
	free(slot);
	free(group);
	free(newest);
}

/* Gives point p its run's texts from the cache: 1 (p filled), 2 (a
 * pull-request run: not part of a history), 0 (not cached).  The caller
 * holds the cache's lock. */
static int run_cache_fill(struct run_cache *rc, struct store_point *p)
{
	uint32_t at;
	if (!idmap_lookup(rc->index, (uint64_t)p->run_pk, 0, &at))
		return 0;
	const struct run_entry *e = &rc->entries[at];
	if (e->pr)
		return 2;
	const char *text[4];
	for (int i = 0; i < 4; i++)
		text[i] = strpool_get(rc->texts, e->text[i]);
	point_set_texts(p, text);
	return 1;
}

static void run_cache_add(struct run_cache *rc, int64_t pk, const char *const text[4], int pr)
{
	pthread_rwlock_wrlock(&rc->lock);
	uint32_t at;
	if (!idmap_lookup(rc->index, (uint64_t)pk, 0, &at)) {
		if (rc->n >= RUN_CACHE_MAX) {
			idmap_free(rc->index);
			strpool_free(rc->texts);
			rc->index = idmap_new();
			rc->texts = strpool_new();
			rc->n = 0;
		}
		xgrow(&rc->entries, &rc->alloc, rc->n + 1, sizeof *rc->entries);
		struct run_entry *e = &rc->entries[rc->n];
		for (int i = 0; i < 4; i++)
			e->text[i] = strpool_intern(rc->texts, text[i] ? text[i] : "", text[i] ? strlen(text[i]) : 0);
		e->pr = pr;
		idmap_insert(rc->index, (uint64_t)pk, 0, (uint32_t)rc->n++);
	}
	pthread_rwlock_unlock(&rc->lock);
}

/* Reads run pk into the cache from the database. */
static int run_cache_load(struct store *st, struct conn *c, int64_t pk, char **err)
{
	sqlite3_stmt *s = stmt(c, SQL_RUN_FACTS, err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, pk);
	int step = sqlite3_step(s);
	if (step == SQLITE_ROW) {
		const char *text[4];
		for (int i = 0; i < 4; i++)
			text[i] = (const char *)sqlite3_column_text(s, i);
		run_cache_add(&st->runs, pk, text, sqlite3_column_int(s, 4));
	}
	sqlite3_reset(s);
	return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : db_error(err, c->db, "read run");
}

/* A point's value in a history of an imported metric (named by ?4): by
 * key, beside the result row x. */
#define IMPORTED_VALUE                                                                                       \
	"(SELECT m.value FROM result_metrics m WHERE m.run = x.run AND m.benchmark = x.benchmark AND m.name = ?4)"

/* One benchmark's series on a branch from table (results or
 * incoming_results) into *points (fresh, in series order): the results
 * from the table, their runs from the cache.  value is the SQL of a
 * point's value: a column of x, or IMPORTED_VALUE with imported naming
 * the metric (NULL otherwise). */
static int history_part(struct store *st, struct conn *c, const char *table, const char *value,
			const char *imported, int64_t project, const char *id, const char *branch,
			struct store_point **points, size_t *n, char **err)
{
	*points = NULL;
	*n = 0;
	char *sql = xasprintf("SELECT x.commit_time, x.status, %s, x.run FROM %s x"
			      " WHERE x.benchmark = (SELECT id FROM benchmarks WHERE project = ?1 AND name = ?2)"
			      " AND x.branch = ?3 ORDER BY x.commit_time, x.run",
			      value, table);
	sqlite3_stmt *s = prepare(c, sql, err);
	free(sql);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, project);
	bind_text(s, 2, id);
	bind_text(s, 3, branch);
	if (imported)
		bind_text(s, 4, imported);
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
	int rc = step == SQLITE_DONE ? 0 : db_error(err, c->db, "read history");
	sqlite3_finalize(s);
	/* Runs: from the cache, loading what it lacks (at most twice: a run
	 * loaded can be emptied out again by a full cache). */
	size_t out = 0;
	for (size_t i = 0; !rc && i < *n; i++) {
		struct store_point *p = &(*points)[i];
		int found = 0;
		for (int tries = 0; !rc && !found && tries < 3; tries++) {
			pthread_rwlock_rdlock(&st->runs.lock);
			found = run_cache_fill(&st->runs, p);
			pthread_rwlock_unlock(&st->runs.lock);
			if (!found)
				rc = run_cache_load(st, c, p->run_pk, err);
		}
		if (found == 1)
			(*points)[out++] = *p;
	}
	if (rc) {
		for (size_t i = 0; i < out; i++)
			point_release(&(*points)[i]);
		free(*points);
		*points = NULL;
		out = 0;
	}
	*n = out;
	return rc;
}

/* Leaves out, in place, the ok points without a value: in an imported
 * metric's series, the commits whose result does not carry it. */
static void points_drop_unmeasured(struct store_point *points, size_t *n)
{
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		if (points[i].status == BM_STATUS_OK && !points[i].has_value)
			point_release(&points[i]);
		else
			points[out++] = points[i];
	}
	*n = out;
}

int store_history(struct store *st, int64_t project, const char *id, const char *branch, const char *metric,
		  struct store_point **points, size_t *n, char **err)
{
	const char *column = metric_column(metric), *imported = column ? NULL : metric;
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	char *value = column ? xasprintf("x.%s", column) : xstrdup(IMPORTED_VALUE);
	/* The merged series is one clustered range, in order already; the few
	 * incoming results are merged into it here.  Both reads share one
	 * snapshot, so that a merge committed between them loses nothing. */
	struct store_point *merged = NULL, *incoming = NULL;
	size_t nmerged = 0, nincoming = 0;
	int rc = sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? 0 : db_error(err, c->db, "begin");
	if (!rc)
		rc = history_part(st, c, "results", value, imported, project, id, branch, &merged, &nmerged, err);
	if (!rc)
		rc = history_part(st, c, "incoming_results", value, imported, project, id, branch, &incoming,
				  &nincoming, err);
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
	release(st, c);
	free(value);
	if (rc) {
		store_points_free(merged, nmerged);
		store_points_free(incoming, nincoming);
		return -1;
	}
	*n = nmerged + nincoming;
	*points = xcalloc(*n ? *n : 1, sizeof **points);
	for (size_t i = 0, j = 0, k = 0; k < *n; k++)
		(*points)[k] = j == nincoming || (i < nmerged && !point_before(&incoming[j], &merged[i])) ? merged[i++]
												       : incoming[j++];
	free(merged);
	free(incoming);
	points_one_per_commit(*points, n);
	if (imported)
		points_drop_unmeasured(*points, n);
	return 0;
}

int store_branch_series(struct store *st, int64_t project, const char *branch, const char *metric,
			store_series_fn fn, void *ctx, char **err)
{
	const char *column = metric_column(metric);
	if (!column)
		return bm_error(err, "unknown metric '%s'", metric);
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	char *sql = xasprintf("SELECT b.name, r.sha, r.run_id, r.model, r.platform, x.commit_time, x.status, x.%s, x.run"
			      " FROM (SELECT run, benchmark, commit_time, status, %s FROM results"
			      " WHERE benchmark IN (SELECT id FROM benchmarks WHERE project = ?1) AND branch = ?2 AND status = 0"
			      " UNION ALL SELECT run, benchmark, commit_time, status, %s FROM incoming_results"
			      " WHERE benchmark IN (SELECT id FROM benchmarks WHERE project = ?1) AND branch = ?2 AND status = 0) x"
			      " JOIN runs r ON r.id = x.run JOIN benchmarks b ON b.id = x.benchmark"
			      " WHERE r.pr IS NULL ORDER BY b.name, x.commit_time, x.run",
			      column, column, column);
	sqlite3_stmt *s = prepare(c, sql, err);
	free(sql);
	int rc = -1;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		bind_text(s, 2, branch);
		struct store_point *points = NULL;
		size_t n = 0, alloc = 0;
		char *current = NULL;
		int step;
		rc = 0;
		while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(s, 0);
			if (current && strcmp(current, name)) {
				points_one_per_commit(points, &n);
				rc = fn(ctx, current, points, n);
				store_points_free(points, n);
				points = NULL;
				n = alloc = 0;
			}
			if (!current || strcmp(current, name)) {
				free(current);
				current = xstrdup(name);
			}
			xgrow(&points, &alloc, n + 1, sizeof *points);
			read_point(s, 1, &points[n++]);
		}
		if (!rc && step != SQLITE_DONE)
			rc = db_error(err, c->db, "read series");
		if (!rc && current) {
			points_one_per_commit(points, &n);
			rc = fn(ctx, current, points, n);
		}
		store_points_free(points, n);
		free(current);
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

/* ---- listings ---- */

int store_projects(struct store *st, json_t **out, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = prepare(c,
				  "SELECT p.name, (SELECT count(*) FROM runs WHERE project = p.id),"
				  " (SELECT count(*) FROM benchmarks WHERE project = p.id),"
				  " (SELECT max(created_at) FROM runs WHERE project = p.id)"
				  " FROM projects p ORDER BY p.name",
				  err);
	int rc = -1;
	if (s) {
		json_t *a = json_array();
		int step;
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			json_t *p = json_object();
			json_object_set_new(p, "name", json_string((const char *)sqlite3_column_text(s, 0)));
			json_object_set_new(p, "runs", json_integer(sqlite3_column_int64(s, 1)));
			json_object_set_new(p, "benchmarks", json_integer(sqlite3_column_int64(s, 2)));
			json_object_set_new(p, "latest_upload", sqlite3_column_type(s, 3) == SQLITE_NULL
									 ? json_null()
									 : json_integer(sqlite3_column_int64(s, 3)));
			json_array_append_new(a, p);
		}
		if (step == SQLITE_DONE) {
			*out = a;
			rc = 0;
		} else {
			json_decref(a);
			db_error(err, c->db, "read projects");
		}
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

int store_branches(struct store *st, int64_t project, json_t **out, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = prepare(c,
				  "SELECT r.branch, count(*), r.sha, r.commit_time, r.run_id, max(r.commit_time)"
				  " FROM runs r WHERE r.project = ?1 AND r.pr IS NULL GROUP BY r.branch"
				  " ORDER BY 6 DESC, r.branch",
				  err);
	int rc = -1;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		json_t *a = json_array();
		int step;
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			json_t *b = json_object(), *latest = json_object();
			json_object_set_new(b, "name", json_string((const char *)sqlite3_column_text(s, 0)));
			json_object_set_new(b, "runs", json_integer(sqlite3_column_int64(s, 1)));
			json_object_set_new(latest, "sha", json_string((const char *)sqlite3_column_text(s, 2)));
			json_object_set_new(latest, "timestamp", json_integer(sqlite3_column_int64(s, 3)));
			json_object_set_new(latest, "run_id", json_string((const char *)sqlite3_column_text(s, 4)));
			json_object_set_new(b, "latest", latest);
			json_array_append_new(a, b);
		}
		if (step == SQLITE_DONE) {
			*out = a;
			rc = 0;
		} else {
			json_decref(a);
			db_error(err, c->db, "read branches");
		}
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

int store_profile(struct store *st, int64_t project, const char *run_id, const char *id, json_t **out,
		  char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = prepare(c,
				  "SELECT p.data, p.size FROM profiles p JOIN runs r ON r.id = p.run"
				  " JOIN benchmarks b ON b.id = p.benchmark"
				  " WHERE r.project = ?1 AND r.run_id = ?2 AND b.project = ?1 AND b.name = ?3",
				  err);
	int rc = -1;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		bind_text(s, 2, run_id);
		bind_text(s, 3, id);
		int step = sqlite3_step(s);
		if (step == SQLITE_ROW) {
			uLongf size = (uLongf)sqlite3_column_int64(s, 1);
			char *text = xmalloc(size + 1);
			if (uncompress((Bytef *)text, &size, sqlite3_column_blob(s, 0),
				       (uLong)sqlite3_column_bytes(s, 0)) == Z_OK) {
				*out = json_loadb(text, size, 0, NULL);
				rc = *out ? 1 : bm_error(err, "database: a stored profile is not JSON");
			} else {
				bm_error(err, "database: a stored profile does not decompress");
			}
			free(text);
		} else if (step == SQLITE_DONE) {
			rc = 0;
		} else {
			db_error(err, c->db, "read profile");
		}
		sqlite3_finalize(s);
	}
	release(st, c);
	return rc;
}

/* ---- acknowledgements ---- */

int store_ack_add(struct store *st, int64_t project, const struct store_ack *a, int64_t *id, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	pthread_mutex_lock(&st->write_lock);
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "INSERT INTO acknowledgements (project, benchmark, sha, pr, impact, author, reason,"
				     " created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		bind_text(s, 2, a->benchmark);
		bind_text(s, 3, a->sha);
		sqlite3_bind_int64(s, 4, a->pr);
		sqlite3_bind_double(s, 5, a->impact);
		bind_text(s, 6, a->by);
		bind_text(s, 7, a->reason);
		sqlite3_bind_int64(s, 8, a->created_at);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : db_error(err, c->db, "store acknowledgement");
		*id = sqlite3_last_insert_rowid(c->db);
		sqlite3_finalize(s);
	}
	pthread_mutex_unlock(&st->write_lock);
	release(st, c);
	return rc;
}

/* The acknowledgements a query selects, in its order: ?1 is the project,
 * ?2 a pull request and ?3 a commit where the query names them (binding
 * a parameter a query lacks does nothing). */
static int read_acks(struct store *st, const char *sql, int64_t project, long pr, const char *sha,
		     struct store_ack **acks, size_t *n, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	sqlite3_stmt *s = prepare(c, sql, err);
	int rc = -1, step;
	size_t alloc = 0;
	*acks = NULL;
	*n = 0;
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sqlite3_bind_int64(s, 2, pr);
		bind_text(s, 3, sha);
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			xgrow(acks, &alloc, *n + 1, sizeof **acks);
			(*acks)[(*n)++] = (struct store_ack){
				.id = sqlite3_column_int64(s, 0),
				.benchmark = col_text(s, 1),
				.sha = col_text(s, 2),
				.pr = (long)sqlite3_column_int64(s, 3),
				.impact = sqlite3_column_double(s, 4),
				.by = col_text(s, 5),
				.reason = col_text(s, 6),
				.created_at = sqlite3_column_int64(s, 7),
			};
		}
		rc = step == SQLITE_DONE ? 0 : db_error(err, c->db, "read acknowledgements");
		sqlite3_finalize(s);
	}
	release(st, c);
	if (rc) {
		store_acks_free(*acks, *n);
		*acks = NULL;
		*n = 0;
	}
	return rc;
}

#define ACK_COLUMNS "SELECT id, benchmark, sha, pr, impact, author, reason, created_at FROM acknowledgements"

int store_acks_of(struct store *st, int64_t project, const char *sha, long pr, struct store_ack **acks, size_t *n,
		  char **err)
{
	return read_acks(st,
			 pr ? ACK_COLUMNS " WHERE project = ?1 AND pr = ?2 ORDER BY id DESC"
			    : ACK_COLUMNS " WHERE project = ?1 AND pr = ?2 AND sha = ?3 ORDER BY id DESC",
			 project, pr, sha, acks, n, err);
}

int store_ack_list(struct store *st, int64_t project, struct store_ack **acks, size_t *n, char **err)
{
	return read_acks(st, ACK_COLUMNS " WHERE project = ?1 ORDER BY id DESC LIMIT 1000",
			 project, 0, NULL, acks, n, err);
}

int store_ack_delete(struct store *st, int64_t project, int64_t id, char **err)
{
	struct conn *c = acquire(st, err);
	if (!c)
		return -1;
	pthread_mutex_lock(&st->write_lock);
	int rc = -1;
	sqlite3_stmt *s = prepare(c, "DELETE FROM acknowledgements WHERE project = ?1 AND id = ?2", err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sqlite3_bind_int64(s, 2, id);
		rc = sqlite3_step(s) == SQLITE_DONE ? sqlite3_changes(c->db) > 0
						    : db_error(err, c->db, "withdraw acknowledgement");
		sqlite3_finalize(s);
	}
	pthread_mutex_unlock(&st->write_lock);
	release(st, c);
	return rc;
}

void store_acks_free(struct store_ack *acks, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(acks[i].benchmark);
		free(acks[i].sha);
		free(acks[i].by);
		free(acks[i].reason);
	}
	free(acks);
}
