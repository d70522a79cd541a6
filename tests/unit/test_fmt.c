/* SPDX-License-Identifier: MIT */
/* Numbers for people (lib/fmt.c): figures printed whole. */
#include "config.h"

#include "fmt.h"
#include "unit.h"

/* Whatever its size, a figure is printed whole: it fits FMT_SIZE with
 * room to spare, and keeps its sign and unit. */
START_TEST(figures_are_whole)
{
	char b[FMT_SIZE];
	ck_assert_str_eq(fmt_percent(b, -0.3), "-30.00%");
	ck_assert_str_eq(fmt_percent(b, 0.1234), "+12.34%");
	ck_assert_str_eq(fmt_percent(b, 9999.99), "+999999.00%");
	ck_assert_str_eq(fmt_percent(b, 1.6547933233333e8), "+1.65e+10%");
	ck_assert_str_eq(fmt_percent(b, 1e308), "+inf%");
	ck_assert_str_eq(fmt_percent(b, 1e306), "+1e+308%");
	ck_assert_str_eq(fmt_percent(b, -1), "-100.00%");
	ck_assert_str_eq(fmt_seconds(b, 2.5), "2.50 s");
	ck_assert_str_eq(fmt_seconds(b, 1.25e-3), "1.25 ms");
	ck_assert_str_eq(fmt_seconds(b, 1e300), "1e+300 s");
	ck_assert_str_eq(fmt_seconds(b, -1e300), "-1e+300 s");
	ck_assert_str_eq(fmt_seconds(b, 1e-100), "1e-91 ns");
	ck_assert_str_eq(fmt_seconds(b, -0.002), "-2.00 ms");
	ck_assert_str_eq(fmt_seconds(b, 0), "0.00 ns");
	ck_assert_str_eq(fmt_rate(b, 1e308), "1e+296 T/s");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("fmt");
	tcase_add_test(tc, figures_are_whole);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
