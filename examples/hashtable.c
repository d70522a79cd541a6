/* An open-addressing hash table of string keys: inserting 4096 keys and
 * looking each up again, with two probe strategies. */
#include "bench_region.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYS 4096
#define SLOTS 8192

struct table {
	const char *key[SLOTS];
	int value[SLOTS];
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static __attribute__((noinline)) void insert(struct table *t, const char *k, int v, int quadratic)
{
	size_t i = hash(k) & (SLOTS - 1);
	for (size_t step = 1; t->key[i]; step++)
		i = (i + (quadratic ? step : 1)) & (SLOTS - 1);
	t->key[i] = k;
	t->value[i] = v;
}

static __attribute__((noinline)) int lookup(const struct table *t, const char *k, int quadratic)
{
	size_t i = hash(k) & (SLOTS - 1);
	for (size_t step = 1; t->key[i]; step++) {
		if (strcmp(t->key[i], k) == 0)
			return t->value[i];
		i = (i + (quadratic ? step : 1)) & (SLOTS - 1);
	}
	return -1;
}

static __attribute__((noinline)) long fill_and_query(struct table *t, char **keys, int quadratic)
{
	long sum = 0;
	for (int i = 0; i < KEYS; i++)
		insert(t, keys[i], i, quadratic);
	for (int i = 0; i < KEYS; i++)
		sum += lookup(t, keys[i], quadratic);
	return sum;
}

int main(void)
{
	static char storage[KEYS][16];
	char *keys[KEYS];
	for (int i = 0; i < KEYS; i++) {
		snprintf(storage[i], sizeof storage[i], "key-%d", i * 7919);
		keys[i] = storage[i];
	}
	struct table *t = calloc(1, sizeof *t);
	BENCH("hashtable::insert_lookup[probe=linear]", black_box(fill_and_query(t, keys, 0)));
	memset(t, 0, sizeof *t);
	BENCH("hashtable::insert_lookup[probe=quadratic]", black_box(fill_and_query(t, keys, 1)));
	free(t);
	return 0;
}
