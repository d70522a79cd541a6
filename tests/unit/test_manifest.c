/* SPDX-License-Identifier: MIT */
/* Splitting manifest lines into words, and reading manifest files. */
#include "config.h"

#include "manifest.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static char *joined(char **argv, size_t argc)
{
	static char buf[512];
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < argc && at < sizeof buf; i++)
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? "|" : "", argv[i]);
	return buf;
}

static void expect_words(const char *line, const char *expected, size_t count)
{
	char **argv;
	size_t argc;
	char *err = NULL;
	if (manifest_split(line, &argv, &argc, &err) < 0)
		ck_abort_msg("%s", err);
	ck_assert_uint_eq(argc, count);
	ck_assert_str_eq(joined(argv, argc), expected);
	ck_assert_ptr_null(argv[argc]);
	for (size_t i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

START_TEST(words_quotes_and_escapes)
{
	expect_words("./bench --filter 'sort::*'\n", "./bench|--filter|sort::*", 3);
	expect_words("  a\t b  ", "a|b", 2);
	expect_words("echo \"two words\" 'and \"more\"'", "echo|two words|and \"more\"", 3);
	expect_words("a\\ b c\\\\d \"x\\\"y\"", "a b|c\\d|x\"y", 3);
	expect_words("x''y \"\"", "xy|", 2);
	expect_words("", "", 0);
}
END_TEST

START_TEST(unterminated_quotes_are_errors)
{
	char **argv;
	size_t argc;
	char *err = NULL;
	ck_assert_int_eq(manifest_split("echo 'oops", &argv, &argc, &err), -1);
	ck_assert_str_eq(err, "unterminated ' quote");
	free(err);
	ck_assert_int_eq(manifest_split("echo \"oops", &argv, &argc, &err), -1);
	ck_assert_str_eq(err, "unterminated \" quote");
	free(err);
}
END_TEST

START_TEST(files_skip_comments_and_blank_lines)
{
	char path[] = "/tmp/bm-test-manifest-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char *text = "# programs\n\n./a --x\n   # indented comment\n./b 'c d'\n";
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	struct manifest_command *cmds;
	size_t n;
	char *err = NULL;
	ck_assert_int_eq(manifest_read(path, &cmds, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(joined(cmds[0].argv, cmds[0].argc), "./a|--x");
	ck_assert_uint_eq(cmds[0].line, 3);
	ck_assert_str_eq(joined(cmds[1].argv, cmds[1].argc), "./b|c d");
	ck_assert_uint_eq(cmds[1].line, 5);
	manifest_free(cmds, n);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_eq(write(fd, "# nothing\n", 10), 10);
	close(fd);
	ck_assert_int_eq(manifest_read(path, &cmds, &n, &err), -1);
	char expected[128];
	snprintf(expected, sizeof expected, "'%s' has no command lines", path);
	ck_assert_str_eq(err, expected);
	free(err);
	unlink(path);
	ck_assert_int_eq(manifest_read(path, &cmds, &n, &err), -1);
	snprintf(expected, sizeof expected, "cannot open '%s': No such file or directory", path);
	ck_assert_str_eq(err, expected);
	free(err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("manifest");
	tcase_add_test(tc, words_quotes_and_escapes);
	tcase_add_test(tc, unterminated_quotes_are_errors);
	tcase_add_test(tc, files_skip_comments_and_blank_lines);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
