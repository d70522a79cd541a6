/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * instrument.c: the IR pass (by the settings, settings.h), and the state
 * it translates by (engine.c sets it from the client's requests). */
#ifndef BM_ENGINE_INSTRUMENT_H
#define BM_ENGINE_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "libvex_guest_amd64.h"
#include "pub_tool_tooliface.h"

/* Whether translations are instrumented now (the region is on; from
 * --instr-atstart at the start). */
extern Bool engine_instrumenting;

/* log2 of the simulated I1's line size. */
extern Int engine_i1_line_bits;

/* In place of a system call, with --clock=virtual (engine.c): the result
 * of one the engine answers without the kernel (the virtual clock's,
 * vclock_answer; a thread's wait or turn, threads_answer; a call the
 * host's state refuses, host_state_answer), counted as a system call;
 * or ENGINE_TO_KERNEL; or ENGINE_PARK, when the thread waits and makes
 * its call again on its next turn.  gst: the guest's state
 * (its number in rax, its arguments in rdi, rsi, rdx, r10, r8, r9; a
 * call Valgrind lacks may be rewritten there into one it has, for the
 * kernel); after: the address past it. */
#define ENGINE_TO_KERNEL (~0ULL)
#define ENGINE_PARK (~1ULL)
ULong engine_syscall_in_guest(VexGuestAMD64State *gst, Addr after);

IRSB *engine_instrument(VgCallbackClosure *closure, IRSB *sb_in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy);

#endif
