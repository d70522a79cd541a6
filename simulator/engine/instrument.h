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

/* In place of a system call, with --clock=virtual (engine.c): the result
 * of one the virtual clock answers without the kernel (vclock_answer),
 * counted as a system call, or ENGINE_TO_KERNEL.  sysno, a0 and a1: the
 * call's number and first arguments; after: the address past it. */
#define ENGINE_TO_KERNEL (~0ULL)
ULong engine_syscall_in_guest(UWord sysno, UWord a0, UWord a1, Addr after);

IRSB *engine_instrument(VgCallbackClosure *closure, IRSB *sb_in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy);

#endif
