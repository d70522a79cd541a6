/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * host_state.c: what a program reads of the host's state that changes
 * with time or by chance, fixed along with the clock (--clock=virtual; docs/engine.md),
 * so that a program that prints or uses it (Google Benchmark prints both)
 * counts the same in every run:
 *
 *   sysinfo          loads 0, uptime the virtual monotonic seconds, 1 process
 *   /proc/loadavg    "0.00 0.00 0.00 1/1 1"
 *   /proc/uptime     the virtual monotonic seconds, no idle time
 *   /proc/cpuinfo    each "cpu MHz" value's first digit 3 and the others 0,
 *                    its width kept ("1996.250" reads "3000.000")
 *   getrandom, /dev/urandom, /dev/random, AT_RANDOM (the stack guard's
 *                    and pointer mangling's 16 bytes)
 *                    the same bytes in every run (a fixed stream)
 *
 * Each answer is rewritten after the kernel gave it. */
#ifndef BM_ENGINE_HOST_STATE_H
#define BM_ENGINE_HOST_STATE_H

#include "pub_tool_basics.h"

/* After each system call of thread tid (engine.c's wrapper, with
 * --clock=virtual); the uptime is the virtual clock's. */
void host_state_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res);

/* Before the program's first instruction: AT_RANDOM's bytes (the stack
 * guard's value lies in every protected frame, and string functions read
 * past a string's end into such memory). */
void host_state_fix_at_random(void);

#endif
