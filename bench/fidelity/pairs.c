/* SPDX-License-Identifier: MIT */
/* The change pairs of the fidelity corpus: each pair::KIND.NAME/before and
 * pair::KIND.NAME/after does the same work before and after one change of
 * the kind people make, with the inputs made once (setup_once) from the
 * fixed seed.  docs/fidelity.md lists what each pair is for and how much
 * faster the "after" side runs natively. */
#include "corpus.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <xxh_x86dispatch.h>
#include <zlib.h>

/* The compiler may not see through these: a loop the change is about must
 * stay the loop that was written. */
#define NOINLINE __attribute__((noinline))
#define PLAIN_LOOP __attribute__((optimize("no-tree-vectorize", "no-tree-loop-distribute-patterns")))

static void free_shared(struct bm_state *s)
{
	free(bm_shared(s));
}

/* ---- SIMD against scalar: XXH64 against XXH3 over 256 KiB, XXH3 by
 * libxxhash's run-time dispatch (xxh_x86dispatch.h makes XXH3_64bits
 * XXH3_64bits_dispatch, which picks SSE2 or AVX2 by cpuid) ---- */

#define HASH_BYTES (256 * 1024)

static void make_hash_input(struct bm_state *s)
{
	bm_set_shared(s, corpus_random_bytes(HASH_BYTES));
}

static void hash_xxh64(struct bm_state *s)
{
	bm_black_box(XXH64(bm_shared(s), HASH_BYTES, 0));
}

static void hash_xxh3(struct bm_state *s)
{
	bm_black_box(XXH3_64bits(bm_shared(s), HASH_BYTES));
}

PAIR(simd, xxh3, before, .run = hash_xxh64, .setup_once = make_hash_input,
     .teardown_once = free_shared)
PAIR(simd, xxh3, after, .run = hash_xxh3, .setup_once = make_hash_input,
     .teardown_once = free_shared)

/* ---- SIMD by the compiler's run-time dispatch: a sum of 65,536 ints as a
 * scalar loop, then vectorised, with an AVX2 clone that the loader picks
 * where the CPU has AVX2 (target_clones; the default clone is SSE2) ---- */

#define SUM_N 65536

static void make_sum_input(struct bm_state *s)
{
	uint32_t *a = malloc(SUM_N * sizeof *a);
	uint64_t state = CORPUS_SEED;
	for (int i = 0; i < SUM_N; i++)
		a[i] = (uint32_t)corpus_next(&state);
	bm_set_shared(s, a);
}

static PLAIN_LOOP NOINLINE uint32_t sum_scalar(const uint32_t *a)
{
	uint32_t sum = 0;
	for (int i = 0; i < SUM_N; i++)
		sum += a[i];
	return sum;
}

__attribute__((target_clones("avx2", "default"), optimize("tree-vectorize"))) static uint32_t
sum_vector(const uint32_t *a)
{
	uint32_t sum = 0;
	for (int i = 0; i < SUM_N; i++)
		sum += a[i];
	return sum;
}

static void sum_ints_scalar(struct bm_state *s)
{
	bm_black_box(sum_scalar(bm_shared(s)));
}

static void sum_ints_vector(struct bm_state *s)
{
	bm_black_box(sum_vector(bm_shared(s)));
}

PAIR(simd, sum_dispatch, before, .run = sum_ints_scalar, .setup_once = make_sum_input,
     .teardown_once = free_shared)
PAIR(simd, sum_dispatch, after, .run = sum_ints_vector, .setup_once = make_sum_input,
     .teardown_once = free_shared)

/* ---- predictable against unpredictable branches: the same loop over
 * random bytes and over the same bytes sorted ---- */

#define BRANCH_N 32768

static int compare_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int *make_branch_data(int sorted)
{
	unsigned char *bytes = corpus_random_bytes(BRANCH_N);
	int *a = malloc(BRANCH_N * sizeof *a);
	for (size_t i = 0; i < BRANCH_N; i++)
		a[i] = bytes[i];
	free(bytes);
	if (sorted)
		qsort(a, BRANCH_N, sizeof *a, compare_int);
	return a;
}

static void make_random_ints(struct bm_state *s)
{
	bm_set_shared(s, make_branch_data(0));
}

