/* SPDX-License-Identifier: MIT */
/* Why a process ended without saying how: see blame.h. */
#include "config.h"

#include "blame.h"

#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BLAME_LINE_MAX 4096 /* a dump's header line, as a control line */

/* Whether process pid of the job ran exec.  Valgrind does not follow
 * exec: the new program runs natively, so callgrind never writes the dump
 * of the process's end (cg.PID.out, which callgrind makes empty at the
 * start), as it does at every exit and fatal signal.  Nor did Valgrind
 * fail to start it: its log has the program's "Command:" line when forked
 * is 0 (the program's own process), and nothing at all about the process
 * when forked is 1 (a benchmark's process, forked from a running program:
 * a panic of Valgrind would be there). */
int blame_execed(const struct job *job, int pid, int forked)
{
	char *path = xasprintf("%s/cg.%d.out", job->sb.dir, pid), line[512], mine[2][32];
	struct stat st;
	int ended = stat(path, &st) == 0 && st.st_size > 0, started = 0, said = 0;
	free(path);
	FILE *in = ended || pid <= 0 ? NULL : fopen(job->sb.log, "r");
	if (!in)
		return 0;
	snprintf(mine[0], sizeof mine[0], "==%d== ", pid);
	snprintf(mine[1], sizeof mine[1], "--%d-- ", pid);
	while (fgets(line, sizeof line, in)) {
		int own = strncmp(line, mine[0], strlen(mine[0])) == 0;
		said |= own || strncmp(line, mine[1], strlen(mine[1])) == 0;
		started |= own && strncmp(line + strlen(mine[0]), "Command: ", 9) == 0;
	}
	fclose(in);
	return forked ? !said : started;
}

/* Why a process replaced itself with exec: what (it did), and what to do.
 * code is the exit status of what it ran, when the parent saw one.  Newly
 * allocated. */
char *blame_exec(const char *what, int pid, int code, const char *todo)
{
	char status[64] = "";
	if (code)
		snprintf(status, sizeof status, "; what it ran exited with status %d", code);
	return xasprintf("%s (pid %d%s), which Valgrind does not follow, so nothing was measured: %s",
			 what, pid, status, todo);
}

/* Whether process pid wrote the dump of benchmark id, whose name is the id
 * (CALLGRIND_DUMP_STATS_AT): one of cg.PID.out.1, .2, ... */
static int dumped(const struct job *job, int pid, const char *id)
{
	char *want = xasprintf("desc: Trigger: Client Request: %s\n", id), line[BLAME_LINE_MAX];
	int found = 0;
	for (int n = 1; !found; n++) {
		char *path = xasprintf("%s/cg.%d.out.%d", job->sb.dir, pid, n);
		FILE *in = fopen(path, "r");
		free(path);
		if (!in)
			break;
		/* The trigger is in the header, which ends at "events:". */
		while (!found && fgets(line, sizeof line, in) && strncmp(line, "events:", 7) != 0)
			found = strcmp(line, want) == 0;
		fclose(in);
	}
	free(want);
	return found;
}

/* Why benchmark e failed whose process ended (the program reaped it)
 * without a "done" (code: the status of the program's "fail", 0 when it
 * said none, the process having exited 0).  The files of the process tell
 * whether it ran exec, exited before its dump was written, or after (its
 * "done" was lost).  Newly allocated. */
char *blame_lost(const struct job *job, const struct entry *e, int code)
{
	if (blame_execed(job, e->pid, 1))
		return blame_exec("replaced its process with exec inside the benchmark", e->pid, code,
				   "a benchmark must not call exec (fork, and exec in the child); "
				   "measure a program with bm-run -- PROGRAM");
	if (dumped(job, e->pid, e->id))
		return xstrdup("ran, but libbm's word that it was done never reached bm-run: the "
			       "benchmark closed or replaced the harness's control descriptor (fd 3, "
			       "BM_CONTROL), or exited in its teardown; leave fd 3 open, and return "
			       "from teardown");
	return xstrdup("exited (status 0) inside the benchmark, before libbm could record it: "
		       "setup, run and teardown must return, not call exit or _exit");
}
