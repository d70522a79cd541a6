/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend: projects and their settings, tokens (hashes
 * only) and acknowledgements. */
#include "config.h"

#include "store_pg.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Runs one statement on a borrowed connection; the result or NULL. */
static PGresult *query(struct store_db *db, const char *sql, int n, const char *const *values, const int *lens,
		       const char *what, char **err)
{
	struct pg_conn *c = pg_acquire(db, err);
	if (!c)
		return NULL;
	PGresult *r = pg_query(c, sql, n, values, lens, what, err);
	pg_release(db, c);
	return r;
}

int pg_project_create(struct store_db *db, const char *name, int64_t now, char **err)
{
	char t[32], dt[32], st[24], at[24];
	const char *v[] = {name, pg_f64(t, PROJECT_DEFAULT_THRESHOLD), pg_f64(dt, PROJECT_DEFAULT_DT),
			   pg_i64(st, PROJECT_DEFAULT_ST), pg_i64(at, now)};
	PGresult *r = query(db, "INSERT INTO projects (name, threshold, dt, st, created_at) VALUES ($1, $2, $3, $4, $5)"
				" ON CONFLICT (name) DO NOTHING", 5, v, NULL, "create project", err);
	if (!r)
		return -1;
	int created = atoi(PQcmdTuples(r)) > 0;
	PQclear(r);
	return created;
}

int pg_project_get(struct store_db *db, const char *name, struct project *p, char **err)
{
	const char *v[] = {name};
	PGresult *r = query(db, "SELECT id, threshold, dt, st FROM projects WHERE name = $1", 1, v, NULL,
			    "read project", err);
	if (!r)
		return -1;
	int found = PQntuples(r) > 0;
	if (found) {
		p->id = pg_int(r, 0, 0);
		p->threshold = pg_double(r, 0, 1);
		p->dt = pg_double(r, 0, 2);
		p->st = (unsigned)pg_int(r, 0, 3);
	}
	PQclear(r);
	return found;
}

int pg_project_put_settings(struct store_db *db, const struct project *p, char **err)
{
	char id[24], t[32], dt[32], st[24];
	const char *v[] = {pg_i64(id, p->id), pg_f64(t, p->threshold), pg_f64(dt, p->dt), pg_i64(st, p->st)};
	PGresult *r = query(db, "UPDATE projects SET threshold = $2, dt = $3, st = $4 WHERE id = $1", 4, v, NULL,
			    "write settings", err);
	PQclear(r);
	return r ? 0 : -1;
}

int pg_token_add(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, int admin,
		 int64_t now, int64_t *id, char **err)
{
	char p[24], at[24];
	const char *v[] = {pg_i64(p, project), (const char *)hash, admin ? "true" : "false", pg_i64(at, now)};
	const int lens[] = {0, (int)len, 0, 0};
	PGresult *r = query(db, "INSERT INTO tokens (project, hash, admin, created_at) VALUES ($1, $2, $3, $4)"
				" RETURNING id", 4, v, lens, "store token", err);
	if (!r)
		return -1;
	*id = pg_int(r, 0, 0);
	PQclear(r);
	return 0;
}

int pg_token_access(struct store_db *db, int64_t project, const unsigned char *hash, size_t len, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project), (const char *)hash};
	const int lens[] = {0, (int)len};
	PGresult *r = query(db, "SELECT admin FROM tokens WHERE project = $1 AND hash = $2", 2, v, lens, "read token",
			    err);
	if (!r)
		return -1;
	int access = !PQntuples(r) ? ACCESS_NONE : !strcmp(PQgetvalue(r, 0, 0), "t") ? ACCESS_ADMIN : ACCESS_UPLOAD;
	PQclear(r);
	return access;
}

