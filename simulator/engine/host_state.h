/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * host_state.c: what a program reads of the host's state that changes
 * with time or by chance, fixed along with the clock (--clock=virtual;
 * docs/engine.md, "What the program sees"), so that a program that
 * prints or uses it (Google Benchmark prints its load and frequency)
 * counts the same in every run:
 *
 *   sysinfo          loads 0, uptime the virtual monotonic seconds, 1
 *                    process, all memory and swap free
 *   adjtimex, clock_adjtime(CLOCK_REALTIME)
 *                    the virtual time, synchronised, no offset or error
 *   the host's files that change (/proc/loadavg, /proc/stat, ...):
 *                    host_files.h
 *   file times the run set: file_times.h
 *   random numbers (getrandom, /dev/urandom, AT_RANDOM, rdrand):
 *                    host_random.h
 *
 * The answers are rewritten after the kernel gave them, but for the few
 * calls refused in its place (host_state_answer). */
#ifndef BM_ENGINE_HOST_STATE_H
#define BM_ENGINE_HOST_STATE_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* After each system call of thread tid (engine.c's wrapper, with
 * --clock=virtual). */
void host_state_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res);

/* In place of system call sysno of thread tid (engine_syscall_in_guest,
 * with --clock=virtual): True, and its result in *res, where the engine
 * answers it. */
Bool host_state_answer(ThreadId tid, UWord sysno, const UWord *args, ULong *res);

/* A dirty call of every translation: rdrand's and rdseed's helpers
 * become the random stream's (with --clock=virtual). */
void host_state_fix_dirty(IRDirty *d);

/* Before the program's first instruction: AT_RANDOM's bytes (the stack
 * guard's value lies in every protected frame, and string functions read
 * past a string's end into such memory), and which inherited descriptors
 * are random devices. */
void host_state_program_start(void);

#endif