static void make_sorted_ints(struct bm_state *s)
{
	bm_set_shared(s, make_branch_data(1));
}

/* Counting and summing in the taken side keeps it a branch at -O2. */
static PLAIN_LOOP void sum_large(struct bm_state *s)
{
	const int *a = bm_shared(s);
	long sum = 0, count = 0;
	for (size_t i = 0; i < BRANCH_N; i++) {
		if (a[i] >= 128) {
			sum += a[i];
			count++;
		}
	}
	bm_black_box(sum);
	bm_black_box(count);
}

PAIR(branch, sorted, before, .run = sum_large, .setup_once = make_random_ints,
     .teardown_once = free_shared)
PAIR(branch, sorted, after, .run = sum_large, .setup_once = make_sorted_ints,
     .teardown_once = free_shared)

/* ---- a branchy binary search against a branchless one (conditional
 * moves), random keys in a 16 KiB sorted array ---- */

#define SEARCH_N 4096
#define SEARCH_KEYS 8192

struct search {
	int table[SEARCH_N];
	int keys[SEARCH_KEYS];
};

static void make_search(struct bm_state *s)
{
	struct search *d = malloc(sizeof *d);
	uint64_t state = CORPUS_SEED;
	for (int i = 0; i < SEARCH_N; i++)
		d->table[i] = 3 * i;
	for (int i = 0; i < SEARCH_KEYS; i++)
		d->keys[i] = (int)(corpus_next(&state) % (3 * SEARCH_N));
	bm_set_shared(s, d);
}

static NOINLINE int lower_bound_branchy(const int *a, int n, int key)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (a[mid] < key) {
			lo = mid + 1;
			__asm__ volatile(""); /* no if-conversion: the branch is the point */
		} else {
			hi = mid;
		}
	}
	return lo;
}

static NOINLINE int lower_bound_branchless(const int *a, int n, int key)
{
	const int *base = a;
	while (n > 1) {
		int half = n / 2;
		/* arithmetic, not ?: (which gcc compiles to a branch here) */
		base += (base[half - 1] < key) * half;
		n -= half;
	}
	return (int)(base - a) + (*base < key);
}

static void search_branchy(struct bm_state *s)
{
	const struct search *d = bm_shared(s);
	long sum = 0;
	for (int i = 0; i < SEARCH_KEYS; i++)
		sum += lower_bound_branchy(d->table, SEARCH_N, d->keys[i]);
	bm_black_box(sum);
}

static void search_branchless(struct bm_state *s)
{
	const struct search *d = bm_shared(s);
	long sum = 0;
	for (int i = 0; i < SEARCH_KEYS; i++)
		sum += lower_bound_branchless(d->table, SEARCH_N, d->keys[i]);
	bm_black_box(sum);
}

PAIR(branch, binsearch, before, .run = search_branchy, .setup_once = make_search,
     .teardown_once = free_shared)
PAIR(branch, binsearch, after, .run = search_branchless, .setup_once = make_search,
     .teardown_once = free_shared)

/* ---- division against multiplication: a chain of dependent 64-bit
 * divisions, then the same chain with multiplications ---- */

#define CHAIN_N 100000

static void chain_div(struct bm_state *s)
{
	uint64_t x = 0xfedcba9876543210ull, d = 3;
	corpus_opaque(d); /* a divisor the compiler cannot turn into a multiply */
	(void)s;
	for (int i = 0; i < CHAIN_N; i++)
		x = x / d + 0xfedcba9876543210ull;
	bm_black_box(x);
}

static void chain_mul(struct bm_state *s)
{
	uint64_t x = 0xfedcba9876543210ull, m = 3;
	corpus_opaque(m);
	(void)s;
	for (int i = 0; i < CHAIN_N; i++)
		x = x * m + 0xfedcba9876543210ull;
	bm_black_box(x);
}

PAIR(div, chain, before, .run = chain_div)
PAIR(div, chain, after, .run = chain_mul)

/* ---- division against a mask: a hash table's slot as h % n, then as
 * h & (n - 1) for the same power of two ---- */

#define SLOTS 1024
#define PROBES 65536

static void make_slots(struct bm_state *s)
{
	long *t = malloc(SLOTS * sizeof *t);
	for (long i = 0; i < SLOTS; i++)
		t[i] = i * 7 + 1;
	bm_set_shared(s, t);
}

