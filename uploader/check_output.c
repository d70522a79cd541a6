/* The text report and the Markdown summary: see check_output.h. */
#include "config.h"

#include "check_output.h"

#include "fmt.h"
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
	for (size_t i = 0; i < c->nrows; i++)
		x->result[i] = expectations_judge(e, c->platform, &c->rows[i], &x->key[i], &x->note[i]);
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

static const char *impact_cell(char buf[32], const struct check *c, const struct check_row *r)
{
	if (r->has_impact)
		return check_format_impact(buf, r->impact);
	if (!strcmp(r->status, "ok"))
		return r->has_base || !c->has_baseline ? "-" : "new";
	return r->status; /* failed, skipped, missing */
}

static const char *speed_cell(char buf[FMT_SIZE], int has, double speed)
{
	return has ? fmt_rate(buf, speed) : "-";
}

static size_t count_unchanged(const struct check *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += check_row_unchanged(&c->rows[i]);
	return n;
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
	for (size_t i = 0; i < c->nrows; i++)
		if (x->result[i] != EXPECT_UNLISTED)
			fprintf(f, "  %-7s  %s: %s\n", expectation_name(x->result[i]), x->key[i] ? x->key[i] : c->rows[i].id,
				x->note[i]);
}

void check_print_text(FILE *f, const struct check *c, const struct check_expected *x)
{
	char a[32], b[FMT_SIZE], s[FMT_SIZE];
	if (c->commit)
		fprintf(f, "commit %s%s%s\n", c->commit, c->platform ? " on " : "", c->platform ? c->platform : "");
	if (c->has_baseline)
		fprintf(f, "baseline: %s (%s)\n", c->baseline ? c->baseline : "?", c->baseline_reason);
	else
		fprintf(f, "no baseline: %s \xe2\x80\x94 nothing was compared\n", no_baseline_why(c));
	threshold_text(a, c->threshold);
	if (c->has_commit_impact)
		fprintf(f, "commit impact: %s (threshold %s)\n", check_format_impact(b, c->commit_impact), a);
	fprintf(f, "verdict: %s\n", verdict_name(c->verdict));

	size_t unchanged = count_unchanged(c);
	int wid = (int)strlen("benchmark"), wb = (int)strlen("base speed"), ws = (int)strlen("speed"),
	    wi = (int)strlen("impact");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (check_row_unchanged(r))
			continue;
		int n;
		if ((n = (int)strlen(r->id)) > wid)
			wid = n;
		if ((n = (int)strlen(speed_cell(b, r->has_base, r->base_speed))) > wb)
			wb = n;
		if ((n = (int)strlen(speed_cell(s, r->has_speed, r->speed))) > ws)
			ws = n;
		if ((n = (int)strlen(impact_cell(a, c, r))) > wi)
			wi = n;
	}
	fprintf(f, "\n%-*s  %*s  %*s  %*s\n", wid, "benchmark", wb, "base speed", ws, "speed", wi, "impact");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (check_row_unchanged(r))
			continue;
		char *id = one_line(r->id);
		fprintf(f, "%-*s  %*s  %*s  %*s\n", wid, id, wb, speed_cell(b, r->has_base, r->base_speed), ws,
			speed_cell(s, r->has_speed, r->speed), wi, impact_cell(a, c, r));
		free(id);
	}
	if (unchanged)
		fprintf(f, "%zu unchanged\n", unchanged);
	if (!c->nrows)
		fprintf(f, "(no benchmarks)\n");
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].status, "failed"))
			fprintf(f, "%s failed: %s\n", c->rows[i].id, c->rows[i].reason ? c->rows[i].reason : "no reason given");
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
	char a[32], b[FMT_SIZE], s[FMT_SIZE];
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
		fprintf(f, "\n**Commit impact:** %s (threshold %s)\n", check_format_impact(b, c->commit_impact), a);

	fputs("\n| benchmark | base speed | speed | impact |\n| --- | ---: | ---: | ---: |\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (check_row_unchanged(r))
			continue;
		fputs("| ", f);
		md(f, r->id);
		fprintf(f, " | %s | %s | %s |\n", speed_cell(b, r->has_base, r->base_speed),
			speed_cell(s, r->has_speed, r->speed), impact_cell(a, c, r));
	}
	size_t unchanged = count_unchanged(c);
	if (unchanged)
		fprintf(f, "| %zu unchanged | | | |\n", unchanged);
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
