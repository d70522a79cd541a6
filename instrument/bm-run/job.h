/* SPDX-License-Identifier: MIT */
/* A job: one program with its arguments in one mode (run_mode), and what
 * became of each of its benchmarks (entries), as the runner (runner.h)
 * learns it. */
#ifndef BM_JOB_H
#define BM_JOB_H

#include "launcher.h"
#include "sandbox.h"

#include <stddef.h>

enum entry_state { ENTRY_PLANNED, ENTRY_RUNNING, ENTRY_DONE, ENTRY_SKIPPED, ENTRY_FAILED };

/* One benchmark of a job. */
struct entry {
	char *id;
	enum entry_state state;
	char *reason; /* why it failed or was skipped */
	char *dump;   /* its callgrind file, when done (a single-process run's
		       * even when it failed) */
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

/* Sets job up for program (absolute) and args (copied). */
void job_init(struct job *job, const char *program, char *const *args, size_t nargs,
	      enum run_mode mode, const char *symbol, const char *name);
/* Adds fn to a MODE_SYMBOLS job's functions, once. */
void job_add_symbol(struct job *job, const char *fn);
/* The functions the job measures (its symbol, or its symbols) in *fns;
 * returns how many. */
size_t job_functions(const struct job *job, char *const **fns);
/* Frees the job and removes its scratch directory. */
void job_release(struct job *job);

/* The job's benchmark id, or NULL. */
struct entry *job_entry_find(struct job *job, const char *id);
/* The same, made (planned) when it is not there yet. */
struct entry *job_entry(struct job *job, const char *id);
/* Sets e's state and reason (copied; NULL for none). */
void entry_set(struct entry *e, enum entry_state state, const char *reason);
/* Whether a benchmark of the job is still only planned. */
int job_has_planned(const struct job *job);

#endif
