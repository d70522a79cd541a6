/* SPDX-License-Identifier: MIT */
/* Google Benchmark's JSON (--benchmark_format=json, --benchmark_out=F):
 * its runs, one at a time, for bm-import's importer and bm-run's
 * gbench harness (docs/bm-import.md, docs/bm-run.md).
 *
 * Every run is checked: its name ("run_name", or "name" where an old
 * version wrote none), "run_type", the flags "error_occurred" and
 * "skipped", and the times of a run that has them.  A field that is wrong
 * is named by its path ("x.json: benchmarks[3].time_unit: expected ns,
 * us, ms or s"); JSON syntax by line and column (Jansson). */
#ifndef BM_GBENCH_JSON_H
#define BM_GBENCH_JSON_H

#include <stddef.h>
#include <stdint.h>

/* The longest run name taken, in bytes. */
#define GBENCH_MAX_NAME 4096

struct gbench_run {
	size_t index;            /* in the file's "benchmarks" */
	const char *name;        /* run_name (or name), len bytes, no NUL inside */
	size_t len;
	int aggregate;           /* run_type "aggregate": the "median" only
				  * (the others are passed over) */
	int failed, skipped;     /* error_occurred, skipped */
	const char *message;     /* error_message or skip_message, or NULL */
	long long repetition;    /* repetition_index, or 0 */
	long long threads;       /* threads, or 1 */
	uint64_t iterations;     /* iterations, or 0 */
	double real_s, cpu_s;    /* per iteration, in seconds; 0 for a failed
				  * or skipped run */
};

/* Called for each run in the file's order; a non-zero return stops the
 * reading with that value (*err set by the callee). */
typedef int gbench_run_fn(const struct gbench_run *run, void *ctx, char **err);

/* Reads the size bytes at data, the file called name (for messages), and
 * calls each for every run.  With unfinished not NULL, a report the suite
 * did not finish (it ended during a benchmark: its runs so far, then
 * nothing) is read too, and *unfinished says whether it was one.  Returns
 * 0, each's non-zero return, or -1 with *err set ("x.json:3:5: ...",
 * "x.json: benchmarks: missing"). */
int gbench_json_read(const char *data, size_t size, const char *name, int *unfinished, gbench_run_fn *each,
		     void *ctx, char **err);

#endif
