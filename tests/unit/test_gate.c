/* SPDX-License-Identifier: MIT */
/* bm-check's gate metric (uploader/gate.c): the metrics by name, the
 * higher-is-better figure each turns a result into, the count shown for
 * it, the code-layout rule, and the cause named for a slowdown in
 * cycles, to the character. */
#include "config.h"

#include "gate.h"
#include "unit.h"

#include <string.h>

/* Counts with the events in evs[] collected, set to vals[]. */
static struct gate_counts counts(uint64_t cycles, const enum bm_event *evs, const uint64_t *vals, size_t n)
{
	struct gate_counts c = {.has_cycles = 1, .cycles = cycles};
	for (size_t i = 0; i < n; i++) {
		c.events.v[evs[i]] = vals[i];
		c.events.present |= 1u << evs[i];
	}
	return c;
}

/* Every event gate_layout_only and gate_cause read, in this order. */
static const enum bm_event all[] = {BM_EV_IR, BM_EV_DR, BM_EV_DW, BM_EV_I1MR, BM_EV_D1MR, BM_EV_D1MW,
				    BM_EV_ILMR, BM_EV_DLMR, BM_EV_DLMW};
#define NALL (sizeof all / sizeof *all)

static void cause_is(const struct gate_counts *head, const struct gate_counts *base, const char *want)
{
	char buf[256];
	memset(buf, 'x', sizeof buf);
	int rc = gate_cause(head, base, buf, sizeof buf);
	ck_assert_int_eq(rc, *want != '\0');
	ck_assert_str_eq(buf, want);
}

START_TEST(names_round_trip)
{
	static const enum gate_metric metrics[] = {GATE_CYCLES,      GATE_INSTRUCTIONS,    GATE_SYSCALLS,
						   GATE_ALLOCATIONS, GATE_BYTES_ALLOCATED, GATE_PEAK_BYTES};
	ck_assert_str_eq(gate_metric_name(GATE_CYCLES), "cycles");
	ck_assert_str_eq(gate_metric_name(GATE_INSTRUCTIONS), "instructions");
	ck_assert_str_eq(gate_metric_name(GATE_SYSCALLS), "syscalls");
	ck_assert_str_eq(gate_metric_name(GATE_ALLOCATIONS), "allocations");
	ck_assert_str_eq(gate_metric_name(GATE_BYTES_ALLOCATED), "bytes_allocated");
	ck_assert_str_eq(gate_metric_name(GATE_PEAK_BYTES), "peak_bytes");
	for (size_t i = 0; i < sizeof metrics / sizeof *metrics; i++) {
		enum gate_metric m = (enum gate_metric)-1;
		ck_assert_int_eq(gate_metric_lookup(gate_metric_name(metrics[i]), &m), 0);
		ck_assert_int_eq(m, metrics[i]);
	}
	/* An unknown name leaves *m alone: names match exactly. */
	enum gate_metric m = GATE_SYSCALLS;
	ck_assert_int_eq(gate_metric_lookup("speed", &m), -1);
	ck_assert_int_eq(gate_metric_lookup("Cycles", &m), -1);
	ck_assert_int_eq(gate_metric_lookup("cycle", &m), -1);
	ck_assert_int_eq(gate_metric_lookup("", &m), -1);
	ck_assert_int_eq(m, GATE_SYSCALLS);
}
END_TEST

START_TEST(figure_cycles_is_speed)
{
	const struct gate_counts none = {0};
	double f = -1;
	ck_assert_int_eq(gate_figure(GATE_CYCLES, 2500.5, &none, &f), 1);
	ck_assert_double_eq(f, 2500.5);
	/* Speed needs no counts: an imported result has a speed too. */
	ck_assert_int_eq(gate_figure(GATE_CYCLES, 12.0, NULL, &f), 1);
	ck_assert_double_eq(f, 12.0);
	ck_assert_int_eq(gate_figure(GATE_CYCLES, 0, &none, &f), 0);
}
END_TEST

START_TEST(figure_instructions_is_one_over_ir)
{
	const enum bm_event ev[] = {BM_EV_IR};
	const uint64_t base_ir[] = {1000}, head_ir[] = {1250};
	struct gate_counts base = counts(0, ev, base_ir, 1), head = counts(0, ev, head_ir, 1);
	double fb = 0, fh = 0;
	/* speed plays no part. */
	ck_assert_int_eq(gate_figure(GATE_INSTRUCTIONS, 99.0, &base, &fb), 1);
	ck_assert_double_eq(fb, 1.0 / 1000);
	ck_assert_int_eq(gate_figure(GATE_INSTRUCTIONS, 99.0, &head, &fh), 1);
	ck_assert_double_eq(fh, 1.0 / 1250);
	/* impact = base_Ir / Ir - 1 */
	ck_assert_double_eq_tol(fh / fb - 1, -0.2, 1e-12);
}
END_TEST

