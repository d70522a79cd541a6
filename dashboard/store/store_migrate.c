/* SPDX-License-Identifier: MIT */
/* Moving a database to another backend (bm-server migrate): every table
 * copied row for row, ids included, in one transaction of the target's,
 * so that the move is all or nothing; the counts checked before the
 * commit (what was sent against what the source holds) and after it
 * (what the target holds). */
#include "config.h"

#include "store.h"

#include "error.h"
#include "store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EVENT_COLUMNS                                                                                          \
	"ev_Ir, ev_Dr, ev_Dw, ev_I1mr, ev_D1mr, ev_D1mw, ev_ILmr, ev_DLmr, ev_DLmw, ev_Bc, ev_Bcm, ev_Bi, ev_Bim," \
	" ev_sysCount, ev_sysTime, ev_sysCpuTime"

/* Every table, parents before children; the columns both backends name
 * alike (SQLite's schema version 6, PostgreSQL's version 2). */
static const struct store_table tables[] = {
	{"projects", "id, name, threshold, dt, st, created_at", "itrrii", "id"},
	{"tokens", "id, project, hash, admin, created_at", "iiboi", "id"},
	{"runs", "id, project, run_id, branch, sha, commit_time, pr, base_branch, model, platform, host, created_at,"
	 " merge_base", "iitttiittttit", "id"},
	{"run_ancestors", "run, ancestors", "it", NULL},
	{"benchmarks", "id, project, name", "iit", "id"},
	{"results", "benchmark, branch, commit_time, run, status, reason, speed, cycles, time_s, " EVENT_COLUMNS,
	 "itiiitrir" "iiiiiiiiiiiiiiii", NULL},
	{"profiles", "run, benchmark, data, size", "iibi", NULL},
	{"result_metrics", "run, benchmark, name, unit, value, position", "iittri", NULL},
	{"acknowledgements", "id, project, benchmark, sha, pr, impact, author, reason, created_at", "iittirtti", "id"},
};
#define NTABLES (sizeof tables / sizeof tables[0])

struct copy {
	const struct store_backend *to;
	struct store_tx *tx;
	const struct store_table *table;
	int64_t sent, total;
	int progress;
	char **err;
};

static void show_progress(const struct copy *c, int done)
{
	if (c->progress && (done || c->sent % 20000 == 0))
		fprintf(stderr, "\rbm-server: copying %s: %lld of %lld%s", c->table->name, (long long)c->sent,
			(long long)c->total, done ? "\n" : "");
}

static int copy_one(void *ctx, const struct store_value *v)
{
	struct copy *c = ctx;
	c->sent++;
	show_progress(c, 0);
	return c->to->copy_row(c->tx, c->table, v, c->err);
}

/* Opens db on its backend, with what a move needs of it. */
static struct store_db *open_for_move(const char *db, int as_target, const struct store_backend **be, char **err)
{
	const char *target;
	*be = store_backend_of(db, &target, err);
	if (!*be)
		return NULL;
	if (as_target ? !(*be)->copy_row : !(*be)->copy_out) {
		bm_error(err, "bm-server migrate moves a SQLite database to PostgreSQL: %s cannot be moved %s",
			 (*be)->name, as_target ? "to" : "from");
		return NULL;
	}
	/* The source must exist: a mistyped path is an error, not a new,
	 * empty database "copied" in full. */
	struct store_options o = {.merge_rows = STORE_DEFAULT_MERGE_ROWS, .existing = !as_target};
	return (*be)->open(target, &o, err);
}

int store_migrate(const char *from, const char *to, int progress, char **err)
{
	const struct store_backend *fb, *tb;
	struct store_db *src = open_for_move(from, 0, &fb, err), *dst = src ? open_for_move(to, 1, &tb, err) : NULL;
	int rc = -1;
	int64_t counts[NTABLES];
	if (!dst)
		goto out;
	/* An empty target only: a move never merges two databases. */
	for (size_t i = 0; i < NTABLES; i++) {
		int64_t n;
		if (tb->count_rows(dst, &tables[i], &n, err))
			goto out;
		if (n) {
			char *where = tb->display(to);
			bm_error(err, "%s is not empty (%lld rows in %s): move into a new, empty database", where,
				 (long long)n, tables[i].name);
			free(where);
			goto out;
		}
	}
	struct copy c = {.to = tb, .progress = progress, .err = err};
	if (!(c.tx = tb->tx_begin(dst, err)))
		goto out;
	for (size_t i = 0; i < NTABLES; i++) {
		c.table = &tables[i];
		c.sent = 0;
		if (fb->count_rows(src, c.table, &c.total, err) || fb->copy_out(src, c.table, copy_one, &c, err))
			break;
		show_progress(&c, 1);
		counts[i] = c.sent;
		if (c.sent != c.total) {
			bm_error(err, "%s changed during the move (%lld rows counted, %lld read): stop bm-server and "
				      "move again", tables[i].name, (long long)c.total, (long long)c.sent);
			break;
		}
		if (i + 1 == NTABLES)
			rc = 0;
	}
	if (!rc && tb->copy_done(c.tx, err))
		rc = -1;
	if (tb->tx_end(c.tx, !rc, rc ? NULL : err))
		rc = -1;
	if (rc)
		goto out;
	/* What the target holds now, committed. */
	for (size_t i = 0; !rc && i < NTABLES; i++) {
		int64_t n;
		if (tb->count_rows(dst, &tables[i], &n, err)) {
			bm_error_suffix(err, " (the copy is committed, but could not be counted after: count the "
					     "target's rows against the source's, or drop the target and move again)");
			rc = -1;
		} else if (n != counts[i]) {
			rc = bm_error(err, "%s: %lld rows copied, %lld in the target (the copy is committed: drop the "
					   "target database and move again)", tables[i].name, (long long)counts[i],
				      (long long)n);
		}
	}
	if (src)
		fb->close(src);
	tb->close(dst);
	return rc;
out:
	/* Before the commit: the target is as it was. */
	if (rc && *err)
		bm_error_suffix(err, "; nothing was copied");
	if (src)
		fb->close(src);
	if (dst)
		tb->close(dst);
	return rc;
}
