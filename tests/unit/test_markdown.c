/* SPDX-License-Identifier: MIT */
/* Outside text in bm-check's Markdown (uploader/markdown.c): one code
 * span, fenced past its own backticks, padded where CommonMark would
 * strip or join, '|' escaped in a table cell, control and invisible
 * characters escaped. */
#include "config.h"

#include "markdown.h"
#include "unit.h"

#include <stdlib.h>

static void code_is(const char *in, enum markdown_place where, const char *want)
{
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);
	ck_assert_ptr_nonnull(f);
	markdown_code(f, in, where);
	fclose(f);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(spans)
{
	code_is("s::@octocat", MARKDOWN_TEXT, "`s::@octocat`");
	code_is("s::https://evil.example/x", MARKDOWN_TEXT, "`s::https://evil.example/x`");
	code_is("<b>&amp;</b> *x* _y_", MARKDOWN_TEXT, "`<b>&amp;</b> *x* _y_`");
	/* A fence longer than the longest run inside; a backtick at an end
	 * is kept off the fence by a space, which CommonMark strips. */
	code_is("a`b", MARKDOWN_TEXT, "``a`b``");
	code_is("a``b`", MARKDOWN_TEXT, "``` a``b` ```");
	code_is("`tick", MARKDOWN_TEXT, "`` `tick ``");
	/* Spaces at both ends survive the strip; at one end they need none. */
	code_is(" x ", MARKDOWN_TEXT, "`  x  `");
	code_is(" x", MARKDOWN_TEXT, "` x`");
	code_is("   ", MARKDOWN_TEXT, "`   `");
	code_is("", MARKDOWN_TEXT, "` `");
}
END_TEST

START_TEST(cells)
{
	code_is("a|b", MARKDOWN_CELL, "`a\\|b`");
	code_is("a|b", MARKDOWN_TEXT, "`a|b`");
	code_is("a\\|b", MARKDOWN_CELL, "`a\\\\|b`");
}
END_TEST

START_TEST(escapes)
{
	code_is("esc\x1b[2J", MARKDOWN_TEXT, "`esc\\x1b[2J`");
	code_is("two\nlines\r", MARKDOWN_TEXT, "`two\\x0alines\\x0d`");
	code_is("c1 \xc2\x9b", MARKDOWN_TEXT, "`c1 \\u009b`");
	code_is("gnp\xe2\x80\xae.exe", MARKDOWN_TEXT, "`gnp\\u202e.exe`");
	code_is("zw\xe2\x80\x8b" "b", MARKDOWN_TEXT, "`zw\\u200bb`");
	code_is("bad \xff byte", MARKDOWN_TEXT, "`bad \\xff byte`");
	code_is("é ✓", MARKDOWN_TEXT, "`é ✓`");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("markdown");
	TCase *tc = tcase_create("markdown");
	tcase_add_test(tc, spans);
	tcase_add_test(tc, cells);
	tcase_add_test(tc, escapes);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
