/* SPDX-License-Identifier: MIT */
/* The SQLite backend: projects and their settings, tokens (hashes only)
 * and acknowledgements. */
#include "config.h"

#include "store_sqlite.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

int sq_project_create(struct store_db *db, const char *name, int64_t now, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = sq_prepare(c, "INSERT OR IGNORE INTO projects (name, threshold, dt, st, created_at)"
					" VALUES (?1, ?2, ?3, ?4, ?5)", err);
	if (s) {
		sq_bind_text(s, 1, name);
		sqlite3_bind_double(s, 2, PROJECT_DEFAULT_THRESHOLD);
		sqlite3_bind_double(s, 3, PROJECT_DEFAULT_DT);
		sqlite3_bind_int(s, 4, PROJECT_DEFAULT_ST);
		sqlite3_bind_int64(s, 5, now);
		if (sqlite3_step(s) == SQLITE_DONE)
			rc = sqlite3_changes(c->db) > 0;
		else
			sq_error(err, c->db, "create project");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}

static void project_row(sqlite3_stmt *s, void *ctx)
{
	struct project *p = ctx;
	p->id = sqlite3_column_int64(s, 0);
	p->threshold = sqlite3_column_double(s, 1);
	p->dt = sqlite3_column_double(s, 2);
	p->st = (unsigned)sqlite3_column_int(s, 3);
}

int sq_project_get(struct store_db *db, const char *name, struct project *p, char **err)
{
	long rows = sq_each(db, "read project", project_row, p, err,
			    "SELECT id, threshold, dt, st FROM projects WHERE name = ?1", "t", name);
	return rows < 0 ? -1 : rows > 0;
}

/* Runs a one-off write with integer parameters (?1...); returns the
 * number of rows it changed, or -1. */
static int write_ints(struct store_db *db, const char *sql, const int64_t *v, size_t nv, const char *what,
		      char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = sq_prepare(c, sql, err);
	if (s) {
		for (size_t i = 0; i < nv; i++)
			sqlite3_bind_int64(s, (int)i + 1, v[i]);
		rc = sqlite3_step(s) == SQLITE_DONE ? sqlite3_changes(c->db) : sq_error(err, c->db, what);
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}

int sq_project_put_settings(struct store_db *db, const struct project *p, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = sq_prepare(c, "UPDATE projects SET threshold = ?2, dt = ?3, st = ?4 WHERE id = ?1", err);
	if (s) {
		sqlite3_bind_int64(s, 1, p->id);
		sqlite3_bind_double(s, 2, p->threshold);
		sqlite3_bind_double(s, 3, p->dt);
		sqlite3_bind_int(s, 4, (int)p->st);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : sq_error(err, c->db, "write settings");
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}

int sq_token_add(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, int admin,
		 int64_t now, int64_t *id, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = sq_prepare(c, "INSERT INTO tokens (project, hash, admin, created_at) VALUES (?1, ?2, ?3, ?4)",
				     err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sqlite3_bind_blob(s, 2, hash, (int)len, SQLITE_TRANSIENT);
		sqlite3_bind_int(s, 3, admin);
		sqlite3_bind_int64(s, 4, now);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : sq_error(err, c->db, "store token");
		*id = sqlite3_last_insert_rowid(c->db);
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}

static void access_row(sqlite3_stmt *s, void *ctx)
{
	*(int *)ctx = sqlite3_column_int(s, 0) ? ACCESS_ADMIN : ACCESS_UPLOAD;
}

int sq_token_access(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, char **err)
{
	int access = ACCESS_NONE;
	long rows = sq_each(db, "read token", access_row, &access, err,
			    "SELECT admin FROM tokens WHERE project = ?1 AND hash = ?2", "ib", project, hash, len);
	return rows < 0 ? -1 : access;
}

static void token_row(sqlite3_stmt *s, void *ctx)
{
	*(struct store_token *)sq_list_add(ctx) = (struct store_token){
		sqlite3_column_int64(s, 0), sqlite3_column_int(s, 1), sqlite3_column_int64(s, 2)};
}

int sq_token_list(struct store_db *db, int64_t project, struct store_token **tokens, size_t *n, char **err)
{
	*tokens = NULL;
	*n = 0;
	struct sq_list l = {.items = tokens, .n = n, .size = sizeof **tokens};
	if (sq_each(db, "list tokens", token_row, &l, err,
		    "SELECT id, admin, created_at FROM tokens WHERE project = ?1 ORDER BY id", "i", project) >= 0)
		return 0;
	free(*tokens);
	*tokens = NULL;
	*n = 0;
	return -1;
}

int sq_token_delete(struct store_db *db, int64_t project, int64_t id, char **err)
{
	int64_t v[] = {project, id};
	int rc = write_ints(db, "DELETE FROM tokens WHERE project = ?1 AND id = ?2", v, 2, "revoke token", err);
	return rc < 0 ? -1 : rc > 0;
}

int sq_ack_add(struct store_db *db, int64_t project, const struct store_ack *a, int64_t *id, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	int rc = -1;
	sqlite3_stmt *s = sq_prepare(c, "INSERT INTO acknowledgements (project, benchmark, sha, pr, impact, author,"
					" reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", err);
	if (s) {
		sqlite3_bind_int64(s, 1, project);
		sq_bind_text(s, 2, a->benchmark);
		sq_bind_text(s, 3, a->sha);
		sqlite3_bind_int64(s, 4, a->pr);
		sqlite3_bind_double(s, 5, a->impact);
		sq_bind_text(s, 6, a->by);
		sq_bind_text(s, 7, a->reason);
		sqlite3_bind_int64(s, 8, a->created_at);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : sq_error(err, c->db, "store acknowledgement");
		*id = sqlite3_last_insert_rowid(c->db);
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}

#define ACK_COLUMNS "SELECT id, benchmark, sha, pr, impact, author, reason, created_at FROM acknowledgements"

static void ack_row(sqlite3_stmt *s, void *ctx)
{
	*(struct store_ack *)sq_list_add(ctx) = (struct store_ack){
		.id = sqlite3_column_int64(s, 0),
		.benchmark = sq_text(s, 1),
		.sha = sq_text(s, 2),
		.pr = (long)sqlite3_column_int64(s, 3),
		.impact = sqlite3_column_double(s, 4),
		.by = sq_text(s, 5),
		.reason = sq_text(s, 6),
		.created_at = sqlite3_column_int64(s, 7),
	};
}

int sq_acks(struct store_db *db, int64_t project, const char *sha, long pr, int all, struct store_ack **acks,
	    size_t *n, char **err)
{
	*acks = NULL;
	*n = 0;
	struct sq_list l = {.items = acks, .n = n, .size = sizeof **acks};
	long rows = all  ? sq_each(db, "read acknowledgements", ack_row, &l, err,
				   ACK_COLUMNS " WHERE project = ?1 ORDER BY id DESC LIMIT 1000", "i", project)
		    : pr ? sq_each(db, "read acknowledgements", ack_row, &l, err,
				   ACK_COLUMNS " WHERE project = ?1 AND pr = ?2 ORDER BY id DESC", "ii", project,
				   (int64_t)pr)
			 : sq_each(db, "read acknowledgements", ack_row, &l, err,
				   ACK_COLUMNS " WHERE project = ?1 AND pr = ?2 AND sha = ?3 ORDER BY id DESC", "iit",
				   project, (int64_t)pr, sha);
	if (rows >= 0)
		return 0;
	store_acks_free(*acks, *n);
	*acks = NULL;
	*n = 0;
	return -1;
}

int sq_ack_delete(struct store_db *db, int64_t project, int64_t id, char **err)
{
	int64_t v[] = {project, id};
	int rc = write_ints(db, "DELETE FROM acknowledgements WHERE project = ?1 AND id = ?2", v, 2,
			    "withdraw acknowledgement", err);
	return rc < 0 ? -1 : rc > 0;
}
