/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "strpool.h"
#include "hash.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX

struct item {
	char *str;
	uint32_t len;
	uint64_t hash;
};

struct strpool {
	struct item *items;
	size_t count, alloc;
	uint32_t *slots; /* indices into str, EMPTY when free */
	size_t nslots;   /* a power of two, at most half full */
};

struct strpool *strpool_new(void)
{
	struct strpool *p = xcalloc(1, sizeof *p);
	p->nslots = 64;
	p->slots = xmalloc(p->nslots * sizeof *p->slots);
	memset(p->slots, 0xff, p->nslots * sizeof *p->slots);
	return p;
}

void strpool_free(struct strpool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->count; i++)
		free(p->items[i].str);
	free(p->items);
	free(p->slots);
	free(p);
}

static size_t slot_of(const struct strpool *p, const char *s, size_t len, uint64_t h)
{
	size_t mask = p->nslots - 1, i = h & mask;
	for (;;) {
		uint32_t idx = p->slots[i];
		if (idx == EMPTY)
			return i;
		const struct item *it = &p->items[idx];
		if (it->hash == h && it->len == len && memcmp(it->str, s, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

static void rehash(struct strpool *p)
{
	free(p->slots);
	p->nslots *= 2;
	p->slots = xmalloc(p->nslots * sizeof *p->slots);
	memset(p->slots, 0xff, p->nslots * sizeof *p->slots);
	size_t mask = p->nslots - 1;
	for (uint32_t idx = 0; idx < p->count; idx++) {
		size_t i = p->items[idx].hash & mask;
		while (p->slots[i] != EMPTY)
			i = (i + 1) & mask;
		p->slots[i] = idx;
	}
}

int strpool_find(const struct strpool *p, const char *s, size_t len, uint32_t *idx)
{
	size_t i = slot_of(p, s, len, hash_bytes(s, len));
	if (p->slots[i] == EMPTY)
		return 0;
	*idx = p->slots[i];
	return 1;
}

uint32_t strpool_intern(struct strpool *p, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	size_t i = slot_of(p, s, len, h);
	if (p->slots[i] != EMPTY)
		return p->slots[i];
	xgrow(&p->items, &p->alloc, p->count + 1, sizeof *p->items);
	uint32_t idx = (uint32_t)p->count++;
	p->items[idx] = (struct item){.str = xstrndup(s, len), .len = (uint32_t)len, .hash = h};
	p->slots[i] = idx;
	if (p->count * 2 > p->nslots)
		rehash(p);
	return idx;
}

const char *strpool_get(const struct strpool *p, uint32_t idx)
{
	return idx < p->count ? p->items[idx].str : NULL;
}

size_t strpool_count(const struct strpool *p)
{
	return p->count;
}
