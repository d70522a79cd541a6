/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "atomic_file.h"

#include "error.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct atomic_file {
	char *path;   /* as given, for messages */
	char *target; /* the regular file renamed over; NULL when written directly */
	char *tmp;    /* the temporary file beside target */
	FILE *stream;
};

#define LINKS_MAX 40 /* as the kernel's ELOOP limit */

/* The directory part of path ("." when it has none); newly allocated. */
static char *directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* Whether dir, resolved, is this process's /proc/PID/fd or
 * /proc/PID/task/TID/fd. */
static int own_fd_directory(const char *dir)
{
	char real[PATH_MAX], *end;
	if (!realpath(dir, real) || strncmp(real, "/proc/", 6) != 0 ||
	    strtol(real + 6, &end, 10) != (long)getpid())
		return 0;
	if (strncmp(end, "/task/", 6) == 0) {
		const char *tid = end + 6;
		strtol(tid, &end, 10);
		if (end == tid)
			return 0;
	}
	return strcmp(end, "/fd") == 0;
}

/* The number of the descriptor path names when it is one of this process's
 * own (/dev/stdout leads to /proc/self/fd/1, /dev/fd/N, /proc/self/fd/N),
 * else -1.  Opening such a path anew would start a second file description
 * at offset 0 (and renaming over it would unlink what the shell opened), so
 * the descriptor itself is written, as the shell's redirection set it up. */
static int own_descriptor(const char *path)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : "";
	size_t len = strlen(name);
	if (len == 0 || len > 9 || strspn(name, "0123456789") != len)
		return -1;
	char *dir = directory_of(path);
	int own = own_fd_directory(dir);
	free(dir);
	return own ? atoi(name) : -1;
}

/* Follows the chain of symbolic links path may be, a relative target being
 * relative to its link's directory, as the kernel does.  Returns where it
 * ends (newly allocated) with *st its lstat, st_mode 0 when nothing is there
 * yet (a dangling link's target is created, as `echo > link` would), or
 * with *fd >= 0 when it is one of this process's descriptors.  NULL with
 * errno set otherwise: ELOOP for a loop or a chain longer than the
 * kernel's. */
static char *follow(const char *path, struct stat *st, int *fd)
{
	char *at = xstrdup(path);
	int hops;
	for (hops = 0; hops <= LINKS_MAX; hops++) {
		if ((*fd = own_descriptor(at)) >= 0)
			return at;
		if (lstat(at, st) != 0) {
			if (errno != ENOENT)
				break;
			memset(st, 0, sizeof *st);
			return at;
		}
		if (!S_ISLNK(st->st_mode))
			return at;
		char link[PATH_MAX];
		ssize_t len = readlink(at, link, sizeof link);
		if (len < 0)
			break;
		if (len == sizeof link) {
			errno = ENAMETOOLONG;
			break;
		}
		link[len] = '\0';
		char *next;
		const char *slash = strrchr(at, '/');
		if (link[0] == '/' || !slash)
			next = xstrdup(link);
		else
			next = xasprintf("%.*s/%s", (int)(slash - at), at, link);
		free(at);
		at = next;
	}
	int e = hops > LINKS_MAX ? ELOOP : errno;
	free(at);
	errno = e;
	return NULL;
}

static struct atomic_file *opened(struct atomic_file *af, int fd)
{
	if (fd >= 0 && (af->stream = fdopen(fd, "w")))
		return af;
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->target);
	free(af->tmp);
	free(af);
}

static struct atomic_file *failed(struct atomic_file *af, char **err, int error)
{
	bm_error(err, "cannot write '%s': %s", af->path, strerror(error));
	if (af->tmp)
		unlink(af->tmp);
	release(af);
	return NULL;
}

/* One of this process's descriptors, written through a duplicate (standard
 * output through stdout itself, so that it keeps its order with whatever
 * else the tool prints there). */
static struct atomic_file *descriptor(struct atomic_file *af, int fd, char **err)
{
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
		return failed(af, err, EBADF);
	if (fd == STDOUT_FILENO) {
		af->stream = stdout;
		return af;
	}
	if (!opened(af, fcntl(fd, F_DUPFD_CLOEXEC, 0)))
		return failed(af, err, errno);
	return af;
}

/* Removes the temporary files beside target that writers who died left
 * (killed while they worked): this user's regular files that no process
 * holds locked, as a live writer holds its own (locked_temporary).  The
 * lock is held while a file goes, and the name checked to be still that
 * file's, so that two of these never remove a live writer's either. */
static void remove_dead_temporaries(const char *target)
{
	char *dir = directory_of(target);
	const char *slash = strrchr(target, '/');
	char *prefix = xasprintf("%s.tmp.", slash ? slash + 1 : target);
	size_t len = strlen(prefix);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, len) != 0 || strlen(e->d_name) != len + 6)
			continue;
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st, named;
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0 && fstatat(dirfd(d), e->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
		    named.st_ino == st.st_ino && named.st_dev == st.st_dev)
			unlinkat(dirfd(d), e->d_name, 0);
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(dir);
}

