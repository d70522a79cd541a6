/* Executing one benchmark: once under Valgrind, or timed natively. */
#include "bm_internal.h"

#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <valgrind/callgrind.h>

/* The measured region: callgrind counts exactly run(), plus the few
 * instructions of the client requests around it (the same every time). */
static __attribute__((noinline)) void measured(struct bm_state *s)
{
	CALLGRIND_ZERO_STATS;
	CALLGRIND_START_INSTRUMENTATION;
	s->entry->bench->run(s);
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(s->entry->id);
}

/* The warm variant: instrumentation (and with it the cache simulator)
 * starts before an unmeasured first execution, with collection off, and
 * stays on through a second setup and the measured execution, so that the
 * measured run finds the caches as the first one left them.  Callgrind
 * resets its simulator at every START_INSTRUMENTATION, which is why the
 * cold variant's caches are cold. */
static __attribute__((noinline)) void measured_warm(struct bm_state *s)
{
	const struct bm_benchmark *b = s->entry->bench;
	CALLGRIND_START_INSTRUMENTATION;
	CALLGRIND_TOGGLE_COLLECT; /* off: the warm-up is not counted */
	b->run(s);
	if (b->teardown)
		b->teardown(s);
	if (b->setup)
		b->setup(s);
	CALLGRIND_ZERO_STATS;
	CALLGRIND_TOGGLE_COLLECT;
	b->run(s);
	CALLGRIND_TOGGLE_COLLECT;
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(s->entry->id);
}

/* Setup, measured run and teardown, on the pinned stack. */
static __attribute__((noinline)) void measure_entry(const struct bm_entry *e, int warm)
{
	struct bm_state s = {.entry = e};
	if (e->bench->setup)
		e->bench->setup(&s);
	if (warm)
		measured_warm(&s);
	else
		measured(&s);
	if (e->bench->teardown)
		e->bench->teardown(&s);
}

/* The stack pointer on entry depends on the sizes of argv, the environment
 * and the auxiliary vector; data on the stack, and with it the cache sets
 * it falls in, would move with them.  Padding the stack to a fixed offset
 * modulo 1 MiB (more than the 512 KiB that the sets of an 8 MiB 16-way LL
 * span) makes the benchmark see the same addresses whatever the program
 * was started with.  The entry is copied to fixed, line-aligned storage
 * for the same reason: where the plan put it depends on the filter. */
void measure_under_valgrind(const struct bm_entry *e, int warm)
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
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seconds for `iterations` runs; with a setup, each run is timed alone so
 * that setup and teardown stay outside. */
static double time_batch(const struct bm_entry *e, unsigned long iterations)
{
	struct bm_state s = {.entry = e};
	const struct bm_benchmark *b = e->bench;
	double total = 0;
	if (!b->setup && !b->teardown) {
		double t0 = now();
		for (unsigned long i = 0; i < iterations; i++)
			b->run(&s);
		return now() - t0;
	}
	for (unsigned long i = 0; i < iterations; i++) {
		if (b->setup)
			b->setup(&s);
		double t0 = now();
		b->run(&s);
		total += now() - t0;
		if (b->teardown)
			b->teardown(&s);
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

void measure_natively(const struct bm_entry *e, double min_time_s, double *median_s,
		      double *spread, unsigned long *runs)
{
	/* Calibrate: a batch long enough (a twentieth of the budget, at least
	 * 1 ms) that the clock's resolution does not matter. */
	double target = min_time_s / 20 > 1e-3 ? min_time_s / 20 : 1e-3;
	unsigned long n = 1;
	double t;
	while ((t = time_batch(e, n)) < target && n < (1ul << 40)) {
		double grow = t > 0 ? target / t * 1.2 : 10;
		n = (unsigned long)((double)n * (grow > 10 ? 10 : grow < 2 ? 2 : grow));
	}
	double samples[SAMPLES_MAX];
	size_t k = 0;
	double spent = 0, start = now();
	while (k < SAMPLES_MAX && (k < SAMPLES_MIN || spent < min_time_s)) {
		samples[k++] = time_batch(e, n) / (double)n;
		spent = now() - start;
	}
	qsort(samples, k, sizeof samples[0], by_value);
	*median_s = samples[k / 2];
	*spread = *median_s > 0 ? (samples[3 * k / 4] - samples[k / 4]) / 2 / *median_s : 0;
	*runs = (unsigned long)k * n;
}