static void probe_mod(struct bm_state *s)
{
	const long *t = bm_shared(s);
	uint64_t h = CORPUS_SEED, n = SLOTS;
	long sum = 0;
	corpus_opaque(n); /* a table size known only at run time, as in a real table */
	for (int i = 0; i < PROBES; i++) {
		h = h * 6364136223846793005ull + 1442695040888963407ull;
		sum += t[(h >> 20) % n];
	}
	bm_black_box(sum);
}

static void probe_mask(struct bm_state *s)
{
	const long *t = bm_shared(s);
	uint64_t h = CORPUS_SEED, n = SLOTS;
	long sum = 0;
	corpus_opaque(n);
	for (int i = 0; i < PROBES; i++) {
		h = h * 6364136223846793005ull + 1442695040888963407ull;
		sum += t[(h >> 20) & (n - 1)];
	}
	bm_black_box(sum);
}

PAIR(div, mod_mask, before, .run = probe_mod, .setup_once = make_slots,
     .teardown_once = free_shared)
PAIR(div, mod_mask, after, .run = probe_mask, .setup_once = make_slots,
     .teardown_once = free_shared)

/* ---- pointer chasing: a 4 MiB linked list walked in random order, then
 * the same list linked in memory order ---- */

struct node {
	struct node *next;
	long value;
};

#define LIST_BIG (4 * 1024 * 1024 / sizeof(struct node))
#define LIST_SMALL (256 * 1024 / sizeof(struct node))

struct list {
	struct node *nodes; /* one block: what free takes */
	struct node *first;
};

/* n nodes in one block, linked in a random order or in memory order. */
static struct list *make_list(size_t n, int shuffled)
{
	struct list *l = malloc(sizeof *l);
	size_t *order = corpus_permutation(n);
	l->nodes = malloc(n * sizeof *l->nodes);
	for (size_t i = 0; i < n; i++) {
		size_t at = shuffled ? order[i] : i, next = shuffled ? order[(i + 1) % n] : (i + 1) % n;
		l->nodes[at].next = i + 1 < n ? &l->nodes[next] : NULL;
		l->nodes[at].value = (long)i;
	}
	l->first = &l->nodes[shuffled ? order[0] : 0];
	free(order);
	return l;
}

static void free_list(struct bm_state *s)
{
	struct list *l = bm_shared(s);
	free(l->nodes);
	free(l);
}

static void make_big_random_list(struct bm_state *s)
{
	bm_set_shared(s, make_list(LIST_BIG, 1));
}

static void make_big_ordered_list(struct bm_state *s)
{
	bm_set_shared(s, make_list(LIST_BIG, 0));
}

static void make_small_random_list(struct bm_state *s)
{
	bm_set_shared(s, make_list(LIST_SMALL, 1));
}

static void walk_list(struct bm_state *s)
{
	const struct list *l = bm_shared(s);
	long sum = 0;
	for (const struct node *p = l->first; p; p = p->next)
		sum += p->value;
	bm_black_box(sum);
}

PAIR(chase, list_order, before, .run = walk_list, .setup_once = make_big_random_list,
     .teardown_once = free_list)
PAIR(chase, list_order, after, .run = walk_list, .setup_once = make_big_ordered_list,
     .teardown_once = free_list)

/* ---- pointer chasing against an array: a 256 KiB list (in random order,
 * as a list built over time ends up) against an array of the values ---- */

static void make_values(struct bm_state *s)
{
	long *v = malloc(LIST_SMALL * sizeof *v);
	for (size_t i = 0; i < LIST_SMALL; i++)
		v[i] = (long)i;
	bm_set_shared(s, v);
}

static void sum_values(struct bm_state *s)
{
	const long *v = bm_shared(s);
	long sum = 0;
	for (size_t i = 0; i < LIST_SMALL; i++)
		sum += v[i];
	bm_black_box(sum);
}

PAIR(chase, list_to_array, before, .run = walk_list, .setup_once = make_small_random_list,
     .teardown_once = free_list)
PAIR(chase, list_to_array, after, .run = sum_values, .setup_once = make_values,
     .teardown_once = free_shared)

