/* SPDX-License-Identifier: MIT */
/* Running jobs: one program under Valgrind per process, several processes
 * at once, each with its control channel, timeout and restarts.
 *
 * A job is one program with its arguments in one mode.  In harness mode
 * the program says over the control channel (see instrument/control.c)
 * which benchmarks it plans, starts (each in a child process of its own),
 * finishes, skips and loses (a child that crashed, exited or was killed);
 * a benchmark past its timeout has its process killed.  Should the
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

#include "launcher.h"
#include "model.h"
#include "sandbox.h"

#include <stddef.h>

enum entry_state { ENTRY_PLANNED, ENTRY_RUNNING, ENTRY_DONE, ENTRY_SKIPPED, ENTRY_FAILED };

/* One benchmark of a job. */
struct entry {
	char *id;
	enum entry_state state;
	char *reason; /* why it failed or was skipped */
	char *dump;   /* its callgrind file, when done */
	int pid;      /* private: the process measuring it (harness mode) */
	int timed_out; /* private: bm-run killed that process */
};

struct job {
	/* What to run. */
	char *program; /* absolute path */
	char **args;
	size_t nargs;
	enum run_mode mode;
	char *symbol; /* MODE_SYMBOL */
	char *name;   /* the benchmark id in MODE_SYMBOL and MODE_WHOLE */
	char **symbols; /* MODE_SYMBOLS: the functions to measure (see
			 * job_add_symbol), each a benchmark "NAME::function" */
	size_t nsymbols;
	int followup; /* MODE_SYMBOL run for a MODE_SYMBOLS job's function */

	/* What happened. */
	struct entry *entries;
	size_t nentries, entries_alloc;
	char *warning; /* trouble that failed no single benchmark */
	char *usage_error; /* the program refused its arguments (libbm's exit 2) */

	/* Private to runner.c. */
	struct sandbox sb;
	char *resume_after;
	int processes;
};

struct runner_options {
	const char *valgrind;
	const struct measure_setup *setup; /* engine, model, CPU, branches */
	double timeout_s; /* per benchmark; 0: none */
	int parallel;     /* processes at once */
	char *const *env; /* --env K=V */
	size_t nenv;
	int progress;     /* show progress on stderr (a terminal) */
	int quiet;
	int verbose;      /* show what each program wrote to standard output */
};

/* Sets job up for program (absolute) and args (copied). */
void job_init(struct job *job, const char *program, char *const *args, size_t nargs,
	      enum run_mode mode, const char *symbol, const char *name);
/* Adds fn to a MODE_SYMBOLS job's functions, once. */
void job_add_symbol(struct job *job, const char *fn);
/* Frees the job and removes its scratch directory. */
void job_release(struct job *job);

/* Runs every job to the end, at most o->parallel processes at once.
 * Returns 0, or -1 with *err set when bm-run was interrupted (SIGINT,
 * SIGTERM) or could not start a process at all. */
int runner_run(struct job *jobs, size_t njobs, const struct runner_options *o, char **err);

#endif
