/* SPDX-License-Identifier: MIT */
/* libbm's private parts: the plan (every combination of every registered
 * benchmark's parameters, in order), the two ways of executing it, and the
 * control channel to bm-run.  Nothing here is installed. */
#ifndef BM_INTERNAL_H
#define BM_INTERNAL_H

#include "bm.h"

#include <stddef.h>

#define BM_MAX_PARAMS 8
#define BM_MAX_FILTERS 64
/* Bytes of an id, NUL included: registry.c refuses a benchmark whose id
 * would be longer (bm-server takes ids of up to 512 bytes). */
#define BM_ID_MAX 512
/* Bytes of the reason a skipped entry gives (plan_skip_reason), NUL
 * included: an id, a parameter name (shorter than an id) and some words. */
#define BM_REASON_MAX (2 * BM_ID_MAX + 64)
/* Bytes of a control line, newline included (control.c); bm-run reads
 * lines of up to 4096 bytes (runner.c).  The longest is "skip ID REASON". */
#define BM_CONTROL_LINE_MAX 4096
_Static_assert(sizeof "skip " + BM_ID_MAX + BM_REASON_MAX <= BM_CONTROL_LINE_MAX,
	       "a control line holds the longest id and reason");

/* One execution of a benchmark: one combination of parameter values. */
struct bm_entry {
	const struct bm_benchmark *bench;
	char *id;                    /* "suite::name[p=v,q=w]" */
	size_t nparams;
	size_t index[BM_MAX_PARAMS]; /* of each parameter's value */
	/* Skipped by a time-bounded range: the entry that took skipped_s
	 * seconds, over the limit of parameter skipped_param; NULL when it
	 * runs.  No text (plan_skip_reason writes it), so that marking entries
	 * skipped never changes the heap that later benchmarks start from. */
	const struct bm_entry *skipped_after;
	size_t skipped_param;
	double skipped_s;
	/* Unused: keeps the size the entry had when it held the reason as
	 * text (char[256]).  measure.c's copy of the entry is in .bss before
	 * the counter that a warm run increments while measured (dumps); a
	 * smaller entry moves that counter to another set of the simulated
	 * data cache, and with it the numbers of benchmarks whose data
	 * conflict with it there (seen in examples/hashtable and parse). */
	char unused[256 - sizeof(const struct bm_entry *) - sizeof(size_t) - sizeof(double)];
};

struct bm_plan {
	struct bm_entry *entries;
	size_t n;
};

struct bm_state {
	const struct bm_entry *entry;
	void *data;   /* from setup */
	void *shared; /* from setup_once */
};

/* Builds the plan of the registered benchmarks whose ids match one of the
 * filters (all when nfilters is 0).  Returns 0, or -1 after printing why
 * (a benchmark without run, too many parameters, an empty range). */
int plan_build(struct bm_plan *plan, char *const *filters, size_t nfilters);
void plan_release(struct bm_plan *plan);

/* Marks the entries that a time-bounded range skips once entry i took
 * seconds: the later values of each limited parameter whose limit it
 * exceeded, for the same values of the other parameters. */
void plan_skip_after(struct bm_plan *plan, size_t i, double seconds);

/* Why e is skipped ("sort::x[n=4000] took 0.0012 s, over the 0.001 s limit
 * of range 'n'"), into why (BM_REASON_MAX bytes). */
void plan_skip_reason(const struct bm_entry *e, char why[BM_REASON_MAX]);

/* Whether bm_warm_rerun marked b. */
int registry_warm_rerun(const struct bm_benchmark *b);

/* How a benchmark runs under Valgrind: cold; warm (an unmeasured first
 * run, then teardown and setup, then the measured run, on the same
 * simulated caches); warm, the measured run right after the first
 * (bm_warm_rerun). */
enum { MEASURE_COLD, MEASURE_WARM, MEASURE_WARM_RERUN };

/* Executes setup, run and teardown of e, with run between callgrind's
 * client requests (one dump named after the id), as how (MEASURE_*)
 * says.  Returns the number callgrind gave the measured dump in this
 * process (its file is cg.<pid>.out.N).  See measure.c. */
unsigned measure_under_valgrind(const struct bm_entry *e, int how);

/* Runs every entry of the plan from first on under Valgrind, each in a
 * process of its own (see valgrind_run.c). */
void run_under_valgrind(struct bm_plan *plan, size_t first, int warm);

/* What timing one benchmark natively gave: the median of one run in
 * seconds, the spread (half the interquartile range, relative to the
 * median) and how many runs were timed. */
struct native_result {
	double median_s, spread;
	unsigned long runs;
};

/* Times e natively, with setup_once and teardown_once around it all. */
void measure_natively(const struct bm_entry *e, double min_time_s, struct native_result *r);

/* The native report, a bm-report/1 of "walltime" metrics, written into b
 * (see native_report.c): begin, then each benchmark in order (index from
 * 0; r NULL for a skipped one, see plan_skip_reason), then end. */
struct json_buf;
void native_report_begin(struct json_buf *b);
void native_report_add(struct json_buf *b, size_t index, const struct bm_entry *e,
		       const struct native_result *r);
void native_report_end(struct json_buf *b);

/* The control channel to bm-run (fd given by BM_CONTROL); all no-ops
 * without one.  See control.c for the protocol. */
int control_open(void);
void control_send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Asks bm-run for the estimated time of the dump just written; returns
 * seconds, or -1 when bm-run cannot say. */
double control_ask_time(void);

/* Prints "bm: ..." to stderr. */
void bm_complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
