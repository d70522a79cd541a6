/* SPDX-License-Identifier: MIT */
/* The check in Markdown: see check_markdown.h. */
#include "config.h"

#include "check_markdown.h"

#include "check_cells.h"
#include "markdown.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static void print_expected_markdown(FILE *f, const struct check *c, const struct check_expected *x)
{
	fputs("\n**Expectations** (", f);
	markdown_code(f, x->path, MARKDOWN_TEXT);
	fputs(")\n\n| result | expectation | |\n| --- | --- | --- |\n", f);
	size_t listed = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		if (x->result[i] == EXPECT_UNLISTED)
			continue;
		listed++;
		fprintf(f, "| %s | ", expectation_name(x->result[i]));
		markdown_code(f, x->key[i] ? x->key[i] : c->rows[i].id, MARKDOWN_CELL);
		fputs(" | ", f);
		markdown_code(f, x->note[i], MARKDOWN_CELL);
		fputs(" |\n", f);
	}
	if (!listed)
		fputs("| | no benchmark of this commit is listed | |\n", f);
}

/* "regression (-30.00%)", "failed (2 benchmarks failed)", ... */
static void print_verdict(FILE *f, const struct check *c)
{
	char a[32];
	size_t failed = check_count_failed(c);
	if (c->verdict == VERDICT_FAILED)
		fprintf(f, "failed (%zu benchmark%s failed)", failed, failed == 1 ? "" : "s");
	else if (c->verdict == VERDICT_NO_BASELINE)
		fputs("no baseline", f);
	else if (c->has_commit_impact)
		fprintf(f, "%s (%s)", verdict_name(c->verdict), check_format_impact(a, c->commit_impact));
	else
		fputs(verdict_name(c->verdict), f);
}

static void print_baseline(FILE *f, const struct check *c)
{
	char a[32], b[32];
	if (c->has_baseline) {
		fputs("**Baseline:** ", f);
		markdown_code(f, c->baseline ? c->baseline : "?", MARKDOWN_TEXT);
		fputs(" (", f);
		markdown_code(f, c->baseline_reason, MARKDOWN_TEXT);
		fputs(")\n", f);
	} else {
		fputs("**No baseline:** ", f);
		markdown_code(f, check_no_baseline_why(c), MARKDOWN_TEXT);
		fputs(" \xe2\x80\x94 nothing was compared\n", f);
	}
	check_threshold_text(a, c->threshold);
	if (c->has_commit_impact)
		fprintf(f, "\n**Commit impact:** %s (threshold %s%s%s)\n", check_format_impact(b, c->commit_impact), a,
			c->metric != GATE_CYCLES ? ", metric " : "", c->metric != GATE_CYCLES ? gate_metric_name(c->metric) : "");
}

static void print_table(FILE *f, const struct check *c)
{
	char a[CHECK_IMPACT_CELL_SIZE], b[FMT_SIZE], s[FMT_SIZE];
	int causes = check_any_cause(c);
	fprintf(f, "\n| benchmark | %s | %s | impact |%s\n| --- | ---: | ---: | ---: |%s\n", check_cell_value_name(c, 1),
		check_cell_value_name(c, 0), causes ? " cause |" : "", causes ? " --- |" : "");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		char cause[CHECK_CAUSE_SIZE];
		if (check_row_unchanged(r))
			continue;
		fputs("| ", f);
		markdown_code(f, r->id, MARKDOWN_CELL);
		fprintf(f, " | %s | %s | %s |", check_cell_value(b, c, r, 1), check_cell_value(s, c, r, 0),
			check_cell_impact(a, c, r));
		if (causes && *check_cell_cause(cause, c, r)) /* bm's own words and numbers */
			fprintf(f, " %s |", cause);
		else if (causes)
			fputs(" |", f);
		fputc('\n', f);
	}
	size_t unchanged = check_count_unchanged(c);
	if (unchanged)
		fprintf(f, "| %zu unchanged | | | |%s\n", unchanged, causes ? " |" : "");
}