int pg_token_list(struct store_db *db, int64_t project, struct store_token **tokens, size_t *n, char **err)
{
	char p[24];
	const char *v[] = {pg_i64(p, project)};
	PGresult *r = query(db, "SELECT id, admin, created_at FROM tokens WHERE project = $1 ORDER BY id", 1, v, NULL,
			    "list tokens", err);
	*tokens = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*tokens = xcalloc(*n ? *n : 1, sizeof **tokens);
	for (int i = 0; i < PQntuples(r); i++)
		(*tokens)[i] = (struct store_token){pg_int(r, i, 0), !strcmp(PQgetvalue(r, i, 1), "t"), pg_int(r, i, 2)};
	PQclear(r);
	return 0;
}

/* A DELETE of the project's row id from table: 1 done, 0 none, -1. */
static int delete_row(struct store_db *db, const char *sql, int64_t project, int64_t id, const char *what,
		      char **err)
{
	char p[24], i[24];
	const char *v[] = {pg_i64(p, project), pg_i64(i, id)};
	PGresult *r = query(db, sql, 2, v, NULL, what, err);
	if (!r)
		return -1;
	int done = atoi(PQcmdTuples(r)) > 0;
	PQclear(r);
	return done;
}

int pg_token_delete(struct store_db *db, int64_t project, int64_t id, char **err)
{
	return delete_row(db, "DELETE FROM tokens WHERE project = $1 AND id = $2", project, id, "revoke token", err);
}

int pg_ack_add(struct store_db *db, int64_t project, const struct store_ack *a, int64_t *id, char **err)
{
	char p[24], pr[24], impact[32], at[24];
	const char *v[] = {pg_i64(p, project), a->benchmark, a->sha, pg_i64(pr, a->pr), pg_f64(impact, a->impact),
			   a->by, a->reason, pg_i64(at, a->created_at)};
	PGresult *r = query(db, "INSERT INTO acknowledgements (project, benchmark, sha, pr, impact, author, reason,"
				" created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
			    8, v, NULL, "store acknowledgement", err);
	if (!r)
		return -1;
	*id = pg_int(r, 0, 0);
	PQclear(r);
	return 0;
}

#define ACK_COLUMNS "SELECT id, benchmark, sha, pr, impact, author, reason, created_at FROM acknowledgements"

int pg_acks(struct store_db *db, int64_t project, const char *sha, long pr, int all, struct store_ack **acks,
	    size_t *n, char **err)
{
	char p[24], number[24];
	const char *v[] = {pg_i64(p, project), pg_i64(number, pr), sha};
	PGresult *r = all  ? query(db, ACK_COLUMNS " WHERE project = $1 ORDER BY id DESC LIMIT 1000", 1, v, NULL,
				   "read acknowledgements", err)
		      : pr ? query(db, ACK_COLUMNS " WHERE project = $1 AND pr = $2 ORDER BY id DESC", 2, v, NULL,
				   "read acknowledgements", err)
			   : query(db, ACK_COLUMNS " WHERE project = $1 AND pr = $2 AND sha = $3 ORDER BY id DESC", 3, v,
				   NULL, "read acknowledgements", err);
	*acks = NULL;
	*n = 0;
	if (!r)
		return -1;
	*n = (size_t)PQntuples(r);
	*acks = xcalloc(*n ? *n : 1, sizeof **acks);
	for (int i = 0; i < PQntuples(r); i++)
		(*acks)[i] = (struct store_ack){
			.id = pg_int(r, i, 0),
			.benchmark = pg_text(r, i, 1),
			.sha = pg_text(r, i, 2),
			.pr = (long)pg_int(r, i, 3),
			.impact = pg_double(r, i, 4),
			.by = pg_text(r, i, 5),
			.reason = pg_text(r, i, 6),
			.created_at = pg_int(r, i, 7),
		};
	PQclear(r);
	return 0;
}

int pg_ack_delete(struct store_db *db, int64_t project, int64_t id, char **err)
{
	return delete_row(db, "DELETE FROM acknowledgements WHERE project = $1 AND id = $2", project, id,
			  "withdraw acknowledgement", err);
}
