/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bm-engine: bm's own Valgrind tool, counting callgrind's events (with
 * its cache simulation) for the regions bm-run measures, and callgrind's
 * call graph.  See docs/engine.md.
 *
 * Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#ifndef BM_ENGINE_H
#define BM_ENGINE_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* The events of bm-model/1, in callgrind's order. */
enum event {
	EV_IR, EV_DR, EV_DW, EV_I1MR, EV_D1MR, EV_D1MW, EV_ILMR, EV_DLMR, EV_DLMW,
	EV_SYSCOUNT, EV_SYSTIME, EV_SYSCPUTIME,
	EV_COUNT
};

struct edge;

/* A function as callgrind names it: its object, file and name (or, with
 * no symbol, the address of the block it was found at).  Interned: one per
 * name, compared by pointer (callgraph.c). */
struct fn {
	struct fn *next; /* VgHashNode: next in the bucket, */
	UWord hash;      /* and the key */
	HChar *obj, *file, *name;
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
	UInt size;
	const struct fn *fn;
	ULong cost[EV_COUNT];
	/* What the instruction's last execution did, so that it can be taken
	 * back (sb_apply): bit 0 and 1, its fetch missed I1 and LL; from
	 * bit 2, three bits per data access: done (guarded ones), missed D1,
	 * missed LL. */
	ULong last;
	UChar nslots;      /* its data accesses, at most LAST_SLOTS tracked */
	UInt slot_writes;  /* bit k: access k is a write */
	UInt slot_guarded; /* bit k: access k is conditional (its done bit says) */
	struct edge *edges; /* calls from here (callgraph.c) */
	ULong *skipped;     /* what the PLT stubs called from here cost */
};
#define LAST_SLOTS 20

/* costs.c: the table of instructions, and the counts of the translations.
 *
 * A segment is a stretch of a superblock between side exits: each of its
 * instructions (and each unconditional data access in it) runs exactly as
 * often as the stretch does, so one inline add per execution of the
 * stretch counts them all, and the counts reach the instructions only
 * when they are read. */
struct item {
	struct instr *i;
	UInt event; /* EV_IR, EV_DR or EV_DW */
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
void block_set(struct block *b, struct instr *const *instrs, UInt ninstrs, struct segment *const *segs,
	       UInt nsegs);

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

/* Whether translations are instrumented now (the region is on). */
extern Bool engine_instrumenting;
/* --fixed-cpu=yes (the default): the guest's cpuid answers VEX's
 * baseline processor on every host (instrument.c). */
extern Bool engine_fixed_cpu;
/* log2 of the simulated I1's line size. */
extern Int engine_i1_line_bits;

/* instrument.c: the IR pass. */
IRSB *engine_instrument(VgCallbackClosure *closure, IRSB *sb_in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy);

/* Every event of the running thread so far: Ir, Dr and Dw added by the
 * translations a segment at a time, the rest by the helpers (callgraph.c
 * keeps the other threads' aside). */
extern ULong engine_total[EV_COUNT];

/* callgraph.c: callgrind's call graph.  A shadow stack per thread, touched
 * only where a superblock calls, returns or jumps to another function;
 * a call's inclusive cost is the difference of the thread's totals. */
struct edge {
	struct edge *next; /* the next from the same call site */
	Addr to;           /* where the callee was entered */
	const struct fn *callee;
	ULong calls;
	ULong cost[EV_COUNT];
};
enum cg_kind { CG_CALL, CG_RETURN, CG_JUMP };
/* What callgrind knows of a superblock's address: looked up once. */
struct place {
	struct place *next; /* VgHashNode, keyed by */
	Addr addr;
	Bool is_entry;    /* the first instruction of a named function */
	Bool skip;        /* in a PLT: calls to it are not edges (--skip-plt) */
	Bool pop_on_jump; /* _dl_runtime_resolve: its jump out replaces it */
	Int sect;         /* VgSectKind */
	const void *obj;  /* its DebugInfo */
	const struct fn *fn; /* the function callgrind names for a block here */
};
void callgraph_init(void);
struct place *place_of(Addr a);
/* The function the running thread's costs are charged to now (NULL until
 * its first block after a start of instrumentation sets it to that
 * block's). */
const struct fn *callgraph_current(const struct fn *home);
/* Whether a jump from a block at from to to is, for callgrind, a call. */
Bool callgraph_jump_is_call(const struct place *from, Addr to);
/* The helpers: a superblock ending at site in a call, return or (for
 * jumps that may be calls) a jump to target, with the stack pointer sp
 * after it.  to is target's place where the translation knew it (a
 * constant target), else NULL; from is the superblock's place. */
void callgraph_call(struct instr *site, Addr target, struct place *to, Addr sp);
void callgraph_return(struct instr *site, Addr target, Addr sp, struct place *from);
void callgraph_jump(struct instr *site, Addr target, struct place *to, Addr sp, struct place *from);
/* A signal handler's context: its delivery, its rt_sigreturn, its end. */
void callgraph_signal_start(ThreadId tid);
void callgraph_signal_return(ThreadId tid);
void callgraph_signal_end(ThreadId tid);
/* Where blocks entered from another function count (callgraph.c).  A
 * block starts executing in a function other than its home's (or the
 * check cannot tell: engine_expect is 0): the call graph's current
 * function decides where its costs go.  VG_REGPARM(1). */
void block_enter(struct block *b);
/* What a block's entry is checked against: the current function, or 0
 * while a block's costs wait to be moved (block_enter). */
extern ULong engine_expect;
/* Sets engine_expect for the current function fn (the call graph's). */
void block_expect(const struct fn *fn);
/* Moves what a block entered from another function counted so far to
 * that function's records, before the counts are read or changed. */
void callgraph_settle(void);
/* At a dump: active calls' costs so far go to their edges. */
void callgraph_before_dump(void);
/* At zeroing (and after a dump): active calls count from now. */
void callgraph_zero(void);
/* At each instrumentation toggle: every stack unwound. */
void callgraph_unwind_all(void);

/* output.c: writes the costs so far as a callgrind-format file (part n,
 * "desc: Trigger: ..." from trigger); returns False after saying why. */
Bool output_dump(const HChar *path, Int part, const HChar *trigger, const HChar *cmd);

/* --dump-instr=yes: each instruction's cost on a line of its own, with its
 * address ("positions: instr line"), as callgrind's option does. */
extern Bool engine_dump_instr;

#endif
