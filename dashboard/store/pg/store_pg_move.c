/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend: what moving a database here writes (see
 * store_migrate.c): every row as it was, ids included, sent many rows to
 * an INSERT, then the id sequences moved past the ids copied. */
#include "config.h"

#include "store_pg.h"

#include "error.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

int pg_count_rows(struct store_db *db, const struct store_table *t, int64_t *n, char **err)
{
	struct pg_conn *c = pg_acquire(db, err);
	if (!c)
		return -1;
	char *sql = xasprintf("SELECT count(*) FROM %s", t->name);
	PGresult *r = pg_query(c, sql, 0, NULL, NULL, "count rows", err);
	free(sql);
	pg_release(db, c);
	if (!r)
		return -1;
	*n = pg_int(r, 0, 0);
	PQclear(r);
	return 0;
}

int pg_copy_row(struct store_tx *tx, const struct store_table *t, const struct store_value *v, char **err)
{
	if (tx->table != t) {
		if (pg_batch_flush(tx->c, &tx->copy, err))
			return -1;
		pg_batch_free(&tx->copy);
		free(tx->copy_into);
		tx->copy_into = xasprintf("%s (%s)", t->name, t->columns);
		pg_batch_init(&tx->copy, tx->copy_into, (int)strlen(t->types));
		tx->table = t;
	}
	char buf[32];
	for (size_t k = 0; t->types[k]; k++) {
		if (v[k].null) {
			pg_batch_add(&tx->copy, NULL, 0);
			continue;
		}
		switch (t->types[k]) {
		case 'i':
			pg_batch_add(&tx->copy, pg_i64(buf, v[k].i), 0);
			break;
		case 'o':
			pg_batch_add(&tx->copy, v[k].i ? "true" : "false", 0);
			break;
		case 'r':
			pg_batch_add(&tx->copy, pg_f64(buf, v[k].r), 0);
			break;
		case 'b':
			/* (An empty value goes as text: "" is an empty bytea too.) */
			pg_batch_add(&tx->copy, v[k].len ? v[k].p : "", (int)v[k].len);
			break;
		default: {
			/* PostgreSQL's text holds no NUL (bm-server never stores
			 * one: names are checked, JSON refuses \u0000). */
			if (memchr(v[k].p, 0, v[k].len))
				return bm_error(err, "%s: a text with a NUL byte cannot be stored in PostgreSQL", t->name);
			char *text = xmalloc(v[k].len + 1);
			memcpy(text, v[k].p, v[k].len);
			text[v[k].len] = '\0';
			pg_batch_add(&tx->copy, text, 0);
			free(text);
		}
		}
	}
	return tx->copy.n > PG_BATCH_MAX_PARAMS ? pg_batch_flush(tx->c, &tx->copy, err) : 0;
}

int pg_copy_done(struct store_tx *tx, char **err)
{
	static const char *const serial[] = {"projects", "tokens", "runs", "benchmarks", "acknowledgements"};
	if (pg_batch_flush(tx->c, &tx->copy, err))
		return -1;
	for (size_t i = 0; i < sizeof serial / sizeof serial[0]; i++) {
		char *sql = xasprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), coalesce(max(id), 0) + 1, false)"
				      " FROM %s",
				      serial[i], serial[i]);
		int rc = pg_exec(tx->c, sql, "move the id sequences", err);
		free(sql);
		if (rc)
			return -1;
	}
	return 0;
}
