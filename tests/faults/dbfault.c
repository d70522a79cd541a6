/* SPDX-License-Identifier: MIT */
/* A database that fails on demand, for the tests of bm-server's error
 * paths (tests/cli/server_faults.sh).  Preloaded into bm-server
 * (LD_PRELOAD), it stands between the server and every call of SQLite and
 * libpq that can fail, and makes the one it is told to fail through the
 * real library: a statement that does not parse, a step interrupted, a
 * connection to a socket that is not there, a COPY ended with an error.
 * The server sees the code, the message and the connection's state a real
 * failure leaves (a PostgreSQL transaction aborted, say), and nothing in
 * bm carries a hook for it.
 *
 * BM_DBFAULT names a control file holding "N": the Nth such call after
 * the file was last written fails, once; "N-": that call and every later
 * one (a database that stays down); absent, empty or "0": none.  Writing
 * the file again (a new file renamed over it) counts afresh.  Each call
 * made to fail appends its function's name as a line to the file named
 * BM_DBFAULT with ".fired" added, so a test knows whether the request it
 * made came as far as call N.  Calls the libraries make of themselves are
 * not counted.  Test code only: never linked into bm. */
#include "config.h" /* _GNU_SOURCE, for RTLD_NEXT */

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_POSTGRESQL
#include <libpq-fe.h>
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct stat seen;   /* the control file as last read */
static long target;        /* 0: disarmed */
static int every_later;    /* "N-" */
static long counted;
static __thread int depth; /* inside one of ours: the library's own calls */

/* Rereads the control file when it is not the one last read. */
static void refresh(const char *path)
{
	struct stat st;
	if (stat(path, &st)) {
		memset(&seen, 0, sizeof seen);
		target = 0;
		return;
	}
	if (st.st_ino == seen.st_ino && st.st_size == seen.st_size && st.st_mtim.tv_sec == seen.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == seen.st_mtim.tv_nsec)
		return;
	seen = st;
	target = 0;
	every_later = 0;
	counted = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[64] = "";
	if (fgets(line, sizeof line, f)) {
		char *end;
		long n = strtol(line, &end, 10);
		if (n > 0) {
			target = n;
			every_later = *end == '-';
		}
	}
	fclose(f);
}

static void record(const char *path, const char *name)
{
	char fired[4096];
	snprintf(fired, sizeof fired, "%s.fired", path);
	int fd = open(fired, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[128];
	int len = snprintf(line, sizeof line, "%s\n", name);
	if (write(fd, line, (size_t)len) != len) {
		/* nothing to do: the test sees no line */
	}
	close(fd);
}

/* Whether the call named name, one of the server's own, fails now. */
static int fail_now(const char *name)
{
	const char *path = getenv("BM_DBFAULT");
	if (!path || depth)
		return 0;
	pthread_mutex_lock(&lock);
	refresh(path);
	int fail = 0;
	if (target && ++counted >= target) {
		fail = every_later || counted == target;
		if (!every_later)
			target = 0;
	}
	if (fail)
		record(path, name);
	pthread_mutex_unlock(&lock);
	return fail;
}

/* The library's own function of that name. */
#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* A statement that cannot be prepared, for every failing prepare. */
#define BAD_SQL "BM INJECTED FAULT"

/* ---- SQLite ---- */

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
	int fail = fail_now("sqlite3_open_v2");
	depth++;
	int rc = REAL(sqlite3_open_v2)(fail ? "/nonexistent/bm-injected-fault/db" : filename, db,
				       fail ? SQLITE_OPEN_READWRITE : flags, vfs);
	depth--;
	return rc;
}

int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int len, sqlite3_stmt **stmt, const char **tail)
{
	int fail = fail_now("sqlite3_prepare_v2");
	depth++;
	int rc = REAL(sqlite3_prepare_v2)(db, fail ? BAD_SQL : sql, fail ? -1 : len, stmt, tail);
	depth--;
	return rc;
}

int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int len, unsigned int flags, sqlite3_stmt **stmt,
		       const char **tail)
{
	int fail = fail_now("sqlite3_prepare_v3");
	depth++;
	int rc = REAL(sqlite3_prepare_v3)(db, fail ? BAD_SQL : sql, fail ? -1 : len, flags, stmt, tail);
	depth--;
	return rc;
}

static int stop(void *arg)
{
	(void)arg;
	return 1;
}

