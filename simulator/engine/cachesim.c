/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * Each cache is a set-associative array of tags kept in LRU order per
 * set (most recent first), write-allocate, with no write-back traffic:
 * reads and writes look up and fill alike, as in callgrind.  An access
 * that straddles two lines looks up both and misses if either misses.  A
 * first-level miss looks up LL (which fills it too): LL is neither
 * inclusive nor exclusive, it is simply asked on every L1 miss. */
#include "cachesim.h"

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

struct cache {
	UWord *tags; /* sets * assoc, each set most recent first */
	Int assoc, line_bits;
	UWord sets_mask;
};

static struct cache I1, D1, LL;
static struct sim_geometry geometry[3]; /* I1, D1, LL as given */

static Int log2_exact(Int x)
{
	for (Int i = 0; i < 31; i++)
		if ((1 << i) == x)
			return i;
	return -1;
}

static Bool cache_init(struct cache *c, const struct sim_geometry *g, const HChar **why)
{
	Int line_bits = log2_exact(g->line);
	if (g->assoc <= 0 || g->line <= 0 || g->size <= 0 || line_bits < 0 ||
	    g->size % (g->assoc * g->line) != 0 || log2_exact(g->size / (g->assoc * g->line)) < 0) {
		*why = "a cache needs a power-of-two line size and number of sets";
		return False;
	}
	Int sets = g->size / (g->assoc * g->line);
	c->assoc = g->assoc;
	c->line_bits = line_bits;
	c->sets_mask = (UWord)sets - 1;
	c->tags = VG_(malloc)("bm.cache.tags", sizeof(UWord) * (SizeT)sets * (SizeT)g->assoc);
	return True;
}

Bool sim_init(const struct sim_geometry *i1, const struct sim_geometry *d1,
	      const struct sim_geometry *ll, const HChar **why)
{
	if (!cache_init(&I1, i1, why) || !cache_init(&D1, d1, why) || !cache_init(&LL, ll, why))
		return False;
	geometry[0] = *i1;
	geometry[1] = *d1;
	geometry[2] = *ll;
	sim_clear();
	return True;
}

const struct sim_geometry *sim_geometry(Int level)
{
	return &geometry[level];
}

static void cache_clear(struct cache *c)
{
	/* No block number is all ones: an empty way never matches. */
	SizeT n = (c->sets_mask + 1) * (SizeT)c->assoc;
	for (SizeT i = 0; i < n; i++)
		c->tags[i] = ~(UWord)0;
}

void sim_clear(void)
{
	cache_clear(&I1);
	cache_clear(&D1);
	cache_clear(&LL);
}

void sim_d1_layout(struct sim_layout *l)
{
	*l = (struct sim_layout){D1.tags, D1.sets_mask, D1.assoc, D1.line_bits};
}

void sim_i1_layout(struct sim_layout *l)
{
	*l = (struct sim_layout){I1.tags, I1.sets_mask, I1.assoc, I1.line_bits};
}

/* Looks block up in its set, making it the most recent; True on a hit. */
static inline Bool set_ref(struct cache *c, UWord block)
{
	UWord *set = c->tags + (block & c->sets_mask) * (UWord)c->assoc;
	if (set[0] == block)
		return True;
	Int i;
	for (i = 1; i < c->assoc; i++)
		if (set[i] == block)
			break;
	Bool hit = i < c->assoc;
	if (!hit)
		i = c->assoc - 1;
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = block;
	return hit;
}

static inline Bool cache_ref(struct cache *c, Addr a, UWord size)
{
	UWord first = a >> c->line_bits, last = (a + size - 1) >> c->line_bits;
	if (first == last)
		return set_ref(c, first);
	/* Both lines are looked up (and filled), whatever the first gave. */
	Bool hit1 = set_ref(c, first);
	Bool hit2 = set_ref(c, last);
	return hit1 && hit2;
}

enum sim_result sim_fetch(Addr a, UWord size)
{
	if (cache_ref(&I1, a, size))
		return SIM_L1_HIT;
	return cache_ref(&LL, a, size) ? SIM_LL_HIT : SIM_MEM;
}

enum sim_result sim_data(Addr a, UWord size)
{
	if (cache_ref(&D1, a, size))
		return SIM_L1_HIT;
	return cache_ref(&LL, a, size) ? SIM_LL_HIT : SIM_MEM;
}
