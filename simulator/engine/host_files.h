/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * host_files.c: the host files that change with time or by chance
 * (proc_texts.h has which, and what they read), virtual by the open
 * file: when one is opened for reading, by any path the kernel resolves
 * to it, its descriptor is swapped for one of the engine's, a file in
 * memory holding its fixed text, so that every way of reading it (read,
 * pread, readv, preadv, sendfile, splice, mmap, lseek) and every copy of
 * the descriptor (dup, dup2, dup3, fcntl, fork, exec) reads that text,
 * and nothing else is touched (--clock=virtual; docs/engine.md, "What
 * the program sees"). */
#ifndef BM_ENGINE_HOST_FILES_H
#define BM_ENGINE_HOST_FILES_H

#include "pub_tool_basics.h"

/* After thread tid's open, openat or openat2 returned descriptor fd. */
void host_files_opened(ThreadId tid, Int fd);

#endif