START_TEST(figure_instructions_needs_ir)
{
	/* An imported result: a speed, no events at all. */
	const struct gate_counts imported = {0};
	double f = 42;
	ck_assert_int_eq(gate_figure(GATE_INSTRUCTIONS, 1e6, &imported, &f), 0);
	ck_assert_int_eq(gate_figure(GATE_INSTRUCTIONS, 1e6, NULL, &f), 0);
	/* Other events but no Ir. */
	const enum bm_event dr[] = {BM_EV_DR};
	const uint64_t v[] = {10};
	struct gate_counts no_ir = counts(100, dr, v, 1);
	ck_assert_int_eq(gate_figure(GATE_INSTRUCTIONS, 1e6, &no_ir, &f), 0);
	/* Ir counted as zero: no figure, where 1/0 would be infinite. */
	const enum bm_event ir[] = {BM_EV_IR};
	const uint64_t zero[] = {0};
	struct gate_counts ir0 = counts(100, ir, zero, 1);
	ck_assert_int_eq(gate_figure(GATE_INSTRUCTIONS, 1e6, &ir0, &f), 0);
	ck_assert_double_eq(f, 42);
}
END_TEST

START_TEST(figure_syscalls_counts_zero_as_one)
{
	const enum bm_event ev[] = {BM_EV_SYSCOUNT};
	const uint64_t none[] = {0}, one[] = {1}, three[] = {3};
	struct gate_counts c0 = counts(0, ev, none, 1), c1 = counts(0, ev, one, 1), c3 = counts(0, ev, three, 1);
	double f0 = 0, f1 = 0, f3 = 0;
	ck_assert_int_eq(gate_figure(GATE_SYSCALLS, 5.0, &c0, &f0), 1);
	ck_assert_double_eq(f0, 1.0);
	ck_assert_int_eq(gate_figure(GATE_SYSCALLS, 5.0, &c1, &f1), 1);
	ck_assert_double_eq(f1, 1.0);
	ck_assert_int_eq(gate_figure(GATE_SYSCALLS, 5.0, &c3, &f3), 1);
	ck_assert_double_eq(f3, 1.0 / 3);
	/* None to three reads as -66.67%, not as an infinite regression. */
	ck_assert_double_eq_tol(f3 / f0 - 1, -2.0 / 3, 1e-12);
	/* Not collected (no --collect-systime, or imported): no figure. */
	const enum bm_event ir[] = {BM_EV_IR};
	const uint64_t v[] = {500};
	struct gate_counts no_sys = counts(100, ir, v, 1);
	ck_assert_int_eq(gate_figure(GATE_SYSCALLS, 5.0, &no_sys, &f0), 0);
	ck_assert_int_eq(gate_figure(GATE_SYSCALLS, 5.0, NULL, &f0), 0);
}
END_TEST

START_TEST(count_shown)
{
	const enum bm_event ev[] = {BM_EV_IR, BM_EV_SYSCOUNT};
	const uint64_t v[] = {123456789, 0};
	struct gate_counts c = counts(1000, ev, v, 2);
	uint64_t n = 7;
	ck_assert_int_eq(gate_count(GATE_INSTRUCTIONS, &c, &n), 1);
	ck_assert_uint_eq(n, 123456789);
	/* Zero system calls is a count, shown as 0. */
	ck_assert_int_eq(gate_count(GATE_SYSCALLS, &c, &n), 1);
	ck_assert_uint_eq(n, 0);
	/* Cycles show speed, never a count. */
	n = 7;
	ck_assert_int_eq(gate_count(GATE_CYCLES, &c, &n), 0);
	ck_assert_uint_eq(n, 7);
	const struct gate_counts imported = {0};
	ck_assert_int_eq(gate_count(GATE_INSTRUCTIONS, &imported, &n), 0);
	ck_assert_int_eq(gate_count(GATE_SYSCALLS, &imported, &n), 0);
	ck_assert_int_eq(gate_count(GATE_INSTRUCTIONS, NULL, &n), 0);
	ck_assert_uint_eq(n, 7);
}
END_TEST

