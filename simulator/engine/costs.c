/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * Where the counts go: the table of instruction records, the segments the
 * translations count in, and the blocks (translated superblocks).  What a
 * block counts while another function's call is in progress is moved by
 * callgraph.c, which callers let settle first (callgraph_settle).
 */
#include "costs.h"

#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

Bool event_on[EV_COUNT];

const HChar *const event_names[EV_COUNT] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim",
	"Cc", "I2mr", "D2mr", "D2mw", "D1mc", "D2mc", "DLmc", "sysCount", "sysTime", "sysCpuTime", "allocCount", "allocBytes",
};

void events_enable(Bool branches, Bool l2, Bool block_cost, Bool heap)
{
	for (Int e = 0; e < EV_COUNT; e++) {
		if (e >= EV_BC && e <= EV_BIM)
			event_on[e] = branches;
		else if (e == EV_I2MR || e == EV_D2MR || e == EV_D2MW)
			event_on[e] = l2;
		else if (e == EV_CC || e == EV_D1MC || e == EV_DLMC)
			event_on[e] = block_cost;
		else if (e == EV_D2MC)
			event_on[e] = block_cost && l2;
		else if (e == EV_ALLOC_COUNT || e == EV_ALLOC_BYTES)
			event_on[e] = heap;
		else
			event_on[e] = True;
	}
}

static VgHashTable *table;
static struct instr *retired; /* replaced by other code at their address */
static struct segment *segments;

void instr_table_init(void)
{
	table = VG_(HT_construct)("bm.instrs");
}

struct instr *instr_find(Addr addr)
{
	return VG_(HT_lookup)(table, addr);
}

struct instr *instr_get(Addr addr, UInt size, const struct fn *fn)
{
	struct instr *head = instr_find(addr);
	if (head && head->size != size) {
		/* Other code at the address (an unmapped library's successor):
		 * the old records leave the table for the retired list, where
		 * their costs are still counted. */
		VG_(HT_remove)(table, addr);
		head->next = retired;
		retired = head;
		head = NULL;
	}
	for (struct instr *i = head; i; i = i->other)
		if (i->fn == fn)
			return i;
	struct instr *i = VG_(calloc)("bm.instr", 1, sizeof *i);
	i->addr = addr;
	i->canonical = head ? head->canonical : addr;
	i->size = size;
	i->fn = fn;
	if (head) {
		i->other = head->other;
		head->other = i;
	} else {
		VG_(HT_add_node)(table, i);
	}
	return i;
}

/* instr_for's recent answers, by instruction and function: a PLT stub
 * called from many functions (libsqlite3 calls sqlite3_free through its
 * PLT from 300 of them) asks for its instructions' records in each
 * caller's function in turn, and the records of one instruction are a
 * list.  Records are never freed, so a hit is what the lookup would say. */
#define FOR_CACHE_BITS 12
static struct for_answer {
	const struct instr *i;
	const struct fn *fn;
	struct instr *o;
} for_cache[1 << FOR_CACHE_BITS];

struct instr *instr_for(struct instr *i, const struct fn *fn)
{
	if (i->fn == fn || !fn)
		return i;
	UWord key = (UWord)i ^ (UWord)fn >> 4;
	struct for_answer *a = &for_cache[(key ^ key >> FOR_CACHE_BITS ^ key >> 2 * FOR_CACHE_BITS) &
					  ((1 << FOR_CACHE_BITS) - 1)];
	if (a->i == i && a->fn == fn)
		return a->o;
	struct instr *o = instr_find(i->addr);
	while (o && o->size == i->size && o->fn != fn)
		o = o->other;
	if (!o || o->size != i->size)
		o = instr_get(i->addr, i->size, fn);
	*a = (struct for_answer){i, fn, o};
	return o;
}

/* ---- segments and records ---- */

struct segment *segment_new(const struct item *items, UInt n)
{
	struct segment *sg = VG_(calloc)("bm.segment", 1, sizeof *sg);
	sg->n = n;
	sg->items = VG_(malloc)("bm.segment.items", n * sizeof *sg->items);
	VG_(memcpy)(sg->items, items, n * sizeof *sg->items);
	sg->next = segments;
	segments = sg;
	return sg;
}

struct block *block_new(const struct fn *home, const struct fn *own)
{
	struct block *b = VG_(calloc)("bm.block", 1, sizeof *b);
	b->home = home;
	b->own = own;
	return b;
}

void block_set(struct block *b, struct instr *const *instrs, const UInt *weights, const UInt *waits,
	       UInt ninstrs, struct segment *const *segs, UInt nsegs)
{
	b->ninstrs = ninstrs;
	b->nsegs = nsegs;
	b->instrs = VG_(malloc)("bm.block.instrs", (ninstrs ? ninstrs : 1) * sizeof *b->instrs);
	VG_(memcpy)(b->instrs, instrs, ninstrs * sizeof *b->instrs);
	if (weights) {
		b->weights = VG_(malloc)("bm.block.weights", (ninstrs ? ninstrs : 1) * sizeof *b->weights);
		VG_(memcpy)(b->weights, weights, ninstrs * sizeof *b->weights);
	}
	if (waits) {
		b->waits = VG_(malloc)("bm.block.waits", (ninstrs ? ninstrs : 1) * sizeof *b->waits);
		VG_(memcpy)(b->waits, waits, ninstrs * sizeof *b->waits);
	}
	b->segs = VG_(malloc)("bm.block.segs", (nsegs ? nsegs : 1) * sizeof *b->segs);
	VG_(memcpy)(b->segs, segs, nsegs * sizeof *b->segs);
}