/* ---- no difference natively, more instructions: independent work per
 * node of a random walk, hidden under its cache misses ---- */

static void walk_list_mixing(struct bm_state *s)
{
	const struct list *l = bm_shared(s);
	long sum = 0;
	uint64_t mix = 0;
	for (const struct node *p = l->first; p; p = p->next) {
		uint64_t v = (uint64_t)p->value;
		sum += p->value;
		v ^= v >> 33;
		v *= 0xff51afd7ed558ccdull;
		v ^= v >> 33;
		mix += v;
	}
	bm_black_box(sum);
	bm_black_box(mix);
}

PAIR(same, hidden_work, before, .run = walk_list, .setup_once = make_big_random_list,
     .teardown_once = free_list)
PAIR(same, hidden_work, after, .run = walk_list_mixing, .setup_once = make_big_random_list,
     .teardown_once = free_list)

/* ---- byte loop against a library routine: CRC-32 bit by bit, then
 * zlib's crc32 ---- */

#define CRC_BYTES (64 * 1024)

static void make_crc_input(struct bm_state *s)
{
	bm_set_shared(s, corpus_random_bytes(CRC_BYTES));
}

static void crc_bitwise(struct bm_state *s)
{
	const unsigned char *p = bm_shared(s);
	uint32_t crc = 0xffffffffu;
	for (size_t i = 0; i < CRC_BYTES; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	bm_black_box(crc ^ 0xffffffffu);
}

static void crc_zlib(struct bm_state *s)
{
	bm_black_box(crc32(0, bm_shared(s), CRC_BYTES));
}

PAIR(libcall, crc32, before, .run = crc_bitwise, .setup_once = make_crc_input,
     .teardown_once = free_shared)
PAIR(libcall, crc32, after, .run = crc_zlib, .setup_once = make_crc_input,
     .teardown_once = free_shared)

/* ---- byte loop against a library routine: copying 128 KiB byte by byte,
 * then with memcpy ---- */

#define COPY_BYTES (128 * 1024)

static void make_copy_buffers(struct bm_state *s)
{
	unsigned char *p = corpus_random_bytes(2 * COPY_BYTES);
	bm_set_shared(s, p);
}

static PLAIN_LOOP NOINLINE void copy_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
}

static void copy_loop(struct bm_state *s)
{
	unsigned char *p = bm_shared(s);
	copy_bytes(p + COPY_BYTES, p, COPY_BYTES);
	bm_black_box(p[COPY_BYTES + 7]);
}

static void copy_memcpy(struct bm_state *s)
{
	unsigned char *p = bm_shared(s);
	memcpy(p + COPY_BYTES, p, COPY_BYTES);
	bm_black_box(p[COPY_BYTES + 7]);
}

PAIR(libcall, memcpy, before, .run = copy_loop, .setup_once = make_copy_buffers,
     .teardown_once = free_shared)
PAIR(libcall, memcpy, after, .run = copy_memcpy, .setup_once = make_copy_buffers,
     .teardown_once = free_shared)

/* ---- computation against a table: reversing the bits of each byte with
 * a loop, then with a 256-entry table ---- */

#define BITREV_BYTES (32 * 1024)

struct bitrev {
	unsigned char in[BITREV_BYTES], out[BITREV_BYTES], table[256];
};

static unsigned reverse_byte(unsigned b)
{
	unsigned r = 0;
	for (int k = 0; k < 8; k++, b >>= 1)
		r = (r << 1) | (b & 1);
	return r;
}

static void make_bitrev(struct bm_state *s)
{
	struct bitrev *d = malloc(sizeof *d);
	unsigned char *bytes = corpus_random_bytes(BITREV_BYTES);
	memcpy(d->in, bytes, BITREV_BYTES);
	free(bytes);
	for (unsigned b = 0; b < 256; b++)
		d->table[b] = (unsigned char)reverse_byte(b);
	bm_set_shared(s, d);
}

static PLAIN_LOOP void bitrev_compute(struct bm_state *s)
{
	struct bitrev *d = bm_shared(s);
	for (size_t i = 0; i < BITREV_BYTES; i++)
		d->out[i] = (unsigned char)reverse_byte(d->in[i]);
	bm_black_box(d->out[9]);
}

