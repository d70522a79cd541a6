/* SPDX-License-Identifier: MIT */
/* The text report and the Markdown summary: see check_output.h. */
#include "config.h"

#include "check_output.h"

#include "fmt.h"
#include "log.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define CAUSE_SIZE 160

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

/* Cells --------------------------------------------------------------------- */

char *check_format_impact(char buf[32], double impact)
{
	snprintf(buf, 32, "%+.2f%%", 100 * impact);
	return buf;
}

/* " (own threshold 2%)" for a row judged with a threshold of its own. */
static const char *own_threshold(char buf[48], const struct check_row *r)
{
	buf[0] = '\0';
	if (r->has_threshold)
		snprintf(buf, 48, " (own threshold %g%%)", 100 * r->threshold);
	return buf;
}

static const char *impact_cell(char buf[80], const struct check *c, const struct check_row *r)
{
	char own[48];
	if (r->has_impact) {
		check_format_impact(buf, r->impact);
		strcat(buf, own_threshold(own, r));
		return buf;
	}
	if (!strcmp(r->status, "ok"))
		return r->has_base || !c->has_baseline ? "-" : "new";
	return r->status; /* failed, skipped, missing */
}

/* The column names of the gate metric's values. */
static const char *value_name(const struct check *c, int base)
{
	static const char *const names[][2] = {
		[GATE_CYCLES] = {"speed", "base speed"},
		[GATE_INSTRUCTIONS] = {"Ir", "base Ir"},
		[GATE_SYSCALLS] = {"calls", "base calls"},
	};
	return names[c->metric][base];
}

/* An imported figure with its unit: "1.25 ms" (times as fmt_seconds),
 * "60 fps". */
static const char *imported_cell(char buf[FMT_SIZE], const char *unit, int has, double v)
{
	if (!has)
		return "-";
	if (!strcmp(unit, "s"))
		return fmt_seconds(buf, v);
	snprintf(buf, FMT_SIZE, "%.4g %.*s", v, FMT_SIZE - 12, unit);
	return buf;
}

/* A row's value (base: its baseline's) in the gate metric: the speed for
 * cycles, else the count. */
static const char *value_cell(char buf[FMT_SIZE], const struct check *c, const struct check_row *r, int base)
{
	uint64_t n;
	if (!(base ? r->has_base : r->has_speed))
		return "-";
	if (c->metric == GATE_CYCLES && r->unit)
		return imported_cell(buf, r->unit, base ? r->has_base_value : r->has_value, base ? r->base_value : r->value);
	if (c->metric == GATE_CYCLES)
		return fmt_rate(buf, base ? r->base_speed : r->speed);
	return gate_count(c->metric, base ? &r->base_counts : &r->counts, &n) ? fmt_count(buf, n) : "-";
}

/* Why a slower row is slower, in cycles: more instructions or more cache
 * misses (gate.h); "" when not known or not slower. */
static const char *cause_cell(char *buf, size_t size, const struct check *c, const struct check_row *r)
{
	buf[0] = '\0';
	if (c->metric == GATE_CYCLES && r->has_impact && r->impact <= -CHECK_UNCHANGED)
		gate_cause(&r->counts, &r->base_counts, buf, size);
	return buf;
}

static int any_cause(const struct check *c)
{
	char buf[CAUSE_SIZE];
	for (size_t i = 0; i < c->nrows; i++)
		if (*cause_cell(buf, sizeof buf, c, &c->rows[i]))
			return 1;
	return 0;
}

static size_t count_unchanged(const struct check *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += check_row_unchanged(&c->rows[i]);
	return n;
}

static int any_ack(const struct check *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].ack_by)
			return 1;
	return 0;
}

static size_t count_failed(const struct check *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += !strcmp(c->rows[i].status, "failed");
	return n;
}

/* The baseline's reason without the "no baseline: " it may start with. */
static const char *no_baseline_why(const struct check *c)
{
	static const char prefix[] = "no baseline: ";
	const char *why = c->baseline_reason;
	return strncmp(why, prefix, sizeof prefix - 1) ? why : why + sizeof prefix - 1;
}

static void threshold_text(char buf[32], double t)
{
	snprintf(buf, 32, "%g%%", 100 * t);
}

/* Text ---------------------------------------------------------------------- */

/* s with control characters (a newline in a name) as spaces, so that a
 * row stays one line; newly allocated. */
