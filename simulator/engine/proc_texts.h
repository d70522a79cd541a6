/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * proc_texts.c: what the host files that change with time or by chance
 * read under the engine (--clock=virtual; docs/engine.md, "What the
 * program sees"), by the path the kernel resolved:
 *
 *   /proc/loadavg      "0.00 0.00 0.00 1/1 1"
 *   /proc/uptime       the virtual monotonic seconds, no idle time
 *   /proc/stat         one busy CPU (the process's CPU time) among the
 *                      host's number of them, booted a second before the
 *                      virtual clock's start; no interrupts, one process
 *   /proc/meminfo      the host's sizes, all of it free, nothing in use
 *   /proc/cpuinfo      the host's, each "cpu MHz" value's first digit 3
 *                      and the others 0, its width kept
 *   /proc/PID/stat, /proc/PID/task/TID/stat (this process's)
 *                      the host's line, its CPU time the virtual one, no
 *                      faults, started at the virtual clock's start, on
 *                      CPU 0
 *   /proc/PID/schedstat, /proc/PID/task/TID/schedstat
 *                      the thread's virtual CPU time, no wait, 1 slice
 *   /proc/sys/kernel/random/uuid     a UUID from the fixed random stream
 *   /proc/sys/kernel/random/boot_id  a fixed UUID */
#ifndef BM_ENGINE_PROC_TEXTS_H
#define BM_ENGINE_PROC_TEXTS_H

#include "pub_tool_basics.h"

/* A text in the engine's memory. */
struct text {
	HChar *s;
	SizeT len, cap;
};

/* For thread tid, which opened path (as the kernel resolved it) as fd,
 * at its start: whether it is one of the files above, with its text in
 * *t (released with proc_text_release).  The host's file, where the text
 * is made from it, is read through fd, which is left at its start. */
Bool proc_text_make(ThreadId tid, const HChar *path, Int fd, struct text *t);

void proc_text_release(struct text *t);

#endif