START_TEST(layout_only)
{
	/* Ir, Dr, Dw; I1mr, D1mr, D1mw; ILmr, DLmr, DLmw */
	const uint64_t base_v[NALL] = {1000, 300, 200, 10, 20, 5, 4, 8, 2};
	/* 16 moved in all, some up and some down: |+3| + |-2| + |+1| + |+4| + |-5| + |+1| */
	const uint64_t moved16[NALL] = {1000, 300, 200, 13, 18, 6, 8, 3, 3};
	const uint64_t moved17[NALL] = {1000, 300, 200, 13, 18, 6, 8, 3, 4};
	const uint64_t more_ir[NALL] = {1001, 300, 200, 13, 18, 6, 4, 8, 2};
	const uint64_t more_dw[NALL] = {1000, 300, 201, 11, 20, 5, 4, 8, 2};
	struct gate_counts base = counts(0, all, base_v, NALL);
	struct gate_counts h16 = counts(0, all, moved16, NALL), h17 = counts(0, all, moved17, NALL);
	struct gate_counts hir = counts(0, all, more_ir, NALL), hdw = counts(0, all, more_dw, NALL);
	ck_assert_int_eq(GATE_LAYOUT_MISSES_MAX, 16);
	ck_assert_int_eq(gate_layout_only(&h16.events, &base.events), 1);
	ck_assert_int_eq(gate_layout_only(&base.events, &h16.events), 1);
	ck_assert_int_eq(gate_layout_only(&h17.events, &base.events), 0);
	ck_assert_int_eq(gate_layout_only(&hir.events, &base.events), 0);
	ck_assert_int_eq(gate_layout_only(&hdw.events, &base.events), 0);
	/* Nothing moved: no change at all, so nothing for layout to explain. */
	ck_assert_int_eq(gate_layout_only(&base.events, &base.events), 0);
	/* Equal counts, but Dr not collected on one side: not known the same. */
	struct gate_counts no_dr = h16;
	no_dr.events.present &= ~(1u << BM_EV_DR);
	ck_assert_int_eq(gate_layout_only(&no_dr.events, &base.events), 0);
	ck_assert_int_eq(gate_layout_only(&base.events, &no_dr.events), 0);
}
END_TEST

/* The heap's metrics: counts where the heap was measured (the peak only
 * where a dump gave one), zero compared as one; and a slowdown with more
 * blocks names them before its cycles' cause. */
START_TEST(heap_metrics_and_cause)
{
	struct gate_counts none = {.has_cycles = 1, .cycles = 1000};
	struct gate_counts c = none;
	c.heap = (struct bm_heap){.measured = 1, .allocations = 4, .bytes_allocated = 0};
	uint64_t n;
	double f;
	ck_assert_int_eq(gate_count(GATE_ALLOCATIONS, &c, &n), 1);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(gate_figure(GATE_ALLOCATIONS, 1, &c, &f), 1);
	ck_assert(f == 0.25);
	ck_assert_int_eq(gate_figure(GATE_BYTES_ALLOCATED, 1, &c, &f), 1);
	ck_assert(f == 1.0);
	ck_assert_int_eq(gate_count(GATE_PEAK_BYTES, &c, &n), 0);
	ck_assert_int_eq(gate_figure(GATE_ALLOCATIONS, 1, &none, &f), 0);
	c.heap.has_peak = 1;
	c.heap.peak_bytes = 64;
	ck_assert_int_eq(gate_count(GATE_PEAK_BYTES, &c, &n), 1);
	ck_assert_uint_eq(n, 64);

	const enum bm_event ir[] = {BM_EV_IR};
	const uint64_t b800[] = {800}, h900[] = {900};
	struct gate_counts base = counts(1000, ir, b800, 1), head = counts(1200, ir, h900, 1);
	base.heap = (struct bm_heap){.measured = 1, .allocations = 10, .bytes_allocated = 1000};
	head.heap = (struct bm_heap){.measured = 1, .allocations = 22, .bytes_allocated = 5096};
	cause_is(&head, &base, "more allocations (+12, +4,096 bytes): more instructions (Ir +12.50%)");
	head.heap.allocations = 10; /* the same blocks: the cycles' cause alone */
	cause_is(&head, &base, "more instructions (Ir +12.50%)");
	head.heap.allocations = 30;
	base.heap.measured = 0; /* one side not counted: nothing said of it */
	cause_is(&head, &base, "more instructions (Ir +12.50%)");
}
END_TEST

START_TEST(cause_more_instructions)
{
	const uint64_t base_v[NALL] = {800, 300, 200, 10, 20, 5, 4, 8, 2};
	const uint64_t head_v[NALL] = {900, 300, 200, 10, 20, 5, 4, 8, 2};
	struct gate_counts base = counts(1000, all, base_v, NALL), head = counts(1200, all, head_v, NALL);
	/* 1000 * (900/800 - 1) = 125 cycles from instructions, 75 from misses. */
	cause_is(&head, &base, "more instructions (Ir +12.50%)");
	/* A tie (250 cycles each, exact in binary) goes to instructions. */
	const enum bm_event ir[] = {BM_EV_IR};
	const uint64_t b1024[] = {1024}, h1280[] = {1280};
	struct gate_counts tb = counts(1000, ir, b1024, 1), th = counts(1500, ir, h1280, 1);
	cause_is(&th, &tb, "more instructions (Ir +25.00%)");
}
END_TEST

