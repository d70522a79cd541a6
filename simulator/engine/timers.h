/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * timers.c: the program's timers on the virtual clock (--clock=virtual).
 * alarm, setitimer and getitimer (ITIMER_REAL on the wall clocks,
 * ITIMER_VIRTUAL and ITIMER_PROF on the process's CPU clock), the POSIX
 * timers (timer_create, timer_settime, timer_gettime, timer_getoverrun,
 * timer_delete, on CLOCK_REALTIME, MONOTONIC, BOOTTIME and the CPU
 * clocks) and timerfd (timerfd_settime, timerfd_gettime and read, on the
 * descriptors timerfd_create made) are answered by the engine, without
 * the kernel, which never arms them: their deadlines are the virtual
 * clock's, absolute ones too.  A timer that expires sends its signal
 * (SIGALRM, SIGVTALRM, SIGPROF, or the sigevent's, with its value and
 * overrun) where the engine next sees the clock: each time the running
 * thread comes back to Valgrind's scheduler, and when every thread waits
 * (threads.c moves the clock to the first deadline, a timer's or a
 * wait's).  A thread that waited in the engine when its process's timer
 * fires is woken with EINTR, as the kernel's sleeps are. */
#ifndef BM_ENGINE_TIMERS_H
#define BM_ENGINE_TIMERS_H

#include "pub_tool_basics.h"

/* A system call of thread tid the timers answer (engine.c's in-guest
 * answers): True with its result in *res, or with *park when a blocking
 * read of a timerfd waits; False: the kernel's. */
Bool timers_answer(ThreadId tid, UWord sysno, const UWord a[6], ULong *res, Bool *park);

/* After the kernel's answer to a system call: the descriptors timerfd
 * made, and what became of them (copied, closed). */
void timers_post_syscall(UWord sysno, const UWord *args, SysRes res);

/* In a fork's child: the parent's itimers and POSIX timers are not its. */
void timers_at_fork_child(void);

/* The first deadline of an armed timer on a wall clock, as
 * CLOCK_MONOTONIC's ns; 0 when none is armed. */
ULong timers_next_wall(void);

/* Sends the signals of every timer that has expired by now, thread tid
 * running (a signal of the process goes to it). */
void timers_fire(ThreadId tid);

#endif
