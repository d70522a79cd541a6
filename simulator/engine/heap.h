/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * heap.c: --heap=yes, what the program's allocator is asked for, counted
 * from its calls without replacing it (docs/engine.md "Heap profiles").
 * The allocation functions (malloc, calloc, realloc, the aligned ones, C++'s
 * new and delete; free and delete for the blocks' ends) are seen at their
 * entry, with their arguments, and at their return, with their result:
 * only the outermost such call counts (realloc's own call of malloc, new's
 * of malloc do not).  Each block allocated is an execution of the events
 * allocCount and allocBytes (its requested size), charged to the
 * allocation function's entry in the context of its call, so that the call
 * graph carries them to every caller; and per dump, the most bytes the
 * blocks allocated since the last zero held at once (the peak) and those
 * of them still allocated (leaked), as DHAT counts a whole run: a realloc
 * is a new block and the old one's free, a request of 0 bytes is 1. */
#ifndef BM_ENGINE_HEAP_H
#define BM_ENGINE_HEAP_H

#include "pub_tool_basics.h"

#include "libvex_ir.h"

struct instr; /* costs.h */

/* Where a superblock starts at a function's first instruction, first
 * (its record, for the block's function): the hook that sees the call's
 * arguments, when it is an allocation function. */
void heap_at_entry(IRSB *sb, struct instr *first);

/* At every return, before the call graph pops the call: sp is the stack
 * pointer after it, target where it went, result the function's (RAX).
 * Nothing to do while no allocation function's call is in progress
 * (heap_calls). */
extern UInt heap_calls;
void heap_returned(Addr sp, Addr target, ULong result);
static inline void heap_at_return(Addr sp, Addr target, ULong result)
{
	if (heap_calls)
		heap_returned(sp, target, result);
}

/* After a system call while the engine instruments: brk moving the break
 * up, and mmap mapping anonymous memory that is not a thread's stack nor
 * a PROT_NONE reservation, are what the heap took from the kernel. */
void heap_after_syscall(UInt sysno, const UWord *args, SysRes res);

/* Counts from now: the dump's peak and leaks are those of blocks
 * allocated from here on. */
void heap_zero(void);

/* What a dump says since the last zero (its desc lines: "Heap peak: N
 * bytes", "Heap leaked: N bytes in M blocks", "Heap freed: ...", "Heap
 * system: N bytes"). */
struct heap_part {
	ULong peak_bytes;               /* the most the part's blocks held at once */
	ULong live_bytes, live_blocks;   /* the part's blocks still allocated */
	ULong freed_bytes, freed_blocks; /* freed: any block the engine saw allocated */
	ULong system_bytes;             /* what brk and mmap gave the heap */
};
const struct heap_part *heap_part(void);

#endif
