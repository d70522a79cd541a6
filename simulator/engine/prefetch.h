/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * prefetch.c: software prefetches (prefetcht0/t1/t2/nta, prefetch,
 * prefetchw: what __builtin_prefetch compiles to).  VEX decodes them to
 * nothing, their address computation dropped as dead code, so that under
 * callgrind's rules code that hides its misses with them is counted as
 * if it did not.  Under --core=bm-model/4 the engine reads the
 * instruction's bytes itself and counts it as a one-byte load of its
 * address: the line comes into the caches, and the load that needs it
 * later finds it there (docs/cycle-model.md, "bm-model/4"). */
#ifndef BM_ENGINE_PREFETCH_H
#define BM_ENGINE_PREFETCH_H

#include "pub_tool_basics.h"

/* Before the first translation: every guest register is kept up to date
 * at each instruction (Valgrind's --vex-iropt-register-updates=
 * allregs-at-each-insn), where VEX would drop a register's write that a
 * later one overwrites with no read between; a prefetch's base or index
 * is often such a register, its only reader the prefetch VEX dropped. */
void prefetch_init(void);

/* The address a prefetch names: base + (index << scale) + disp, base
 * and index the guest state offsets of general registers (-1: none; a
 * RIP-relative address is disp alone). */
struct prefetch_operand {
	Int base, index;
	UInt scale;
	Long disp;
};

/* When the guest instruction at a (len bytes) is a software prefetch of
 * a memory operand this decoder knows (no FS or GS segment, 64-bit
 * addresses): True, with *op its address. */
Bool prefetch_operand(Addr a, UInt len, struct prefetch_operand *op);

#endif
