/* SPDX-License-Identifier: MIT */
/* The SQLite backend (store_backend.h): its connections, its schema and
 * its table.
 *
 * One database file in WAL mode with synchronous=FULL, so that a commit
 * is on disk before the API answers 2xx.  Readers run in parallel on
 * pooled connections; store_write.c serialises writers (SQLite allows one at a
 * time anyway, and waiting on a mutex is cheaper than on SQLITE_BUSY).
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

#include "store_sqlite.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* 4 -> 5: token and acknowledgement ids are never used again.  A plain
 * INTEGER PRIMARY KEY hands a deleted row's id (the highest) to the next
 * row, so a client retrying "DELETE tokens/3" after a timeout could
 * revoke the token made since; AUTOINCREMENT never reuses one.  SQLite
 * cannot add it to a table, so both are copied into new ones, ids and
 * rows as they were (sqlite_sequence starts past the highest id copied).
 * Nothing refers to either table. */
static const char migration_5[] =
	"CREATE TABLE tokens_5 ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT, project INTEGER NOT NULL REFERENCES projects(id),"
	"  hash BLOB NOT NULL UNIQUE, admin INTEGER NOT NULL, created_at INTEGER NOT NULL);"
	"INSERT INTO tokens_5 (id, project, hash, admin, created_at)"
	"  SELECT id, project, hash, admin, created_at FROM tokens ORDER BY id;"
	"DROP TABLE tokens;"
	"ALTER TABLE tokens_5 RENAME TO tokens;"
	"CREATE TABLE acknowledgements_5 ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT, project INTEGER NOT NULL REFERENCES projects(id),"
	"  benchmark TEXT NOT NULL, sha TEXT NOT NULL, pr INTEGER NOT NULL, impact REAL NOT NULL,"
	"  author TEXT NOT NULL, reason TEXT NOT NULL, created_at INTEGER NOT NULL);"
	"INSERT INTO acknowledgements_5 (id, project, benchmark, sha, pr, impact, author, reason, created_at)"
	"  SELECT id, project, benchmark, sha, pr, impact, author, reason, created_at FROM acknowledgements ORDER BY id;"
	"DROP TABLE acknowledgements;"
	"ALTER TABLE acknowledgements_5 RENAME TO acknowledgements;"
	"CREATE INDEX acknowledgements_by_scope ON acknowledgements (project, pr, sha);";

/* 5 -> 6: a pull request's merge base with its base branch, for the
 * baseline rule that compares with it (bm-check --baseline merge-base). */
static const char migration_6[] = "ALTER TABLE runs ADD COLUMN merge_base TEXT;";

static const char *const migrations[] = {migration_1, migration_2, migration_3, migration_4, migration_5,
					 migration_6};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

static const char *const sql_text[SQL_COUNT] = {
	[SQL_BEGIN] = "BEGIN IMMEDIATE",
	[SQL_COMMIT] = "COMMIT",
	[SQL_ROLLBACK] = "ROLLBACK",
	[SQL_RUN_EXISTS] = "SELECT 1 FROM runs WHERE project = ?1 AND run_id = ?2",
	[SQL_RUN_INSERT] = ("INSERT INTO runs (project, run_id, branch, sha, commit_time, pr, base_branch, model,"
			    " platform, host, created_at, merge_base)"
			    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"),
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

int sq_error(char **err, sqlite3 *db, const char *what)
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

static struct conn *conn_open(const char *path, int create, char **err)
{
	struct conn *c = xcalloc(1, sizeof *c);
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &c->db, flags, NULL) != SQLITE_OK) {
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

struct conn *sq_acquire(struct store_db *db, char **err)
{
	pthread_mutex_lock(&db->lock);
	struct conn *c = db->free_list;
	if (c)
		db->free_list = c->next;
	pthread_mutex_unlock(&db->lock);
	if (c)
		return c;
	if (!(c = conn_open(db->path, db->create, err)))
		return NULL;
	pthread_mutex_lock(&db->lock);
	xgrow(&db->all, &db->all_alloc, db->nall + 1, sizeof *db->all);
	db->all[db->nall++] = c;
	pthread_mutex_unlock(&db->lock);
	return c;
}

void sq_release(struct store_db *db, struct conn *c)
{
	/* A connection left inside a transaction (a COMMIT refused, say) is
	 * rolled back before anyone else borrows it: an open read would
	 * hold its snapshot, and the WAL, for ever. */
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	pthread_mutex_lock(&db->lock);
	c->next = db->free_list;
	db->free_list = c;
	pthread_mutex_unlock(&db->lock);
}

sqlite3_stmt *sq_stmt(struct conn *c, enum sql which, char **err)
{
	if (!c->stmt[which] &&
	    sqlite3_prepare_v3(c->db, sql_text[which], -1, SQLITE_PREPARE_PERSISTENT, &c->stmt[which], NULL) !=
		    SQLITE_OK) {
		sq_error(err, c->db, "prepare");
		return NULL;
	}
	return c->stmt[which];
}

sqlite3_stmt *sq_prepare(struct conn *c, const char *sql, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK) {
		sq_error(err, c->db, "prepare");
		return NULL;
	}
	return s;
}

int sq_run(struct conn *c, sqlite3_stmt *s, char **err)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sq_error(err, c->db, "write");
	return 0;
}