static void print_failed(FILE *f, const struct check *c)
{
	if (!check_count_failed(c))
		return;
	fputs("\n**Failed:**\n\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (strcmp(r->status, "failed"))
			continue;
		fputs("- ", f);
		markdown_code(f, r->id, MARKDOWN_TEXT);
		fputs(": ", f);
		markdown_code(f, r->reason ? r->reason : "no reason given", MARKDOWN_TEXT);
		fputc('\n', f);
	}
}

static void print_acks(FILE *f, const struct check *c)
{
	if (!check_any_ack(c))
		return;
	fputs("\n**Acknowledged:**\n\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		char then[32], now[32];
		if (!r->ack_by)
			continue;
		fputs("- ", f);
		markdown_code(f, r->id, MARKDOWN_TEXT);
		fputs(": acknowledged by ", f);
		markdown_code(f, r->ack_by, MARKDOWN_TEXT);
		if (!r->ack_covers && r->has_ack_impact && r->has_impact)
			fprintf(f, " at %s, now %s: no longer covered", check_format_impact(then, r->ack_impact),
				check_format_impact(now, r->impact));
		fputs(": ", f);
		markdown_code(f, r->ack_reason, MARKDOWN_TEXT);
		fputc('\n', f);
	}
}

/* What the benchmarks allocated, where it changed: said even where the
 * speed did not move (an allocation more is rarely free elsewhere). */
static void print_allocations(FILE *f, const struct check *c)
{
	if (!check_any_alloc_change(c))
		return;
	fputs("\n**Allocations changed:**\n\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		char change[CHECK_ALLOC_SIZE];
		if (!check_alloc_change(change, &c->rows[i]))
			continue;
		fputs("- ", f);
		markdown_code(f, c->rows[i].id, MARKDOWN_TEXT);
		fprintf(f, ": %s\n", change); /* bm's own words and numbers */
	}
}

/* The body of one check's summary, after its heading. */
static void print_body(FILE *f, const struct check *c, const struct check_expected *x)
{
	print_baseline(f, c);
	print_table(f, c);
	print_allocations(f, c);
	print_failed(f, c);
	print_acks(f, c);
	if (x)
		print_expected_markdown(f, c, x);
}

void check_print_markdown(FILE *f, const struct check *c, const struct check_expected *x)
{
	fputs("### bm: ", f);
	print_verdict(f, c);
	fputs("\n\n", f);
	print_body(f, c, x);
	fputc('\n', f);
}

int check_verdict_rank(enum verdict v)
{
	switch (v) {
	case VERDICT_FAILED: return 0;
	case VERDICT_REGRESSION: return 1;
	case VERDICT_NO_BASELINE: return 2;
	case VERDICT_ACKNOWLEDGED: return 3;
	case VERDICT_NEUTRAL: return 4;
	default: return 5;
	}
}

static int worst_first(const void *a, const void *b)
{
	const struct check_section *x = a, *y = b;
	int rx = check_verdict_rank(x->c->verdict), ry = check_verdict_rank(y->c->verdict);
	if (rx != ry)
		return rx - ry;
	return strcmp(x->label, y->label);
}

static void print_link(FILE *f, const char *url)
{
	/* The server's address, given by the workflow, with the commit and
	 * run (hex and UUIDs): no outside words. */
	if (url)
		fprintf(f, "\n[The report on the dashboard](%s)\n", url);
}

void check_print_comment(FILE *f, const char *marker, struct check_section *s, size_t n)
{
	fprintf(f, "%s\n", marker);
	if (n == 1) {
		check_print_markdown(f, s[0].c, s[0].x);
		print_link(f, s[0].report_url);
		return;
	}
	qsort(s, n, sizeof *s, worst_first);
	fputs("### bm: ", f);
	print_verdict(f, s[0].c);
	fprintf(f, "\n\n%zu platforms and models measured this commit, the worst first:\n\n", n);
	for (size_t i = 0; i < n; i++) {
		fputs("- ", f);
		markdown_code(f, s[i].label, MARKDOWN_TEXT);
		fputs(": ", f);
		print_verdict(f, s[i].c);
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++) {
		fputs("\n#### ", f);
		markdown_code(f, s[i].label, MARKDOWN_TEXT);
		fputs(": ", f);
		print_verdict(f, s[i].c);
		fputs("\n\n", f);
		print_body(f, s[i].c, s[i].x);
		print_link(f, s[i].report_url);
	}
}
