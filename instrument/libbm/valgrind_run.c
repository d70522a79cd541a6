/* SPDX-License-Identifier: MIT */
/* Running the plan under Valgrind: each benchmark in a process of its own.
 *
 * The parent forks a child per benchmark; the child does the setup, the
 * measured run (one callgrind dump in the child's own files, whose number
 * "done ID N" tells bm-run: cg.<child pid>.out.N) and the teardown, then exits.  So every benchmark
 * starts from the same memory (the parent's, which does not change between
 * forks): its numbers do not depend on which benchmarks ran before it or
 * on --filter.  And a benchmark that crashes, exits or is killed takes
 * only its own process down; the parent reports it and goes on. */
#include "bm_internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The harness's own cost, measured as the benchmark is: an empty run,
 * just before the benchmark's own, in its process, on the same (padded)
 * stack and in the same mode.  Its dump, named "bm: overhead", lets
 * bm-run take the client requests' and the call's cost out of the
 * benchmark's numbers, so that an empty benchmark measures 0 (exactly: the
 * second of two such runs, which finds what the first left as the
 * benchmark finds what the second left).  bm-run asks
 * for it (BM_OVERHEAD=1) under bm-model/2 only: the run before moves one of
 * the harness's cache misses in the benchmark's (callgrind counts it so
 * too), and bm-model/1's numbers stay those of every earlier report. */
static __attribute__((noinline)) void bm__overhead_run(struct bm_state *s)
{
	(void)s;
	__asm__ volatile("");
}

static void measure_overhead(int how)
{
	static const struct bm_benchmark overhead = {.suite = "bm", .name = "overhead", .run = bm__overhead_run};
	static char id[] = "bm: overhead";
	const char *wanted = getenv("BM_OVERHEAD");
	/* Twice: the second finds what the first left, as the benchmark
	 * will, and its dump is the one bm-run reads. */
	for (int k = 0; wanted && strcmp(wanted, "1") == 0 && k < 2; k++)
		measure_under_valgrind(&(struct bm_entry){.bench = &overhead, .id = id}, how);
}

/* One benchmark in this process, as bm-run is told: "start", the
 * harness's cost when asked, the benchmark, "done" with its dump. */
static void measure_one(const struct bm_entry *e, int warm)
{
	control_send("start %s %d", e->id, (int)getpid());
	int how = !warm ? MEASURE_COLD : registry_warm_rerun(e->bench) ? MEASURE_WARM_RERUN : MEASURE_WARM;
	measure_overhead(how);
	unsigned dump = measure_under_valgrind(e, how);
	control_send("done %s %u", e->id, dump);
}

/* In the child: one benchmark, then exit without the parent's atexit
 * handlers and stdio buffers. */
static void child(const struct bm_entry *e, int warm)
{
	measure_one(e, warm);
	_exit(0);
}

/* Signal names without strsignal, which may allocate (through gettext) and
 * so change the heap that later benchmarks start from. */
static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "Segmentation fault";
	case SIGABRT:
		return "Aborted";
	case SIGBUS:
		return "Bus error";
	case SIGFPE:
		return "Floating point exception";
	case SIGILL:
		return "Illegal instruction";
	case SIGKILL:
		return "Killed";
	case SIGTERM:
		return "Terminated";
	case SIGINT:
		return "Interrupt";
	case SIGTRAP:
		return "Trace/breakpoint trap";
	default:
		return "signal";
	}
}

/* Why a child ended badly, into why; 0 when it exited 0. */
static int child_failed(int status, char *why, size_t len)
{
	if (WIFSIGNALED(status)) {
		snprintf(why, len, "killed by signal %d (%s)", WTERMSIG(status), signal_name(WTERMSIG(status)));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		snprintf(why, len, "exited with status %d", WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

static int time_limited(const struct bm_entry *e)
{
	for (size_t p = 0; p < e->nparams; p++)
		if (e->bench->params[p].limit_s > 0)
			return 1;
	return 0;
}

void run_under_valgrind(struct bm_plan *plan, size_t first, int warm)
{
	int controlled = control_open() >= 0;
	size_t measured = 0, failed = 0;
	char why[BM_REASON_MAX];
	for (size_t i = first; i < plan->n; i++)
		control_send("plan %s", plan->entries[i].id);
	fflush(NULL); /* nothing buffered to be written twice by a child */
	for (size_t i = first; i < plan->n; i++) {
		struct bm_entry *e = &plan->entries[i];
		if (e->skipped_after) {
			plan_skip_reason(e, why);
			control_send("skip %s %s", e->id, why);
			continue;
		}
		pid_t pid = fork();
		if (pid == 0)
			child(e, warm);
		int status = 0;
		if (pid < 0) {
			/* No process to spare: measure here, at the cost of isolation. */
			measure_one(e, warm);
		} else {
			while (waitpid(pid, &status, 0) < 0)
				;
		}
		if (child_failed(status, why, sizeof why)) {
			control_send("fail %s %s", e->id, why);
			if (!controlled)
				bm_complain("%s: %s", e->id, why);
			failed++;
			continue;
		}
		measured++;
		if (controlled && time_limited(e)) {
			control_send("ask %s", e->id);
			double t = control_ask_time();
			if (t >= 0)
				plan_skip_after(plan, i, t);
		}
	}
	control_send("end");
	if (!controlled)
		bm_complain("measured %zu benchmark%s under Valgrind, each in its own process with one "
			    "callgrind dump (time-bounded ranges need bm-run)%s",
			    measured, measured == 1 ? "" : "s", failed ? "; some failed" : "");
}
