/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * fn_hooks.c: callgrind's --zero-before=GLOB and --dump-before=GLOB, and
 * the engine's --clear-before=GLOB.  Entering a function whose name
 * matches (as the engine names it, so demangled unless --demangle=no)
 * zeroes the counts, or dumps them as a part of their own, or empties
 * the simulated caches and predictors, before the entry's block runs.
 * bm-run's gbench harness so takes each run of a Google Benchmark
 * benchmark's timed loop, each from the same empty machine
 * (docs/bm-run.md). */
#ifndef BM_ENGINE_FN_HOOKS_H
#define BM_ENGINE_FN_HOOKS_H

#include "callgraph.h"

#include "libvex_ir.h"

/* Where a superblock starts at a function's entry (the place's fn):
 * adds the hook's call to sb when the function has one. */
void fn_hooks_at_entry(IRSB *sb, const struct fn *fn);

#endif
