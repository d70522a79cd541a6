/* SPDX-License-Identifier: MIT */
/* Executing one benchmark: once under Valgrind, or timed natively. */
#include "bm_internal.h"

#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <valgrind/callgrind.h>

/* Callgrind numbers the dumps of a process: cg.<pid>.out.1, .2, ...  The
 * number of the measured one tells bm-run which file holds it. */
static unsigned dumps;

/* The measured region: callgrind counts exactly run(), plus the few
 * instructions of the client requests around it (the same every time).
 *
 * Both variants start on a cache line (aligned(64)): the code around the
 * measured call is counted, and which lines it falls in must not depend on
 * how much of the user's code the linker placed before libbm (measured in
 * bench/layout.sh: one instruction-cache miss more or less, up to 7% of a
 * small benchmark, before they were aligned). */
static __attribute__((noinline, aligned(64))) void measured(struct bm_state *s)
{
	CALLGRIND_ZERO_STATS;
	CALLGRIND_START_INSTRUMENTATION;
	s->entry->bench->run(s);
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(s->entry->id);
	dumps++;
}

/* The warm variant: instrumentation (and with it the cache simulator)
 * starts before an unmeasured first execution and stays on through a
 * second setup and the measured execution, so that the measured run finds
 * the caches as the first one left them.  Callgrind resets its simulator
 * at every START_INSTRUMENTATION, which is why the cold variant's caches
 * are cold.  The first execution ends in a dump of its own, which bm-run
 * ignores: a dump clears everything, while ZERO_STATS leaves the system
 * calls of the first execution on the blocks that made them, and they
 * would be counted again when the measured run passes there. */
static __attribute__((noinline, aligned(64))) void measured_warm(struct bm_state *s)
{
	const struct bm_benchmark *b = s->entry->bench;
	CALLGRIND_START_INSTRUMENTATION;
	/* One loop, so that both executions run from the same call site: the
	 * measured one then touches few code lines the first did not.  The
	 * empty asm hides the count from the optimiser, which would otherwise
	 * peel the loop into two call sites. */
	int pass = 0;
	__asm__ volatile("" : "+r"(pass));
	for (;; pass++) {
		b->run(s);
		if (pass == 1)
			break;
		if (b->teardown)
			b->teardown(s);
		if (b->setup)
			b->setup(s);
		CALLGRIND_DUMP_STATS_AT("bm: warm-up");
		dumps++;
	}
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(s->entry->id);
	dumps++;
}

/* The warm variant of a benchmark marked by bm_warm_rerun: the measured
 * run follows the warm-up at once, on the caches it left (one setup before
 * both).  A function of its own, so that measured_warm's code, and with it
 * every other warm benchmark's numbers, stays as it was. */
static __attribute__((noinline, aligned(64))) void measured_warm_rerun(struct bm_state *s)
{
	const struct bm_benchmark *b = s->entry->bench;
	CALLGRIND_START_INSTRUMENTATION;
	int pass = 0;
	__asm__ volatile("" : "+r"(pass));
	for (;; pass++) {
		b->run(s);
		if (pass == 1)
			break;
		CALLGRIND_DUMP_STATS_AT("bm: warm-up");
		dumps++;
	}
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(s->entry->id);
	dumps++;
}

/* The setups, measured run and teardowns, on the pinned stack. */
static __attribute__((noinline)) void measure_entry(const struct bm_entry *e, int warm)
{
	const struct bm_benchmark *b = e->bench;
	struct bm_state s = {.entry = e};
	if (b->setup_once)
		b->setup_once(&s);
	if (b->setup)
		b->setup(&s);
	if (warm == MEASURE_WARM_RERUN)
		measured_warm_rerun(&s);
	else if (warm)
		measured_warm(&s);
	else
		measured(&s);
	if (b->teardown)
		b->teardown(&s);
	if (b->teardown_once)
		b->teardown_once(&s);
}

/* The stack pointer on entry depends on the sizes of argv, the environment
 * and the auxiliary vector; data on the stack, and with it the cache sets
 * it falls in, would move with them.  Padding the stack to a fixed offset
 * modulo 1 MiB (more than the 512 KiB that the sets of an 8 MiB 16-way LL
 * span) makes the benchmark see the same addresses whatever the program
 * was started with.  The entry is copied to fixed, line-aligned storage
 * for the same reason: where the plan put it depends on the filter. */
unsigned measure_under_valgrind(const struct bm_entry *e, int warm)
{
	static struct bm_entry entry __attribute__((aligned(64)));
	static char id[BM_ID_MAX] __attribute__((aligned(64)));
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	volatile char *pad = alloca((sp & 0xfffff) + 4096);
	pad[0] = 0;
	entry = *e;
	snprintf(id, sizeof id, "%s", e->id);
	entry.id = id;
	measure_entry(&entry, warm);
	return dumps;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seconds for `iterations` runs; with a setup, each run is timed alone so
 * that setup and teardown stay outside.  (setup_once ran before.) */
static double time_batch(struct bm_state *s, unsigned long iterations)
{
	const struct bm_benchmark *b = s->entry->bench;
	double total = 0;
	if (!b->setup && !b->teardown) {
		double t0 = now();
		for (unsigned long i = 0; i < iterations; i++)
			b->run(s);
		return now() - t0;
	}
	for (unsigned long i = 0; i < iterations; i++) {
		if (b->setup)
			b->setup(s);
		double t0 = now();
		b->run(s);
		total += now() - t0;
		if (b->teardown)
			b->teardown(s);
	}
	return total;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define SAMPLES_MIN 11
#define SAMPLES_MAX 1000

void measure_natively(const struct bm_entry *e, double min_time_s, struct native_result *r)
{
	const struct bm_benchmark *b = e->bench;
	struct bm_state s = {.entry = e};
	if (b->setup_once)
		b->setup_once(&s);
	/* Calibrate: a batch long enough (a twentieth of the budget, at least
	 * 1 ms) that the clock's resolution does not matter. */
	double target = min_time_s / 20 > 1e-3 ? min_time_s / 20 : 1e-3;
	unsigned long n = 1;
	double t;
	while ((t = time_batch(&s, n)) < target && n < (1ul << 40)) {
		double grow = t > 0 ? target / t * 1.2 : 10;
		n = (unsigned long)((double)n * (grow > 10 ? 10 : grow < 2 ? 2 : grow));
	}
	double samples[SAMPLES_MAX];
	size_t k = 0;
	double spent = 0, start = now();
	while (k < SAMPLES_MAX && (k < SAMPLES_MIN || spent < min_time_s)) {
		samples[k++] = time_batch(&s, n) / (double)n;
		spent = now() - start;
	}
	qsort(samples, k, sizeof samples[0], by_value);
	r->median_s = samples[k / 2];
	r->spread = r->median_s > 0 ? (samples[3 * k / 4] - samples[k / 4]) / 2 / r->median_s : 0;
	r->runs = (unsigned long)k * n;
	if (b->teardown_once)
		b->teardown_once(&s);
}
