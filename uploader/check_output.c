/* SPDX-License-Identifier: MIT */
/* The text report and the expectations: see check_output.h. */
#include "config.h"

#include "check_output.h"

#include "check_cells.h"
#include "error.h"
#include "fmt.h"
#include "log.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Expectations ------------------------------------------------------------ */

void check_expected_init(struct check_expected *x, const struct expectations *e, const char *path,
			 const struct check *c)
{
	memset(x, 0, sizeof *x);
	x->path = path;
	x->n = c->nrows;
	x->result = xcalloc(c->nrows + 1, sizeof *x->result);
	x->key = xcalloc(c->nrows + 1, sizeof *x->key);
	x->note = xcalloc(c->nrows + 1, sizeof *x->note);
	size_t judged = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		x->result[i] = expectations_judge(e, c->platform, expectations_metric(c->metric), &c->rows[i], &x->key[i],
						  &x->note[i]);
		judged += x->result[i] != EXPECT_UNLISTED;
	}
	if (judged || !c->nrows)
		return;
	/* Loudly: a file that judges nothing lets every regression through. */
	size_t len;
	const char *near = expectations_nearest_platform(e, c->platform, &len);
	log_warn("%s judges none of the %zu benchmarks: this run's platform key is '%s'%s%.*s%s", path, c->nrows,
		 c->platform ? c->platform : "unknown", near ? "; the nearest in the file is '" : "",
		 near ? (int)len : 0, near ? near : "", near ? "'" : " (check the SUITE/BENCHMARK/METRIC parts of its keys)");
}

void check_expected_release(struct check_expected *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->note[i]);
	free(x->note);
	free(x->key);
	free(x->result);
	memset(x, 0, sizeof *x);
}

int check_expected_exit_code(const struct check *c, const struct check_expected *x)
{
	if (!x)
		return check_exit_code(c);
	unsigned char *keep = xcalloc(c->nrows + 1, 1);
	int failure = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		failure |= x->result[i] == EXPECT_FAILURE || !strcmp(c->rows[i].status, "failed");
		keep[i] = x->result[i] == EXPECT_UNLISTED;
	}
	enum verdict v;
	int has;
	double impact;
	check_verdict_of(c, keep, &v, &has, &impact);
	free(keep);
	return failure || v == VERDICT_FAILED || v == VERDICT_REGRESSION;
}

/* Text ---------------------------------------------------------------------- */

/* Outside text (names, reasons, notes: bytes a report or a server chose)
 * for a terminal: control characters as \xNN, so that a row stays one
 * line and nothing drives the terminal.  Newly allocated. */
static char *shown(const char *s)
{
	return bm_escape_controls(s ? s : "");
}

/* What a row's acknowledgement says: "acknowledged by WHO: WHY", or that
 * the regression grew past it.  Newly allocated, escaped. */
static char *ack_text(const struct check_row *r)
{
	char then[32], now[32], *by = shown(r->ack_by), *why = shown(r->ack_reason), *t;
	if (r->ack_covers || !r->has_ack_impact || !r->has_impact)
		t = xasprintf("acknowledged by %s: %s", by, why);
	else
		t = xasprintf("acknowledged by %s at %s, now %s: no longer covered (%s)", by,
			      check_format_impact(then, r->ack_impact), check_format_impact(now, r->impact), why);
	free(by);
	free(why);
	return t;
}

static void print_expected_text(FILE *f, const struct check *c, const struct check_expected *x)
{
	size_t listed = 0;
	enum expectation worst = EXPECT_SUCCESS;
	for (size_t i = 0; i < c->nrows; i++) {
		listed += x->result[i] != EXPECT_UNLISTED;
		worst = x->result[i] > worst ? x->result[i] : worst;
	}
	char *path = shown(x->path);
	fprintf(f, "\nexpectations (%s): %s, %zu of %zu benchmarks judged\n", path, expectation_name(worst), listed,
		c->nrows);
	free(path);
	fprintf(f, "  platform key: %s\n", c->platform ? c->platform : "unknown");
	for (size_t i = 0; i < c->nrows; i++)
		if (x->result[i] != EXPECT_UNLISTED) {
			char *key = shown(x->key[i] ? x->key[i] : c->rows[i].id), *note = shown(x->note[i]);
			fprintf(f, "  %-7s  %s: %s\n", expectation_name(x->result[i]), key, note);
			free(key);
			free(note);
		}
}

