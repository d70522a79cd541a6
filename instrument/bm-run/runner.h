/* SPDX-License-Identifier: MIT */
/* Running jobs: one program under Valgrind per process, several processes
 * at once, each with its control channel, timeout and restarts.
 *
 * A job is one program with its arguments in one mode.  In harness mode
 * the program says over the control channel (see instrument/libbm/control.c)
 * which benchmarks it plans, starts (each in a child process of its own),
 * finishes, skips and loses (a child that crashed, exited or was killed);
 * a benchmark past its timeout, counted from its "start" until the program
 * has reaped its process, has that process killed.  Should the
 * program itself die during a benchmark (up to the moment it has reaped
 * that benchmark's process, even after "done"), that benchmark fails and
 * the job goes on in a new process with --resume-after, so that the others
 * still get their numbers.
 *
 * Each program runs below a keeper (keeper.h), and nothing it starts
 * outlives it: what a program (or, in harness mode, a benchmark, once the
 * program has reaped its process) leaves running is killed, and fails it
 * ("left a process running: ...").  In symbol and whole-process mode a job is one
 * benchmark, and in MODE_SYMBOLS one run whose profile results.c splits
 * into one benchmark per function. */
#ifndef BM_RUNNER_H
#define BM_RUNNER_H

#include "job.h"
#include "launcher.h"

#include <stddef.h>

struct runner_options {
	const char *valgrind;
	const struct measure_setup *setup; /* engine, model, CPU, branches */
	double timeout_s; /* per benchmark, in its own time (harness mode) or
			   * the program's run (the others); 0: none */
	int parallel;     /* processes at once */
	char *const *env; /* --env K=V */
	size_t nenv;
	int progress;     /* show progress on stderr (a terminal) */
	int quiet;
	int verbose;      /* show what each program wrote to standard output */
	const char *input; /* what programs in whole-process and symbol mode
			    * read on standard input: a path each opens
			    * afresh (program_input.h); libbm's read /dev/null */
};

/* Runs every job to the end, at most o->parallel processes at once.
 * Returns 0, or -1 with *err set when bm-run was interrupted (a signal
 * interrupt.h caught: every program is killed first) or could not start a
 * process at all. */
int runner_run(struct job *jobs, size_t njobs, const struct runner_options *o, char **err);

#endif
