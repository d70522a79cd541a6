/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * blockcost.c: what one execution of a superblock costs a modern
 * out-of-order core, in cycles, from the superblock's own IR: the bound
 * of its issue width and execution ports, and the longest dependency
 * chain that runs from a register's value to the same register's next
 * value (a loop-carried chain, which executions of the block cannot
 * overlap).  Computed once per translation; what the block then costs
 * per execution is a constant (bm-model/2's core cycles, docs/
 * cycle-model.md).  Loads are charged as L1 hits here: what a miss adds
 * is the memory model's (cachesim.h), and whether a load sits on such a
 * chain (a pointer chase, whose misses cannot overlap) is said here. */
#ifndef BM_ENGINE_BLOCKCOST_H
#define BM_ENGINE_BLOCKCOST_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* The cost of superblock sb (flat IR, as a tool receives it), spread over
 * its guest instructions in order (one per IMark, n of them): centi[k] is
 * instruction k's share in hundredths of a cycle, in proportion to its
 * own latency, so that a profile charges a division, not the add beside
 * it.  chained[k] is set when instruction k loads through an address
 * that comes from the block's own loop-carried chain (p = p->next).
 * waits, where not NULL, gets for each statement of sb (sb->stmts_used
 * of them) that is a conditional exit the cycles its guard takes from
 * the block's entry: what a misprediction waits beyond its refill
 * (bm-model/3), 0 for every other statement.
 * Returns the block's whole cost in hundredths of a cycle. */
UInt block_cost(const IRSB *sb, UInt n, UInt *centi, Bool *chained, UInt *waits);

/* The core block_cost describes (--core): bm-model/2's (current False),
 * whose division is an AMD Zen 1's, or bm-model/3's (True), a current
 * core's throughout; memory_chains (bm-model/4's): a value that a store
 * of the block hands to the load of the same address earlier in the
 * block, in the next execution, is a loop-carried chain too (the
 * store-to-load forwarding of a counter in memory).  Called once, before
 * the first translation. */
void block_cost_core(Bool current, Bool memory_chains);

#endif