static PLAIN_LOOP void bitrev_table(struct bm_state *s)
{
	struct bitrev *d = bm_shared(s);
	for (size_t i = 0; i < BITREV_BYTES; i++)
		d->out[i] = d->table[d->in[i]];
	bm_black_box(d->out[9]);
}

PAIR(table, bitrev, before, .run = bitrev_compute, .setup_once = make_bitrev,
     .teardown_once = free_shared)
PAIR(table, bitrev, after, .run = bitrev_table, .setup_once = make_bitrev,
     .teardown_once = free_shared)

/* ---- a large table against computation: popcount of 64-bit words by a
 * 64 KiB table of 16-bit counts, then by SWAR arithmetic ---- */

#define POP_WORDS 16384

struct popcount {
	uint64_t words[POP_WORDS];
	unsigned char table[65536];
};

static void make_popcount(struct bm_state *s)
{
	struct popcount *d = malloc(sizeof *d);
	uint64_t state = CORPUS_SEED;
	for (size_t i = 0; i < POP_WORDS; i++)
		d->words[i] = corpus_next(&state);
	for (unsigned v = 0; v < 65536; v++)
		d->table[v] = (unsigned char)((v & 1) + (v ? d->table[v >> 1] : 0));
	bm_set_shared(s, d);
}

static PLAIN_LOOP void popcount_by_table(struct bm_state *s)
{
	const struct popcount *d = bm_shared(s);
	long sum = 0;
	for (size_t i = 0; i < POP_WORDS; i++) {
		uint64_t w = d->words[i];
		sum += d->table[w & 0xffff] + d->table[(w >> 16) & 0xffff] + d->table[(w >> 32) & 0xffff] +
		       d->table[w >> 48];
	}
	bm_black_box(sum);
}

static PLAIN_LOOP void popcount_by_swar(struct bm_state *s)
{
	const struct popcount *d = bm_shared(s);
	long sum = 0;
	for (size_t i = 0; i < POP_WORDS; i++) {
		uint64_t w = d->words[i];
		w = w - ((w >> 1) & 0x5555555555555555ull);
		w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
		w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0full;
		sum += (long)((w * 0x0101010101010101ull) >> 56);
	}
	bm_black_box(sum);
}

PAIR(table, popcount, before, .run = popcount_by_table, .setup_once = make_popcount,
     .teardown_once = free_shared)
PAIR(table, popcount, after, .run = popcount_by_swar, .setup_once = make_popcount,
     .teardown_once = free_shared)

/* ---- array of structs against struct of arrays: one field summed over
 * 65,536 particles of 64 bytes, then over an array of that field ---- */

#define PARTICLES 65536

struct particle {
	double x, y, z, vx, vy, vz;
	int mass, charge, id, flags;
};

struct particles {
	struct particle *aos;
	int *mass;
};

static void make_particles(struct bm_state *s)
{
	struct particles *d = malloc(sizeof *d);
	uint64_t state = CORPUS_SEED;
	d->aos = malloc(PARTICLES * sizeof *d->aos);
	d->mass = malloc(PARTICLES * sizeof *d->mass);
	for (int i = 0; i < PARTICLES; i++) {
		memset(&d->aos[i], 0, sizeof d->aos[i]);
		d->aos[i].mass = d->mass[i] = (int)(corpus_next(&state) >> 54);
		d->aos[i].id = i;
	}
	bm_set_shared(s, d);
}

static void free_particles(struct bm_state *s)
{
	struct particles *d = bm_shared(s);
	free(d->aos);
	free(d->mass);
	free(d);
}

static void mass_aos(struct bm_state *s)
{
	const struct particles *d = bm_shared(s);
	long sum = 0;
	for (int i = 0; i < PARTICLES; i++)
		sum += d->aos[i].mass;
	bm_black_box(sum);
}

static void mass_soa(struct bm_state *s)
{
	const struct particles *d = bm_shared(s);
	long sum = 0;
	for (int i = 0; i < PARTICLES; i++)
		sum += d->mass[i];
	bm_black_box(sum);
}

PAIR(layout, aos_soa, before, .run = mass_aos, .setup_once = make_particles,
     .teardown_once = free_particles)
