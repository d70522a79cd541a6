/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * threads.c: threads, repeatable (--clock=virtual).  Valgrind runs one
 * thread at a time, but which one runs after another depends on the
 * kernel: when a thread waits in a futex, when its time slice ends and
 * who takes Valgrind's lock then.  Once a program has a second thread,
 * the engine decides instead:
 *
 * - Every translation starts with a check (one load; with one thread
 *   always passed): a thread that is not the chosen one runs none of its
 *   code and gives up its turn (Ijk_Yield), however the kernel hands
 *   Valgrind's lock around.  The chosen thread runs QUANTUM superblocks,
 *   then the next runnable one (by thread id, round the ring) is
 *   chosen.
 * - The program's futex calls (WAIT, WAKE, REQUEUE, WAKE_OP and their
 *   bitset forms: every pthread mutex, condition variable, barrier, join
 *   and semaphore) are answered by the engine, without the kernel: a
 *   thread that waits is no longer runnable, and becomes so when another
 *   wakes it (waiters in the order they came), or when the virtual clock
 *   reaches its timeout.  sched_yield gives the turn to the next thread,
 *   nanosleep and clock_nanosleep wait on the virtual clock.
 * - A thread's exit clears its CLONE_CHILD_CLEARTID word and wakes who
 *   waits on it (pthread_join) where it exits, as the kernel does later.
 * - When no thread can run, the virtual clock moves to the first
 *   timeout.
 *
 * So a program whose threads do the same work in every run counts the
 * same events in every run.  Outside the promise, said by
 * threads_nondeterministic (and in the dump, so in the report): a thread
 * that waits in the kernel for another (a pipe, a socket, a
 * process-shared or priority-inheriting futex) longer than a second,
 * after which the turn goes round as the kernel decides, and threads that
 * all wait on each other (a deadlock, which the kernel then holds). */
#ifndef BM_ENGINE_THREADS_H
#define BM_ENGINE_THREADS_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* Whether the program has had a second thread (from then on the turns
 * are the engine's). */
extern Bool threads_many;

/* Why the order of turns was the kernel's for a while since the last
 * dump (a thread waited in the kernel for another for too long, naming
 * the call), or NULL: it was the engine's throughout. */
const HChar *threads_nondeterministic(void);
/* At a dump's zeroing of the counts. */
void threads_nondeterministic_clear(void);

/* After the options; next_wall and fire are the virtual clock's other
 * deadlines (timers.c, which parks and wakes threads here): the first
 * one's wall time (0: none), and what delivers those that are due, at a
 * stop of thread tid. */
void threads_init(ULong (*next_wall)(void), void (*fire)(ThreadId tid));

/* Valgrind's thread events (engine.c). */
void threads_created(ThreadId parent, ThreadId child);
void threads_exiting(ThreadId tid);
void threads_start(ThreadId tid, ULong blocks);
void threads_stop(ThreadId tid, ULong blocks);
void threads_pre_syscall(ThreadId tid, UInt sysno, const UWord *args);
void threads_post_syscall(ThreadId tid, UInt sysno);

/* Where a superblock starts at a (its first statement): the check of the
 * running thread's turn. */
void threads_at_block(IRSB *sb, Addr a);

/* A thread that waits in the engine (a futex, a sleep) when a signal is
 * sent to it: woken, its call answering EINTR. */
void threads_interrupt(ThreadId tid);

/* Thread tid waits until CLOCK_MONOTONIC's deadline (its turn goes on);
 * its call, made again, learns how it ended from threads_resume: True
 * with *res 0 (the deadline) or -EINTR, once woken; False before. */
void threads_sleep(ThreadId tid, ULong deadline);
Bool threads_resume(ThreadId tid, ULong *res);

/* How long the wait of the call thread tid just made again took, on the
 * virtual clock (0 when it did not wait); read once. */
ULong threads_waited(ThreadId tid);

/* A system call the engine answers without the kernel (instrument.c's
 * answer_in_guest): True with its result in *res, or with *park set
 * when the thread waits (it gives up its turn, and its call is made
 * again on its next one); False: the kernel's. */
Bool threads_answer(ThreadId tid, UWord sysno, const UWord a[6], ULong *res, Bool *park);

#endif
