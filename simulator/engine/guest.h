/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * guest.h: what the virtual clock (vclock.c), the timers and threads,
 * and the fixed host state (host_state.h and its parts) need to change a
 * system call's answer: whether the guest's memory may be touched, its
 * times read and written, the call's result register, and the system
 * calls the engine makes itself; and what heap counting (heap.c) reads
 * of the guest's memory, with the same check. */
#ifndef BM_ENGINE_GUEST_H
#define BM_ENGINE_GUEST_H

#include "libvex_guest_offsets.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_vki.h"

/* Whether the guest has len bytes at a with protection prot (VKI_PROT_*). */
static inline Bool guest_may(Addr a, SizeT len, UInt prot)
{
	return a && len && VG_(am_is_valid_for_client)(a, len, prot);
}

/* Reads the guest's struct timespec at a into ns; False where it is not
 * the guest's to read or not a valid time (negative, tv_nsec past 1e9). */
static inline Bool guest_read_timespec(Addr a, ULong *ns)
{
	if (!guest_may(a, sizeof(struct vki_timespec), VKI_PROT_READ))
		return False;
	const struct vki_timespec *t = (const struct vki_timespec *)a;
	if (t->tv_sec < 0 || t->tv_nsec < 0 || t->tv_nsec >= 1000000000L)
		return False;
	*ns = (ULong)t->tv_sec * 1000000000ULL + (ULong)t->tv_nsec;
	return True;
}

/* Writes ns as the guest's struct timespec (timeval) at a, where the
 * guest may write it. */
static inline void guest_put_timespec(Addr a, ULong ns)
{
	if (guest_may(a, sizeof(struct vki_timespec), VKI_PROT_WRITE)) {
		struct vki_timespec *ts = (struct vki_timespec *)a;
		ts->tv_sec = (vki_time_t)(ns / 1000000000ULL);
		ts->tv_nsec = (long)(ns % 1000000000ULL);
	}
}

static inline void guest_put_timeval(Addr a, ULong ns)
{
	if (guest_may(a, sizeof(struct vki_timeval), VKI_PROT_WRITE)) {
		struct vki_timeval *tv = (struct vki_timeval *)a;
		tv->tv_sec = (vki_time_t)(ns / 1000000000ULL);
		tv->tv_usec = (vki_suseconds_t)(ns / 1000 % 1000000);
	}
}

/* Valgrind's core: a system call the engine makes itself (a timer's
 * signal, a virtual file's memfd), which its tool library has no function
 * for. */
extern SysRes VG_(do_syscall)(UWord sysno, RegWord a1, RegWord a2, RegWord a3, RegWord a4, RegWord a5,
			      RegWord a6, RegWord a7, RegWord a8);

/* Sets the result of thread tid's system call (rax), after the kernel's. */
static inline void guest_set_result(ThreadId tid, ULong v)
{
	VG_(set_shadow_regs_area)(tid, 0, OFFSET_amd64_RAX, sizeof v, (const UChar *)&v);
}

#endif
