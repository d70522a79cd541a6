/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * guest.h: what the virtual clock (vclock.c) and the fixed host state
 * (host_state.c) need to change a system call's answer: whether the
 * guest's memory may be touched, and the call's result register; and
 * what heap counting (heap.c) reads of the guest's memory, with the same
 * check. */
#ifndef BM_ENGINE_GUEST_H
#define BM_ENGINE_GUEST_H

#include "libvex_guest_offsets.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_basics.h"
#include "pub_tool_machine.h"

/* Whether the guest has len bytes at a with protection prot (VKI_PROT_*). */
static inline Bool guest_may(Addr a, SizeT len, UInt prot)
{
	return a && len && VG_(am_is_valid_for_client)(a, len, prot);
}

/* Sets the result of thread tid's system call (rax), after the kernel's. */
static inline void guest_set_result(ThreadId tid, ULong v)
{
	VG_(set_shadow_regs_area)(tid, 0, OFFSET_amd64_RAX, sizeof v, (const UChar *)&v);
}

#endif
