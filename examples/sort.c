/* SPDX-License-Identifier: MIT */
/* Sorting integers three ways: the C library's qsort, an LSD radix sort,
 * and an insertion sort whose range is time-bounded (it is quadratic: once
 * one size takes over a millisecond the larger ones are skipped). */
#include <bm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arrays {
	uint32_t *a, *tmp;
	size_t n;
};

static int compare(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static void make_random(struct bm_state *s)
{
	struct arrays *d = malloc(sizeof *d);
	uint32_t x = 2463534242u;
	d->n = (size_t)bm_param(s, "n");
	d->a = malloc(d->n * sizeof *d->a);
	d->tmp = malloc(d->n * sizeof *d->tmp);
	for (size_t i = 0; i < d->n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		d->a[i] = x;
	}
	bm_set_data(s, d);
}

static void free_arrays(struct bm_state *s)
{
	struct arrays *d = bm_data(s);
	free(d->a);
	free(d->tmp);
	free(d);
}

static void sort_qsort(struct bm_state *s)
{
	struct arrays *d = bm_data(s);
	qsort(d->a, d->n, sizeof *d->a, compare);
	bm_black_box(d->a[d->n / 2]);
}

static void sort_radix(struct bm_state *s)
{
	struct arrays *d = bm_data(s);
	for (int shift = 0; shift < 32; shift += 8) {
		size_t count[257] = {0};
		for (size_t i = 0; i < d->n; i++)
			count[((d->a[i] >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < d->n; i++)
			d->tmp[count[(d->a[i] >> shift) & 0xff]++] = d->a[i];
		memcpy(d->a, d->tmp, d->n * sizeof *d->a);
	}
	bm_black_box(d->a[d->n / 2]);
}

static void sort_insertion(struct bm_state *s)
{
	struct arrays *d = bm_data(s);
	for (size_t i = 1; i < d->n; i++) {
		uint32_t v = d->a[i];
		size_t j = i;
		for (; j > 0 && d->a[j - 1] > v; j--)
			d->a[j] = d->a[j - 1];
		d->a[j] = v;
	}
	bm_black_box(d->a[d->n / 2]);
}

BM_BENCHMARK(sort, qsort, .run = sort_qsort, .setup = make_random, .teardown = free_arrays,
	     .params = BM_PARAMS(BM_RANGE("n", 1000, 10000)));
BM_BENCHMARK(sort, radix, .run = sort_radix, .setup = make_random, .teardown = free_arrays,
	     .params = BM_PARAMS(BM_RANGE("n", 1000, 10000)));
BM_BENCHMARK(sort, insertion, .run = sort_insertion, .setup = make_random, .teardown = free_arrays,
	     .params = BM_PARAMS(BM_RANGE_LIMITED("n", 0.001, 250, 1000, 4000, 16000)));

BM_MAIN()
