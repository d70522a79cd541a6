/* SPDX-License-Identifier: MIT */
/* The programs' standard input, read once: see program_input.h. */
#include "config.h"

#include "program_input.h"

#include "error.h"
#include "interrupt.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether bm-run's standard input is something to read: a file, a pipe
 * or a socket (not a terminal, /dev/null or another device). */
static int worth_reading(int fd, int *terminal)
{
	struct stat st;
	*terminal = isatty(fd);
	if (fstat(fd, &st) != 0)
		return 0; /* closed */
	return S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
}

int program_input_from_stdin(void)
{
	int terminal;
	return worth_reading(0, &terminal);
}

/* An unlinked file in $TMPDIR (or /tmp), close-on-exec, or -1. */
static int private_file(char **err)
{
	const char *tmp = getenv("TMPDIR");
	char *path = xasprintf("%s/bm-run-stdin.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		bm_error(err, "cannot keep standard input in '%s': %s (set TMPDIR to a writable directory)", path,
			 strerror(errno));
	else
		unlink(path);
	free(path);
	return fd;
}

/* Waits until fd has something to read; says once, after a second, what
 * bm-run is waiting for (a pipe that stays open would wait forever). */
static void wait_readable(int fd, int *said)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	if (*said || poll(&p, 1, 1000) != 0)
		return;
	fprintf(stderr, "bm-run: waiting for standard input to end, to feed it to the program (give --stdin FILE, "
			"or </dev/null, when there is none)\n");
	*said = 1;
}

/* Copies from into the private file, hashing as it goes. */
static int copy_in(int from, const char *name, struct program_input *in, char **err)
{
	struct sha256 sum;
	char buf[65536];
	int said = 0;
	sha256_init(&sum);
	for (;;) {
		wait_readable(from, &said);
		ssize_t n = read(from, buf, sizeof buf);
		if (n < 0 && errno == EINTR && !interrupt_caught())
			continue; /* else bm-run ends of it (interrupt.h) */
		if (n < 0)
			return bm_error(err, "cannot read %s: %s", name, strerror(errno));
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(in->fd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return bm_error(err, "cannot keep %s for the program: %s", name, strerror(errno));
			off += w;
		}
		sha256_update(&sum, buf, (size_t)n);
		in->bytes += (uint64_t)n;
	}
	sha256_final_hex(&sum, in->sha256);
	return 0;
}

int program_input_take(const char *file, struct program_input *in, char **err)
{
	memset(in, 0, sizeof *in);
	in->fd = -1;
	snprintf(in->path, sizeof in->path, "/dev/null");
	int from = 0, rc = -1;
	char *name = NULL;
	if (file && strcmp(file, "-") == 0) {
		file = NULL; /* bm-run's own, whatever it is: even a terminal */
	} else if (file) {
		from = open(file, O_RDONLY | O_CLOEXEC);
		if (from < 0)
			return bm_error(err, "cannot read --stdin '%s': %s", file, strerror(errno));
		name = xasprintf("'%s'", file);
	} else if (!worth_reading(0, &in->terminal)) {
		return 0;
	}
	if ((in->fd = private_file(err)) < 0)
		goto out;
	if (copy_in(from, name ? name : "standard input", in, err) < 0)
		goto out;
	if (in->bytes == 0) {
		/* Nothing to read is what /dev/null gives too. */
		program_input_release(in);
		in->sha256[0] = '\0';
	} else {
		snprintf(in->path, sizeof in->path, "/proc/self/fd/%d", in->fd);
	}
	rc = 0;
out:
	if (file)
		close(from);
	free(name);
	if (rc < 0)
		program_input_release(in);
	return rc;
}

void program_input_release(struct program_input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	snprintf(in->path, sizeof in->path, "/dev/null");
}
