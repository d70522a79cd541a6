/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * costs.c: what the translations count and where it goes: the events, the
 * instruction records (with the calls made from each, which callgraph.c
 * fills), the segments and blocks of the translations. */
#ifndef BM_ENGINE_COSTS_H
#define BM_ENGINE_COSTS_H

#include "pub_tool_basics.h"

/* The events of bm-model/1, in callgrind's order; the branch events
 * (Bc Bcm Bi Bim) only with --branch-sim=yes (branchsim.h); bm-model/2's
 * with --block-cost=yes: the core's cycles from each block's code, in
 * hundredths (Cc: blockcost.h), the misses of L2 (with --L2) and those of
 * loads on a loop-carried chain at each level; with --heap=yes, the
 * blocks allocated and their bytes (heap.h). */
enum event {
	EV_IR, EV_DR, EV_DW, EV_I1MR, EV_D1MR, EV_D1MW, EV_ILMR, EV_DLMR, EV_DLMW,
	EV_BC, EV_BCM, EV_BI, EV_BIM,
	EV_CC, EV_I2MR, EV_D2MR, EV_D2MW, EV_D1MC, EV_D2MC, EV_DLMC,
	EV_SYSCOUNT, EV_SYSTIME, EV_SYSCPUTIME,
	EV_ALLOC_COUNT, EV_ALLOC_BYTES,
	EV_COUNT
};

/* Which events this run counts and dumps (the rest stay 0): set once,
 * from the options, before anything is counted. */
extern Bool event_on[EV_COUNT];
void events_enable(Bool branches, Bool l2, Bool block_cost, Bool heap);
/* Each event's name, as callgrind's files and bm's reports write it. */
extern const HChar *const event_names[EV_COUNT];

struct fn; /* callgraph.h */

/* A call made from an instruction (callgraph.c fills them): where the
 * callee was entered, how often, and the calls' inclusive cost. */
struct edge {
	struct edge *next; /* the next from the same call site */
	Addr to;           /* where the callee was entered */
	const struct fn *callee;
	ULong calls;
	ULong cost[EV_COUNT];
};

/* One guest instruction, charged to one function, and what its executions
 * cost there in the region so far (self cost; the calls made from it in
 * edges).  Callgrind charges a block's costs to the function whose call
 * is in progress, which is the block's own except where code was entered
 * by a jump from another function: such executions go to a record of the
 * same instruction for that function (costs.c).  Kept in a table by
 * address, so that a retranslation (each start of the region discards
 * every translation) finds the instruction's costs again. */
struct instr {
	struct instr *next;  /* VgHashNode: next in the bucket, */
	Addr addr;           /* and the key */
	struct instr *other; /* the records of the same instruction for
			      * other functions */
	Addr canonical;      /* its canonical address (layout.h), as of its
			      * latest translation */
	UInt size;
	const struct fn *fn;
	ULong cost[EV_COUNT];
	/* What the instruction's last execution did, so that it can be taken
	 * back (sb_apply): bit 0 and 1, its fetch missed I1 and LL; from
	 * bit 2, three bits per data access: done (guarded ones), missed D1,
	 * missed LL; bit LAST_BCM, its conditional branch was mispredicted. */
	ULong last;
	/* --L2: bit 0, its last fetch missed L2; bit 1 + k, data access k
	 * did; bit LAST2_CHAINED + k, data access k was a chained load
	 * (--block-cost) that missed. */
	ULong last2;
	UChar nslots;      /* its data accesses, at most LAST_SLOTS tracked */
	UChar nexits;      /* its conditional branches (Bc per execution) */
	UInt slot_writes;  /* bit k: access k is a write */
	UInt slot_guarded; /* bit k: access k is conditional (its done bit says) */
	struct edge *edges; /* calls from here (callgraph.c) */
	ULong *skipped;     /* what the PLT stubs called from here cost */
};
#define LAST_SLOTS 20
#define LAST2_CHAINED (1 + LAST_SLOTS)
#define LAST_BCM 62

/* The table of instructions, and the counts of the translations.
 *
 * A segment is a stretch of a superblock between side exits: each of its
 * instructions (and each unconditional data access in it) runs exactly as
 * often as the stretch does, so one inline add per execution of the
 * stretch counts them all, and the counts reach the instructions only
 * when they are read. */
struct item {
	struct instr *i;
	UInt event;  /* EV_IR, EV_DR, EV_DW, EV_BC or EV_BI */
	UInt weight; /* EV_IR: the instruction's share of the block's core
		      * cycles (Cc), in hundredths; else 0 */
};
struct segment {
	struct segment *next;
	ULong count;
	UInt n;
	struct item *items;
};
/* A translated superblock: the function it counts for, the one its
 * address names, and what it counts. */
struct block {
	const struct fn *home, *own;
	UInt ninstrs, nsegs;
	struct instr **instrs;
	UInt *weights;                /* each instruction's Cc per execution, or NULL */
	UInt *waits;                  /* each instruction's Cc when its conditional
				       * branch is mispredicted (--core=bm-model/3),
				       * or NULL */
	struct segment **segs;
	ULong *snap;                  /* callgraph.c's, for block_enter */
	const struct fn *last_caller; /* remembered blocks: the function
				       * their last execution was charged
				       * to, if not home */
};
void instr_table_init(void);
/* The record of the instruction at addr for fn (made if new). */
struct instr *instr_get(Addr addr, UInt size, const struct fn *fn);
/* The record of i's instruction for fn. */
struct instr *instr_for(struct instr *i, const struct fn *fn);
/* The first record of the instruction at addr, or NULL. */
struct instr *instr_find(Addr addr);
/* These three, and sb_apply, read or change the counts: a block's counts
 * that wait to move to another function move first (callgraph_settle). */
void instr_table_zero(void);
/* Calls f for every instruction record with a cost. */
void instr_table_each(void (*f)(const struct instr *i, void *data), void *data);
/* A new segment of items (copied), counted from now. */
struct segment *segment_new(const struct item *items, UInt n);
/* A new block counting for function home, in function own (by its
 * address); block_set gives it its instructions and segments (copied)
 * when its translation is done. */
struct block *block_new(const struct fn *home, const struct fn *own);
void block_set(struct block *b, struct instr *const *instrs, const UInt *weights, const UInt *waits,
	       UInt ninstrs, struct segment *const *segs, UInt nsegs);

/* Adds n executions of segment item it to instruction record to (its
 * event, and its share of the core cycles). */
void item_add(const struct item *it, struct instr *to, ULong n);

/* A superblock that ends in a client request or a system call: the
 * instructions it executed, in order.  Callgrind commits a superblock's
 * costs only when the next instrumented one starts, so the costs of the
 * one that ends in STOP_INSTRUMENTATION (or in the exit) are never
 * counted, and those of one that ends in a dump go to the next part. */
struct sb {
	struct sb *next; /* VgHashNode, keyed by */
	Addr after;      /* the address its end jumps to */
	struct block *block;
};
struct sb *sb_find(Addr after);
/* Remembers block b, which ends in a jump to after. */
void sb_remember(Addr after, struct block *b);
/* Takes the costs of sb's last execution out of its instructions (sign
 * -1) or puts them back (+1). */
void sb_apply(const struct sb *sb, Int sign);

#endif
