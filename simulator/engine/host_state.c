/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "host_state.h"

#include "file_times.h"
#include "guest.h"
#include "host_files.h"
#include "host_random.h"
#include "settings.h"
#include "vclock.h"

#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define NS 1000000000ULL

void host_state_program_start(void)
{
	host_random_inherited();
	/* The initial stack: argc, argv and a NULL, the environment and a
	 * NULL, then the auxiliary vector's (type, value) pairs. */
	Addr sp = VG_(get_SP)(1);
	if (!guest_may(sp, sizeof(UWord), VKI_PROT_READ))
		return;
	const UWord *w = (const UWord *)sp;
	UWord i = 1 + w[0] + 1; /* past argc, argv and its NULL */
	while (guest_may(sp + i * sizeof(UWord), sizeof(UWord), VKI_PROT_READ) && w[i])
		i++;
	for (i++; guest_may(sp + (i + 1) * sizeof(UWord), sizeof(UWord), VKI_PROT_READ) && w[i] != 0; i += 2)
		if (w[i] == 25) { /* AT_RANDOM: 16 bytes for the stack guard and pointer mangling */
			host_random_fill(w[i + 1], 16);
			return;
		}
}

/* struct sysinfo (x86-64): uptime, loads[3] at 8, totalram, freeram,
 * sharedram, bufferram, totalswap, freeswap at 32 to 72, procs (16 bits)
 * at 80, totalhigh, freehigh at 88 and 96.  The machine runs the program
 * alone: its memory's size is the host's, all of it free. */
static void fix_sysinfo(Addr info)
{
	if (!guest_may(info, 104, VKI_PROT_READ | VKI_PROT_WRITE))
		return;
	ULong *w = (ULong *)info;
	w[0] = vclock_monotonic_ns() / NS;
	w[1] = w[2] = w[3] = 0;
	w[5] = w[4];
	w[6] = w[7] = 0;
	w[9] = w[8];
	*(UShort *)(info + 80) = 1;
	w[12] = w[11];
}

/* struct timex: the virtual time, synchronised (no STA_UNSYNC), with no
 * offset, frequency correction or error; the kernel's constants (its
 * tolerance, 500 ppm scaled by 2^16; a tick of 1/100 s); TAI 37 s ahead,
 * as CLOCK_TAI.  STA_NANO stays as the kernel has it: it says whether
 * time.tv_usec holds nanoseconds. */
#define STA_NANO 0x2000
#define TIMEX_TAI_AT 160
static void fix_timex(ThreadId tid, Addr a)
{
	if (!guest_may(a, TIMEX_TAI_AT + sizeof(Int), VKI_PROT_READ | VKI_PROT_WRITE))
		return;
	struct vki_timex *t = (struct vki_timex *)a;
	ULong ns = 0;
	vclock_now(VKI_CLOCK_REALTIME, tid, &ns);
	Int nano = t->status & STA_NANO;
	*t = (struct vki_timex){.modes = t->modes, .status = nano, .constant = 2, .precision = 1,
				.tolerance = 500L << 16, .tick = 10000};
	t->time.tv_sec = (vki_time_t)(ns / NS);
	t->time.tv_usec = (vki_suseconds_t)(nano ? ns % NS : ns % NS / 1000);
	*(Int *)(a + TIMEX_TAI_AT) = 37;
	guest_set_result(tid, 0); /* TIME_OK */
}

void host_state_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res)
{
	file_times_post_syscall(tid, sysno, args, res);
	host_random_post_syscall(sysno, args, res);
	if (sr_isError(res))
		return;
	switch (sysno) {
	case __NR_open:
	case __NR_openat: /* (openat2: Valgrind 3.19 answers ENOSYS) */
		host_files_opened(tid, (Int)sr_Res(res));
		break;
	case __NR_sysinfo:
		fix_sysinfo(args[0]);
		break;
	case __NR_adjtimex:
		fix_timex(tid, args[0]);
		break;
	case __NR_clock_adjtime:
		if (args[0] == VKI_CLOCK_REALTIME)
			fix_timex(tid, args[1]);
		break;
	default:
		break;
	}
}

Bool host_state_answer(ThreadId tid, UWord sysno, const UWord *args, ULong *res)
{
	(void)tid;
	return host_random_answer(sysno, args, res);
}

void host_state_fix_dirty(IRDirty *d)
{
	if (clo.clock_virtual)
		host_random_fix_rdrand(d);
}
