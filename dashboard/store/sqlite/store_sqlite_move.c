/* SPDX-License-Identifier: MIT */
/* The SQLite backend: what moving the database elsewhere reads (see
 * store_migrate.c).  Results still incoming count and copy as results. */
#include "config.h"

#include "store_sqlite.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

char *sq_display(const char *path)
{
	return xasprintf("SQLite database '%s'", path);
}

/* The rows of table t: results' own and incoming ones together. */
static char *rows_of(const struct store_table *t)
{
	if (!strcmp(t->name, "results"))
		return xasprintf("(SELECT %s FROM results UNION ALL SELECT %s FROM incoming_results)", t->columns,
				 t->columns);
	return xstrdup(t->name);
}

int sq_count_rows(struct store_db *db, const struct store_table *t, int64_t *n, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	char *rows = rows_of(t), *sql = xasprintf("SELECT count(*) FROM %s x", rows);
	sqlite3_stmt *s = sq_prepare(c, sql, err);
	free(rows);
	free(sql);
	int rc = -1;
	if (s) {
		if (sqlite3_step(s) == SQLITE_ROW) {
			*n = sqlite3_column_int64(s, 0);
			rc = 0;
		} else {
			sq_error(err, c->db, "count rows");
		}
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}

int sq_copy_out(struct store_db *db, const struct store_table *t, store_values_fn fn, void *ctx, char **err)
{
	struct conn *c = sq_acquire(db, err);
	if (!c)
		return -1;
	char *rows = rows_of(t), *sql = xasprintf("SELECT %s FROM %s x ORDER BY 1, 2", t->columns, rows);
	sqlite3_stmt *s = sq_prepare(c, sql, err);
	free(rows);
	free(sql);
	int rc = -1;
	if (s) {
		size_t ncol = strlen(t->types);
		struct store_value *v = xcalloc(ncol, sizeof *v);
		int step;
		rc = 0;
		while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
			for (size_t k = 0; k < ncol; k++) {
				int col = (int)k;
				v[k] = (struct store_value){.null = sqlite3_column_type(s, col) == SQLITE_NULL};
				switch (t->types[k]) {
				case 'i':
				case 'o':
					v[k].i = sqlite3_column_int64(s, col);
					break;
				case 'r':
					v[k].r = sqlite3_column_double(s, col);
					break;
				default:
					v[k].p = t->types[k] == 'b' ? sqlite3_column_blob(s, col)
								    : (const void *)sqlite3_column_text(s, col);
					v[k].len = (size_t)sqlite3_column_bytes(s, col);
				}
			}
			rc = fn(ctx, v);
		}
		if (!rc && step != SQLITE_DONE)
			rc = sq_error(err, c->db, "read rows");
		free(v);
		sqlite3_finalize(s);
	}
	sq_release(db, c);
	return rc;
}
