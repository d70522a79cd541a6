/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The canonical address space: see layout.h.
 *
 * Notes (the assumptions, each with its reason):
 *
 * - Where a mapping lands depends on everything mapped before it: the
 *   loader maps /etc/ld.so.cache before the libraries, so a cache a page
 *   larger (a package installed) moves every library and every anonymous
 *   mapping after it; a host's /etc/ld.so.preload or another Valgrind
 *   moves them too.  A mapping's canonical place depends only on what it
 *   is: a file's mapping on the file's name (its last component: the
 *   same library in another directory, the same program in another
 *   checkout, is the same) and offset, the n-th anonymous mapping on n,
 *   the break and the main stack on being them.  That key's hash picks a
 *   BLOCK of its own in [CANONICAL_BASE, 2 CANONICAL_BASE), above every
 *   guest address (an address outside every mapping is its own canonical
 *   one, and never meets one of them); one taken already (another key
 *   with the same hash, the same file mapped twice) gives the next free.
 *   A block is never given twice, so no two mappings ever share a line.
 * - Each mapping starts at a colour of its own, its key's hash mod
 *   COLOURS pages into its block, so that the first pages of the
 *   program's mappings do not all fall in the same sets of L2 and LL (as
 *   the loader's packing and the kernel's physical pages spread them on
 *   a machine).  COLOURS pages make an LL way of 8 MiB in 16 ways; the
 *   delta of every mapping is a whole number of pages, so a page's
 *   offset, and with it an L1 set, is the guest's own.
 * - Mappings are the program's calls (mmap, mremap, munmap, brk, shmat)
 *   and those present at its start, as Valgrind tells them.  A mapping
 *   made wholly within a live one (the loader maps a library's span,
 *   then its segments over it with MAP_FIXED) keeps the place of the one
 *   it lies in, so that a library's code and data stay as far apart as
 *   in its file.  One that overlaps several, or partly, takes a place of
 *   its own.
 * - mremap moves pages with their canonical places; its growth in place
 *   continues the mapping it extends, within its block (a new block
 *   beyond).
 * - The break (brk) is one mapping, with a block of BRK_SPAN: every page
 *   of it, however often it shrinks and grows again, keeps its place.
 * - The main thread's stack is known at the first translation (its
 *   pointer): it is placed from its top, with the hole below it where it
 *   grows (up to STACK_SPAN), keeping each address modulo 1 MiB, so that
 *   libbm's pinning of the stack pointer (a fixed offset modulo 1 MiB)
 *   pins its canonical sets as well.
 * - The program's own behaviour that depends on addresses (a hash of
 *   pointers) is the program's: only what the models index is made
 *   canonical. */
#include "layout.h"

#include "pub_tool_aspacemgr.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vkiscnums.h"

#define PAGE 4096UL
#define MIB (1UL << 20)
#define CANONICAL_BASE (1UL << 62)
#define BLOCK_BITS 32
#define BLOCK (1UL << BLOCK_BITS)
#define BLOCKS (CANONICAL_BASE >> BLOCK_BITS)
#define COLOURS 128
#define BRK_SPAN (1UL << 40)
#define STACK_SPAN (1UL << 30)

struct region {
	Addr start, end; /* [start, end) of the guest */
	Addr delta;      /* canonical = a + delta */
	Addr limit;      /* the canonical end of its block: it may grow to it */
};

static struct region *regions; /* sorted by start, disjoint */
static UInt nregions, cap;
static Bool canonical;
static VgHashTable *taken;  /* the blocks given, by index */
static ULong anonymous;     /* the anonymous mappings made so far */
static Bool have_brk, in_mremap;
static Addr brk_delta;

struct layout_range layout_last;

static void forget_last(void)
{
	layout_last = (struct layout_range){0, 0, 0};
}

