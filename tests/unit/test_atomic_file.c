/* SPDX-License-Identifier: MIT */
/* Output files (lib/atomic_file.c, SPEC 5.1): a regular file replaced
 * whole or left alone, links followed and kept, devices, FIFOs and the
 * process's own descriptors written directly, a directory and a loop of
 * links refused.  Each test runs in a fresh directory of its own. */
#include "config.h"

#include "atomic_file.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void enter_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/bm-test-atomic.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	umask(022);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void leave_dir(void)
{
	ck_assert_int_eq(chdir("/"), 0);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The content of path (at most 255 bytes), "" when there is none. */
static const char *slurp(const char *path)
{
	static char buf[256];
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f) {
		buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
		fclose(f);
	}
	return buf;
}

/* Writes text to path through an atomic file; returns the commit's status,
 * or -1 when the open failed, with the message in *err. */
static int put(const char *path, const char *text, char **err)
{
	*err = NULL;
	struct atomic_file *af = atomic_file_open(path, err);
	if (!af)
		return -1;
	fputs(text, atomic_file_stream(af));
	return atomic_file_commit(af, err);
}

static void put_ok(const char *path, const char *text)
{
	char *err = NULL;
	int r = put(path, text, &err);
	ck_assert_msg(r == 0, "%s: %s", path, err ? err : "?");
}

/* Opening path fails with exactly want. */
static void put_fails(const char *path, const char *want)
{
	char *err = NULL;
	ck_assert_int_eq(put(path, "x", &err), -1);
	ck_assert_str_eq(err, want);
	free(err);
}

/* How many names the test's directory holds (besides "." and ".."), to see
 * that no temporary file is left behind. */
static int entries(void)
{
	int n = 0;
	FILE *ls = popen("ls -A .", "r");
	char line[256];
	while (ls && fgets(line, sizeof line, ls))
		n++;
	ck_assert_int_eq(pclose(ls), 0);
	return n;
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	return st.st_mode;
}

