/* SPDX-License-Identifier: MIT */
/* The control channel between libbm and bm-run.
 *
 * bm-run starts the benchmark program with BM_CONTROL=3 in its (fixed)
 * environment and a stream socket on fd 3.  libbm writes one line per
 * event; bm-run answers only "ask":
 *
 *   hello 1                  first: the protocol version
 *   plan ID                  each benchmark this process will try, in order
 *   start ID PID             (the child measuring ID) before its setup; its
 *                            dump is cg.PID.out.1, and bm-run's timeout
 *                            kills PID
 *   done ID                  (the child) after the dump was written
 *   fail ID REASON           (the parent) the child died: signal, exit status
 *   skip ID REASON           a benchmark a time-bounded range skipped
 *   ask ID                   the estimated time of ID's dump, for a
 *   time SECONDS | time -    time-bounded range; bm-run answers "time ..."
 *                            ("-" when it cannot say)
 *   end                      last
 *
 * An ID holds no white space (registry.c), so the words of a line split at
 * spaces; a line is at most BM_CONTROL_LINE_MAX bytes, which the longest
 * id and reason fit (bm_internal.h).
 *
 * Without BM_CONTROL (Valgrind run by hand) every call here is a no-op.
 * A write to a bm-run that went away is ignored (MSG_NOSIGNAL: no SIGPIPE). */
#include "bm_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fd = -1;

int control_open(void)
{
	const char *v = getenv("BM_CONTROL");
	char *end;
	if (!v || !*v)
		return -1;
	long n = strtol(v, &end, 10);
	if (*end || n < 0 || n > 1024) {
		bm_complain("ignoring BM_CONTROL='%s': not a file descriptor", v);
		return -1;
	}
	fd = (int)n;
	control_send("hello 1");
	return fd;
}

void control_send(const char *fmt, ...)
{
	char line[BM_CONTROL_LINE_MAX];
	va_list ap;
	if (fd < 0)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Never cut: a line with a cut id would name another benchmark.  Ids
	 * and reasons have maxima that fit (bm_internal.h). */
	if ((size_t)n >= sizeof line - 1) {
		bm_complain("a control line of %d bytes is longer than bm-run reads; not sent", n);
		return;
	}
	line[n++] = '\n';
	for (int off = 0; off < n;) {
		ssize_t w = send(fd, line + off, (size_t)(n - off), MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == ENOTSOCK)
			w = write(fd, line + off, (size_t)(n - off));
		if (w <= 0)
			return;
		off += (int)w;
	}
}

double control_ask_time(void)
{
	char line[128];
	size_t len = 0;
	if (fd < 0)
		return -1;
	while (len < sizeof line - 1) {
		ssize_t r = read(fd, line + len, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (line[len] == '\n')
			break;
		len++;
	}
	line[len] = '\0';
	char *end;
	if (strncmp(line, "time ", 5) != 0)
		return -1;
	double t = strtod(line + 5, &end);
	return end != line + 5 && !*end && t >= 0 ? t : -1;
}
