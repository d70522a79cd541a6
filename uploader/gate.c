/* SPDX-License-Identifier: MIT */
/* Gate metrics and the cause of a slowdown: see gate.h. */
#include "config.h"

#include "gate.h"

#include "fmt.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {[GATE_CYCLES] = "cycles",
				    [GATE_INSTRUCTIONS] = "instructions",
				    [GATE_SYSCALLS] = "syscalls",
				    [GATE_ALLOCATIONS] = "allocations",
				    [GATE_BYTES_ALLOCATED] = "bytes_allocated",
				    [GATE_PEAK_BYTES] = "peak_bytes"};

const char gate_metric_list[] = "cycles, instructions, syscalls, allocations, bytes_allocated or peak_bytes";

const char *gate_metric_name(enum gate_metric m)
{
	return names[m];
}

int gate_metric_lookup(const char *name, enum gate_metric *m)
{
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i], name)) {
			*m = (enum gate_metric)i;
			return 0;
		}
	return -1;
}

int gate_count(enum gate_metric m, const struct gate_counts *c, uint64_t *count)
{
	if (m == GATE_CYCLES || !c)
		return 0;
	const struct bm_heap *h = &c->heap;
	switch (m) {
	case GATE_ALLOCATIONS:
		*count = h->allocations;
		return h->measured;
	case GATE_BYTES_ALLOCATED:
		*count = h->bytes_allocated;
		return h->measured;
	case GATE_PEAK_BYTES:
		*count = h->peak_bytes;
		return h->has_peak;
	default:
		break;
	}
	enum bm_event ev = m == GATE_SYSCALLS ? BM_EV_SYSCOUNT : BM_EV_IR;
	if (!events_has(&c->events, ev))
		return 0;
	*count = c->events.v[ev];
	return 1;
}

int gate_figure(enum gate_metric m, double speed, const struct gate_counts *c, double *figure)
{
	uint64_t n;
	if (m == GATE_CYCLES) {
		*figure = speed;
		return speed > 0;
	}
	if (!gate_count(m, c, &n) || (m == GATE_INSTRUCTIONS && n == 0))
		return 0;
	*figure = 1.0 / (double)(n ? n : 1);
	return 1;
}

/* The sum of the present events in evs[]. */
static uint64_t sum(const struct bm_events *e, const enum bm_event *evs, size_t n, int *present)
{
	uint64_t total = 0;
	*present = 1;
	for (size_t i = 0; i < n; i++) {
		*present &= events_has(e, evs[i]);
		total += e->v[evs[i]];
	}
	return total;
}

int gate_layout_only(const struct bm_events *head, const struct bm_events *base)
{
	static const enum bm_event accesses[] = {BM_EV_IR, BM_EV_DR, BM_EV_DW};
	static const enum bm_event misses[] = {BM_EV_I1MR, BM_EV_D1MR, BM_EV_D1MW,
					       BM_EV_ILMR, BM_EV_DLMR, BM_EV_DLMW};
	for (size_t i = 0; i < 3; i++)
		if (!events_has(head, accesses[i]) || !events_has(base, accesses[i]) ||
		    head->v[accesses[i]] != base->v[accesses[i]])
			return 0;
	uint64_t moved = 0;
	for (size_t i = 0; i < 6; i++) {
		uint64_t a = head->v[misses[i]], b = base->v[misses[i]];
		moved += a > b ? a - b : b - a;
	}
	return moved > 0 && moved <= GATE_LAYOUT_MISSES_MAX;
}

static int cycles_cause(const struct gate_counts *head, const struct gate_counts *base, char *buf, size_t size);

int gate_cause(const struct gate_counts *head, const struct gate_counts *base, char *buf, size_t size)
{
	if (!cycles_cause(head, base, buf, size))
		return 0;
	const struct bm_heap *h = &head->heap, *b = &base->heap;
	if (!h->measured || !b->measured || h->allocations <= b->allocations)
		return 1;
	char blocks[FMT_SIZE + 1], bytes[FMT_SIZE + 1], *why = xstrdup(buf);
	snprintf(buf, size, "more allocations (%s, %s bytes): %s", fmt_count_delta(blocks, h->allocations, b->allocations),
		 fmt_count_delta(bytes, h->bytes_allocated, b->bytes_allocated), why);
	free(why);
	return 1;
}

static int cycles_cause(const struct gate_counts *head, const struct gate_counts *base, char *buf, size_t size)
{
	static const enum bm_event l1[] = {BM_EV_I1MR, BM_EV_D1MR, BM_EV_D1MW}, ll[] = {BM_EV_ILMR, BM_EV_DLMR, BM_EV_DLMW};
	buf[0] = '\0';
	if (!head || !base || !head->has_cycles || !base->has_cycles || !events_has(&head->events, BM_EV_IR) ||
	    !events_has(&base->events, BM_EV_IR) || !base->events.v[BM_EV_IR] || head->cycles <= base->cycles)
		return 0;
	double ir = (double)head->events.v[BM_EV_IR], base_ir = (double)base->events.v[BM_EV_IR];
	double from_instructions = (double)base->cycles * (ir / base_ir - 1);
	double from_misses = (double)head->cycles - (double)base->cycles * ir / base_ir;
	char irs[32];
	snprintf(irs, sizeof irs, "Ir %+.2f%%", 100 * (ir / base_ir - 1));
	if (from_instructions >= from_misses) {
		snprintf(buf, size, "more instructions (%s)", irs);
		return 1;
	}
	int has_l1, has_ll, b1, bl;
	uint64_t h1 = sum(&head->events, l1, 3, &has_l1), hl = sum(&head->events, ll, 3, &has_ll);
	uint64_t p1 = sum(&base->events, l1, 3, &b1), pl = sum(&base->events, ll, 3, &bl);
	char d1[FMT_SIZE + 1], dl[FMT_SIZE + 1];
	if (gate_layout_only(&head->events, &base->events)) {
		snprintf(buf, size, "code layout (Ir unchanged, L1 misses %+lld, LL misses %+lld)",
			 (long long)h1 - (long long)p1, (long long)hl - (long long)pl);
		return 1;
	}
	if (has_l1 && has_ll && b1 && bl)
		snprintf(buf, size, "more cache misses (%s, L1 misses %s, LL misses %s)", irs, fmt_count_delta(d1, h1, p1),
			 fmt_count_delta(dl, hl, pl));
	else
		snprintf(buf, size, "more cache misses (%s, more cycles per instruction)", irs);
	return 1;
}
