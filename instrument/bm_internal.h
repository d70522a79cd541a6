/* libbm's private parts: the plan (every combination of every registered
 * benchmark's parameters, in order), the two ways of executing it, and the
 * control channel to bm-run.  Nothing here is installed. */
#ifndef BM_INTERNAL_H
#define BM_INTERNAL_H

#include "bm.h"

#include <stddef.h>

#define BM_MAX_PARAMS 8
#define BM_MAX_FILTERS 64
#define BM_ID_MAX 512 /* bytes of an id, NUL included; longer ones are cut */

/* One execution of a benchmark: one combination of parameter values. */
struct bm_entry {
	const struct bm_benchmark *bench;
	char *id;                    /* "suite::name[p=v,q=w]" */
	size_t nparams;
	size_t index[BM_MAX_PARAMS]; /* of each parameter's value */
	/* Why it will not run, or "".  Fixed-size, so that marking entries
	 * skipped never changes the heap that later benchmarks start from. */
	char skipped[256];
};

struct bm_plan {
	struct bm_entry *entries;
	size_t n;
};

struct bm_state {
	const struct bm_entry *entry;
	void *data;
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

/* Executes setup, run and teardown of e, with run between callgrind's
 * client requests (one dump named after the id); warm: after an
 * unmeasured first run on the same simulated caches.  See measure.c. */
void measure_under_valgrind(const struct bm_entry *e, int warm);

/* Runs every entry of the plan from first on under Valgrind, each in a
 * process of its own (see valgrind_run.c). */
void run_under_valgrind(struct bm_plan *plan, size_t first, int warm);

/* Times e natively; sets the median and the spread (half the
 * interquartile range, relative) of one run in seconds. */
void measure_natively(const struct bm_entry *e, double min_time_s, double *median_s,
		      double *spread, unsigned long *runs);

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