static char *one_line(const char *s)
{
	char *t = xstrdup(s);
	for (char *p = t; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return t;
}

/* What a row's acknowledgement says: "acknowledged by WHO: WHY", or that
 * the regression grew past it.  Newly allocated. */
static char *ack_text(const struct check_row *r)
{
	char then[32], now[32];
	if (r->ack_covers || !r->has_ack_impact || !r->has_impact)
		return xasprintf("acknowledged by %s: %s", r->ack_by, r->ack_reason);
	return xasprintf("acknowledged by %s at %s, now %s: no longer covered (%s)", r->ack_by,
			 check_format_impact(then, r->ack_impact), check_format_impact(now, r->impact), r->ack_reason);
}

static void print_expected_text(FILE *f, const struct check *c, const struct check_expected *x)
{
	size_t listed = 0;
	enum expectation worst = EXPECT_SUCCESS;
	for (size_t i = 0; i < c->nrows; i++) {
		listed += x->result[i] != EXPECT_UNLISTED;
		worst = x->result[i] > worst ? x->result[i] : worst;
	}
	fprintf(f, "\nexpectations (%s): %s, %zu of %zu benchmarks judged\n", x->path, expectation_name(worst), listed,
		c->nrows);
	fprintf(f, "  platform key: %s\n", c->platform ? c->platform : "unknown");
	for (size_t i = 0; i < c->nrows; i++)
		if (x->result[i] != EXPECT_UNLISTED)
			fprintf(f, "  %-7s  %s: %s\n", expectation_name(x->result[i]), x->key[i] ? x->key[i] : c->rows[i].id,
				x->note[i]);
}

void check_print_text(FILE *f, const struct check *c, const struct check_expected *x)
{
	char a[80], b[FMT_SIZE], s[FMT_SIZE];
	if (c->commit)
		fprintf(f, "commit %s%s%s\n", c->commit, c->platform ? " on " : "", c->platform ? c->platform : "");
	if (c->has_baseline)
		fprintf(f, "baseline: %s (%s)\n", c->baseline ? c->baseline : "?", c->baseline_reason);
	else
		fprintf(f, "no baseline: %s \xe2\x80\x94 nothing was compared\n", no_baseline_why(c));
	threshold_text(a, c->threshold);
	if (c->has_commit_impact)
		fprintf(f, "commit impact: %s (threshold %s%s%s)\n", check_format_impact(b, c->commit_impact), a,
			c->metric != GATE_CYCLES ? ", metric " : "", c->metric != GATE_CYCLES ? gate_metric_name(c->metric) : "");
	fprintf(f, "verdict: %s%s\n", verdict_name(c->verdict),
		c->verdict == VERDICT_ACKNOWLEDGED ? " (every regression beyond the threshold is acknowledged: the check passes)"
						   : "");

	size_t unchanged = count_unchanged(c);
	int causes = any_cause(c);
	int wid = (int)strlen("benchmark"), wb = (int)strlen(value_name(c, 1)), ws = (int)strlen(value_name(c, 0)),
	    wi = (int)strlen("impact");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (check_row_unchanged(r))
			continue;
		int n;
		if ((n = (int)strlen(r->id)) > wid)
			wid = n;
		if ((n = (int)strlen(value_cell(b, c, r, 1))) > wb)
			wb = n;
		if ((n = (int)strlen(value_cell(s, c, r, 0))) > ws)
			ws = n;
		if ((n = (int)strlen(impact_cell(a, c, r))) > wi)
			wi = n;
	}
	fprintf(f, "\n%-*s  %*s  %*s  %*s%s\n", wid, "benchmark", wb, value_name(c, 1), ws, value_name(c, 0), wi,
		"impact", causes ? "  cause" : "");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		char cause[CAUSE_SIZE];
		if (check_row_unchanged(r))
			continue;
		char *id = one_line(r->id);
		cause_cell(cause, sizeof cause, c, r);
		fprintf(f, "%-*s  %*s  %*s  %*s%s%s\n", wid, id, wb, value_cell(b, c, r, 1), ws, value_cell(s, c, r, 0),
			wi, impact_cell(a, c, r), *cause ? "  " : "", cause);
		free(id);
	}
	if (unchanged)
		fprintf(f, "%zu unchanged\n", unchanged);
	if (!c->nrows)
		fprintf(f, "(no benchmarks)\n");
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].status, "failed"))
			fprintf(f, "%s failed: %s\n", c->rows[i].id, c->rows[i].reason ? c->rows[i].reason : "no reason given");
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].ack_by) {
			char *id = one_line(c->rows[i].id), *note = ack_text(&c->rows[i]), *t = one_line(note);
			fprintf(f, "%s: %s\n", id, t);
			free(id);
			free(note);
			free(t);
		}
	if (x)
		print_expected_text(f, c, x);
}

/* Markdown ------------------------------------------------------------------ */

/* s escaped for a Markdown table cell that GitHub renders as HTML: '|'
 * and '\' are backslashed, line breaks become spaces, '<', '>' and '&'
 * entities, and the characters that start emphasis, code or links are
 * backslashed so that a name reads as itself. */
