/* SPDX-License-Identifier: MIT */
/* Benchmarks whose allocations are known by construction, for the bm
 * engine's heap counts (tests/cli/bm_run_heap.sh): each benchmark's
 * expected allocations, bytes, peak and leaks are in its comment. */
#include <bm.h>
#include <stdlib.h>
#include <string.h>

static void *blocks[16];

/* p, which the compiler must assume is used. */
static void *keep(void *p)
{
	bm_black_box(p);
	return p;
}

/* 10 blocks of 100 to 109 bytes, freed: 10, 1045, peak 1045, no leak. */
static void mallocs(struct bm_state *s)
{
	(void)s;
	for (int i = 0; i < 10; i++)
		blocks[i] = keep(malloc(100 + (size_t)i));
	for (int i = 0; i < 10; i++)
		free(blocks[i]);
}

/* 16, grown to 32, 64, 128 and 256 bytes, then shrunk to 8: each realloc
 * is a new block and its old one's free, as DHAT counts them: 6, 504,
 * peak 256, no leak. */
static void realloc_chain(struct bm_state *s)
{
	(void)s;
	char *p = malloc(16);
	for (size_t n = 32; n <= 256; n *= 2)
		p = keep(realloc(p, n));
	p = realloc(p, 8);
	free(p);
}

/* calloc(4, 25), and malloc(0), which counts 1 byte: 2, 101, peak 101. */
static void calloc_zero(struct bm_state *s)
{
	(void)s;
	void *a = keep(calloc(4, 25)), *b = keep(malloc(0));
	free(a);
	free(b);
}

/* 777 and 23 bytes kept: 2, 800, peak 800, 800 bytes leaked in 2 blocks
 * (each run keeps its own). */
static void leak(struct bm_state *s)
{
	(void)s;
	static int run;
	blocks[10 + 2 * run] = keep(malloc(777));
	blocks[11 + 2 * run] = keep(malloc(23));
	run++;
}

/* The setup's block (outside the region) freed in the run, and 64 bytes
 * allocated there that the teardown frees: 1, 64, peak 64, 64 leaked in
 * 1 block (still allocated when the run ends). */
static void make_block(struct bm_state *s)
{
	bm_set_data(s, malloc(4096));
}

static void swap_block(struct bm_state *s)
{
	free(bm_data(s));
	bm_set_data(s, keep(malloc(64)));
}

static void drop_block(struct bm_state *s)
{
	free(bm_data(s));
}

/* aligned_alloc(64, 128) and posix_memalign(64, 640), and strdup of 5
 * characters: 3, 774, peak 774. */
static void aligned(struct bm_state *s)
{
	(void)s;
	void *a = keep(aligned_alloc(64, 128)), *b = NULL;
	if (posix_memalign(&b, 64, 640) != 0)
		abort();
	char *c = keep(strdup("hello"));
	free(c);
	free(b);
	free(a);
}

/* A block of 1 MiB: 1, 1048576, peak 1048576; and nothing more from the
 * kernel (system bytes 0): the warm-up runs before the measured one left
 * glibc's heap grown enough. */
static void big(struct bm_state *s)
{
	(void)s;
	free(keep(malloc(1 << 20)));
}

/* No allocation: all 0. */
static void none(struct bm_state *s)
{
	(void)s;
	unsigned long acc = 0;
	for (unsigned long i = 0; i < 1000; i++)
		acc += i * i;
	bm_black_box(acc);
}

BM_BENCHMARK(heap, mallocs, .run = mallocs);
BM_BENCHMARK(heap, realloc_chain, .run = realloc_chain);
BM_BENCHMARK(heap, calloc_zero, .run = calloc_zero);
BM_BENCHMARK(heap, leak, .run = leak);
BM_BENCHMARK(heap, setup_block, .run = swap_block, .setup = make_block, .teardown = drop_block);
BM_BENCHMARK(heap, aligned, .run = aligned);
BM_BENCHMARK(heap, big, .run = big);
BM_BENCHMARK(heap, none, .run = none);

BM_MAIN()