START_TEST(a_new_file_is_made_with_the_usual_permissions)
{
	put_ok("new.txt", "hello\n");
	ck_assert_str_eq(slurp("new.txt"), "hello\n");
	ck_assert_int_eq(mode_of("new.txt"), S_IFREG | 0644); /* 0666 under umask 022 */
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(an_existing_file_is_replaced_whole_keeping_its_mode)
{
	spit("old.txt", "an old and much longer content\n");
	ck_assert_int_eq(chmod("old.txt", 0640), 0);
	struct stat before, after;
	ck_assert_int_eq(stat("old.txt", &before), 0);
	put_ok("old.txt", "new\n");
	ck_assert_int_eq(stat("old.txt", &after), 0);
	ck_assert_str_eq(slurp("old.txt"), "new\n");
	ck_assert_int_eq(after.st_mode, S_IFREG | 0640);
	/* Renamed into place, not rewritten in place. */
	ck_assert(after.st_ino != before.st_ino);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(an_abort_leaves_the_old_file_and_nothing_else)
{
	spit("old.txt", "old\n");
	char *err = NULL;
	struct atomic_file *af = atomic_file_open("old.txt", &err);
	ck_assert_ptr_nonnull(af);
	fputs("half of it", atomic_file_stream(af));
	ck_assert_int_eq(entries(), 2); /* the temporary file beside it */
	atomic_file_abort(af);
	ck_assert_str_eq(slurp("old.txt"), "old\n");
	ck_assert_int_eq(entries(), 1);
	atomic_file_abort(atomic_file_open("new.txt", &err));
	ck_assert_int_eq(entries(), 1);
	atomic_file_abort(NULL);
}
END_TEST

START_TEST(root_keeps_the_owner_others_may_not_write_a_read_only_file)
{
	spit("theirs.txt", "old\n");
	if (geteuid() == 0) {
		ck_assert_int_eq(chown("theirs.txt", 4321, 4321), 0);
		ck_assert_int_eq(chmod("theirs.txt", 0444), 0);
		put_ok("theirs.txt", "new\n");
		struct stat st;
		ck_assert_int_eq(stat("theirs.txt", &st), 0);
		ck_assert_int_eq(st.st_uid, 4321);
		ck_assert_int_eq(st.st_gid, 4321);
		ck_assert_int_eq(st.st_mode, S_IFREG | 0444);
		ck_assert_str_eq(slurp("theirs.txt"), "new\n");
	} else {
		ck_assert_int_eq(chmod("theirs.txt", 0444), 0);
		put_fails("theirs.txt", "cannot write 'theirs.txt': Permission denied");
		ck_assert_str_eq(slurp("theirs.txt"), "old\n");
	}
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(a_link_stays_a_link_and_its_target_is_replaced)
{
	ck_assert_int_eq(mkdir("elsewhere", 0755), 0);
	spit("elsewhere/target.txt", "old\n");
	ck_assert_int_eq(symlink("elsewhere/target.txt", "link.txt"), 0);
	put_ok("link.txt", "new\n");
	ck_assert(S_ISLNK(mode_of("link.txt")));
	ck_assert_str_eq(slurp("elsewhere/target.txt"), "new\n");
	/* The temporary file was beside the target, and is gone. */
	ck_assert_int_eq(entries(), 2);
	FILE *ls = popen("ls -A elsewhere", "r");
	char line[256];
	ck_assert_ptr_nonnull(fgets(line, sizeof line, ls));
	ck_assert_str_eq(line, "target.txt\n");
	ck_assert_ptr_null(fgets(line, sizeof line, ls));
	pclose(ls);
}
END_TEST

START_TEST(a_chain_of_relative_links_is_followed_from_each_links_directory)
{
	/* a/l1 -> ../b/l2 -> c.txt (in b), l0 -> a/l1 */
	ck_assert_int_eq(mkdir("a", 0755), 0);
	ck_assert_int_eq(mkdir("b", 0755), 0);
	spit("b/c.txt", "old\n");
	ck_assert_int_eq(symlink("c.txt", "b/l2"), 0);
	ck_assert_int_eq(symlink("../b/l2", "a/l1"), 0);
	ck_assert_int_eq(symlink("a/l1", "l0"), 0);
	put_ok("l0", "new\n");
	ck_assert(S_ISLNK(mode_of("l0")) && S_ISLNK(mode_of("a/l1")) && S_ISLNK(mode_of("b/l2")));
	ck_assert_str_eq(slurp("b/c.txt"), "new\n");
	/* An absolute link at the end of the chain. */
	char abs[128];
	snprintf(abs, sizeof abs, "%s/b/c.txt", dir);
	ck_assert_int_eq(unlink("b/l2"), 0);
	ck_assert_int_eq(symlink(abs, "b/l2"), 0);
	put_ok("l0", "newer\n");
	ck_assert_str_eq(slurp("b/c.txt"), "newer\n");
}
END_TEST

START_TEST(a_dangling_links_target_is_made)
{
	ck_assert_int_eq(mkdir("sub", 0755), 0);
	ck_assert_int_eq(symlink("made.txt", "sub/dangling"), 0);
	ck_assert_int_eq(symlink("sub/dangling", "first"), 0);
	put_ok("first", "made\n");
	ck_assert(S_ISLNK(mode_of("first")) && S_ISLNK(mode_of("sub/dangling")));
	ck_assert_int_eq(mode_of("sub/made.txt"), S_IFREG | 0644);
	ck_assert_str_eq(slurp("sub/made.txt"), "made\n");
	/* Leading into a directory that is not there: as for any missing one. */
	ck_assert_int_eq(symlink("no/such/file", "nowhere"), 0);
	put_fails("nowhere", "cannot write 'nowhere': No such file or directory");
}
END_TEST

START_TEST(a_loop_of_links_is_an_error)
{
	ck_assert_int_eq(symlink("loop2", "loop1"), 0);
	ck_assert_int_eq(symlink("loop1", "loop2"), 0);
	put_fails("loop1", "cannot write 'loop1': Too many levels of symbolic links");
	ck_assert_int_eq(symlink("self", "self"), 0);
	put_fails("self", "cannot write 'self': Too many levels of symbolic links");
	ck_assert(S_ISLNK(mode_of("loop1")) && S_ISLNK(mode_of("loop2")) && S_ISLNK(mode_of("self")));
	ck_assert_int_eq(entries(), 3);
}
END_TEST

START_TEST(a_directory_is_an_error_before_anything_is_written)
{
	ck_assert_int_eq(mkdir("d", 0755), 0);
	ck_assert_int_eq(symlink("d", "to-d"), 0);
	char *err = NULL;
	ck_assert_ptr_null(atomic_file_open("d", &err));
	ck_assert_str_eq(err, "cannot write 'd': Is a directory");
	free(err);
	ck_assert_ptr_null(atomic_file_open("to-d", &err));
	ck_assert_str_eq(err, "cannot write 'to-d': Is a directory");
	free(err);
	ck_assert_ptr_null(atomic_file_open(".", &err));
	free(err);
	ck_assert_int_eq(entries(), 2);
	ck_assert_int_eq(system("test -z \"$(ls -A d)\""), 0);
}
END_TEST

START_TEST(bad_paths_say_why)
{
	put_fails("", "cannot write '': No such file or directory");
	put_fails("no/such/dir/x", "cannot write 'no/such/dir/x': No such file or directory");
	spit("file", "");
	put_fails("file/x", "cannot write 'file/x': Not a directory");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(a_device_is_written_directly_and_stays_a_device)
{
	struct stat before, after;
	ck_assert_int_eq(stat("/dev/null", &before), 0);
	put_ok("/dev/null", "into nothing\n");
	ck_assert_int_eq(stat("/dev/null", &after), 0);
	ck_assert(S_ISCHR(after.st_mode));
	ck_assert_int_eq(after.st_rdev, before.st_rdev);
	ck_assert_int_eq(after.st_ino, before.st_ino);
	/* Through a link too. */
	ck_assert_int_eq(symlink("/dev/null", "null"), 0);
	put_ok("null", "into nothing\n");
	ck_assert(S_ISLNK(mode_of("null")));
	ck_assert_int_eq(entries(), 1);
	/* A device that cannot take it: the error comes with the commit. */
	char *err = NULL;
	ck_assert_int_eq(put("/dev/full", "x", &err), -1);
	ck_assert_str_eq(err, "cannot write '/dev/full': No space left on device");
	free(err);
	ck_assert(S_ISCHR(mode_of("/dev/full")));
}
END_TEST

START_TEST(a_fifo_is_written_to_its_reader_and_stays_a_fifo)
{
	ck_assert_int_eq(mkfifo("fifo", 0600), 0);
	ck_assert_int_eq(symlink("fifo", "to-fifo"), 0);
	/* The reader is there first, so that opening for writing does not wait. */
	int reader = open("fifo", O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(reader, 0);
	put_ok("to-fifo", "through the pipe\n");
	char buf[64] = "";
	ck_assert_int_eq(read(reader, buf, sizeof buf - 1), 17);
	ck_assert_str_eq(buf, "through the pipe\n");
	close(reader);
	ck_assert(S_ISFIFO(mode_of("fifo")));
	ck_assert(S_ISLNK(mode_of("to-fifo")));
	ck_assert_int_eq(entries(), 2);
}
END_TEST

/* /dev/fd/N, /proc/self/fd/N and /dev/stdout write to the descriptor, as
 * the shell set it up: appending here, never replacing the file. */
START_TEST(own_descriptors_are_written_through_with_their_offset)
{
	spit("log", "before\n");
	int fd = open("log", O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	struct stat before, after;
	ck_assert_int_eq(stat("log", &before), 0);
	char path[64];
	snprintf(path, sizeof path, "/dev/fd/%d", fd);
	put_ok(path, "one\n");
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	put_ok(path, "two\n");
	/* The descriptor stays open and usable: only the duplicate is closed. */
	ck_assert_int_eq(write(fd, "three\n", 6), 6);
	ck_assert_int_eq(stat("log", &after), 0);
	ck_assert_int_eq(after.st_ino, before.st_ino);
	ck_assert_str_eq(slurp("log"), "before\none\ntwo\nthree\n");

	/* /dev/stdout: standard output itself, here appending to log. */
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	ck_assert_int_eq(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	put_ok("/dev/stdout", "four\n");
	ck_assert_int_eq(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	close(fd);
	ck_assert_str_eq(slurp("log"), "before\none\ntwo\nthree\nfour\n");
	ck_assert_int_eq(stat("log", &after), 0);
	ck_assert_int_eq(after.st_ino, before.st_ino);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(a_descriptor_not_open_for_writing_is_refused)
{
	spit("in", "");
	int fd = open("in", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	char path[64], want[128];
	snprintf(path, sizeof path, "/dev/fd/%d", fd);
	snprintf(want, sizeof want, "cannot write '%s': Bad file descriptor", path);
	put_fails(path, want);
	close(fd);
	/* A number that is not open: /dev/fd/N is not there at all. */
	put_fails(path, want);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(dash_is_standard_output)
{
	char *err = NULL;
	struct atomic_file *af = atomic_file_open("-", &err);
	ck_assert_ptr_eq(atomic_file_stream(af), stdout);
	ck_assert_int_eq(atomic_file_commit(af, &err), 0);
	/* A file named "-" is written as ./-. */
	put_ok("./-", "dash\n");
	ck_assert_str_eq(slurp("-"), "dash\n");
}
END_TEST

START_TEST(standard_output_is_known_by_any_of_its_names)
{
	ck_assert(atomic_file_is_stdout("-"));
	ck_assert(atomic_file_is_stdout("/dev/stdout"));
	ck_assert(atomic_file_is_stdout("/dev/fd/1"));
	ck_assert(atomic_file_is_stdout("/proc/self/fd/1"));
	ck_assert_int_eq(symlink("/dev/stdout", "out"), 0);
	ck_assert(atomic_file_is_stdout("out"));
	ck_assert(!atomic_file_is_stdout("/dev/stderr"));
	ck_assert(!atomic_file_is_stdout("/dev/null"));
	ck_assert(!atomic_file_is_stdout("report.json"));
	ck_assert(!atomic_file_is_stdout(""));
}
END_TEST

/* bm-run keeps the descriptors its options name, by any of their names. */
START_TEST(a_descriptor_is_known_by_any_of_its_names)
{
	int fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 3);
	char dev[32], proc[32];
	snprintf(dev, sizeof dev, "/dev/fd/%d", fd);
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	ck_assert_int_eq(atomic_file_descriptor(dev), fd);
	ck_assert_int_eq(atomic_file_descriptor(proc), fd);
	ck_assert_int_eq(symlink(dev, "in"), 0);
	ck_assert_int_eq(atomic_file_descriptor("in"), fd);
	ck_assert_int_eq(atomic_file_descriptor("/dev/stderr"), 2);
	ck_assert_int_eq(atomic_file_descriptor("-"), 1);
	ck_assert_int_eq(atomic_file_descriptor("/dev/null"), -1);
	ck_assert_int_eq(atomic_file_descriptor("report.json"), -1);
	ck_assert_int_eq(atomic_file_descriptor(""), -1);
	close(fd);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("atomic_file");
	TCase *tc = tcase_create("output files");
	tcase_add_checked_fixture(tc, enter_dir, leave_dir);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, a_new_file_is_made_with_the_usual_permissions);
	tcase_add_test(tc, a_descriptor_is_known_by_any_of_its_names);
	tcase_add_test(tc, an_existing_file_is_replaced_whole_keeping_its_mode);
	tcase_add_test(tc, an_abort_leaves_the_old_file_and_nothing_else);
	tcase_add_test(tc, root_keeps_the_owner_others_may_not_write_a_read_only_file);
	tcase_add_test(tc, a_link_stays_a_link_and_its_target_is_replaced);
	tcase_add_test(tc, a_chain_of_relative_links_is_followed_from_each_links_directory);
	tcase_add_test(tc, a_dangling_links_target_is_made);
	tcase_add_test(tc, a_loop_of_links_is_an_error);
	tcase_add_test(tc, a_directory_is_an_error_before_anything_is_written);
	tcase_add_test(tc, bad_paths_say_why);
	tcase_add_test(tc, a_device_is_written_directly_and_stays_a_device);
	tcase_add_test(tc, a_fifo_is_written_to_its_reader_and_stays_a_fifo);
	tcase_add_test(tc, own_descriptors_are_written_through_with_their_offset);
	tcase_add_test(tc, a_descriptor_not_open_for_writing_is_refused);
	tcase_add_test(tc, dash_is_standard_output);
	tcase_add_test(tc, standard_output_is_known_by_any_of_its_names);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
