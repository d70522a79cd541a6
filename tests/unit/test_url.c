/* SPDX-License-Identifier: MIT */
/* The URLs bm's tools build for bm-server (lib/url.c): names escaped as
 * one path segment, a commit's report and page with their parameters. */
#include "config.h"

#include "unit.h"
#include "url.h"

#include <stdlib.h>

static void is(char *got, const char *want)
{
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(segments)
{
	is(url_escape_segment("web/demo"), "web%2Fdemo");
	is(url_escape_segment("a-b._~Z9"), "a-b._~Z9");
	is(url_escape_segment("a b?&=#%"), "a%20b%3F%26%3D%23%25");
	is(url_escape_segment("é"), "%C3%A9");
	is(url_escape_segment(""), "");
}
END_TEST

START_TEST(projects)
{
	is(url_project("http://h:1//", 1, "web/demo", "runs"), "http://h:1/api/v1/projects/web%2Fdemo/runs");
	is(url_project("http://h:1", 0, "demo", ""), "http://h:1/projects/demo");
}
END_TEST

START_TEST(commits)
{
	is(url_commit_query("abc", 0, NULL, "/report"), "commits/abc/report");
	is(url_commit_query("abc", 7, NULL, "/report"), "commits/abc/report?pr=7");
	is(url_commit_query("abc", 0, "r/1&x", "/report"), "commits/abc/report?run=r%2F1%26x");
	is(url_commit_query("abc", 7, "r1", ""), "commits/abc?pr=7&run=r1");
	is(url_commit_page("http://h/", "demo", "abc", 0, NULL), "http://h/projects/demo/commits/abc");
	is(url_commit_page("http://h", "demo", "abc", 3, "r1"), "http://h/projects/demo/commits/abc?pr=3&run=r1");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("url");
	TCase *tc = tcase_create("url");
	tcase_add_test(tc, segments);
	tcase_add_test(tc, projects);
	tcase_add_test(tc, commits);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