/* mkostemp's file at template, locked (flock) for as long as it is open:
 * a later writer of the same path knows it for a live one's.  One that
 * remove_dead_temporaries took before the lock is gone: made again. */
static int locked_temporary(char *template)
{
	size_t len = strlen(template);
	for (;;) {
		/* Close-on-exec: bm-run starts programs while its report is open. */
		int fd = mkostemp(template, O_CLOEXEC);
		struct stat st;
		/* Where flock is not supported, the file goes unlocked (and a
		 * later writer cannot take a lock either). */
		if (fd < 0 || flock(fd, LOCK_EX) != 0 || fstat(fd, &st) != 0 || st.st_nlink > 0)
			return fd;
		close(fd);
		memcpy(template + len - 6, "XXXXXX", 6);
	}
}

/* The temporary file beside af->target, with the permissions (and, where
 * allowed, the owner) of the file it replaces: mkostemp makes it private,
 * but a new report is as readable as any file the user creates. */
static struct atomic_file *temporary(struct atomic_file *af, const struct stat *old, char **err)
{
	remove_dead_temporaries(af->target);
	af->tmp = xasprintf("%s.tmp.XXXXXX", af->target);
	int fd = locked_temporary(af->tmp);
	if (fd < 0) {
		int e = errno;
		free(af->tmp);
		af->tmp = NULL;
		if (e == ENOENT || e == ENOTDIR)
			return failed(af, err, e);
		char *dir = directory_of(af->target);
		bm_error(err, "cannot write '%s': cannot create a file in '%s': %s", af->path, dir, strerror(e));
		free(dir);
		release(af);
		return NULL;
	}
	mode_t mode;
	if (old->st_mode) {
		/* Only root may give a file away, and a user only to a group of
		 * theirs; otherwise the new file is the user's, as any they make. */
		int kept = fchown(fd, old->st_uid, old->st_gid) == 0 || fchown(fd, (uid_t)-1, old->st_gid) == 0;
		(void)kept;
		mode = old->st_mode & 0777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) != 0) {
		int e = errno;
		close(fd);
		return failed(af, err, e);
	}
	if (!opened(af, fd))
		return failed(af, err, errno);
	return af;
}

struct atomic_file *atomic_file_open(const char *path, char **err)
{
	struct atomic_file *af = xcalloc(1, sizeof *af);
	af->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		af->stream = stdout;
		return af;
	}
	if (!*path)
		return failed(af, err, ENOENT);
	struct stat st;
	int fd;
	char *at = follow(path, &st, &fd);
	if (!at)
		return failed(af, err, errno);
	if (fd >= 0) {
		free(at);
		return descriptor(af, fd, err);
	}
	if (S_ISDIR(st.st_mode)) {
		free(at);
		return failed(af, err, EISDIR);
	}
	if (st.st_mode && !S_ISREG(st.st_mode)) {
		/* A device, FIFO, socket or terminal: written as it is (a FIFO's
		 * open waits for its reader), never replaced. */
		int direct = open(at, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		free(at);
		if (!opened(af, direct))
			return failed(af, err, errno);
		return af;
	}
	af->target = at;
	/* Renaming over a file needs only the directory's permission; a file
	 * the user may not write is refused, as `echo > file` would. */
	if (st.st_mode && access(at, W_OK) != 0)
		return failed(af, err, errno);
	return temporary(af, &st, err);
}

int atomic_file_is_stdout(const char *path)
{
	return atomic_file_descriptor(path) == STDOUT_FILENO;
}

int atomic_file_descriptor(const char *path)
{
	if (strcmp(path, "-") == 0)
		return STDOUT_FILENO;
	struct stat st;
	int fd = -1;
	char *at = *path ? follow(path, &st, &fd) : NULL;
	if (!at)
		fd = -1;
	free(at);
	return fd;
}

FILE *atomic_file_stream(struct atomic_file *af)
{
	return af->stream;
}

/* Makes the rename durable: the directory entry is data too. */
static void sync_directory(const char *path)
{
	char *dir = directory_of(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int atomic_file_commit(struct atomic_file *af, char **err)
{
	int r = 0;
	if (af->stream == stdout) {
		if (fflush(af->stream) != 0 || ferror(af->stream))
			r = bm_error(err, "cannot write to standard output: %s", strerror(errno));
		release(af);
		return r;
	}
	/* Written directly, a device or FIFO has nothing to sync (fsync fails
	 * on many) or rename. */
	int bad = fflush(af->stream) != 0 || ferror(af->stream) || (af->tmp && fsync(fileno(af->stream)) != 0);
	int saved = errno;
	if (fclose(af->stream) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	if (!bad && af->tmp && rename(af->tmp, af->target) != 0) {
		bad = 1;
		saved = errno;
	}
	if (bad) {
		if (af->tmp)
			unlink(af->tmp);
		r = bm_error(err, "cannot write '%s': %s", af->path, strerror(saved));
	} else if (af->tmp) {
		sync_directory(af->target);
	}
	release(af);
	return r;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af)
		return;
	if (af->stream != stdout)
		fclose(af->stream);
	if (af->tmp)
		unlink(af->tmp);
	release(af);
}
