/* SPDX-License-Identifier: MIT */
/* How much of a replayed random sequence the host's branch predictor
 * learns (docs/fidelity.md, "On a third CPU"): branch.sorted's loop over
 * N random bytes and over the same bytes sorted, each replayed until
 * 64M elements have run, for N from 1K to 2M.  Where the random/sorted
 * ratio is small the predictor has learnt the replayed outcomes; where it
 * is large it has not, as with data it never saw.  Native only, built by
 * `make fidelity` (or `make bench/fidelity/replay`) in a build directory. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* branch.sorted's loop (bench/fidelity/pairs.c); the empty asm keeps the
 * branch a branch at -O2. */
__attribute__((noinline)) static long sum_large(const int *a, size_t n)
{
	long sum = 0, count = 0;
	for (size_t i = 0; i < n; i++) {
		if (a[i] >= 128) {
			sum += a[i];
			count++;
		}
		__asm__ volatile("" : : "r"(sum), "r"(count));
	}
	return sum + count;
}

static double seconds_per_element(const int *a, size_t n, size_t replays)
{
	volatile long sink = 0;
	double t0 = now();
	for (size_t r = 0; r < replays; r++)
		sink += sum_large(a, n);
	return (now() - t0) / (double)(replays * n);
}

int main(void)
{
	static const size_t sizes[] = {1024, 4096, 16384, 32768, 65536, 262144, 2097152};
	printf("| random bytes, replayed | random, ns an element | sorted | random / sorted |\n");
	printf("| ---: | ---: | ---: | ---: |\n");
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k], replays = ((size_t)1 << 26) / n;
		int *random = malloc(n * sizeof *random), *sorted = malloc(n * sizeof *sorted);
		if (!random || !sorted) {
			fprintf(stderr, "replay: out of memory\n");
			return 1;
		}
		size_t counts[256] = {0}, j = 0;
		srand(1);
		for (size_t i = 0; i < n; i++)
			counts[random[i] = rand() & 255]++;
		for (int v = 0; v < 256; v++)
			while (counts[v]--)
				sorted[j++] = v;
		double r = 0, s = 0;
		for (int round = 0; round < 3; round++) { /* the last round counts */
			r = seconds_per_element(random, n, replays);
			s = seconds_per_element(sorted, n, replays);
		}
		printf("| %zu | %.3f | %.3f | %.2f |\n", n, r * 1e9, s * 1e9, r / s);
		free(random);
		free(sorted);
	}
	return 0;
}
