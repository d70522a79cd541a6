/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * instrument.c: the IR pass, and the settings it translates by (engine.c
 * sets them from the options and the client's requests). */
#ifndef BM_ENGINE_INSTRUMENT_H
#define BM_ENGINE_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Whether translations are instrumented now (the region is on). */
extern Bool engine_instrumenting;
/* --block-cost=yes (bm-model/2): the core's cycles from each block's
 * own code (Cc) and the misses of loads on a loop-carried chain; --L2:
 * the simulator has an L2, whose misses are counted. */
extern Bool engine_block_cost;
extern Bool engine_l2;

/* log2 of the simulated I1's line size. */
extern Int engine_i1_line_bits;

IRSB *engine_instrument(VgCallbackClosure *closure, IRSB *sb_in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy);

#endif
