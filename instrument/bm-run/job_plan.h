/* SPDX-License-Identifier: MIT */
/* From bm-run's command lines (PROGRAM ARGS, or each line of a manifest)
 * to jobs: which mode measures each program (libbm's harness, symbol mode
 * with the functions that match, the whole process), each checked before
 * anything runs: the program exists and can run, its functions match. */
#ifndef BM_JOB_PLAN_H
#define BM_JOB_PLAN_H

#include "elfinfo.h"
#include "job.h"
#include "run_options.h"

#include <stddef.h>

struct jobs {
	struct job *j;
	size_t n, alloc;
};

/* A new zeroed job at the end of js (pointers into js->j move). */
struct job *jobs_add(struct jobs *js);

/* The jobs of the command line argv[optind..] or of o's manifest; the
 * first program's ELF facts into *first_elf (the report's compiler and
 * binary).  Returns -1 after saying why nothing can run. */
int jobs_plan(struct jobs *js, int argc, char **argv, const struct run_options *o, struct elfinfo *first_elf);

/* A fresh copy of the jobs' inputs, for --verify's second run (symbol
 * mode's follow-up runs are planned again after its first run). */
void jobs_copy(struct jobs *dst, const struct jobs *src);

/* Whether a job measures an unmodified program (whole-process or symbol
 * mode), which may read its standard input. */
int jobs_measure_unmodified(const struct jobs *js);

/* Frees every job and its scratch directory; js is empty after. */
void jobs_release(struct jobs *js);

#endif
