/* Sorting 5000 integers: the C library's qsort against an LSD radix sort. */
#include "bench_region.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N 5000

static int compare(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static __attribute__((noinline)) void radix_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
	for (int shift = 0; shift < 32; shift += 8) {
		size_t count[257] = {0};
		for (size_t i = 0; i < n; i++)
			count[((a[i] >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
		memcpy(a, tmp, n * sizeof *a);
	}
}

static void fill(uint32_t *a, size_t n)
{
	uint32_t x = 2463534242u;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		a[i] = x;
	}
}

int main(void)
{
	uint32_t *a = malloc(N * sizeof *a), *tmp = malloc(N * sizeof *tmp);
	fill(a, N);
	qsort(a, 2, sizeof *a, compare); /* resolves qsort before measuring */
	fill(a, N);
	BENCH("sort::qsort[n=5000]", qsort(a, N, sizeof *a, compare));
	fill(a, N);
	BENCH("sort::radix[n=5000]", radix_sort(a, tmp, N));
	black_box((long)a[N / 2]);
	free(a);
	free(tmp);
	return 0;
}
