/* SPDX-License-Identifier: MIT */
/* Branches for the engine's branch simulation (--branch-sim, docs/
 * engine.md): one data-dependent branch over random bytes and over the
 * same bytes sorted, a branch taken every PERIOD-th time, and indirect
 * calls and a switch over a repeating and a random sequence.  The data is
 * made outside the measured region, from a fixed seed. */
#include <bm.h>
#include <stdlib.h>

#define BYTES 65536
#define CALLS 16384

static unsigned char random_bytes[BYTES], sorted_bytes[BYTES], every[BYTES];
static unsigned char cycle_seq[CALLS], random_seq[CALLS];

/* xorshift64: the same bytes on every host. */
static unsigned long next_random(unsigned long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void make_bytes(struct bm_state *s)
{
	(void)s;
	unsigned long x = 88172645463325252UL;
	size_t counts[256] = {0};
	for (size_t i = 0; i < BYTES; i++)
		counts[random_bytes[i] = (unsigned char)(next_random(&x) >> 56)]++;
	size_t k = 0;
	for (int v = 0; v < 256; v++)
		for (size_t c = 0; c < counts[v]; c++)
			sorted_bytes[k++] = (unsigned char)v;
	/* A repeating order of the four functions, with a repeat in it (a
	 * target's last target alone does not tell the next). */
	static const unsigned char cycle[6] = {0, 1, 0, 2, 3, 1};
	for (size_t i = 0; i < CALLS; i++) {
		cycle_seq[i] = cycle[i % 6];
		random_seq[i] = (unsigned char)(next_random(&x) >> 62);
	}
}

/* The branch: taken for the bytes of 128 and more.  The empty asm keeps
 * the compiler from making it a conditional move. */
static long sum_big(const unsigned char *a, long n)
{
	long sum = 0;
	for (long i = 0; i < n; i++) {
		if (a[i] >= 128) {
			__asm__ volatile("" : "+r"(sum));
			sum += a[i];
		}
	}
	return sum;
}

static void over_random(struct bm_state *s)
{
	(void)s;
	bm_black_box(sum_big(random_bytes, BYTES));
}

static void over_sorted(struct bm_state *s)
{
	(void)s;
	bm_black_box(sum_big(sorted_bytes, BYTES));
}

static void make_every(struct bm_state *s)
{
	long period = bm_param(s, "period");
	for (long i = 0; i < BYTES; i++)
		every[i] = i % period == period - 1 ? 200 : 0;
}

/* The same branch, taken every period-th time. */
static void over_every(struct bm_state *s)
{
	(void)s;
	bm_black_box(sum_big(every, BYTES));
}

static __attribute__((noinline)) long f0(long x) { return x + 1; }
static __attribute__((noinline)) long f1(long x) { return x ^ 0x55; }
static __attribute__((noinline)) long f2(long x) { return x * 3; }
static __attribute__((noinline)) long f3(long x) { return x - 7; }
static long (*const fns[4])(long) = {f0, f1, f2, f3};

/* Calls through a table of functions, in the sequence's order. */
static long call_all(const unsigned char *seq)
{
	long acc = 0;
	long (*const *volatile table)(long) = fns; /* not folded into direct calls */
	for (size_t i = 0; i < CALLS; i++)
		acc = table[seq[i]](acc);
	return acc;
}

static void calls_cycle(struct bm_state *s)
{
	(void)s;
	bm_black_box(call_all(cycle_seq));
}

static void calls_random(struct bm_state *s)
{
	(void)s;
	bm_black_box(call_all(random_seq));
}

/* A switch the compiler makes a jump table of (an indirect jump). */
static long switch_all(const unsigned char *seq)
{
	long acc = 0;
	for (size_t i = 0; i < CALLS; i++) {
		switch (seq[i] * 2 + (i & 1)) {
		case 0: acc += 3; break;
		case 1: acc ^= acc >> 3; break;
		case 2: acc *= 5; break;
		case 3: acc -= (long)i; break;
		case 4: acc += acc << 2; break;
		case 5: acc ^= 0x1234; break;
		case 6: acc = ~acc; break;
		case 7: acc += (long)i * 7; break;
		}
	}
	return acc;
}

static void switch_cycle(struct bm_state *s)
{
	(void)s;
	bm_black_box(switch_all(cycle_seq));
}

static void switch_random(struct bm_state *s)
{
	(void)s;
	bm_black_box(switch_all(random_seq));
}

BM_BENCHMARK(branches, random, .run = over_random, .setup_once = make_bytes);
BM_BENCHMARK(branches, sorted, .run = over_sorted, .setup_once = make_bytes);
BM_BENCHMARK(branches, every, .run = over_every, .setup_once = make_every,
	     .params = BM_PARAMS(BM_RANGE("period", 4, 24)));
BM_BENCHMARK(branches, calls_cycle, .run = calls_cycle, .setup_once = make_bytes);
BM_BENCHMARK(branches, calls_random, .run = calls_random, .setup_once = make_bytes);
BM_BENCHMARK(branches, switch_cycle, .run = switch_cycle, .setup_once = make_bytes);
BM_BENCHMARK(branches, switch_random, .run = switch_random, .setup_once = make_bytes);

BM_MAIN()
