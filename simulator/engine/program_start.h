/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * program_start.c: the program starts where the dynamic loader leaves
 * off (--skip-loader=yes).  Before that, the loader finds and maps the
 * libraries, and that work depends on the host: /etc/ld.so.cache (one
 * more package installed, a larger cache to search), the directories of
 * LD_LIBRARY_PATH.  Where the first instruction outside the loader first
 * runs (an IFUNC resolver during relocation, a library's constructor, or
 * the program's own entry point for a static one), the counts so far are
 * zeroed, the simulated caches and predictors emptied, as at a start of
 * instrumentation, and the virtual clock starts again: nothing the loader
 * did before is counted, takes time or leaves a trace in the models.
 * The libraries' constructors, and the loader's later work (a dlopen, a
 * lazy binding), are the program's and count. */
#ifndef BM_ENGINE_PROGRAM_START_H
#define BM_ENGINE_PROGRAM_START_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* At the first translation (nothing ran yet): finds the main thread's
 * dynamic loader. */
void program_start_init(ThreadId tid);

/* Whether a superblock that starts at a starts the program: the first
 * code outside the loader, the program not started yet. */
Bool program_start_is(Addr a);

/* Whether a superblock that starts at a is the loader's, the program not
 * started yet: its translation counts nothing (what it would count is
 * zeroed at the start), and begins with program_start_lean_entry's. */
Bool program_start_in_loader(Addr a);

/* Adds to sb, which starts at a, what ends such a translation's life:
 * once the program has started, its first run discards every translation
 * of the loader's (as Valgrind discards code that was written to), and
 * the block runs again from a new translation, which counts.  Nothing
 * ran or counted before. */
void program_start_lean_entry(IRSB *sb, Addr a);

/* Where a superblock starts at a: where it starts the program, adds the
 * call that marks the program's start to sb. */
void program_start_at_block(IRSB *sb, Addr a);

#endif
