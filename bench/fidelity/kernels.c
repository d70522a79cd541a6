/* SPDX-License-Identifier: MIT */
/* The C library and small kernels as programs are made of: sorting,
 * formatting and parsing numbers, searching text, hashing with xxHash,
 * dense arithmetic, a sieve, a hash table and searches in a large sorted
 * array.  Inputs come from the fixed seed, made once where the run only
 * reads them. */
#include "corpus.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

static void free_shared(struct bm_state *s)
{
	free(bm_shared(s));
}

static void free_data(struct bm_state *s)
{
	free(bm_data(s));
}

/* ---- libc: qsort of 10,000 ints (a fresh copy each run: it sorts in place) ---- */

#define SORT_N 10000

static void make_unsorted(struct bm_state *s)
{
	int *a = malloc(SORT_N * sizeof *a);
	uint64_t state = CORPUS_SEED;
	for (int i = 0; i < SORT_N; i++)
		a[i] = (int)(corpus_next(&state) >> 33);
	bm_set_shared(s, a);
}

static void copy_unsorted(struct bm_state *s)
{
	int *a = malloc(SORT_N * sizeof *a);
	memcpy(a, bm_shared(s), SORT_N * sizeof *a);
	bm_set_data(s, a);
}

static int compare_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static void sort_ints(struct bm_state *s)
{
	int *a = bm_data(s);
	qsort(a, SORT_N, sizeof *a, compare_int);
	bm_black_box(a[SORT_N / 2]);
}

BM_BENCHMARK(libc, qsort, .run = sort_ints, .setup = copy_unsorted, .teardown = free_data,
	     .setup_once = make_unsorted, .teardown_once = free_shared);

/* ---- libc: formatting and parsing 2,000 doubles ---- */

#define NUMBERS 2000

static double number(uint64_t *state)
{
	return (double)(corpus_next(state) >> 11) / 9007199254740992.0 * 1e6;
}

static void format_numbers(struct bm_state *s)
{
	uint64_t state = CORPUS_SEED;
	char buf[64];
	size_t total = 0;
	(void)s;
	for (int i = 0; i < NUMBERS; i++)
		total += (size_t)snprintf(buf, sizeof buf, "%.9g", number(&state));
	bm_black_box(total);
}

static void make_number_text(struct bm_state *s)
{
	uint64_t state = CORPUS_SEED;
	char *text = malloc(NUMBERS * 32 + 1), *p = text;
	for (int i = 0; i < NUMBERS; i++)
		p += snprintf(p, 32, "%.9g ", number(&state));
	bm_set_shared(s, text);
}

static void parse_numbers(struct bm_state *s)
{
	const char *p = bm_shared(s);
	char *end;
	double sum = 0;
	for (int i = 0; i < NUMBERS; i++, p = end)
		sum += strtod(p, &end);
	bm_black_box(sum);
}

BM_BENCHMARK(libc, snprintf, .run = format_numbers);
BM_BENCHMARK(libc, strtod, .run = parse_numbers, .setup_once = make_number_text,
	     .teardown_once = free_shared);

/* ---- libc: searching 256 KiB of text for a word that is not there, and
 * counting its words with <ctype.h> ---- */

#define TEXT_BYTES (256 * 1024)

static void make_text(struct bm_state *s)
{
	bm_set_shared(s, corpus_text(TEXT_BYTES));
}

static void search_text(struct bm_state *s)
{
	bm_black_box(strstr(bm_shared(s), "pipelined"));
}

static void count_words(struct bm_state *s)
{
	const unsigned char *p = bm_shared(s);
	long words = 0;
	int in_word = 0;
	for (; *p; p++) {
		int alpha = isalpha(*p) != 0;
		words += alpha && !in_word;
		in_word = alpha;
	}
	bm_black_box(words);
}

BM_BENCHMARK(libc, strstr, .run = search_text, .setup_once = make_text,
	     .teardown_once = free_shared);
BM_BENCHMARK(text, count_words, .run = count_words, .setup_once = make_text,
	     .teardown_once = free_shared);

/* ---- xxHash: XXH32 over 256 KiB, and XXH3 over 10,000 keys of 16 bytes
 * (its short-input path, no vector loop) ---- */

#define HASH_BYTES (256 * 1024)
#define KEYS 10000

static void make_hash_input(struct bm_state *s)
{
	bm_set_shared(s, corpus_random_bytes(HASH_BYTES));
}

static void hash_xxh32(struct bm_state *s)
{
	bm_black_box(XXH32(bm_shared(s), HASH_BYTES, 0));
}

static void hash_small_keys(struct bm_state *s)
{
	const unsigned char *p = bm_shared(s);
	uint64_t sum = 0;
	for (int i = 0; i < KEYS; i++)
		sum += XXH3_64bits(p + 16 * (size_t)i, 16);
	bm_black_box(sum);
}

BM_BENCHMARK(xxhash, xxh32, .run = hash_xxh32, .setup_once = make_hash_input,
	     .teardown_once = free_shared);
BM_BENCHMARK(xxhash, xxh3_small_keys, .run = hash_small_keys, .setup_once = make_hash_input,
	     .teardown_once = free_shared);