void item_add(const struct item *it, struct instr *to, ULong n)
{
	to->cost[it->event] += n;
	to->cost[EV_CC] += n * it->weight;
}

/* The segments' counts to their instructions. */
static void segments_flush(void)
{
	for (struct segment *sg = segments; sg; sg = sg->next) {
		if (!sg->count)
			continue;
		for (UInt k = 0; k < sg->n; k++)
			item_add(&sg->items[k], sg->items[k].i, sg->count);
		sg->count = 0;
	}
}

static Bool has_cost(const struct instr *i)
{
	return i->cost[EV_IR] || i->cost[EV_SYSCOUNT] || i->edges || i->skipped;
}

void instr_table_each(void (*f)(const struct instr *i, void *data), void *data)
{
	segments_flush();
	VG_(HT_ResetIter)(table);
	struct instr *head;
	while ((head = VG_(HT_Next)(table)))
		for (struct instr *i = head; i; i = i->other)
			if (has_cost(i))
				f(i, data);
	for (head = retired; head; head = head->next)
		for (struct instr *i = head; i; i = i->other)
			if (has_cost(i))
				f(i, data);
}

static void zero_instr(struct instr *i)
{
	VG_(memset)(i->cost, 0, sizeof i->cost);
	for (struct edge *e = i->edges; e; e = e->next) {
		e->calls = 0;
		VG_(memset)(e->cost, 0, sizeof e->cost);
	}
	if (i->skipped)
		VG_(memset)(i->skipped, 0, EV_COUNT * sizeof *i->skipped);
}

void instr_table_zero(void)
{
	for (struct segment *sg = segments; sg; sg = sg->next)
		sg->count = 0;
	VG_(HT_ResetIter)(table);
	struct instr *head;
	while ((head = VG_(HT_Next)(table)))
		for (struct instr *i = head; i; i = i->other)
			zero_instr(i);
	for (head = retired; head; head = head->next)
		for (struct instr *i = head; i; i = i->other)
			zero_instr(i);
}

/* ---- taking a superblock's last execution back ---- */

static VgHashTable *sbs;

struct sb *sb_find(Addr after)
{
	return sbs ? VG_(HT_lookup)(sbs, after) : NULL;
}

void sb_remember(Addr after, struct block *b)
{
	if (!sbs)
		sbs = VG_(HT_construct)("bm.sbs");
	struct sb *sb = VG_(HT_lookup)(sbs, after);
	if (!sb) {
		sb = VG_(calloc)("bm.sb", 1, sizeof *sb);
		sb->after = after;
		VG_(HT_add_node)(sbs, sb);
	}
	sb->block = b;
}

void sb_apply(const struct sb *sb, Int sign)
{
	segments_flush();
	const struct block *b = sb->block;
	for (UInt k = 0; k < b->ninstrs; k++) {
		const struct instr *i = b->instrs[k];
		ULong d[EV_COUNT] = {0};
		d[EV_IR] = 1;
		d[EV_I1MR] = i->last & 1;
		d[EV_ILMR] = (i->last >> 1) & 1;
		d[EV_I2MR] = i->last2 & 1;
		d[EV_CC] = b->weights ? b->weights[k] : 0;
		for (UInt slot = 0; slot < i->nslots && slot < LAST_SLOTS; slot++) {
			ULong bits = (i->last >> (2 + 3 * slot)) & 7, l2 = (i->last2 >> (1 + slot)) & 1;
			Int w = (i->slot_writes >> slot) & 1;
			d[EV_DR + w] += (i->slot_guarded >> slot) & 1 ? bits & 1 : 1;
			d[EV_D1MR + w] += (bits >> 1) & 1;
			d[EV_D2MR + w] += l2;
			d[EV_DLMR + w] += (bits >> 2) & 1;
			if ((i->last2 >> (LAST2_CHAINED + slot)) & 1) {
				d[EV_D1MC] += (bits >> 1) & 1;
				d[EV_D2MC] += l2;
				d[EV_DLMC] += (bits >> 2) & 1;
			}
		}
		/* Its conditional branches (--branch-sim) all ran, not taken. */
		d[EV_BC] = i->nexits;
		d[EV_BCM] = (i->last >> LAST_BCM) & 1;
		if (d[EV_BCM] && b->waits)
			d[EV_CC] += b->waits[k];
		/* Where that execution was charged. */
		struct instr *to = instr_for(b->instrs[k], b->last_caller);
		for (Int e = 0; e < EV_COUNT; e++)
			to->cost[e] += sign > 0 ? d[e] : -d[e];
	}
}
