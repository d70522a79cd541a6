/* SPDX-License-Identifier: MIT */
/* The PostgreSQL backend: rows of one table gathered and sent as one
 * multi-row INSERT. */
#include "config.h"

#include "store_pg.h"

#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pg_batch_init(struct pg_batch *b, const char *table, int columns)
{
	*b = (struct pg_batch){.table = table, .columns = columns};
}

void pg_batch_add(struct pg_batch *b, const char *value, int len)
{
	if (b->n == b->alloc) {
		xgrow(&b->values, &b->alloc, b->n + 1, sizeof *b->values);
		b->lens = xreallocarray(b->lens, b->alloc, sizeof *b->lens);
	}
	if (len > 0) {
		b->values[b->n] = xmalloc((size_t)len);
		memcpy(b->values[b->n], value, (size_t)len);
		b->any_binary = 1;
	} else {
		b->values[b->n] = value ? xstrdup(value) : NULL;
	}
	b->lens[b->n++] = len;
}

void pg_batch_clear(struct pg_batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->values[i]);
	b->n = 0;
	b->any_binary = 0;
}

void pg_batch_free(struct pg_batch *b)
{
	pg_batch_clear(b);
	free(b->values);
	free(b->lens);
	b->values = NULL;
	b->lens = NULL;
	b->alloc = 0;
}

/* Appends v to the COPY text of buf, escaped (COPY's text format). */
static void put_field(char **buf, size_t *len, size_t *alloc, const char *v, int binary_len)
{
	static const char hex[] = "0123456789abcdef";
	size_t need = v ? (binary_len > 0 ? 3 + 2 * (size_t)binary_len : 2 * strlen(v)) : 2;
	xgrow(buf, alloc, *len + need + 2, 1);
	char *o = *buf + *len;
	if (!v) {
		*o++ = '\\';
		*o++ = 'N';
	} else if (binary_len > 0) {
		/* bytea's hex input, its backslash doubled for COPY */
		*o++ = '\\';
		*o++ = '\\';
		*o++ = 'x';
		for (int i = 0; i < binary_len; i++) {
			*o++ = hex[(unsigned char)v[i] >> 4];
			*o++ = hex[(unsigned char)v[i] & 15];
		}
	} else {
		for (const char *p = v; *p; p++) {
			char c = *p;
			if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
				*o++ = '\\';
				c = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
			}
			*o++ = c;
		}
	}
	*len = (size_t)(o - *buf);
}

/* COPY is far cheaper for the server than an INSERT of as many rows: no
 * statement of thousands of parameters to parse and plan. */
int pg_batch_flush(struct pg_conn *c, struct pg_batch *b, char **err)
{
	if (!b->n)
		return 0;
	char *buf = NULL;
	size_t len = 0, alloc = 0;
	for (size_t k = 0; k < b->n; k++) {
		put_field(&buf, &len, &alloc, b->values[k], b->lens[k]);
		buf[len++] = (k + 1) % (size_t)b->columns ? '\t' : '\n';
	}
	pg_batch_clear(b);
	char *sql = xasprintf("COPY %s FROM STDIN", b->table);
	PGresult *r = PQexec(c->pg, sql);
	free(sql);
	int rc = -1;
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		pg_fail(err, c, r, "store rows");
		PQclear(r);
		free(buf);
		return -1;
	}
	PQclear(r);
	if (PQputCopyData(c->pg, buf, (int)len) == 1 && PQputCopyEnd(c->pg, NULL) == 1) {
		r = PQgetResult(c->pg);
		if (PQresultStatus(r) == PGRES_COMMAND_OK)
			rc = 0;
		else
			pg_fail(err, c, r, "store rows");
		PQclear(r);
	} else {
		pg_fail(err, c, NULL, "store rows");
	}
	/* The rest of the command's results, if any. */
	while ((r = PQgetResult(c->pg)))
		PQclear(r);
	free(buf);
	return rc;
}