static void md(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '\n':
		case '\r':
			fputc(' ', f);
			break;
		case '|':
		case '\\':
		case '`':
		case '*':
		case '_':
		case '[':
		case ']':
			fputc('\\', f);
			fputc(*s, f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void print_expected_markdown(FILE *f, const struct check *c, const struct check_expected *x)
{
	fputs("\n**Expectations** (", f);
	md(f, x->path);
	fputs(")\n\n| result | expectation | |\n| --- | --- | --- |\n", f);
	size_t listed = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		if (x->result[i] == EXPECT_UNLISTED)
			continue;
		listed++;
		fprintf(f, "| %s | ", expectation_name(x->result[i]));
		md(f, x->key[i] ? x->key[i] : c->rows[i].id);
		fputs(" | ", f);
		md(f, x->note[i]);
		fputs(" |\n", f);
	}
	if (!listed)
		fputs("| | no benchmark of this commit is listed | |\n", f);
}

void check_print_markdown(FILE *f, const struct check *c, const struct check_expected *x)
{
	char a[80], b[FMT_SIZE], s[FMT_SIZE];
	size_t failed = count_failed(c);
	if (c->verdict == VERDICT_FAILED)
		fprintf(f, "### bm: failed (%zu benchmark%s failed)\n\n", failed, failed == 1 ? "" : "s");
	else if (c->verdict == VERDICT_NO_BASELINE)
		fputs("### bm: no baseline\n\n", f);
	else if (c->has_commit_impact)
		fprintf(f, "### bm: %s (%s)\n\n", verdict_name(c->verdict), check_format_impact(a, c->commit_impact));
	else
		fprintf(f, "### bm: %s\n\n", verdict_name(c->verdict));
	if (c->has_baseline) {
		fputs("**Baseline:** ", f);
		md(f, c->baseline ? c->baseline : "?");
		fputs(" (", f);
		md(f, c->baseline_reason);
		fputs(")\n", f);
	} else {
		fputs("**No baseline:** ", f);
		md(f, no_baseline_why(c));
		fputs(" \xe2\x80\x94 nothing was compared\n", f);
	}
	threshold_text(a, c->threshold);
	if (c->has_commit_impact)
		fprintf(f, "\n**Commit impact:** %s (threshold %s%s%s)\n", check_format_impact(b, c->commit_impact), a,
			c->metric != GATE_CYCLES ? ", metric " : "", c->metric != GATE_CYCLES ? gate_metric_name(c->metric) : "");

	int causes = any_cause(c);
	fprintf(f, "\n| benchmark | %s | %s | impact |%s\n| --- | ---: | ---: | ---: |%s\n", value_name(c, 1),
		value_name(c, 0), causes ? " cause |" : "", causes ? " --- |" : "");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		char cause[CAUSE_SIZE];
		if (check_row_unchanged(r))
			continue;
		fputs("| ", f);
		md(f, r->id);
		fprintf(f, " | %s | %s | %s |", value_cell(b, c, r, 1), value_cell(s, c, r, 0), impact_cell(a, c, r));
		if (causes && *cause_cell(cause, sizeof cause, c, r)) {
			fputc(' ', f);
			md(f, cause);
			fputs(" |", f);
		} else if (causes) {
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	size_t unchanged = count_unchanged(c);
	if (unchanged)
		fprintf(f, "| %zu unchanged | | | |%s\n", unchanged, causes ? " |" : "");
	if (failed) {
		fputs("\n**Failed:**\n\n", f);
		for (size_t i = 0; i < c->nrows; i++) {
			const struct check_row *r = &c->rows[i];
			if (strcmp(r->status, "failed"))
				continue;
			fputs("- ", f);
			md(f, r->id);
			fputs(": ", f);
			md(f, r->reason ? r->reason : "no reason given");
			fputc('\n', f);
		}
	}
	if (any_ack(c)) {
		fputs("\n**Acknowledged:**\n\n", f);
		for (size_t i = 0; i < c->nrows; i++) {
			if (!c->rows[i].ack_by)
				continue;
			char *note = ack_text(&c->rows[i]);
			fputs("- ", f);
			md(f, c->rows[i].id);
			fputs(": ", f);
			md(f, note);
			fputc('\n', f);
			free(note);
		}
	}
	if (x)
		print_expected_markdown(f, c, x);
	fputc('\n', f);
}

void check_format_summary(char *buf, size_t max, const struct check *c)
{
	char a[32], t[32];
	threshold_text(t, c->threshold);
	if (c->verdict == VERDICT_NO_BASELINE)
		snprintf(buf, max + 1, "no baseline: nothing was compared");
	else if (c->verdict == VERDICT_FAILED)
		snprintf(buf, max + 1, "failed: %zu benchmark%s failed", count_failed(c), count_failed(c) == 1 ? "" : "s");
	else if (c->has_commit_impact)
		snprintf(buf, max + 1, "%s: commit impact %s (threshold %s)", verdict_name(c->verdict),
			 check_format_impact(a, c->commit_impact), t);
	else
		snprintf(buf, max + 1, "%s", verdict_name(c->verdict));
}
