/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * file_times.c: file times on the virtual clock (--clock=virtual;
 * docs/engine.md, "What the program sees"), as stat, fstat, lstat,
 * newfstatat and statx give them.  A file's access, modification, status
 * change or birth time:
 *
 *   that the host set since the process started (a file the program
 *     made or wrote, and anything the host did meanwhile): the virtual
 *     time at which the engine first saw it so;
 *   from before it, later than the virtual now (a file from after
 *     2020-01-01): the virtual clock's start, 2020-01-01T00:00:00Z, so
 *     that nothing the program finds is from its future and what it
 *     makes is newer than what it found;
 *   any other (older, or set ahead by utimensat): as it is.
 *
 * An access time later than the modification time reads as it. */
#ifndef BM_ENGINE_FILE_TIMES_H
#define BM_ENGINE_FILE_TIMES_H

#include "pub_tool_basics.h"

/* After each system call of thread tid (from the process's first). */
void file_times_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res);

#endif
