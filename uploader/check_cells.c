/* SPDX-License-Identifier: MIT */
/* A check's cells and counts: see check_cells.h. */
#include "config.h"

#include "check_cells.h"

#include <stdio.h>
#include <string.h>

char *check_format_impact(char buf[32], double impact)
{
	/* Whole whatever its size: a huge one in exponent notation. */
	return fmt_percent(buf, impact);
}

/* " (own threshold 2%)" for a row judged with a threshold of its own. */
static const char *own_threshold(char buf[48], const struct check_row *r)
{
	buf[0] = '\0';
	if (r->has_threshold)
		snprintf(buf, 48, " (own threshold %g%%)", 100 * r->threshold);
	return buf;
}

const char *check_cell_impact(char buf[CHECK_IMPACT_CELL_SIZE], const struct check *c, const struct check_row *r)
{
	char own[48];
	if (r->has_impact) {
		check_format_impact(buf, r->impact);
		size_t n = strlen(buf);
		snprintf(buf + n, CHECK_IMPACT_CELL_SIZE - n, "%s", own_threshold(own, r));
		return buf;
	}
	if (!strcmp(r->status, "ok"))
		return r->has_base || !c->has_baseline ? "-" : "new";
	return r->status; /* failed, skipped, missing */
}

const char *check_cell_value_name(const struct check *c, int base)
{
	static const char *const names[][2] = {
		[GATE_CYCLES] = {"speed", "base speed"},
		[GATE_INSTRUCTIONS] = {"Ir", "base Ir"},
		[GATE_SYSCALLS] = {"calls", "base calls"},
		[GATE_ALLOCATIONS] = {"blocks", "base blocks"},
		[GATE_BYTES_ALLOCATED] = {"bytes", "base bytes"},
		[GATE_PEAK_BYTES] = {"peak", "base peak"},
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

const char *check_cell_value(char buf[FMT_SIZE], const struct check *c, const struct check_row *r, int base)
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

const char *check_cell_cause(char buf[CHECK_CAUSE_SIZE], const struct check *c, const struct check_row *r)
{
	buf[0] = '\0';
	if (c->metric == GATE_CYCLES && r->has_impact && r->impact <= -CHECK_UNCHANGED)
		gate_cause(&r->counts, &r->base_counts, buf, CHECK_CAUSE_SIZE);
	return buf;
}

int check_any_cause(const struct check *c)
{
	char buf[CHECK_CAUSE_SIZE];
	for (size_t i = 0; i < c->nrows; i++)
		if (*check_cell_cause(buf, c, &c->rows[i]))
			return 1;
	return 0;
}

size_t check_count_unchanged(const struct check *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += check_row_unchanged(&c->rows[i]);
	return n;
}

int check_any_ack(const struct check *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].ack_by)
			return 1;
	return 0;
}

size_t check_count_failed(const struct check *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += !strcmp(c->rows[i].status, "failed");
	return n;
}

const char *check_no_baseline_why(const struct check *c)
{
	static const char prefix[] = "no baseline: ";
	const char *why = c->baseline_reason;
	return strncmp(why, prefix, sizeof prefix - 1) ? why : why + sizeof prefix - 1;
}

void check_threshold_text(char buf[32], double t)
{
	snprintf(buf, 32, "%g%%", 100 * t);
}

int check_alloc_change(char buf[CHECK_ALLOC_SIZE], const struct check_row *r)
{
	const struct bm_heap *h = &r->counts.heap, *b = &r->base_counts.heap;
	buf[0] = '\0';
	if (!h->measured || !b->measured || !r->has_base ||
	    (h->allocations == b->allocations && h->bytes_allocated == b->bytes_allocated &&
	     (!h->has_peak || !b->has_peak || h->peak_bytes == b->peak_bytes)))
		return 0;
	char x[FMT_SIZE], y[FMT_SIZE], d[FMT_SIZE + 1], p[FMT_SIZE], q[FMT_SIZE], e[FMT_SIZE + 1];
	int n = snprintf(buf, CHECK_ALLOC_SIZE, "%s -> %s blocks (%s), %s -> %s bytes (%s)", fmt_count(x, b->allocations),
			 fmt_count(y, h->allocations), fmt_count_delta(d, h->allocations, b->allocations),
			 fmt_count(p, b->bytes_allocated), fmt_count(q, h->bytes_allocated),
			 fmt_count_delta(e, h->bytes_allocated, b->bytes_allocated));
	if (h->has_peak && b->has_peak && h->peak_bytes != b->peak_bytes && n > 0 && n < CHECK_ALLOC_SIZE)
		snprintf(buf + n, CHECK_ALLOC_SIZE - (size_t)n, ", peak %s -> %s bytes", fmt_count(x, b->peak_bytes),
			 fmt_count(y, h->peak_bytes));
	return 1;
}

int check_any_alloc_change(const struct check *c)
{
	char buf[CHECK_ALLOC_SIZE];
	for (size_t i = 0; i < c->nrows; i++)
		if (check_alloc_change(buf, &c->rows[i]))
			return 1;
	return 0;
}