/* A step fails as an interrupted one does: SQLITE_INTERRUPT, and the
 * statement and its transaction as SQLite leaves them (rolled back).
 * SQLite looks for an interrupt only at a statement's jumps, which BEGIN,
 * COMMIT, SAVEPOINT and the like do not make: those fail as a busy
 * database makes them fail, before doing anything (a COMMIT refused
 * leaves its transaction open), with the error a statement that does not
 * parse leaves on the connection. */
int sqlite3_step(sqlite3_stmt *stmt)
{
	int fail = fail_now("sqlite3_step");
	sqlite3 *db = sqlite3_db_handle(stmt);
	const char *sql = sqlite3_sql(stmt);
	depth++;
	int rc;
	if (fail && sql &&
	    (!strncmp(sql, "BEGIN", 5) || !strncmp(sql, "COMMIT", 6) || !strncmp(sql, "ROLLBACK", 8) ||
	     !strncmp(sql, "SAVEPOINT", 9) || !strncmp(sql, "RELEASE", 7) || !strncmp(sql, "END", 3))) {
		rc = REAL(sqlite3_exec)(db, BAD_SQL, NULL, NULL, NULL);
	} else if (fail) {
		sqlite3_progress_handler(db, 1, stop, NULL);
		rc = REAL(sqlite3_step)(stmt);
		sqlite3_progress_handler(db, 0, NULL, NULL);
	} else {
		rc = REAL(sqlite3_step)(stmt);
	}
	depth--;
	return rc;
}

int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *arg,
		 char **errmsg)
{
	int fail = fail_now("sqlite3_exec");
	depth++;
	int rc = REAL(sqlite3_exec)(db, fail ? BAD_SQL : sql, callback, arg, errmsg);
	depth--;
	return rc;
}

/* ---- libpq ---- */
#ifdef HAVE_POSTGRESQL

/* A query that fails on the server: it aborts a transaction in progress,
 * as a failing statement does. */
#define FAILING_QUERY "SELECT bm_injected_fault()"

PGconn *PQconnectdb(const char *conninfo)
{
	int fail = fail_now("PQconnectdb");
	depth++;
	PGconn *c = REAL(PQconnectdb)(fail ? "host=/nonexistent/bm-injected-fault dbname=bm connect_timeout=1"
					   : conninfo);
	depth--;
	return c;
}

PGresult *PQexec(PGconn *conn, const char *query)
{
	int fail = fail_now("PQexec");
	depth++;
	PGresult *r = REAL(PQexec)(conn, fail ? FAILING_QUERY : query);
	depth--;
	return r;
}

PGresult *PQexecParams(PGconn *conn, const char *command, int n, const Oid *types, const char *const *values,
		       const int *lengths, const int *formats, int result_format)
{
	if (fail_now("PQexecParams")) {
		depth++;
		PGresult *r = REAL(PQexec)(conn, FAILING_QUERY);
		depth--;
		return r;
	}
	depth++;
	PGresult *r = REAL(PQexecParams)(conn, command, n, types, values, lengths, formats, result_format);
	depth--;
	return r;
}

PGresult *PQprepare(PGconn *conn, const char *name, const char *query, int n, const Oid *types)
{
	int fail = fail_now("PQprepare");
	depth++;
	PGresult *r = REAL(PQprepare)(conn, name, fail ? BAD_SQL : query, fail ? 0 : n, types);
	depth--;
	return r;
}

PGresult *PQexecPrepared(PGconn *conn, const char *name, int n, const char *const *values, const int *lengths,
			 const int *formats, int result_format)
{
	if (fail_now("PQexecPrepared")) {
		depth++;
		PGresult *r = REAL(PQexec)(conn, FAILING_QUERY);
		depth--;
		return r;
	}
	depth++;
	PGresult *r = REAL(PQexecPrepared)(conn, name, n, values, lengths, formats, result_format);
	depth--;
	return r;
}

/* A COPY's data or end fails as a COPY the server refused: ended with
 * an error, whose result PQgetResult then gives. */
int PQputCopyData(PGconn *conn, const char *buffer, int nbytes)
{
	if (fail_now("PQputCopyData")) {
		depth++;
		REAL(PQputCopyEnd)(conn, "bm injected fault");
		depth--;
		return -1;
	}
	depth++;
	int rc = REAL(PQputCopyData)(conn, buffer, nbytes);
	depth--;
	return rc;
}

int PQputCopyEnd(PGconn *conn, const char *errormsg)
{
	int fail = fail_now("PQputCopyEnd");
	depth++;
	int rc = REAL(PQputCopyEnd)(conn, fail ? "bm injected fault" : errormsg);
	depth--;
	return rc;
}

#endif
