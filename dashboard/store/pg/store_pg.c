/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend (store_backend.h): its connections, its schema
 * and its table.
 *
 * Several bm-server processes may share the database.  Each keeps a pool
 * of connections; every write is a transaction the server commits before
 * the API answers 2xx (synchronous_commit as the database has it: on by
 * default); nothing that can change is cached in this file.  The schema
 * version is the one row of bm_schema; migrations[i] takes it from i to
 * i + 1, each in its own transaction, under an advisory lock so that
 * servers starting together migrate once.  Results go straight to
 * results, whose primary key orders them by series (PostgreSQL needs no
 * incoming table: its writers do not block its readers). */
#include "config.h"

#include "store_pg.h"

#include "error.h"
#include "xalloc.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 0 -> 1: the schema of SQLite's version 4, in PostgreSQL's types; texts
 * compare and sort byte by byte (COLLATE "C"), as SQLite's do.  A speed
 * history (the pages' default) is read from results' primary key alone
 * (an index-only scan: its rows are spread over the table, one page
 * each), which needs the pages marked all-visible: vacuumed after every
 * 1% of growth rather than 20%. */
static const char migration_1[] =
	"CREATE TABLE projects ("
	"  id bigserial PRIMARY KEY, name text COLLATE \"C\" NOT NULL UNIQUE,"
	"  threshold double precision NOT NULL, dt double precision NOT NULL, st integer NOT NULL,"
	"  created_at bigint NOT NULL);"
	"CREATE TABLE tokens ("
	"  id bigserial PRIMARY KEY, project bigint NOT NULL REFERENCES projects(id),"
	"  hash bytea NOT NULL UNIQUE, admin boolean NOT NULL, created_at bigint NOT NULL);"
	"CREATE TABLE runs ("
	"  id bigserial PRIMARY KEY, project bigint NOT NULL REFERENCES projects(id), run_id text COLLATE \"C\" NOT NULL,"
	"  branch text COLLATE \"C\" NOT NULL, sha text COLLATE \"C\" NOT NULL, commit_time bigint NOT NULL, pr bigint,"
	"  base_branch text, model text COLLATE \"C\" NOT NULL, platform text COLLATE \"C\" NOT NULL, host text,"
	"  created_at bigint NOT NULL, UNIQUE (project, run_id));"
	"CREATE INDEX runs_by_commit ON runs (project, sha);"
	"CREATE INDEX runs_by_branch ON runs (project, branch, commit_time);"
	"CREATE TABLE run_ancestors (run bigint PRIMARY KEY REFERENCES runs(id), ancestors text NOT NULL);"
	"CREATE TABLE benchmarks ("
	"  id bigserial PRIMARY KEY, project bigint NOT NULL REFERENCES projects(id), name text COLLATE \"C\" NOT NULL,"
	"  UNIQUE (project, name));"
	"CREATE TABLE results ("
	"  benchmark bigint NOT NULL, branch text COLLATE \"C\" NOT NULL, commit_time bigint NOT NULL, run bigint NOT NULL,"
	"  status integer NOT NULL, reason text, speed double precision, cycles bigint, time_s double precision,"
	"  ev_Ir bigint, ev_Dr bigint, ev_Dw bigint, ev_I1mr bigint, ev_D1mr bigint, ev_D1mw bigint,"
	"  ev_ILmr bigint, ev_DLmr bigint, ev_DLmw bigint, ev_Bc bigint, ev_Bcm bigint, ev_Bi bigint,"
	"  ev_Bim bigint, ev_sysCount bigint, ev_sysTime bigint, ev_sysCpuTime bigint,"
	"  PRIMARY KEY (benchmark, branch, commit_time, run) INCLUDE (status, speed))"
	"  WITH (autovacuum_vacuum_insert_scale_factor = 0.01);"
	"CREATE INDEX results_by_run ON results (run);"
	"CREATE TABLE profiles ("
	"  run bigint NOT NULL, benchmark bigint NOT NULL, data bytea NOT NULL, size bigint NOT NULL,"
	"  PRIMARY KEY (run, benchmark));"
	"CREATE TABLE result_metrics ("
	"  run bigint NOT NULL, benchmark bigint NOT NULL, name text COLLATE \"C\" NOT NULL, unit text NOT NULL,"
	"  value double precision NOT NULL, position integer NOT NULL, PRIMARY KEY (run, benchmark, name));"
	"CREATE TABLE acknowledgements ("
	"  id bigserial PRIMARY KEY, project bigint NOT NULL REFERENCES projects(id), benchmark text NOT NULL,"
	"  sha text NOT NULL, pr bigint NOT NULL, impact double precision NOT NULL, author text NOT NULL,"
	"  reason text NOT NULL, created_at bigint NOT NULL);"
	"CREATE INDEX acknowledgements_by_scope ON acknowledgements (project, pr, sha);";

/* 1 -> 2: a pull request's merge base with its base branch (SQLite's 6). */
static const char migration_2[] = "ALTER TABLE runs ADD COLUMN merge_base text COLLATE \"C\";";

static const char *const migrations[] = {migration_1, migration_2};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

/* The advisory lock migrations hold: "bm" and a version of the rule. */
#define MIGRATION_LOCK "7162700001"

/* ---- helpers ---- */

static void ignore_notice(void *arg, const char *message)
{
	(void)arg, (void)message;
}

/* libpq's messages as one line: its lines ("...\n\tIs the server
 * running...?") joined by single spaces. */
static char *one_line(const char *m)
{
	char *out = xmalloc(strlen(m) + 1), *o = out;
	for (const char *p = m; *p; p++) {
		if (*p == '\n' || *p == '\t' || *p == '\r' || *p == ' ') {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

/* A failed statement's error is its primary message ("relation ... does
 * not exist"), without the "ERROR:" and the query text PostgreSQL quotes
 * on lines of their own; a failed connection's, libpq's own message. */
void pg_fail(char **err, struct pg_conn *c, const PGresult *r, const char *what)
{
	const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	if (!m || !*m)
		m = r ? PQresultErrorMessage(r) : NULL;
	if (!m || !*m)
		m = PQerrorMessage(c->pg);
	char *line = one_line(m);
	bm_error(err, "database: %s: %s", what, line);
	free(line);
}

/* The name of sql prepared on c ("bm<i>"), preparing it when new; NULL
 * when it cannot be (then it runs unprepared). */
static const char *prepared(struct pg_conn *c, const char *sql, int n, char name[16])
{
	int i = 0;
	while (i < c->nprepared && strcmp(c->prepared[i], sql))
		i++;
	if (i == c->nprepared) {
		if (i == PG_PREPARED_MAX || PQtransactionStatus(c->pg) == PQTRANS_INERROR)
			return NULL;
		snprintf(name, 16, "bm%d", i);
		PGresult *r = PQprepare(c->pg, name, sql, n, NULL);
		int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		PQclear(r);
		if (!ok)
			return NULL;
		c->prepared[c->nprepared++] = xstrdup(sql);
	}
	snprintf(name, 16, "bm%d", i);
	return name;
}

static void forget_prepared(struct pg_conn *c)
{
	for (int i = 0; i < c->nprepared; i++)
		free((char *)c->prepared[i]);
	c->nprepared = 0;
}

PGresult *pg_query(struct pg_conn *c, const char *sql, int n, const char *const *values, const int *lens,
		   const char *what, char **err)
{
	int *formats = NULL;
	if (lens) {
		formats = xcalloc(n ? (size_t)n : 1, sizeof *formats);
		for (int i = 0; i < n; i++)
			formats[i] = lens[i] > 0;
	}
	char name[16];
	const char *stmt = prepared(c, sql, n, name);
	PGresult *r = stmt ? PQexecPrepared(c->pg, stmt, n, values, lens, formats, 0)
			   : PQexecParams(c->pg, sql, n, NULL, values, lens, formats, 0);
	free(formats);
	ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
		return r;
	pg_fail(err, c, r, what);
	PQclear(r);
	return NULL;
}

int pg_exec(struct pg_conn *c, const char *sql, const char *what, char **err)
{
	PGresult *r = pg_query(c, sql, 0, NULL, NULL, what, err);
	PQclear(r);
	return r ? 0 : -1;
}

char *pg_text(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : xstrdup(PQgetvalue(r, row, col));
}

int64_t pg_int(const PGresult *r, int row, int col)
{
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

double pg_double(const PGresult *r, int row, int col)
{
	return strtod(PQgetvalue(r, row, col), NULL);
}

const char *pg_i64(char *buf, int64_t v)
{
	snprintf(buf, 24, "%lld", (long long)v);
	return buf;
}

const char *pg_f64(char *buf, double v)
{
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

/* ---- connections ---- */

/* A new session's settings: whatever the database's own defaults, texts
 * as UTF-8. */
static int session_setup(struct pg_conn *c, char **err)
{
	return pg_exec(c, "SET client_encoding = 'UTF8'", "set up the connection", err);
}

static struct pg_conn *conn_open(struct store_db *db, char **err)
{
	PGconn *pg = PQconnectdb(db->conninfo);
	if (!pg || PQstatus(pg) != CONNECTION_OK) {
		char *m = one_line(pg ? PQerrorMessage(pg) : "out of memory");
		bm_error(err, "cannot connect to %s: %s", db->display, m);
		free(m);
		PQfinish(pg);
		return NULL;
	}
	PQsetNoticeProcessor(pg, ignore_notice, NULL);
	struct pg_conn *c = xcalloc(1, sizeof *c);
	c->pg = pg;
	if (session_setup(c, err)) {
		PQfinish(pg);
		forget_prepared(c);
		free(c);
		return NULL;
	}
	return c;
}

/* Whether an idle connection is still there.  A server that restarted,
 * or ended the session (pg_terminate_backend, a failover), has sent its
 * last words and closed its end, which an idle socket shows (readable,
 * hung up): one poll that waits for nothing finds it before a request
 * fails on it. */
static int still_there(PGconn *pg)
{
	if (PQstatus(pg) != CONNECTION_OK)
		return 0;
	struct pollfd p = {.fd = PQsocket(pg), .events = POLLIN | POLLRDHUP};
	if (poll(&p, 1, 0) <= 0)
		return 1;
	if (p.revents & (POLLHUP | POLLRDHUP | POLLERR))
		return 0;
	return PQconsumeInput(pg) && PQstatus(pg) == CONNECTION_OK;
}

struct pg_conn *pg_acquire(struct store_db *db, char **err)
{
	pthread_mutex_lock(&db->lock);
	struct pg_conn *c = db->free_list;
	if (c)
		db->free_list = c->next;
	pthread_mutex_unlock(&db->lock);
	if (c && !still_there(c->pg)) {
		PQreset(c->pg);
		forget_prepared(c); /* a new session has none */
		char *ignored = NULL;
		if (PQstatus(c->pg) == CONNECTION_OK)
			session_setup(c, &ignored); /* (failing, so does the query) */
		free(ignored);
	}
	if (c)
		return c;
	if (!(c = conn_open(db, err)))
		return NULL;
	pthread_mutex_lock(&db->lock);
	xgrow(&db->all, &db->all_alloc, db->nall + 1, sizeof *db->all);
	db->all[db->nall++] = c;
	pthread_mutex_unlock(&db->lock);
	return c;
}

void pg_release(struct store_db *db, struct pg_conn *c)
{
	/* A connection left inside a transaction (a failed write) is rolled
	 * back before anyone else borrows it. */
	if (PQtransactionStatus(c->pg) != PQTRANS_IDLE)
		PQclear(PQexec(c->pg, "ROLLBACK"));
	pthread_mutex_lock(&db->lock);
	c->next = db->free_list;
	db->free_list = c;
	pthread_mutex_unlock(&db->lock);
}

/* ---- opening ---- */

/* The database target names, for messages: its name, host, port and
 * user, never its password. */
char *pg_display(const char *conninfo)
{
	char *perr = NULL;
	PQconninfoOption *o = PQconninfoParse(conninfo, &perr);
	if (!o) {
		PQfreemem(perr);
		return xstrdup("a PostgreSQL database (its connection string does not parse)");
	}
	const char *want[] = {"dbname", "host", "port", "user"}, *have[4] = {0};
	for (PQconninfoOption *p = o; p->keyword; p++)
		for (int i = 0; i < 4; i++)
			if (!strcmp(p->keyword, want[i]) && p->val && *p->val)
				have[i] = p->val;
	char *d = xasprintf("PostgreSQL database '%s'%s%s%s%s%s%s", have[0] ? have[0] : "(default)",
			    have[1] ? " on " : "", have[1] ? have[1] : "", have[2] ? ":" : "", have[2] ? have[2] : "",
			    have[3] ? " as " : "", have[3] ? have[3] : "");
	PQconninfoFree(o);
	return d;
}

static int read_version(struct pg_conn *c, int *version, char **err)
{
	PGresult *r = pg_query(c, "SELECT version FROM bm_schema", 0, NULL, NULL, "read the schema version", err);
	if (!r)
		return -1;
	*version = PQntuples(r) ? (int)pg_int(r, 0, 0) : 0;
	PQclear(r);
	return 0;
}

static int migrate(struct pg_conn *c, char **err)
{
	if (pg_exec(c, "SELECT pg_advisory_lock(" MIGRATION_LOCK ")", "lock for migrations", err))
		return -1;
	int version = 0;
	int rc = pg_exec(c, "CREATE TABLE IF NOT EXISTS bm_schema (version integer NOT NULL)", "create bm_schema",
			 err);
	if (!rc)
		rc = read_version(c, &version, err);
	if (!rc && version > SCHEMA_VERSION)
		rc = bm_error(err, "the database's schema version %d is newer than this bm-server's (%d): upgrade "
				   "bm-server", version, SCHEMA_VERSION);
	for (; !rc && version < SCHEMA_VERSION; version++) {
		char *sql = xasprintf("BEGIN; %s DELETE FROM bm_schema; INSERT INTO bm_schema VALUES (%d); COMMIT;",
				      migrations[version], version + 1);
		PGresult *r = PQexec(c->pg, sql);
		free(sql);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			pg_fail(err, c, r, "migration");
			rc = -1;
			PQclear(PQexec(c->pg, "ROLLBACK"));
		}
		PQclear(r);
	}
	char *unlock_err = NULL;
	if (pg_exec(c, "SELECT pg_advisory_unlock(" MIGRATION_LOCK ")", "unlock", &unlock_err) && !rc) {
		*err = unlock_err;
		return -1;
	}
	free(unlock_err);
	return rc;
}

static void pg_close(struct store_db *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->nall; i++) {
		PQfinish(db->all[i]->pg);
		forget_prepared(db->all[i]);
		free(db->all[i]);
	}
	free(db->all);
	pthread_mutex_destroy(&db->lock);
	free(db->conninfo);
	free(db->display);
	free(db);
}

static struct store_db *pg_open(const char *conninfo, const struct store_options *o, char **err)
{
	(void)o;
	struct store_db *db = xcalloc(1, sizeof *db);
	db->conninfo = xstrdup(conninfo);
	db->display = pg_display(conninfo);
	pthread_mutex_init(&db->lock, NULL);
	struct pg_conn *c = pg_acquire(db, err);
	if (c && migrate(c, err)) {
		bm_error_prefix(err, db->display);
		pg_release(db, c);
		c = NULL;
	}
	if (!c) {
		pg_close(db);
		return NULL;
	}
	pg_release(db, c);
	return db;
}

const struct store_backend store_pg = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.project_create = pg_project_create,
	.project_get = pg_project_get,
	.project_put_settings = pg_project_put_settings,
	.token_add = pg_token_add,
	.token_access = pg_token_access,
	.token_list = pg_token_list,
	.token_delete = pg_token_delete,
	.ack_add = pg_ack_add,
	.acks = pg_acks,
	.ack_delete = pg_ack_delete,
	.tx_begin = pg_tx_begin,
	.tx_end = pg_tx_end,
	.savepoint = pg_savepoint,
	.savepoint_end = pg_savepoint_end,
	.run_insert = pg_run_insert,
	.benchmark_id = pg_benchmark_id,
	.result_insert = pg_result_insert,
	.after_commit = NULL,
	.run_find = pg_run_find,
	.run_facts = pg_run_facts,
	.commit_runs = pg_commit_runs,
	.benchmark_names = pg_benchmark_names,
	.series_heads = pg_series_heads,
	.commit_results = pg_commit_results,
	.history = pg_history,
	.branch_series = pg_branch_series,
	.projects = pg_projects,
	.branches = pg_branches,
	.profile = pg_profile,
	.display = pg_display,
	.count_rows = pg_count_rows,
	.copy_row = pg_copy_row,
	.copy_done = pg_copy_done,
};
