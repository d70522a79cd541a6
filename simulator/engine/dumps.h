/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * dumps.c: the parts of a run, as callgrind writes them: each dump to
 * --callgrind-out-file with its number (FILE.1, FILE.2, ...), after which
 * the counts start again from zero, and the last part, at the end, to
 * FILE itself. */
#ifndef BM_ENGINE_DUMPS_H
#define BM_ENGINE_DUMPS_H

#include "pub_tool_basics.h"

/* After the options: the file name for this process, and the command line
 * the files name. */
void dumps_init(void);
/* In a forked child: the file name for its pid. */
void dumps_at_fork(void);
/* Writes the counts so far as the next part ("desc: Trigger: KIND", or
 * "KIND: WHAT" when what is not NULL), then zeroes them. */
void dumps_write(const HChar *kind, const HChar *what);
/* Zeroes the counts: what runs next counts from nothing. */
void dumps_zero(void);
/* At the end of the process: the last part. */
void dumps_final(void);

#endif
