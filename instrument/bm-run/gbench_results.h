/* SPDX-License-Identifier: MIT */
/* A Google Benchmark binary's benchmarks (MODE_GBENCH), from its own JSON
 * report and the engine's dump of each run of a benchmark's timed loop.
 *
 * The suite decides its iterations by the virtual clock, which advances
 * with the model's cycles, so the time per iteration it reports is the
 * model's: a benchmark's cycles are its cpu_time per iteration at the
 * model's frequency, as the suite timed it (its PauseTiming parts left
 * out).  Its events are those of the run it reported, per iteration
 * (rounded): the engine dumps each run from the entry of
 * State::StartKeepRunning() to that of State::FinishKeepRunning(), and the
 * run a benchmark reported is the first dump after the previous one's
 * whose cycles are its cpu_time times its iterations, within a thousandth
 * and 5,000 cycles (the runs of one benchmark grow by more).  A
 * benchmark of several threads, or one whose run is not found, has its
 * cycles without events.  A suite that ended before it finished (its
 * report stops after the benchmarks it finished) keeps those, and the
 * program is a failed row that says when it ended.  docs/bm-run.md. */
#ifndef BM_GBENCH_RESULTS_H
#define BM_GBENCH_RESULTS_H

#include "job.h"
#include "model.h"
#include "report.h"

/* The benchmark with that id, added to r (ids made unique). */
typedef struct bm_result *gbench_add_fn(struct bm_report *r, const char *id);

/* Adds the benchmarks of a MODE_GBENCH job that ran (done, or failed)
 * to r, from the JSON report it wrote in its sandbox and the parts of its
 * run (its entry's dump: its first process's last part, dump.1, dump.2,
 * ... the numbered ones); with keep_dir, the dump of each one's reported
 * run is kept there as ID.callgrind.  Returns 0, or -1 with *err set when
 * the run left no usable report (then nothing was added; a program that
 * failed so fails for its own reason). */
int gbench_collect(struct bm_report *r, const struct job *job, const struct bm_model *m, const char *keep_dir,
		   gbench_add_fn *add, char **err);

#endif