/* ---- FNV-1a over 64 KiB, a byte at a time (a multiply chain) ---- */

static void hash_fnv(struct bm_state *s)
{
	const unsigned char *p = bm_shared(s);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < 64 * 1024; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	bm_black_box(h);
}

BM_BENCHMARK(kernel, fnv1a, .run = hash_fnv, .setup_once = make_hash_input,
	     .teardown_once = free_shared);

/* ---- dense arithmetic: a 96x96 matrix product of doubles ---- */

#define DIM 96

struct matrices {
	double a[DIM][DIM], b[DIM][DIM], c[DIM][DIM];
};

static void make_matrices(struct bm_state *s)
{
	struct matrices *m = malloc(sizeof *m);
	uint64_t state = CORPUS_SEED;
	for (int i = 0; i < DIM; i++) {
		for (int j = 0; j < DIM; j++) {
			m->a[i][j] = (double)(corpus_next(&state) % 1000) / 100.0;
			m->b[i][j] = (double)(corpus_next(&state) % 1000) / 100.0;
		}
	}
	bm_set_shared(s, m);
}

static void matmul(struct bm_state *s)
{
	struct matrices *m = bm_shared(s);
	for (int i = 0; i < DIM; i++) {
		for (int j = 0; j < DIM; j++)
			m->c[i][j] = 0;
		for (int k = 0; k < DIM; k++)
			for (int j = 0; j < DIM; j++)
				m->c[i][j] += m->a[i][k] * m->b[k][j];
	}
	bm_black_box(m->c[DIM - 1][DIM - 1]);
}

BM_BENCHMARK(kernel, matmul, .run = matmul, .setup_once = make_matrices,
	     .teardown_once = free_shared);

/* ---- the sieve of Eratosthenes up to 2^20 (a 1 MiB byte array) ---- */

#define SIEVE (1 << 20)

static void make_sieve(struct bm_state *s)
{
	bm_set_shared(s, malloc(SIEVE));
}

static void sieve(struct bm_state *s)
{
	unsigned char *composite = bm_shared(s);
	long primes = 0;
	memset(composite, 0, SIEVE);
	for (long i = 2; i < SIEVE; i++) {
		if (composite[i])
			continue;
		primes++;
		for (long j = i * i; j < SIEVE; j += i)
			composite[j] = 1;
	}
	bm_black_box(primes);
}

BM_BENCHMARK(kernel, sieve, .run = sieve, .setup_once = make_sieve, .teardown_once = free_shared);

/* ---- a hash table: inserting then finding 8,192 keys (open addressing,
 * linear probing, 16,384 slots) ---- */

#define TABLE_KEYS 8192
#define TABLE_SLOTS (2 * TABLE_KEYS)

struct table {
	uint64_t keys[TABLE_KEYS];
	uint64_t slot_key[TABLE_SLOTS];
	long slot_value[TABLE_SLOTS];
};

static void make_table(struct bm_state *s)
{
	struct table *t = malloc(sizeof *t);
	uint64_t state = CORPUS_SEED;
	for (int i = 0; i < TABLE_KEYS; i++)
		t->keys[i] = corpus_next(&state) | 1; /* 0 marks an empty slot */
	bm_set_shared(s, t);
}

static size_t slot_of(uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 50) & (TABLE_SLOTS - 1);
}

static void hash_table(struct bm_state *s)
{
	struct table *t = bm_shared(s);
	long sum = 0;
	memset(t->slot_key, 0, sizeof t->slot_key);
	for (int i = 0; i < TABLE_KEYS; i++) {
		size_t at = slot_of(t->keys[i]);
		while (t->slot_key[at])
			at = (at + 1) & (TABLE_SLOTS - 1);
		t->slot_key[at] = t->keys[i];
		t->slot_value[at] = i;
	}
	for (int i = TABLE_KEYS - 1; i >= 0; i--) {
		size_t at = slot_of(t->keys[i]);
		while (t->slot_key[at] != t->keys[i])
			at = (at + 1) & (TABLE_SLOTS - 1);
		sum += t->slot_value[at];
	}
	bm_black_box(sum);
}

BM_BENCHMARK(kernel, hash_table, .run = hash_table, .setup_once = make_table,
	     .teardown_once = free_shared);

/* ---- libc: bsearch of 20,000 random keys in a sorted 4 MiB array (its
 * misses are the cost) ---- */

#define SORTED_N (1 << 20)
#define SEARCHES 20000

static void make_sorted(struct bm_state *s)
{
	int *a = malloc(SORTED_N * sizeof *a);
	for (int i = 0; i < SORTED_N; i++)
		a[i] = 2 * i;
	bm_set_shared(s, a);
}

static void search_sorted(struct bm_state *s)
{
	const int *a = bm_shared(s);
	uint64_t state = CORPUS_SEED;
	long found = 0;
	for (int i = 0; i < SEARCHES; i++) {
		int key = (int)(corpus_next(&state) % (2 * SORTED_N));
		found += bsearch(&key, a, SORTED_N, sizeof *a, compare_int) != NULL;
	}
	bm_black_box(found);
}

BM_BENCHMARK(libc, bsearch, .run = search_sorted, .setup_once = make_sorted,
	     .teardown_once = free_shared);

BM_MAIN()
