/* SPDX-License-Identifier: MIT */
/* Software prefetches as bm-model/4 counts them (tests/cli/model4.sh):
 * prefetch_modes prefetches eleven cold lines, one per addressing form
 * and kind (base, disp8, disp32, base+index*scale, index alone,
 * RIP-relative, r12 and r13 bases, a REX.X index; t0, t1, t2, nta,
 * prefetchw), and touch_lines then loads each: where every address was
 * read right, touch_lines misses no line.  Then a search as
 * cache-friendly code writes it: an Eytzinger-layout binary search over
 * 16 MiB (twice the simulated LL), with and without prefetching the
 * node four levels down (Khuong and Morin's layout; the prefetch hides
 * the dependent misses natively). */
#include "region.h"

#include <stdio.h>
#include <stdlib.h>

/* Lines 4,160 bytes apart: each in its own L1 set, none next to another. */
#define LINE(k) ((long)(k) * 4160)
#define LINES 11

static char lines[LINES * 4160];

static NOINLINE void prefetch_modes(char *b)
{
	__asm__ volatile("prefetcht0 (%0)" : : "r"(b + LINE(0)));
	__asm__ volatile("prefetcht0 64(%0)" : : "r"(b + LINE(1) - 64));
	__asm__ volatile("prefetcht1 4160(%0)" : : "r"(b + LINE(2) - 4160));
	__asm__ volatile("prefetcht2 (%0,%1,8)" : : "r"(b), "r"(LINE(3) / 8));
	__asm__ volatile("prefetchnta 8(%0,%1,4)" : : "r"(b), "r"((LINE(4) - 8) / 4));
	__asm__ volatile("prefetcht0 0(,%0,1)" : : "r"(b + LINE(5)));
	__asm__ volatile("prefetcht0 %0" : : "m"(lines[LINE(6)]));
	register char *r13 __asm__("r13") = b + LINE(7);
	__asm__ volatile("prefetcht0 (%0)" : : "r"(r13));
	register char *r12 __asm__("r12") = b + LINE(8);
	__asm__ volatile("prefetcht0 (%0)" : : "r"(r12));
	__asm__ volatile("prefetchw (%0)" : : "r"(b + LINE(9)));
	register long r9 __asm__("r9") = LINE(10);
	__asm__ volatile("prefetcht0 (%0,%1)" : : "r"(b), "r"(r9));
}

static NOINLINE int touch_lines(const volatile char *b)
{
	int sum = 0;
	for (int k = 0; k < LINES; k++)
		sum += b[LINE(k)];
	return sum;
}

/* ---- the search ---- */

#define LEVELS 22
#define NODES ((1u << LEVELS) - 1) /* 4 Mi ints: 16 MiB */
#define QUERIES 4000

static int *tree; /* tree[1..NODES], Eytzinger order */

static unsigned fill(unsigned k, unsigned next)
{
	if (k <= NODES) {
		next = fill(2 * k, next);
		tree[k] = (int)(2 * next++);
		next = fill(2 * k + 1, next);
	}
	return next;
}

static NOINLINE long search_plain(const int *q, int n)
{
	long found = 0;
	for (int i = 0; i < n; i++) {
		unsigned k = 1;
		while (k <= NODES)
			k = 2 * k + (tree[k] < q[i]);
		found += k >> __builtin_ffs((int)~k);
	}
	return found;
}

static NOINLINE long search_prefetch(const int *q, int n)
{
	long found = 0;
	for (int i = 0; i < n; i++) {
		unsigned k = 1;
		while (k <= NODES) {
			/* The 16 nodes four levels down share a line. */
			__builtin_prefetch(tree + 16 * k);
			k = 2 * k + (tree[k] < q[i]);
		}
		found += k >> __builtin_ffs((int)~k);
	}
	return found;
}

int main(void)
{
	prefetch_modes(lines);
	int touched = touch_lines(lines);
	/* The last levels' prefetches name lines past the tree: a prefetch
	 * of an address that is not mapped does nothing, natively too. */
	tree = calloc(NODES + 1, sizeof *tree);
	/* Two sets of queries, so that the second search does not find the
	 * lines the first left in the caches; each searched for both ways. */
	int *q = malloc(2 * QUERIES * sizeof *q);
	if (!tree || !q)
		return 1;
	fill(1, 0);
	unsigned seed = 12345;
	for (int i = 0; i < 2 * QUERIES; i++) {
		seed = seed * 1103515245u + 12345u;
		q[i] = (int)(seed % (2 * NODES));
	}
	long a = search_plain(q, QUERIES), b = search_prefetch(q + QUERIES, QUERIES);
	int agree = a == search_prefetch(q, QUERIES) && b == search_plain(q + QUERIES, QUERIES);
	printf("touched %d, found %ld %ld, %s\n", touched, a, b, agree ? "agree" : "differ");
	free(q);
	free(tree);
	return 0;
}