/* The index of the first region that ends after a. */
static UInt first_after(Addr a)
{
	UInt lo = 0, hi = nregions;
	while (lo < hi) {
		UInt mid = lo + (hi - lo) / 2;
		if (regions[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct region *containing(Addr a)
{
	UInt k = first_after(a);
	return k < nregions && regions[k].start <= a ? &regions[k] : NULL;
}

static void insert_at(UInt k, struct region r)
{
	if (nregions == cap) {
		cap = cap ? 2 * cap : 64;
		regions = VG_(realloc)("bm.layout", regions, cap * sizeof *regions);
	}
	VG_(memmove)(regions + k + 1, regions + k, (nregions - k) * sizeof *regions);
	regions[k] = r;
	nregions++;
}

static void remove_at(UInt k)
{
	VG_(memmove)(regions + k, regions + k + 1, (nregions - k - 1) * sizeof *regions);
	nregions--;
}

/* Takes [a, e) out of every region. */
static void cut(Addr a, Addr e)
{
	forget_last();
	UInt k = first_after(a);
	while (k < nregions && regions[k].start < e) {
		struct region *r = &regions[k];
		if (r->start < a && r->end > e) {
			struct region tail = *r;
			tail.start = e;
			r->end = a;
			insert_at(k + 1, tail);
			return;
		}
		if (r->start < a) {
			r->end = a;
			k++;
		} else if (r->end > e) {
			r->start = e;
			return;
		} else {
			remove_at(k);
		}
	}
}

/* Places [a, e), which no region overlaps, at canonical c. */
static void place(Addr a, Addr e, Addr c, Addr limit)
{
	forget_last();
	insert_at(first_after(a), (struct region){a, e, c - a, limit});
}

/* A 64-bit hash of n bytes at p, seeded. */
static ULong hash_bytes(const void *p, SizeT n, ULong seed)
{
	ULong h = seed ^ 0xcbf29ce484222325ULL;
	for (SizeT i = 0; i < n; i++)
		h = (h ^ ((const UChar *)p)[i]) * 0x100000001b3ULL;
	return h * 0x9E3779B97F4A7C15ULL;
}

struct taken_block {
	struct taken_block *next; /* VgHashNode, keyed by */
	UWord index;
};

static Bool is_taken(UWord index)
{
	return VG_(HT_lookup)(taken, index) != NULL;
}

/* Blocks for a mapping of len bytes (at least span) with key: its first
 * canonical address (at its colour); *limit is the end of its blocks. */
static Addr fresh(ULong key, SizeT len, SizeT span, Addr *limit)
{
	Addr colour = (Addr)((key >> 40) % COLOURS) * PAGE;
	SizeT need = colour + len > span ? colour + len : span;
	UWord n = (need + BLOCK - 1) >> BLOCK_BITS, first = key % BLOCKS;
	if (!n)
		n = 1;
	for (;;) {
		UWord k = 0;
		while (k < n && first + k < BLOCKS && !is_taken(first + k))
			k++;
		if (k == n)
			break;
		first = first + k + 1 < BLOCKS ? first + k + 1 : 0;
	}
	for (UWord k = 0; k < n; k++) {
		struct taken_block *b = VG_(malloc)("bm.layout.block", sizeof *b);
		b->index = first + k;
		VG_(HT_add_node)(taken, b);
	}
	Addr base = CANONICAL_BASE + ((Addr)first << BLOCK_BITS);
	*limit = base + ((Addr)n << BLOCK_BITS);
	return base + colour;
}

/* What the new mapping at a is: its file's name and offset, or the
 * next anonymous mapping. */
static ULong key_of(Addr a)
{
	NSegment const *seg = VG_(am_find_nsegment)(a);
	const HChar *name = seg && seg->kind == SkFileC ? VG_(am_get_filename)(seg) : NULL;
	if (!name)
		return hash_bytes("anon", 4, anonymous++);
	const HChar *base = VG_(strrchr)(name, '/');
	base = base ? base + 1 : name;
	ULong offset = (ULong)seg->offset + (a - seg->start);
	return hash_bytes(base, VG_(strlen)(base), offset);
}

/* [a, e) continues the region that ends at a, within its block: True
 * when it did. */
static Bool extend(Addr a, Addr e)
{
	UInt k = first_after(a);
	if (k == 0 || regions[k - 1].end != a || e + regions[k - 1].delta > regions[k - 1].limit)
		return False;
	if (k < nregions && regions[k].start < e)
		return False;
	regions[k - 1].end = e;
	forget_last();
	return True;
}

static void mapped(Addr a, SizeT len)
{
	Addr e = a + len;
	if (!len || e < a)
		return;
	if (in_mremap && extend(a, e))
		return;
	struct region *r = containing(a);
	if (r && e <= r->end)
		return; /* a segment over the mapping it lies in */
	cut(a, e);
	Addr limit, c = fresh(key_of(a), len, 0, &limit);
	place(a, e, c, limit);
}

static void new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	(void)rr, (void)ww, (void)xx, (void)di;
	mapped(a, len);
}

static void new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	(void)rr, (void)ww, (void)xx, (void)di;
	mapped(a, len);
}

static void die_mem_munmap(Addr a, SizeT len)
{
	if (len)
		cut(a, a + len);
}

/* mremap moved [from, from + len) to to: each page keeps its place
 * (Valgrind then unmaps from). */
static void copy_mem_remap(Addr from, Addr to, SizeT len)
{
	if (!len)
		return;
	Addr e = from + len;
	UInt first = first_after(from), n = 0;
	while (first + n < nregions && regions[first + n].start < e)
		n++;
	struct piece {
		Addr start, end, canonical, limit;
	} *moved = VG_(malloc)("bm.layout.remap", (n ? n : 1) * sizeof *moved);
	for (UInt k = 0; k < n; k++) {
		const struct region *r = &regions[first + k];
		Addr s = r->start > from ? r->start : from, t = r->end < e ? r->end : e;
		moved[k] = (struct piece){to + (s - from), to + (t - from), s + r->delta, r->limit};
	}
	cut(to, to + len);
	for (UInt k = 0; k < n; k++)
		place(moved[k].start, moved[k].end, moved[k].canonical, moved[k].limit);
	VG_(free)(moved);
}

static Addr brk_limit;

/* The break moved up to a + len: the break's pages keep their places. */
static void new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
	(void)tid;
	Addr e = a + len;
	if (!len || e < a || extend(a, e))
		return;
	cut(a, e);
	if (!have_brk) {
		Addr c = fresh(hash_bytes("brk", 3, 0), 0, BRK_SPAN, &brk_limit);
		brk_delta = c - a;
		have_brk = True;
	}
	place(a, e, a + brk_delta, brk_limit);
}

static void die_mem_brk(Addr a, SizeT len)
{
	if (len)
		cut(a, a + len);
}

void layout_stack_known(Addr sp)
{
	if (!canonical)
		return;
	struct region *r = containing(sp);
	if (!r)
		return;
	Addr top = r->end;
	UInt k = first_after(sp);
	Addr below = k > 0 ? regions[k - 1].end : 0;
	if (below < top - STACK_SPAN)
		below = top - STACK_SPAN;
	cut(below, top);
	Addr limit, block = fresh(hash_bytes("stack", 5, 0), 0, 2 * STACK_SPAN, &limit);
	Addr c_top = (block & ~(BLOCK - 1)) + STACK_SPAN + (top & (MIB - 1));
	place(below, top, c_top - (top - below), c_top);
}

Addr layout_lookup(Addr a)
{
	UInt k = first_after(a);
	if (k < nregions && regions[k].start <= a) {
		layout_last = (struct layout_range){regions[k].start, regions[k].end, regions[k].delta};
		return a + regions[k].delta;
	}
	/* A hole: its own canonical address, until a mapping fills it. */
	layout_last = (struct layout_range){k > 0 ? regions[k - 1].end : 0,
					    k < nregions ? regions[k].start : ~(Addr)0, 0};
	return a;
}

void layout_pre_syscall(UInt sysno)
{
	in_mremap = sysno == __NR_mremap;
}

void layout_post_syscall(UInt sysno)
{
	(void)sysno;
	in_mremap = False;
}

void layout_init(Bool canonical_layout)
{
	canonical = canonical_layout;
	if (!canonical) {
		layout_last = (struct layout_range){0, ~(Addr)0, 0};
		return;
	}
	forget_last();
	taken = VG_(HT_construct)("bm.layout.taken");
	VG_(track_new_mem_startup)(new_mem_startup);
	VG_(track_new_mem_mmap)(new_mem_mmap);
	VG_(track_die_mem_munmap)(die_mem_munmap);
	VG_(track_copy_mem_remap)(copy_mem_remap);
	VG_(track_new_mem_brk)(new_mem_brk);
	VG_(track_die_mem_brk)(die_mem_brk);
}
