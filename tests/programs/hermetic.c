/* SPDX-License-Identifier: MIT */
/* A libbm program whose benchmarks call shared libraries (zlib and libc)
 * and one that calls none; with --plain, a program that does the same
 * work once, without the harness (symbol and whole-process mode):
 * tests/cli/hermetic.sh measures it as it is and with other loader
 * caches, library paths, environments and mappings. */
#include <bm.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { INPUT = 1 << 17 };
static unsigned char in[INPUT], out[INPUT + INPUT / 8 + 1024];
static int numbers[5000];

static void fill(struct bm_state *s)
{
	(void)s;
	unsigned x = 2463534242u;
	for (size_t i = 0; i < sizeof in; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		in[i] = (unsigned char)("abcdefgh"[x & 7] ^ (i >> 9 & 1));
	}
}

static void compress_run(struct bm_state *s)
{
	(void)s;
	uLongf n = sizeof out;
	compress2(out, &n, in, sizeof in, 6);
	bm_black_box(n);
}

static int compare(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void qsort_run(struct bm_state *s)
{
	(void)s;
	for (int i = 0; i < 5000; i++)
		numbers[i] = (i * 7919) % 5000;
	qsort(numbers, 5000, sizeof *numbers, compare);
	bm_black_box(numbers[2500]);
}

static void sum_run(struct bm_state *s)
{
	(void)s;
	unsigned long sum = 0;
	for (size_t i = 0; i < sizeof in; i++)
		sum += in[i] * (i | 1);
	bm_black_box(sum);
}

BM_BENCHMARK(zlib, compress, .run = compress_run, .setup = fill)
BM_BENCHMARK(libc, qsort, .run = qsort_run)
BM_BENCHMARK(own, sum, .run = sum_run, .setup = fill)

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--plain")) {
		fill(NULL);
		compress_run(NULL);
		qsort_run(NULL);
		sum_run(NULL);
		return 0;
	}
	return bm_main(argc, argv);
}
