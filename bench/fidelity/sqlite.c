/* SPDX-License-Identifier: MIT */
/* SQLite at work on an in-memory database: inserting rows in one
 * transaction, point lookups by key, a GROUP BY, a sort and a LIKE scan
 * over a table of 10,000 generated rows.  The database is made once
 * (setup_once); each query runs to its last row. */
#include "corpus.h"

#include <sqlite3.h>
#include <stdio.h>

#define ROWS 10000
#define INSERTS 2000
#define LOOKUPS 2000

static void fail(sqlite3 *db, const char *what)
{
	fprintf(stderr, "sqlite: %s: %s\n", what, db ? sqlite3_errmsg(db) : "cannot open");
	abort();
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail(db, sql);
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail(db, sql);
	return st;
}

/* A name of 8 to 15 letters from the generator: sorts and LIKEs work on
 * text, not on keys already in order. */
static void make_name(uint64_t *state, char name[16])
{
	uint64_t r = corpus_next(state);
	int len = 8 + (int)(r & 7);
	for (int i = 0; i < len; i++, r >>= 4)
		name[i] = (char)('a' + (r & 15) + (i & 1) * 8);
	name[len] = '\0';
}

static void insert_rows(sqlite3 *db, int n, uint64_t *state)
{
	sqlite3_stmt *st = prepare(db, "INSERT INTO t(grp, name, value) VALUES (?, ?, ?)");
	char name[16];
	exec(db, "BEGIN");
	for (int i = 0; i < n; i++) {
		make_name(state, name);
		sqlite3_bind_int(st, 1, (int)(corpus_next(state) % 100));
		sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, (double)(corpus_next(state) % 100000) / 100.0);
		if (sqlite3_step(st) != SQLITE_DONE)
			fail(db, "insert");
		sqlite3_reset(st);
	}
	exec(db, "COMMIT");
	sqlite3_finalize(st);
}

static sqlite3 *open_table(void)
{
	sqlite3 *db = NULL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		fail(db, "open");
	exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, value REAL)");
	return db;
}

static void make_database(struct bm_state *s)
{
	sqlite3 *db = open_table();
	uint64_t state = CORPUS_SEED;
	insert_rows(db, ROWS, &state);
	bm_set_shared(s, db);
}

static void close_database(struct bm_state *s)
{
	sqlite3_close(bm_shared(s));
}

/* Inserting needs an empty table before each run. */
static void empty_table(struct bm_state *s)
{
	exec(bm_shared(s), "DELETE FROM t");
}

static void make_empty_database(struct bm_state *s)
{
	bm_set_shared(s, open_table());
}

static void insert(struct bm_state *s)
{
	uint64_t state = CORPUS_SEED;
	insert_rows(bm_shared(s), INSERTS, &state);
}

/* Steps st to its end; returns the sum of column 0 of its rows. */
static double drain(sqlite3_stmt *st)
{
	double sum = 0;
	while (sqlite3_step(st) == SQLITE_ROW)
		sum += sqlite3_column_double(st, 0);
	sqlite3_reset(st);
	return sum;
}

static void point_lookups(struct bm_state *s)
{
	sqlite3_stmt *st = prepare(bm_shared(s), "SELECT value FROM t WHERE id = ?");
	uint64_t state = CORPUS_SEED;
	double sum = 0;
	for (int i = 0; i < LOOKUPS; i++) {
		sqlite3_bind_int(st, 1, 1 + (int)(corpus_next(&state) % ROWS));
		sum += drain(st);
	}
	sqlite3_finalize(st);
	bm_black_box(sum);
}

static void query(struct bm_state *s, const char *sql)
{
	sqlite3_stmt *st = prepare(bm_shared(s), sql);
	bm_black_box(drain(st));
	sqlite3_finalize(st);
}

static void group_by(struct bm_state *s)
{
	query(s, "SELECT sum(value), count(*), grp FROM t GROUP BY grp");
}

static void order_by(struct bm_state *s)
{
	query(s, "SELECT value, name FROM t ORDER BY name");
}

static void like_scan(struct bm_state *s)
{
	query(s, "SELECT count(*) FROM t WHERE name LIKE '%ks%'");
}

BM_BENCHMARK(sqlite, insert, .run = insert, .setup = empty_table, .setup_once = make_empty_database,
	     .teardown_once = close_database);
BM_BENCHMARK(sqlite, point_lookup, .run = point_lookups, .setup_once = make_database,
	     .teardown_once = close_database);
BM_BENCHMARK(sqlite, group_by, .run = group_by, .setup_once = make_database,
	     .teardown_once = close_database);
BM_BENCHMARK(sqlite, order_by, .run = order_by, .setup_once = make_database,
	     .teardown_once = close_database);
BM_BENCHMARK(sqlite, like_scan, .run = like_scan, .setup_once = make_database,
	     .teardown_once = close_database);

BM_MAIN()
