/* SPDX-License-Identifier: MIT */
/* Numbers a user writes (lib/number.c): the whole text one decimal
 * number within its range, never clamped, one message for every option. */
#include "config.h"

#include "number.h"
#include "unit.h"

#include <stdlib.h>

static int whole_ok(const char *text, long long min, long long max, long long want)
{
	long long v = -12345;
	return number_whole(text, min, max, &v) == 0 && v == want;
}

static int whole_refused(const char *text, long long min, long long max)
{
	long long v = -12345;
	return number_whole(text, min, max, &v) == -1 && v == -12345;
}

START_TEST(whole_numbers)
{
	ck_assert(whole_ok("1", 1, 256, 1));
	ck_assert(whole_ok("256", 1, 256, 256));
	ck_assert(whole_ok("007", 0, 10, 7));
	ck_assert(whole_ok("-5", -10, 10, -5));
	ck_assert(whole_ok("9223372036854775807", 0, 9223372036854775807LL, 9223372036854775807LL));
	ck_assert(whole_refused("0", 1, 256));
	ck_assert(whole_refused("257", 1, 256));
	/* Once taken as 1 job: never wrapped, never clamped. */
	ck_assert(whole_refused("4294967297", 1, 256));
	ck_assert(whole_refused("99999999999999999999", 0, 9223372036854775807LL));
	ck_assert(whole_refused("-0", 0, 10)); /* no sign where the range has none */
	ck_assert(whole_refused("", 0, 10));
	ck_assert(whole_refused(" 1", 0, 10));
	ck_assert(whole_refused("1 ", 0, 10));
	ck_assert(whole_refused("+1", 0, 10));
	ck_assert(whole_refused("0x10", 0, 100));
	ck_assert(whole_refused("1.5", 0, 10));
	ck_assert(whole_refused("1e2", 0, 1000));
	ck_assert(whole_refused("4x", 0, 10));
	ck_assert(whole_refused("--1", -10, 10));
	ck_assert(whole_refused(NULL, 0, 10));
}
END_TEST

static int real_ok(const char *text, double min, double max, double want)
{
	double v = -12345;
	return number_real(text, min, max, &v) == 0 && v == want;
}

static int real_refused(const char *text, double min, double max)
{
	double v = -12345;
	return number_real(text, min, max, &v) == -1 && v == -12345;
}

START_TEST(real_numbers)
{
	ck_assert(real_ok("0.05", 0, 0.5, 0.05));
	ck_assert(real_ok(".5", 0, 1, 0.5));
	ck_assert(real_ok("1e-3", 0, 1, 0.001));
	ck_assert(real_ok("2E+2", 0, 1000, 200));
	ck_assert(real_ok("-0.25", -1, 1, -0.25));
	ck_assert(real_ok("3", 0.001, 3600, 3));
	ck_assert(real_refused("0.9", 0, 0.5));
	ck_assert(real_refused("0", 0.001, 3600));
	ck_assert(real_refused("inf", 0, 1e300));
	ck_assert(real_refused("nan", 0, 1));
	ck_assert(real_refused("1e999", 0, 1e300));
	ck_assert(real_refused("0x1p3", 0, 100));
	ck_assert(real_refused(" 1", 0, 10));
	ck_assert(real_refused("-1", 0, 10));
	ck_assert(real_refused("1s", 0, 10));
	ck_assert(real_refused(".", 0, 10));
	ck_assert(real_refused("", 0, 10));
}
END_TEST

START_TEST(option_messages)
{
	long long v;
	double d;
	char *err = NULL;
	ck_assert_int_eq(number_option("--jobs", "a number", "4294967297", 1, 256, &v, &err), -1);
	ck_assert_str_eq(err, "--jobs needs a number from 1 to 256, not '4294967297'");
	free(err);
	err = NULL;
	ck_assert_int_eq(number_option_real("--timeout", "seconds", "0", 0.001, 1e6, &d, &err), -1);
	ck_assert_str_eq(err, "--timeout needs seconds from 0.001 to 1000000, not '0'");
	free(err);
	err = NULL;
	/* A value that could drive a terminal is shown escaped. */
	ck_assert_int_eq(number_option("--tries", "a number", "1\x1b[2J", 1, 100, &v, &err), -1);
	ck_assert_str_eq(err, "--tries needs a number from 1 to 100, not '1\\x1b[2J'");
	free(err);
	err = NULL;
	ck_assert_int_eq(number_option("--tries", "a number", "3", 1, 100, &v, &err), 0);
	ck_assert_int_eq(v, 3);
	ck_assert_ptr_null(err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("number");
	TCase *tc = tcase_create("number");
	tcase_add_test(tc, whole_numbers);
	tcase_add_test(tc, real_numbers);
	tcase_add_test(tc, option_messages);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
