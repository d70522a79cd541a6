/* SPDX-License-Identifier: MIT */
/* The liveness of scratch directories: see scratch.h. */
#include "config.h"

#include "scratch.h"

#include "error.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where sandbox.c makes them: /tmp/bm-run.XXXXXX. */
#define SCRATCH_PARENT "/tmp"
#define SCRATCH_PREFIX "bm-run."
#define SCRATCH_RANDOM 6
#define LOCK_NAME "lock"

static int lock_fd = -1; /* the run's lock, from its first directory on */

/* A new lock at path, the run's from now on: made, locked, and only then
 * written, so that an empty lock is one still being made. */
static int new_lock(const char *path, char **err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) != 0 || dprintf(fd, "%d\n", (int)getpid()) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return bm_error(err, "cannot make '%s': %s", path, strerror(e));
	}
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = fd;
	return 0;
}

int scratch_claim(const char *dir, char **err)
{
	char *lock = xasprintf("%s/" LOCK_NAME, dir);
	char from[64];
	snprintf(from, sizeof from, "/proc/self/fd/%d", lock_fd);
	int r = 0;
	/* One more link to the locked file, through its descriptor; a new
	 * lock for the first directory, or once every directory that had
	 * the old one is gone. */
	if (lock_fd < 0 || linkat(AT_FDCWD, from, AT_FDCWD, lock, AT_SYMLINK_FOLLOW) != 0) {
		if (lock_fd >= 0 && errno != ENOENT)
			r = bm_error(err, "cannot make '%s': %s", lock, strerror(errno));
		else
			r = new_lock(lock, err);
	}
	free(lock);
	return r;
}

void scratch_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && strcmp(e->d_name, LOCK_NAME) != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	char *lock = xasprintf("%s/" LOCK_NAME, dir);
	unlink(lock);
	free(lock);
	rmdir(dir);
}

/* Removes name, in the scratch directories' parent, when it is a
 * directory of this user's whose lock has something in it and is free.
 * The lock is held while the directory goes: no other sweep takes it. */
static void sweep_one(DIR *parent, const char *name)
{
	struct stat st;
	if (fstatat(dirfd(parent), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return;
	char *dir = xasprintf(SCRATCH_PARENT "/%s", name);
	char *lock = xasprintf("%s/" LOCK_NAME, dir);
	int fd = open(lock, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0)
		scratch_remove(dir);
	if (fd >= 0)
		close(fd);
	free(lock);
	free(dir);
}

void scratch_sweep(void)
{
	DIR *d = opendir(SCRATCH_PARENT);
	struct dirent *e;
	size_t prefix = strlen(SCRATCH_PREFIX);
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, SCRATCH_PREFIX, prefix) == 0 && strlen(e->d_name) == prefix + SCRATCH_RANDOM)
			sweep_one(d, e->d_name);
	if (d)
		closedir(d);
}
