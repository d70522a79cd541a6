/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * instrument.c: the IR pass (by the settings, settings.h), and the state
 * it translates by (engine.c sets it from the client's requests). */
#ifndef BM_ENGINE_INSTRUMENT_H
#define BM_ENGINE_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Whether translations are instrumented now (the region is on; from
 * --instr-atstart at the start). */
extern Bool engine_instrumenting;

/* log2 of the simulated I1's line size. */
extern Int engine_i1_line_bits;

IRSB *engine_instrument(VgCallbackClosure *closure, IRSB *sb_in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy);

#endif
