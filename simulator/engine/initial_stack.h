/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * initial_stack.c: the main thread's first stack pointer at a page
 * boundary, whatever the sizes of the program's arguments and
 * environment (--layout=canonical).  The kernel, and Valgrind as it, put
 * argc, argv, envp and the auxiliary vector right below their strings, so
 * that one more byte in an argument (another --benchmark_filter) moves
 * every stack address of the run and with it the L1 sets of every frame.
 * Before the program's first instruction, those vectors move down to the
 * page boundary below them, and the stack pointer with them: the strings
 * stay where they are, so every pointer in the vectors stays right.
 * (libbm pins its benchmarks' stack pointers again, modulo 1 MiB.) */
#ifndef BM_ENGINE_INITIAL_STACK_H
#define BM_ENGINE_INITIAL_STACK_H

#include "pub_tool_basics.h"

/* Pins thread tid's stack (the main thread, before it ran): returns its
 * stack pointer, moved or not (vectors it cannot read or move: left). */
Addr initial_stack_pin(ThreadId tid);

/* The value of the auxiliary vector's entry of type (AT_ENTRY: 9) on
 * thread tid's initial stack (before it ran), or 0 where there is none. */
Addr initial_stack_aux(ThreadId tid, ULong type);

#endif
