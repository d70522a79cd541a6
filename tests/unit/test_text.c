/* SPDX-License-Identifier: MIT */
/* Text that comes from outside (lib/error.c, lib/utf8.c), the identity
 * every report gets (lib/report_identity.c) and numbers for people
 * (lib/fmt.c): control characters escaped or found, UTF-8 told from what
 * is not, run ids and times well formed, figures printed whole. */
#include "config.h"

#include "error.h"
#include "fmt.h"
#include "report_identity.h"
#include "unit.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

static void escaped_is(const char *in, const char *want)
{
	char *got = bm_escape_controls(in);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(escape_controls)
{
	escaped_is("plain text, é and ✓", "plain text, é and ✓");
	escaped_is("\x1b[2Jcleared", "\\x1b[2Jcleared");
	escaped_is("two\r\nlines\ttab", "two\\x0d\\x0alines\\x09tab");
	escaped_is("del\x7f", "del\\x7f");
	/* C1 as UTF-8 (U+009B, CSI), a lone 0x9b, a cut sequence. */
	escaped_is("c1 \xc2\x9b", "c1 \\xc2\\x9b");
	escaped_is("lone \x9b", "lone \\x9b");
	/* Invisible characters that reorder or hide text: a right-to-left
	 * override, a zero-width space, a byte-order mark; a visible
	 * neighbour (U+2010, a hyphen) is kept. */
	escaped_is("gnp\xe2\x80\xae.exe", "gnp\\xe2\\x80\\xae.exe");
	escaped_is("a\xe2\x80\x8b" "b\xef\xbb\xbf", "a\\xe2\\x80\\x8bb\\xef\\xbb\\xbf");
	escaped_is("x\xe2\x80\x90y", "x\xe2\x80\x90y");
	escaped_is("cut \xe2\x9c", "cut \\xe2\\x9c");
	escaped_is("", "");
	ck_assert_ptr_null(bm_escape_controls(NULL));
}
END_TEST

START_TEST(find_control)
{
	const char *s = "token\r\nX-Injected: yes";
	ck_assert_ptr_eq(bm_find_control(s), s + 5);
	ck_assert_ptr_null(bm_find_control("bm_0123456789abcdef"));
	ck_assert_ptr_null(bm_find_control("é✓"));
	s = "ok\xc2\x85";
	ck_assert_ptr_eq(bm_find_control(s), s + 2);
}
END_TEST

START_TEST(error_escape)
{
	char *err = NULL;
	bm_error(&err, "the server said '%s'", "\x1b]0;title\x07");
	bm_error_escape(&err);
	ck_assert_str_eq(err, "the server said '\\x1b]0;title\\x07'");
	free(err);
}
END_TEST

START_TEST(utf8)
{
	ck_assert_int_eq(utf8_valid("main", 4), 1);
	ck_assert_int_eq(utf8_valid("é✓😀", strlen("é✓😀")), 1);
	ck_assert_int_eq(utf8_valid("\xff\xfe", 2), 0);
	ck_assert_int_eq(utf8_valid("\xc0\xaf", 2), 0);         /* overlong '/' */
	ck_assert_int_eq(utf8_valid("\xed\xa0\x80", 3), 0);     /* a surrogate */
	ck_assert_int_eq(utf8_valid("\xf4\x90\x80\x80", 4), 0); /* past U+10FFFF */
	ck_assert_int_eq(utf8_valid("\xe2\x9c", 2), 0);         /* cut short */
	ck_assert_int_eq(utf8_valid("", 0), 1);
}
END_TEST

START_TEST(run_ids)
{
	char *a = report_new_uuid(), *b = report_new_uuid();
	ck_assert_uint_eq(strlen(a), 36);
	ck_assert_int_eq(a[8], '-');
	ck_assert_int_eq(a[14], '4'); /* version 4 */
	ck_assert_ptr_nonnull(strchr("89ab", a[19])); /* the RFC 4122 variant */
	ck_assert_str_ne(a, b);
	free(a);
	free(b);
}
END_TEST

START_TEST(times)
{
	char buf[REPORT_TIME_SIZE];
	ck_assert_str_eq(report_format_rfc3339(buf, 1795341600), "2026-11-22T10:00:00Z");
	ck_assert_str_eq(report_format_rfc3339(buf, 0), "1970-01-01T00:00:00Z");
	/* Beyond what gmtime can give: the epoch, never garbage. */
	ck_assert_str_eq(report_format_rfc3339(buf, (time_t)1 << 62), "1970-01-01T00:00:00Z");
	char *now = report_now_rfc3339();
	ck_assert_uint_eq(strlen(now), 20);
	ck_assert_int_eq(now[10], 'T');
	free(now);
}
END_TEST

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
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");
	tcase_add_test(tc, escape_controls);
	tcase_add_test(tc, find_control);
	tcase_add_test(tc, error_escape);
	tcase_add_test(tc, utf8);
	tcase_add_test(tc, run_ids);
	tcase_add_test(tc, times);
	tcase_add_test(tc, figures_are_whole);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