char *sq_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

void sq_bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

long sq_each(struct store_db *db, const char *what, sq_row_fn row, void *ctx, char **err, const char *sql,
	     const char *types, ...)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	long rows = -1;
	sqlite3_stmt *s = sq_prepare(c, sql, err);
	if (s) {
		va_list ap;
		va_start(ap, types);
		for (int i = 0; types[i]; i++) {
			if (types[i] == 'i') {
				sqlite3_bind_int64(s, i + 1, va_arg(ap, int64_t));
			} else if (types[i] == 't') {
				sq_bind_text(s, i + 1, va_arg(ap, const char *));
			} else {
				const void *blob = va_arg(ap, const void *);
				sqlite3_bind_blob(s, i + 1, blob, (int)va_arg(ap, size_t), SQLITE_STATIC);
			}
		}
		va_end(ap);
		int step;
		rows = 0;
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			row(s, ctx);
			rows++;
		}
		if (step != SQLITE_DONE)
			rows = sq_error(err, c->db, what);
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rows;
}

void *sq_list_add(struct sq_list *l)
{
	xgrow(l->items, &l->alloc, *l->n + 1, l->size);
	char *item = *(char **)l->items + (*l->n)++ * l->size;
	memset(item, 0, l->size);
	return item;
}

static int migrate(struct conn *c, char **err)
{
	sqlite3_stmt *s = sq_prepare(c, "PRAGMA user_version", err);
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
			sq_error(err, c->db, "migration");
			sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return 0;
}

static struct store_db *sq_open(const char *path, const struct store_options *o, char **err)
{
	struct stat st;
	if (o->existing && stat(path, &st) != 0 && errno == ENOENT) {
		bm_error(err, "database '%s' does not exist (nothing is created here: give an existing SQLite database)",
			 path);
		return NULL;
	}
	struct conn *c = conn_open(path, !o->existing, err);
	if (!c)
		return NULL;
	sqlite3_stmt *s = sq_prepare(c, "PRAGMA journal_mode = WAL", err);
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
	s = sq_prepare(c, "SELECT count(*) FROM incoming_results", err);
	if (!s || sqlite3_step(s) != SQLITE_ROW) {
		if (s)
			sq_error(err, c->db, "count incoming results");
		sqlite3_finalize(s);
		conn_close(c);
		return NULL;
	}
	size_t incoming = (size_t)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	struct store_db *db = xcalloc(1, sizeof *db);
	db->incoming = incoming;
	db->merge_rows = o->merge_rows;
	db->create = !o->existing;
	db->path = xstrdup(path);
	pthread_mutex_init(&db->lock, NULL);
	xgrow(&db->all, &db->all_alloc, 1, sizeof *db->all);
	db->all[db->nall++] = c;
	db->free_list = c;
	return db;
}

static void sq_close(struct store_db *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->nall; i++)
		conn_close(db->all[i]);
	free(db->all);
	pthread_mutex_destroy(&db->lock);
	free(db->path);
	free(db);
}

const struct store_backend store_sqlite = {
	.name = "sqlite",
	.open = sq_open,
	.close = sq_close,
	.project_create = sq_project_create,
	.project_get = sq_project_get,
	.project_put_settings = sq_project_put_settings,
	.token_add = sq_token_add,
	.token_access = sq_token_access,
	.token_list = sq_token_list,
	.token_delete = sq_token_delete,
	.ack_add = sq_ack_add,
	.acks = sq_acks,
	.ack_delete = sq_ack_delete,
	.tx_begin = sq_tx_begin,
	.tx_end = sq_tx_end,
	.savepoint = sq_savepoint,
	.savepoint_end = sq_savepoint_end,
	.run_insert = sq_run_insert,
	.benchmark_id = sq_benchmark_id,
	.result_insert = sq_result_insert,
	.after_commit = sq_after_commit,
	.run_find = sq_run_find,
	.run_facts = sq_run_facts,
	.commit_runs = sq_commit_runs,
	.benchmark_names = sq_benchmark_names,
	.series_heads = sq_series_heads,
	.commit_results = sq_commit_results,
	.history = sq_history,
	.branch_series = sq_branch_series,
	.projects = sq_projects,
	.branches = sq_branches,
	.profile = sq_profile,
	.display = sq_display,
	.count_rows = sq_count_rows,
	.copy_out = sq_copy_out,
};