PAIR(layout, aos_soa, after, .run = mass_soa, .setup_once = make_particles,
     .teardown_once = free_particles)

/* ---- strided against sequential: a 4 MiB matrix of ints summed column
 * by column, then row by row ---- */

#define MATRIX 1024

static void make_matrix(struct bm_state *s)
{
	int *m = malloc(MATRIX * MATRIX * sizeof *m);
	for (int i = 0; i < MATRIX * MATRIX; i++)
		m[i] = i & 0xff;
	bm_set_shared(s, m);
}

static void sum_by_columns(struct bm_state *s)
{
	const int *m = bm_shared(s);
	long sum = 0;
	for (int c = 0; c < MATRIX; c++)
		for (int r = 0; r < MATRIX; r++)
			sum += m[r * MATRIX + c];
	bm_black_box(sum);
}

static void sum_by_rows(struct bm_state *s)
{
	const int *m = bm_shared(s);
	long sum = 0;
	for (int r = 0; r < MATRIX; r++)
		for (int c = 0; c < MATRIX; c++)
			sum += m[r * MATRIX + c];
	bm_black_box(sum);
}

PAIR(layout, strided, before, .run = sum_by_columns, .setup_once = make_matrix,
     .teardown_once = free_shared)
PAIR(layout, strided, after, .run = sum_by_rows, .setup_once = make_matrix,
     .teardown_once = free_shared)

/* ---- inlining: a small mixing function called for every element, then
 * the same function inlined (where the loop can be vectorised) ---- */

#define MIX_N 65536

static void make_mix_input(struct bm_state *s)
{
	uint32_t *a = malloc(MIX_N * sizeof *a);
	uint64_t state = CORPUS_SEED;
	for (int i = 0; i < MIX_N; i++)
		a[i] = (uint32_t)corpus_next(&state);
	bm_set_shared(s, a);
}

static NOINLINE uint32_t mix_call(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	return x ^ (x >> 15);
}

static inline __attribute__((always_inline)) uint32_t mix_inline(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	return x ^ (x >> 15);
}

static void mix_noinline(struct bm_state *s)
{
	const uint32_t *a = bm_shared(s);
	uint32_t acc = 0;
	for (int i = 0; i < MIX_N; i++)
		acc += mix_call(a[i]);
	bm_black_box(acc);
}

static void mix_inlined(struct bm_state *s)
{
	const uint32_t *a = bm_shared(s);
	uint32_t acc = 0;
	for (int i = 0; i < MIX_N; i++)
		acc += mix_inline(a[i]);
	bm_black_box(acc);
}

PAIR(inline, mix, before, .run = mix_noinline, .setup_once = make_mix_input,
     .teardown_once = free_shared)
PAIR(inline, mix, after, .run = mix_inlined, .setup_once = make_mix_input,
     .teardown_once = free_shared)

/* ---- inlining: an accessor called for every cell of a 256x256 grid,
 * then the same accessor inlined ---- */

#define GRID 256

struct grid {
	int width;
	int cells[GRID * GRID];
};

static void make_grid(struct bm_state *s)
{
	struct grid *g = malloc(sizeof *g);
	g->width = GRID;
	for (int i = 0; i < GRID * GRID; i++)
		g->cells[i] = i % 1000;
	bm_set_shared(s, g);
}

static NOINLINE int cell_call(const struct grid *g, int r, int c)
{
	return g->cells[r * g->width + c];
}

static inline __attribute__((always_inline)) int cell_inline(const struct grid *g, int r, int c)
{
	return g->cells[r * g->width + c];
}

static void sum_cells_call(struct bm_state *s)
{
	const struct grid *g = bm_shared(s);
	long sum = 0;
	for (int r = 0; r < GRID; r++)
		for (int c = 0; c < GRID; c++)
			sum += cell_call(g, r, c);
	bm_black_box(sum);
}

static void sum_cells_inline(struct bm_state *s)
{
	const struct grid *g = bm_shared(s);
	long sum = 0;
	for (int r = 0; r < GRID; r++)
		for (int c = 0; c < GRID; c++)
			sum += cell_inline(g, r, c);
	bm_black_box(sum);
}

PAIR(inline, accessor, before, .run = sum_cells_call, .setup_once = make_grid,
     .teardown_once = free_shared)
