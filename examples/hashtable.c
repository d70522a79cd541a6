/* SPDX-License-Identifier: MIT */
/* An open-addressing hash table of string keys: insert every key, then
 * look each one up, with linear or quadratic probing. */
#include <bm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
	size_t slots;
	const char **key;
	long *value;
	char (*keys)[16];
	long nkeys;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void insert(struct table *t, const char *k, long v, int quadratic)
{
	size_t i = hash(k) & (t->slots - 1);
	for (size_t step = 1; t->key[i]; step++)
		i = (i + (quadratic ? step : 1)) & (t->slots - 1);
	t->key[i] = k;
	t->value[i] = v;
}

static long lookup(const struct table *t, const char *k, int quadratic)
{
	size_t i = hash(k) & (t->slots - 1);
	for (size_t step = 1; t->key[i]; step++) {
		if (strcmp(t->key[i], k) == 0)
			return t->value[i];
		i = (i + (quadratic ? step : 1)) & (t->slots - 1);
	}
	return -1;
}

static void make_table(struct bm_state *s)
{
	struct table *t = calloc(1, sizeof *t);
	t->nkeys = bm_param(s, "keys");
	t->slots = 2 * (size_t)t->nkeys;
	t->key = calloc(t->slots, sizeof *t->key);
	t->value = calloc(t->slots, sizeof *t->value);
	t->keys = calloc((size_t)t->nkeys, sizeof *t->keys);
	for (long i = 0; i < t->nkeys; i++)
		snprintf(t->keys[i], sizeof t->keys[i], "key-%ld", i * 7919);
	bm_set_data(s, t);
}

static void free_table(struct bm_state *s)
{
	struct table *t = bm_data(s);
	free(t->key);
	free(t->value);
	free(t->keys);
	free(t);
}

static void insert_lookup(struct bm_state *s)
{
	struct table *t = bm_data(s);
	int quadratic = (int)bm_param(s, "probe");
	long sum = 0;
	memset(t->key, 0, t->slots * sizeof *t->key);
	for (long i = 0; i < t->nkeys; i++)
		insert(t, t->keys[i], i, quadratic);
	for (long i = 0; i < t->nkeys; i++)
		sum += lookup(t, t->keys[i], quadratic);
	bm_black_box(sum);
}

/* probe: 0 linear, 1 quadratic */
BM_BENCHMARK(hashtable, insert_lookup, .run = insert_lookup, .setup = make_table,
	     .teardown = free_table,
	     .params = BM_PARAMS(BM_RANGE("keys", 1024, 8192), BM_RANGE("probe", 0, 1)));

BM_MAIN()
