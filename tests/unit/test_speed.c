/* SPDX-License-Identifier: MIT */
/* The comparable speed of a benchmark (benchmark_speed in lib/report.c):
 * simulated speed as it is; an imported metric as its value when it is a
 * rate and as 1 / value when it is a cost; 0 when there is nothing to
 * compare. */
#include "report.h"
#include "unit.h"

#include <float.h>
#include <string.h>

/* An ok imported benchmark measuring value in unit (one metric, or a
 * second one that must not matter). */
static void imported(struct bm_result *b, const char *unit, double value)
{
	memset(b, 0, sizeof *b);
	b->status = BM_STATUS_OK;
	benchmark_add_metric(b, "m", unit, value);
	benchmark_add_metric(b, "extra", "Hz", 1e9);
}

static void release(struct bm_result *b)
{
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
	}
	free(b->metrics);
}

static double speed_of(const char *unit, double value)
{
	struct bm_result b;
	imported(&b, unit, value);
	double s = benchmark_speed(&b);
	release(&b);
	return s;
}

START_TEST(simulated_speed_is_kept)
{
	struct bm_result b = {.status = BM_STATUS_OK, .speed = 1234.5};
	ck_assert_double_eq(benchmark_speed(&b), 1234.5);
	b.status = BM_STATUS_FAILED;
	ck_assert_double_eq(benchmark_speed(&b), 0);
}
END_TEST

START_TEST(a_cost_is_inverted)
{
	ck_assert_double_eq_tol(speed_of("s", 4e-5), 25000, 1e-9); /* executions per second */
	ck_assert_double_eq_tol(speed_of("ns", 812.5), 1 / 812.5, 1e-15);
	ck_assert_double_eq_tol(speed_of("bytes", 1024), 1 / 1024.0, 1e-15);
	/* Twice the time: half the speed, an impact of -0.5. */
	double base = speed_of("s", 1e-3), head = speed_of("s", 2e-3);
	ck_assert_double_eq_tol((head - base) / base, -0.5, 1e-12);
}
END_TEST

START_TEST(a_rate_is_kept)
{
	ck_assert_double_eq(speed_of("runs/s", 59.8), 59.8);
	ck_assert_double_eq(speed_of("MB/s", 300), 300);
	ck_assert_double_eq(speed_of("Hz", 50), 50);
	ck_assert_double_eq(speed_of("fps", 60), 60);
	double base = speed_of("runs/s", 50), head = speed_of("runs/s", 100);
	ck_assert_double_eq_tol((head - base) / base, 1, 1e-12);
}
END_TEST

START_TEST(rate_units)
{
	ck_assert(metric_unit_is_rate("runs/s"));
	ck_assert(metric_unit_is_rate("/s"));
	ck_assert(!metric_unit_is_rate("s"));
	ck_assert(!metric_unit_is_rate("ms"));
	ck_assert(!metric_unit_is_rate("/"));
	ck_assert(!metric_unit_is_rate(""));
	ck_assert(!metric_unit_is_rate("hz"));
	ck_assert(!metric_unit_is_rate("runs/min"));
	ck_assert(!metric_unit_is_rate("s/op"));
}
END_TEST

START_TEST(nothing_to_compare_is_zero)
{
	ck_assert_double_eq(speed_of("s", 0), 0);
	ck_assert_double_eq(speed_of("s", -1), 0);
	ck_assert_double_eq(speed_of("runs/s", 0), 0);
	ck_assert_double_eq(speed_of("runs/s", -3), 0);
	/* 1 / a subnormal overflows: not a speed either. */
	ck_assert_double_eq(speed_of("s", DBL_MIN / 4), 0);
	ck_assert_double_eq(speed_of("runs/s", DBL_MAX), DBL_MAX);

	struct bm_result b;
	imported(&b, "s", 1);
	b.status = BM_STATUS_SKIPPED;
	ck_assert_double_eq(benchmark_speed(&b), 0);
	release(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("speed");
	TCase *tc = tcase_create("speed");
	tcase_add_test(tc, simulated_speed_is_kept);
	tcase_add_test(tc, a_cost_is_inverted);
	tcase_add_test(tc, a_rate_is_kept);
	tcase_add_test(tc, rate_units);
	tcase_add_test(tc, nothing_to_compare_is_zero);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