START_TEST(cause_more_cache_misses)
{
	/* L1: 100+200+50 = 350 -> 100+1200+74 = 1374; LL: 10+20+5 = 35 -> 10+100+21 = 131 */
	const uint64_t base_v[NALL] = {800, 300, 200, 100, 200, 50, 10, 20, 5};
	const uint64_t head_v[NALL] = {800, 300, 200, 100, 1200, 74, 10, 100, 21};
	struct gate_counts base = counts(1000, all, base_v, NALL), head = counts(5000, all, head_v, NALL);
	cause_is(&head, &base, "more cache misses (Ir +0.00%, L1 misses +1,024, LL misses +96)");
	/* Fewer instructions yet slower; fewer LL misses: signed both ways. */
	const uint64_t fewer_v[NALL] = {720, 300, 200, 100, 1200, 74, 5, 5, 5};
	struct gate_counts fewer = counts(5000, all, fewer_v, NALL);
	cause_is(&fewer, &base, "more cache misses (Ir -10.00%, L1 misses +1,024, LL misses -20)");
	/* Without the cache events: the rest is cycles per instruction. */
	const enum bm_event ir[] = {BM_EV_IR};
	const uint64_t b800[] = {800};
	struct gate_counts ib = counts(1000, ir, b800, 1), ih = counts(1500, ir, b800, 1);
	cause_is(&ih, &ib, "more cache misses (Ir +0.00%, more cycles per instruction)");
}
END_TEST

START_TEST(cause_code_layout)
{
	/* Same Ir, Dr and Dw; L1 +3 -1, LL +2: six misses moved. */
	const uint64_t base_v[NALL] = {800, 300, 200, 10, 20, 5, 4, 8, 2};
	const uint64_t head_v[NALL] = {800, 300, 200, 13, 19, 5, 4, 10, 2};
	struct gate_counts base = counts(1000, all, base_v, NALL), head = counts(1100, all, head_v, NALL);
	cause_is(&head, &base, "code layout (Ir unchanged, L1 misses +2, LL misses +2)");
}
END_TEST

START_TEST(cause_none)
{
	const uint64_t base_v[NALL] = {800, 300, 200, 10, 20, 5, 4, 8, 2};
	const uint64_t head_v[NALL] = {900, 300, 200, 10, 20, 5, 4, 8, 2};
	struct gate_counts base = counts(1000, all, base_v, NALL);
	/* Not slower: as fast, or faster. */
	struct gate_counts same = counts(1000, all, head_v, NALL), faster = counts(900, all, head_v, NALL);
	cause_is(&same, &base, "");
	cause_is(&faster, &base, "");
	/* Either side without cycles (an imported result). */
	struct gate_counts slower = counts(1200, all, head_v, NALL);
	struct gate_counts no_cycles = slower;
	no_cycles.has_cycles = 0;
	cause_is(&no_cycles, &base, "");
	struct gate_counts base_no_cycles = base;
	base_no_cycles.has_cycles = 0;
	cause_is(&slower, &base_no_cycles, "");
	/* Either side without Ir, or a base of Ir 0. */
	struct gate_counts no_ir = slower;
	no_ir.events.present &= ~(1u << BM_EV_IR);
	cause_is(&no_ir, &base, "");
	cause_is(&slower, &no_ir, "");
	struct gate_counts base_ir0 = base;
	base_ir0.events.v[BM_EV_IR] = 0;
	cause_is(&slower, &base_ir0, "");
	cause_is(NULL, &base, "");
	cause_is(&slower, NULL, "");
}
END_TEST

START_TEST(cause_truncates_to_size)
{
	const enum bm_event ir[] = {BM_EV_IR};
	const uint64_t b800[] = {800}, h900[] = {900};
	struct gate_counts base = counts(1000, ir, b800, 1), head = counts(1200, ir, h900, 1);
	char buf[11];
	memset(buf, 'x', sizeof buf);
	ck_assert_int_eq(gate_cause(&head, &base, buf, sizeof buf), 1);
	ck_assert_str_eq(buf, "more instr");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("gate");
	TCase *tc = tcase_create("gate");
	tcase_add_test(tc, names_round_trip);
	tcase_add_test(tc, figure_cycles_is_speed);
	tcase_add_test(tc, figure_instructions_is_one_over_ir);
	tcase_add_test(tc, figure_instructions_needs_ir);
	tcase_add_test(tc, figure_syscalls_counts_zero_as_one);
	tcase_add_test(tc, count_shown);
	tcase_add_test(tc, layout_only);
	tcase_add_test(tc, cause_more_instructions);
	tcase_add_test(tc, heap_metrics_and_cause);
	tcase_add_test(tc, cause_more_cache_misses);
	tcase_add_test(tc, cause_code_layout);
	tcase_add_test(tc, cause_none);
	tcase_add_test(tc, cause_truncates_to_size);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
