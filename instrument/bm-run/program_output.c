/* SPDX-License-Identifier: MIT */
/* What the measured program and Valgrind wrote, as bm-run shows it: see
 * program_output.h. */
#include "config.h"

#include "program_output.h"

#include "log.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAIL_LINES 20

/* A line the program or Valgrind wrote, for people: the sandbox's argv[0]
 * ("/tmp/bm-run.XXXXXX/p", which the loader names in its errors) given as
 * the program's path, and control characters shown as '?'.  Newly
 * allocated. */
char *program_text(const char *line, const struct sandbox *sb, const char *program)
{
	size_t len = strlen(sb->argv0), plen = strlen(program), n = 0;
	for (const char *c = strstr(line, sb->argv0); c; c = strstr(c + len, sb->argv0))
		n++;
	char *out = xmalloc(strlen(line) + n * plen + 1), *o = out;
	for (const char *c = line; *c;) {
		if (strncmp(c, sb->argv0, len) == 0) {
			memcpy(o, program, plen);
			o += plen;
			c += len;
		} else {
			unsigned char ch = (unsigned char)*c++;
			*o++ = (ch == '\n' || ch >= 0x20) && ch != 0x7f ? (char)ch : '?';
		}
	}
	*o = '\0';
	return out;
}

/* Whether a line is how Google Benchmark's header on standard error ends
 * (its load average, then its warnings: a DEBUG build of the library, CPU
 * frequency scaling), which it writes before its first benchmark. */
static int gbench_header(const char *line)
{
	static const char *const ends[] = {"Load Average: ", "***WARNING*** "};
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
		if (strncmp(line, ends[i], strlen(ends[i])) == 0)
			return 1;
	return 0;
}

/* The last non-empty line of a file (at most 200 characters), newly
 * allocated, or NULL (also when it is Google Benchmark's header, which
 * never says why a program failed). */
char *program_last_line(const char *path, const struct sandbox *sb, const char *program)
{
	FILE *in = fopen(path, "r");
	char buf[512], last[201] = "";
	while (in && fgets(buf, sizeof buf, in)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[strspn(buf, " \t")]) {
			buf[sizeof last - 1] = '\0';
			memcpy(last, buf, strlen(buf) + 1);
		}
	}
	if (in)
		fclose(in);
	return *last && !gbench_header(last) ? program_text(last, sb, program) : NULL;
}

/* Valgrind's lines that say nothing about a failure: its banner, and the
 * warnings about the host's caches, which the pinned geometry overrides. */
static int valgrind_noise(const char *text)
{
	static const char *const noise[] = {
		"Callgrind, a call-graph",  "Copyright (C)",    "Using Valgrind-",
		"Command: ",                "Parent PID: ",     "For interactive control",
		"warning: L3 cache found",  "warning: specified LL cache",
		"warning: simulated LL cache",
	};
	while (*text == ' ')
		text++;
	if (!*text || *text == '\n')
		return 1;
	for (size_t i = 0; i < sizeof noise / sizeof noise[0]; i++)
		if (strncmp(text, noise[i], strlen(noise[i])) == 0)
			return 1;
	return 0;
}

/* The last lines of a file, indented, or nothing when it is empty.  With
 * a pid, only Valgrind's lines about that process ("==PID==", "--PID--")
 * that say something, and only those before its closing statistics: that
 * is where a crash's stack trace is. */
static void show_tail(const char *path, int pid, const char *title, const struct sandbox *sb,
		      const char *program)
{
	FILE *in = fopen(path, "r");
	char *lines[TAIL_LINES] = {0}, buf[512], mine[2][32];
	size_t n = 0;
	snprintf(mine[0], sizeof mine[0], "==%d==", pid);
	snprintf(mine[1], sizeof mine[1], "--%d--", pid);
	while (in && fgets(buf, sizeof buf, in)) {
		if (pid && strncmp(buf, mine[0], strlen(mine[0])) != 0 &&
		    strncmp(buf, mine[1], strlen(mine[1])) != 0)
			continue;
		if (pid && strstr(buf, "Events    :"))
			break;
		if (pid && valgrind_noise(buf + strlen(mine[0])))
			continue;
		free(lines[n % TAIL_LINES]);
		lines[n++ % TAIL_LINES] = program_text(buf, sb, program);
	}
	if (in)
		fclose(in);
	if (n)
		fprintf(stderr, "  %s%s:\n", n > TAIL_LINES ? "the last lines of " : "", title);
	for (size_t i = n > TAIL_LINES ? n - TAIL_LINES : 0; i < n; i++) {
		const char *l = lines[i % TAIL_LINES];
		fprintf(stderr, "  | %s%s", l, strchr(l, '\n') ? "" : "\n");
	}
	for (size_t i = 0; i < TAIL_LINES; i++)
		free(lines[i]);
}

/* What the program wrote, then what Valgrind said about process pid. */
void program_show_output(const struct job *job, const char *what, int pid)
{
	log_error("%s", what);
	show_tail(job->sb.output, 0, "its output", &job->sb, job->program);
	show_tail(job->sb.errors, 0, "its errors", &job->sb, job->program);
	show_tail(job->sb.log, pid, "Valgrind's log", &job->sb, job->program);
	char *last = program_last_line(job->sb.errors, &job->sb, job->program);
	if (last && strstr(last, "error while loading shared libraries"))
		fprintf(stderr, "bm-run: the program runs in a fixed environment, without the caller's "
				"LD_LIBRARY_PATH: link it with -Wl,-rpath,DIR or add --env "
				"LD_LIBRARY_PATH=DIR\n");
	free(last);
}

/* Everything the program wrote to standard output (bm-run -v). */
void program_show_all(const struct job *job)
{
	FILE *in = fopen(job->sb.output, "r");
	char buf[4096];
	int first = 1;
	while (in && fgets(buf, sizeof buf, in)) {
		if (first)
			fprintf(stderr, "bm-run: the output of '%s':\n", job->program);
		first = 0;
		char *l = program_text(buf, &job->sb, job->program);
		fprintf(stderr, "  | %s%s", l, strchr(l, '\n') ? "" : "\n");
		free(l);
	}
	if (in)
		fclose(in);
}
