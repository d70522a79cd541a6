/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * callgraph.c: callgrind's call graph.  A shadow stack per thread, touched
 * only where a superblock calls, returns or jumps to another function;
 * a call's inclusive cost is the difference of the thread's totals. */
#ifndef BM_ENGINE_CALLGRAPH_H
#define BM_ENGINE_CALLGRAPH_H

#include "contexts.h"
#include "costs.h"

#include "pub_tool_tooliface.h"

/* A function as callgrind names it: its object, file and name (or, with
 * no symbol, the address of the block it was found at).  Interned: one per
 * name, compared by pointer (callgraph.c); and one per context it is
 * called in while a --collect-in function's call is in progress
 * (contexts.h), with the same names. */
struct fn {
	struct fn *next; /* VgHashNode: next in the bucket, */
	UWord hash;      /* and the key */
	HChar *obj, *file, *name;
	const struct fn *base;  /* the function of no context (itself, if cxt is NULL) */
	const struct cxt *cxt;  /* the context it is called in, or NULL */
	Int collect;            /* its --collect-in index, or -1 */
};

/* Every event of the running thread so far: Ir, Dr and Dw added by the
 * translations a segment at a time, the rest by the helpers (callgraph.c
 * keeps the other threads' aside). */
extern ULong engine_total[EV_COUNT];

enum graph_kind { GRAPH_CALL, GRAPH_RETURN, GRAPH_JUMP };
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
	/* What a call here was last charged to (callee_fn): fn within
	 * within_cxt. */
	const struct cxt *within_cxt;
	const struct fn *within;
};
void callgraph_init(void);
/* Valgrind runs one thread at a time: tid starts running, and its totals
 * become engine_total (engine.c's tracker calls it). */
void callgraph_thread_start(ThreadId tid);
struct place *place_of(Addr a);
/* The function the running thread's costs are charged to now (NULL until
 * its first block after a start of instrumentation sets it to that
 * block's). */
const struct fn *callgraph_current(const struct fn *home);
/* The running thread's calls in progress, and the events counted now
 * (e by delta[e]) for the one of them at depth (callgraph_depth when it
 * began): the calls made within it since, still in progress, leave them
 * out of their costs (heap.c: calloc's tail call of memset ends where
 * memset returns, and the block is calloc's). */
Int callgraph_depth(void);
void callgraph_charge_at(Int depth, const ULong delta[EV_COUNT]);
/* The hash of name s, on from h: the call graph keys functions by those
 * of their names (and a dump its file names). */
UWord name_hash(const HChar *s, UWord h);
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

#endif