static void print_table_text(FILE *f, const struct check *c)
{
	char a[CHECK_IMPACT_CELL_SIZE], b[FMT_SIZE], s[FMT_SIZE];
	int causes = check_any_cause(c);
	int wid = (int)strlen("benchmark"), wb = (int)strlen(check_cell_value_name(c, 1)),
	    ws = (int)strlen(check_cell_value_name(c, 0)), wi = (int)strlen("impact");
	char **ids = xcalloc(c->nrows + 1, sizeof *ids);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (check_row_unchanged(r))
			continue;
		int n;
		ids[i] = shown(r->id);
		if ((n = (int)strlen(ids[i])) > wid)
			wid = n;
		if ((n = (int)strlen(check_cell_value(b, c, r, 1))) > wb)
			wb = n;
		if ((n = (int)strlen(check_cell_value(s, c, r, 0))) > ws)
			ws = n;
		if ((n = (int)strlen(check_cell_impact(a, c, r))) > wi)
			wi = n;
	}
	fprintf(f, "\n%-*s  %*s  %*s  %*s%s\n", wid, "benchmark", wb, check_cell_value_name(c, 1), ws,
		check_cell_value_name(c, 0), wi, "impact", causes ? "  cause" : "");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		char cause[CHECK_CAUSE_SIZE];
		if (!ids[i])
			continue;
		check_cell_cause(cause, c, r);
		fprintf(f, "%-*s  %*s  %*s  %*s%s%s\n", wid, ids[i], wb, check_cell_value(b, c, r, 1), ws,
			check_cell_value(s, c, r, 0), wi, check_cell_impact(a, c, r), *cause ? "  " : "", cause);
		free(ids[i]);
	}
	free(ids);
}

void check_print_text(FILE *f, const struct check *c, const struct check_expected *x)
{
	char a[32], b[32];
	char *commit = c->commit ? shown(c->commit) : NULL, *baseline = shown(c->baseline ? c->baseline : "?"),
	     *reason = shown(c->has_baseline ? c->baseline_reason : check_no_baseline_why(c));
	if (commit)
		fprintf(f, "commit %s%s%s\n", commit, c->platform ? " on " : "", c->platform ? c->platform : "");
	if (c->has_baseline)
		fprintf(f, "baseline: %s (%s)\n", baseline, reason);
	else
		fprintf(f, "no baseline: %s \xe2\x80\x94 nothing was compared\n", reason);
	free(commit);
	free(baseline);
	free(reason);
	check_threshold_text(a, c->threshold);
	if (c->has_commit_impact)
		fprintf(f, "commit impact: %s (threshold %s%s%s)\n", check_format_impact(b, c->commit_impact), a,
			c->metric != GATE_CYCLES ? ", metric " : "", c->metric != GATE_CYCLES ? gate_metric_name(c->metric) : "");
	fprintf(f, "verdict: %s%s\n", verdict_name(c->verdict),
		c->verdict == VERDICT_ACKNOWLEDGED ? " (every regression beyond the threshold is acknowledged: the check passes)"
						   : "");
	print_table_text(f, c);
	size_t unchanged = check_count_unchanged(c);
	if (unchanged)
		fprintf(f, "%zu unchanged\n", unchanged);
	for (size_t i = 0; i < c->nrows; i++) {
		char change[CHECK_ALLOC_SIZE];
		if (!check_alloc_change(change, &c->rows[i]))
			continue;
		char *id = shown(c->rows[i].id);
		fprintf(f, "allocations changed: %s: %s\n", id, change);
		free(id);
	}
	if (!c->nrows)
		fprintf(f, "(no benchmarks)\n");
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].status, "failed")) {
			char *id = shown(c->rows[i].id), *why = shown(c->rows[i].reason ? c->rows[i].reason : "no reason given");
			fprintf(f, "%s failed: %s\n", id, why);
			free(id);
			free(why);
		}
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].ack_by) {
			char *id = shown(c->rows[i].id), *note = ack_text(&c->rows[i]);
			fprintf(f, "%s: %s\n", id, note);
			free(id);
			free(note);
		}
	if (x)
		print_expected_text(f, c, x);
}

void check_format_summary(char *buf, size_t max, const struct check *c)
{
	char a[32], t[32];
	check_threshold_text(t, c->threshold);
	if (c->verdict == VERDICT_NO_BASELINE)
		snprintf(buf, max + 1, "no baseline: nothing was compared");
	else if (c->verdict == VERDICT_FAILED)
		snprintf(buf, max + 1, "failed: %zu benchmark%s failed", check_count_failed(c), check_count_failed(c) == 1 ? "" : "s");
	else if (c->has_commit_impact)
		snprintf(buf, max + 1, "%s: commit impact %s (threshold %s)", verdict_name(c->verdict),
			 check_format_impact(a, c->commit_impact), t);
	else
		snprintf(buf, max + 1, "%s", verdict_name(c->verdict));
}