PAIR(inline, accessor, after, .run = sum_cells_inline, .setup_once = make_grid,
     .teardown_once = free_shared)

/* ---- no difference natively: two independent calls in the other order
 * (different code, the same work).  Each call is a chain of dependent
 * multiplies, so the time is their latency and not the front end's,
 * which moves with where the code lands (a 12% swing for the same loop
 * with short calls) ---- */

#define REORDER_N 2048

static NOINLINE uint64_t step_a(uint64_t x)
{
	for (int k = 0; k < 16; k++)
		x = x * 0x9e3779b97f4a7c15ull + 1;
	return x;
}

static NOINLINE uint64_t step_b(uint64_t x)
{
	for (int k = 0; k < 16; k++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
	return x;
}

static void calls_ab(struct bm_state *s)
{
	uint64_t a = 1, b = 2;
	(void)s;
	for (int i = 0; i < REORDER_N; i++) {
		a = step_a(a);
		b = step_b(b);
	}
	bm_black_box(a);
	bm_black_box(b);
}

static void calls_ba(struct bm_state *s)
{
	uint64_t a = 1, b = 2;
	(void)s;
	for (int i = 0; i < REORDER_N; i++) {
		b = step_b(b);
		a = step_a(a);
	}
	bm_black_box(a);
	bm_black_box(b);
}

PAIR(same, reorder, before, .run = calls_ab)
PAIR(same, reorder, after, .run = calls_ba)

/* ---- no difference natively: an index loop rewritten with a pointer and
 * a different exit test (a refactoring that changes no work); a hash
 * whose multiply chain sets the pace, for the same reason ---- */

#define EQUIV_N 65536

static void make_equiv_input(struct bm_state *s)
{
	unsigned char *bytes = corpus_random_bytes(EQUIV_N);
	bm_set_shared(s, bytes);
}

static PLAIN_LOOP void hash_index(struct bm_state *s)
{
	const unsigned char *p = bm_shared(s);
	uint64_t h = 0;
	for (size_t i = 0; i < EQUIV_N; i++)
		h = (h + p[i]) * 31;
	bm_black_box(h);
}

static PLAIN_LOOP void hash_pointer(struct bm_state *s)
{
	const unsigned char *p = bm_shared(s), *end = p + EQUIV_N;
	uint64_t hash = 0;
	while (p != end)
		hash = (hash + *p++) * 31;
	bm_black_box(hash);
}

PAIR(same, equivalent_loop, before, .run = hash_index, .setup_once = make_equiv_input,
     .teardown_once = free_shared)
PAIR(same, equivalent_loop, after, .run = hash_pointer, .setup_once = make_equiv_input,
     .teardown_once = free_shared)

/* ---- a library routine against one's own: 16,384 small objects from
 * malloc and freed, then bump-allocated from one block ---- */

#define OBJECTS 16384

static void objects_malloc(struct bm_state *s)
{
	void **objs = bm_shared(s);
	long sum = 0;
	for (int i = 0; i < OBJECTS; i++) {
		long *o = malloc(32);
		o[0] = i;
		objs[i] = o;
	}
	for (int i = 0; i < OBJECTS; i++) {
		sum += *(long *)objs[i];
		free(objs[i]);
	}
	bm_black_box(sum);
}

static void objects_pool(struct bm_state *s)
{
	void **objs = bm_shared(s);
	long sum = 0;
	char *pool = (char *)objs + OBJECTS * sizeof *objs;
	for (int i = 0; i < OBJECTS; i++) {
		long *o = (long *)(pool + 32 * (size_t)i);
		o[0] = i;
		objs[i] = o;
	}
	for (int i = 0; i < OBJECTS; i++)
		sum += *(long *)objs[i];
	bm_black_box(sum);
}

static void make_object_table(struct bm_state *s)
{
	/* the pointers, then room for the pool's objects */
	bm_set_shared(s, malloc(OBJECTS * (sizeof(void *) + 32)));
}

PAIR(libcall, malloc_pool, before, .run = objects_malloc, .setup_once = make_object_table,
     .teardown_once = free_shared)
PAIR(libcall, malloc_pool, after, .run = objects_pool, .setup_once = make_object_table,
     .teardown_once = free_shared)

BM_MAIN()
