/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "idmap.h"
#include "hash.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct entry {
	uint64_t a, b;
	uint32_t value;
	uint32_t used;
};

struct idmap {
	struct entry *slots;
	size_t nslots; /* a power of two, at most half full */
	size_t count;
};

struct idmap *idmap_new(void)
{
	struct idmap *m = xcalloc(1, sizeof *m);
	m->nslots = 64;
	m->slots = xcalloc(m->nslots, sizeof *m->slots);
	return m;
}

void idmap_free(struct idmap *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

static inline size_t start(uint64_t a, uint64_t b, size_t mask)
{
	return hash_mix64(a * 0x9e3779b97f4a7c15ull ^ hash_mix64(b)) & mask;
}

int idmap_lookup(const struct idmap *m, uint64_t a, uint64_t b, uint32_t *value)
{
	size_t mask = m->nslots - 1;
	for (size_t i = start(a, b, mask);; i = (i + 1) & mask) {
		const struct entry *e = &m->slots[i];
		if (!e->used)
			return 0;
		if (e->a == a && e->b == b) {
			*value = e->value;
			return 1;
		}
	}
}

static void place(struct entry *slots, size_t mask, const struct entry *e)
{
	size_t i = start(e->a, e->b, mask);
	while (slots[i].used)
		i = (i + 1) & mask;
	slots[i] = *e;
}

void idmap_insert(struct idmap *m, uint64_t a, uint64_t b, uint32_t value)
{
	if ((m->count + 1) * 2 > m->nslots) {
		size_t n = m->nslots * 2;
		struct entry *slots = xcalloc(n, sizeof *slots);
		for (size_t i = 0; i < m->nslots; i++)
			if (m->slots[i].used)
				place(slots, n - 1, &m->slots[i]);
		free(m->slots);
		m->slots = slots;
		m->nslots = n;
	}
	struct entry e = {.a = a, .b = b, .value = value, .used = 1};
	place(m->slots, m->nslots - 1, &e);
	m->count++;
}
