/* SPDX-License-Identifier: MIT */
/* Benchmarks for bm-run's tests, chosen with --filter: ordinary work with
 * parameters, sleeps, and every way a benchmark can fail. */
#include <bm.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void compute(struct bm_state *s)
{
	long n = bm_param(s, "n"), acc = 0;
	for (long i = 0; i < n; i++)
		acc += i * i ^ (acc >> 3);
	bm_black_box(acc);
}

static void fill_array(struct bm_state *s)
{
	bm_set_data(s, calloc((size_t)bm_param(s, "kib"), 1024));
}

static void sum_array(struct bm_state *s)
{
	const unsigned char *a = bm_data(s);
	long sum = 0, n = bm_param(s, "kib") * 1024;
	for (long i = 0; i < n; i += 64)
		sum += a[i];
	bm_black_box(sum);
}

static void free_array(struct bm_state *s)
{
	free(bm_data(s));
}

static void sleeper(struct bm_state *s)
{
	long ms = bm_param(s, "ms");
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

static void crash(struct bm_state *s)
{
	volatile int *p = (int *)(long)(bm_id(s)[0] == 'x');
	*p = 1;
}

static void exit_early(struct bm_state *s)
{
	(void)s;
	exit(3);
}

static void spin(struct bm_state *s)
{
	volatile unsigned long i = 0;
	(void)s;
	for (;;)
		i++;
}

BM_BENCHMARK(cases, compute, .run = compute, .params = BM_PARAMS(BM_RANGE("n", 1000, 4000)));
BM_BENCHMARK(cases, memory, .run = sum_array, .setup = fill_array, .teardown = free_array,
	     .params = BM_PARAMS(BM_RANGE("kib", 64, 1024)));
BM_BENCHMARK(cases, sleep, .run = sleeper, .params = BM_PARAMS(BM_RANGE("ms", 10, 200)));
BM_BENCHMARK(cases, crash, .run = crash);
BM_BENCHMARK(cases, exit, .run = exit_early);
BM_BENCHMARK(cases, spin, .run = spin);
BM_BENCHMARK(cases, limited, .run = compute,
	     .params = BM_PARAMS(BM_RANGE_LIMITED("n", 0.00002, 100, 1000, 100000, 1000000)));

BM_MAIN()
