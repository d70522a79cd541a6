/* SPDX-License-Identifier: MIT */
/* From finished jobs to report benchmarks. */
#ifndef BM_RESULTS_H
#define BM_RESULTS_H

#include "model.h"
#include "report.h"
#include "runner.h"
#include "unnamed_code.h"

/* What bm-run says after the table: the benchmarks that spend a tenth of
 * their cycles or more in code without symbols, and its objects; the
 * program's objects that chose their code by asking the CPU (cpuid), as
 * the first profile that names any says, or NULL (free it). */
struct results_notes {
	size_t unnamed_benchmarks;
	struct unnamed_code unnamed; /* only its objects are filled */
	char *cpu_askers;
};

/* Adds every benchmark of the jobs to r: the numbers of each finished one
 * from its callgrind file, failed and skipped ones with their reasons.
 * Ids repeated across jobs get "#2", "#3".  When keep_dir is not NULL the
 * callgrind files are copied there (as ID.callgrind) for KCachegrind.
 * Adds to notes (NULL: none).  Returns the number of failed benchmarks. */
size_t results_collect(struct bm_report *r, const struct job *jobs, size_t njobs,
		       const struct bm_model *m, int with_profile, const char *keep_dir,
		       struct results_notes *notes);

/* Symbol mode under --engine callgrind: the functions of a finished
 * MODE_SYMBOLS job that need a run of their own (MODE_SYMBOL, marked
 * followup): every function that was called when profiles are wanted (a
 * function's own profile needs --toggle-collect), else only those that
 * re-enter themselves through other functions (whose cost one run cannot
 * separate).  None for a program that forked (callgrind's children count
 * their parent's calls again), and none for bm's tool, which collected in
 * each function in its one run (--collect-in).
 * Returns how many, in *fns (borrowed names; free the array). */
size_t results_followups(const struct job *job, const struct bm_model *m, int with_profile,
			 const char ***fns);

#endif
