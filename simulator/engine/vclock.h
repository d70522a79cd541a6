/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * vclock.c: the virtual clock (--clock=virtual; docs/engine.md).  Every
 * way a program reads time answers from a clock that starts at a fixed
 * instant and advances with the simulated cycles at --clock-hz: in the
 * measured region the events counted, each weighed as --clock-cost says
 * (bm-run gives the cost model's weights), outside it one cycle per
 * instruction; plus what the program asked to sleep or waited for until
 * a timeout, and a microsecond for each reading of the time (the wall
 * clocks only):
 *
 *   clock_gettime   REALTIME (and _COARSE, TAI) from 2020-01-01T00:00:00Z,
 *                   MONOTONIC (_RAW, _COARSE, BOOTTIME) from 1 s, the
 *                   process's and the thread's CPU clocks from 0
 *   gettimeofday, time, times, getrusage (ru_utime; ru_stime 0)
 *   rdtsc, rdtscp   the cycles so far (TSC_AUX 0)
 *
 * (The host's state that changes with time, such as its load, is fixed
 * along with it: host_state.h.)
 *
 * Under Valgrind a program calls the kernel for time (no vDSO): the
 * calls the vDSO answers natively (clock_gettime, gettimeofday, time)
 * are answered in its place, without the kernel (vclock_answer), the
 * others rewritten after the kernel's answer; rdtsc's VEX helper is
 * replaced.  A sleep still takes its real time: Valgrind runs the
 * call. */
#ifndef BM_ENGINE_VCLOCK_H
#define BM_ENGINE_VCLOCK_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* The virtual clock's fixed instants, in seconds since the epoch: its
 * REALTIME starts at 2020-01-01T00:00:00Z, and the virtual machine booted
 * a second before (what /proc and file times say of them). */
#define VCLOCK_REALTIME_START_S 1577836800ULL
#define VCLOCK_BOOT_S (VCLOCK_REALTIME_START_S - 1)

/* The guest instructions executed outside the measured region, by every
 * thread, counted inline at each superblock's start; never reset. */
extern ULong vclock_ticks;

/* After the options: sets up the per-thread clocks. */
void vclock_init(void);

/* The statements that count a superblock of ninstrs instructions outside
 * the measured region, added to sb where it starts. */
void vclock_count_block(IRSB *sb, UInt ninstrs);

/* Valgrind runs one thread at a time: tid starts running (after the call
 * graph has made its totals engine_total), stops, or is created. */
void vclock_thread_start(ThreadId tid);
void vclock_thread_stop(ThreadId tid);
void vclock_thread_created(ThreadId child);

/* Replaces VEX's rdtsc and rdtscp helpers in d by the virtual clock's. */
void vclock_fix_tsc(IRDirty *d);

/* In place of system call sysno of thread tid, with its first two
 * arguments: answers clock_gettime (of a clock the virtual clock has),
 * gettimeofday (the timezone UTC) and time as the kernel would, without
 * it, sets *res to the call's result, and moves the wall clocks on by
 * the reading's cost; False where the kernel must answer (another call
 * or clock, or memory the call may not write: the kernel's error). */
Bool vclock_answer(ThreadId tid, UWord sysno, UWord a0, UWord a1, ULong *res);

/* Around each system call (engine.c's wrappers, with --clock=virtual). */
void vclock_pre_syscall(ThreadId tid, UInt sysno, const UWord *args);
void vclock_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res);

/* Whether the clock answers system call sysno wholly (clock_gettime,
 * gettimeofday, time, times, getrusage): the kernel's time for it is not
 * what the program sees, so it is not measured (engine.c). */
Bool vclock_answers(UInt sysno);

/* CLOCK_MONOTONIC's time now, in nanoseconds. */
ULong vclock_monotonic_ns(void);

/* Clock id's time now for thread tid, in nanoseconds: False for an id
 * the clock does not know. */
Bool vclock_now(Int clock, ThreadId tid, ULong *ns);

/* Every thread waits until CLOCK_MONOTONIC reads monotonic_ns (no thread
 * can run: the wall clocks move there, as a sleep moves them). */
void vclock_wait_until(ULong monotonic_ns);

/* In a forked child: its process CPU clock starts at zero. */
void vclock_at_fork_child(ThreadId tid);

/* At the program's entry point (entry.h), thread tid running: every
 * clock reads as at its start again (nothing read it before: the loader
 * does not), so that what the loader did before takes no time. */
void vclock_restart(ThreadId tid);

#endif
