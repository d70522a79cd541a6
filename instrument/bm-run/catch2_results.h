/* SPDX-License-Identifier: MIT */
/* A Catch2 binary's benchmarks (MODE_CATCH2), from its own XML report
 * (-r xml): each <BenchmarkResults> of a test case is a benchmark
 * "TEST CASE::BENCHMARK", whose cycles are its mean time per iteration at
 * the model's frequency, which the suite measured on the virtual clock
 * (so in the model's cycles), and whose iterations are its samples times
 * its iterations per sample.  Its events are not attributed (Catch2 times
 * its samples in code inlined into the program).  A benchmark that threw
 * (<failed message=...>) is failed with the message.  docs/bm-run.md. */
#ifndef BM_CATCH2_RESULTS_H
#define BM_CATCH2_RESULTS_H

#include "model.h"
#include "report.h"

/* The benchmark with that id, added to r (ids made unique). */
typedef struct bm_result *catch2_add_fn(struct bm_report *r, const char *id);

/* Adds the benchmarks of the size bytes at data, a report, to r.  Returns
 * 0, or -1 with *err set (one line) when it is not one or holds no
 * benchmark (then nothing was added). */
int catch2_parse(struct bm_report *r, const char *data, size_t size, const struct bm_model *m, catch2_add_fn *add,
		 char **err);

/* Adds the benchmarks of the XML report at path to r.  Returns 0, or -1
 * with *err set when the report is missing or unusable, or holds no
 * benchmark (then nothing was added). */
int catch2_collect(struct bm_report *r, const char *path, const struct bm_model *m, catch2_add_fn *add,
		   char **err);

#endif
