/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * Each cache is a set-associative array of tags kept in LRU order per
 * set (most recent first), write-allocate, with no write-back traffic:
 * reads and writes look up and fill alike, as in callgrind.  An access
 * that straddles two lines looks up both and misses if either misses.  A
 * first-level miss looks up LL (which fills it too): LL is neither
 * inclusive nor exclusive, it is simply asked on every L1 miss.
 *
 * bm-model/2 (sim_init_l2) adds, deterministically:
 * - a private L2 between them, asked on every L1 miss (LL then on every
 *   L2 miss), as in every current core;
 * - the prefetchers that make a stream cost what it costs: a next-line
 *   prefetcher into L2 on every L2 miss, instruction and data (both
 *   vendors' "adjacent line" / "L2 streamer" in their simplest form), and
 *   a stride prefetcher into D1 and L2 by instruction: it learns the
 *   distance between the lines one load or store missed, and once the
 *   same distance came twice, fetches the next PREFETCH_DEPTH lines along
 *   it.  It sees misses only (the translations check hits inline), which
 *   is where a stream shows: one miss in PREFETCH_DEPTH lines is left.
 *   Prefetches fill without being counted, as the hardware's do, and
 *   never cross a 4 KiB page (the hardware's do not: the next page's
 *   address may not be mapped, or be another page of memory).  A pointer
 *   chase over scattered nodes has no stride, nor has a stride of a page
 *   or more: every miss stays.
 *
 * Below L1, every model reads canonical addresses (layout.h), so that
 * where the program's mappings happen to lie moves no set of L2 or LL
 * and no prefetch: L1's sets lie within a page (the engine refuses larger
 * ways with --layout=canonical), whose offset the canonical address keeps, and a tag only has to
 * tell lines apart, so L1 looks up the guest's own addresses. */
#include "cachesim.h"

#include "layout.h"

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

struct cache {
	UWord *tags; /* sets * assoc, each set most recent first */
	Int assoc, line_bits;
	UWord sets_mask;
};

static struct cache I1, D1, L2, LL;
static Bool have_l2;
static struct sim_geometry geometry[3]; /* I1, D1, LL as given */

/* The stride prefetcher's table, by instruction. */
#define PREFETCH_ENTRIES 256
#define PREFETCH_DEPTH 8
struct stride {
	Addr pc;
	UWord last;  /* the line of its last miss */
	Word stride; /* in lines */
	Int seen;    /* how many times in a row */
};
static struct stride strides[PREFETCH_ENTRIES];

static Int log2_exact(Int x)
{
	for (Int i = 0; i < 31; i++)
		if ((1 << i) == x)
			return i;
	return -1;
}

#define PAGE_BITS 12

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

Bool sim_init_l2(const struct sim_geometry *l2, const HChar **why)
{
	if (!cache_init(&L2, l2, why))
		return False;
	have_l2 = True;
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
	if (have_l2) {
		cache_clear(&L2);
		VG_(memset)(strides, 0, sizeof strides);
	}
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

/* Looks up the lines from first to last (one, or two consecutive). */
static inline Bool lines_ref(struct cache *c, UWord first, UWord last)
{
	if (first == last)
		return set_ref(c, first);
	/* Both lines are looked up (and filled), whatever the first gave. */
	Bool hit1 = set_ref(c, first);
	Bool hit2 = set_ref(c, last);
	return hit1 && hit2;
}

static inline Bool cache_ref(struct cache *c, Addr a, UWord size)
{
	return lines_ref(c, a >> c->line_bits, (a + size - 1) >> c->line_bits);
}

/* The canonical addresses of an access's first and last bytes: two
 * lookups only where it straddles two pages, which may lie in two
 * mappings. */
struct span {
	Addr first, last;
};
static inline struct span canonical_span(Addr a, UWord size)
{
	Addr c = layout_canonical(a), e = a + size - 1;
	if ((a ^ e) >> PAGE_BITS)
		return (struct span){c, layout_canonical(e)};
	return (struct span){c, c + size - 1};
}

/* Whether lines a and b (of line_bits) lie in one 4 KiB page. */
static inline Bool same_page(UWord a, UWord b, Int line_bits)
{
	return a >> (PAGE_BITS - line_bits) == b >> (PAGE_BITS - line_bits);
}

/* Below an L1 miss of the canonical span c: L2 (with its next-line
 * prefetch), then LL. */
static enum sim_result below_l1(struct span c)
{
	if (!have_l2)
		return lines_ref(&LL, c.first >> LL.line_bits, c.last >> LL.line_bits) ? SIM_LL_HIT : SIM_MEM;
	if (lines_ref(&L2, c.first >> L2.line_bits, c.last >> L2.line_bits))
		return SIM_L2_HIT;
	UWord last = c.last >> L2.line_bits;
	if (same_page(last, last + 1, L2.line_bits))
		set_ref(&L2, last + 1);
	return lines_ref(&LL, c.first >> LL.line_bits, c.last >> LL.line_bits) ? SIM_LL_HIT : SIM_MEM;
}

/* The stride prefetcher, told that the instruction at (canonical) pc
 * missed D1 at line (the guest's; canonical, in L2). */
static void learn_stride(Addr pc, UWord line, UWord canonical_line)
{
	struct stride *s = &strides[(pc ^ (pc >> 8)) & (PREFETCH_ENTRIES - 1)];
	if (s->pc != pc) {
		*s = (struct stride){pc, canonical_line, 0, 0};
		return;
	}
	Word d = (Word)(canonical_line - s->last);
	s->seen = d && d == s->stride ? s->seen + 1 : 0;
	s->stride = d;
	s->last = canonical_line;
	if (s->seen < 1)
		return;
	/* Within the page, where both addresses move together. */
	for (Int k = 1; k <= PREFETCH_DEPTH; k++) {
		UWord ahead = line + (UWord)(d * k);
		if (!same_page(line, ahead, D1.line_bits))
			break;
		set_ref(&L2, canonical_line + (UWord)(d * k));
		set_ref(&D1, ahead);
	}
}

enum sim_result sim_fetch(Addr a, Addr canonical, UWord size)
{
	if (cache_ref(&I1, a, size))
		return SIM_L1_HIT;
	UWord last = (a + size - 1) >> I1.line_bits;
	if (have_l2 && same_page(last, last + 1, I1.line_bits)) /* the next line, as fetch streams code */
		set_ref(&I1, last + 1);
	Addr e = a + size - 1;
	return below_l1((a ^ e) >> PAGE_BITS ? (struct span){canonical, layout_canonical(e)}
					     : (struct span){canonical, canonical + size - 1});
}

enum sim_result sim_data(Addr pc, Addr a, UWord size)
{
	if (cache_ref(&D1, a, size))
		return SIM_L1_HIT;
	struct span c = canonical_span(a, size);
	if (have_l2)
		learn_stride(pc, a >> D1.line_bits, c.first >> D1.line_bits);
	return below_l1(c);
}
