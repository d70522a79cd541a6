/* From finished jobs to report benchmarks. */
#ifndef BM_RESULTS_H
#define BM_RESULTS_H

#include "model.h"
#include "report.h"
#include "runner.h"

/* Adds every benchmark of the jobs to r: the numbers of each finished one
 * from its callgrind file, failed and skipped ones with their reasons.
 * Ids repeated across jobs get "#2", "#3".  When keep_dir is not NULL the
 * callgrind files are copied there (as ID.callgrind) for KCachegrind.
 * Returns the number of failed benchmarks. */
size_t results_collect(struct bm_report *r, const struct job *jobs, size_t njobs,
		       const struct bm_model *m, int with_profile, const char *keep_dir);

#endif
