/* SPDX-License-Identifier: MIT */
/* Text that comes from outside, shown safely (lib/error.c): control
 * characters escaped or found, in messages too. */
#include "config.h"

#include "error.h"
#include "unit.h"

#include <stdlib.h>

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

int main(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("error");
	tcase_add_test(tc, escape_controls);
	tcase_add_test(tc, find_control);
	tcase_add_test(tc, error_escape);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
