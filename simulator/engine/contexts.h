/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * contexts.c: --collect-in, per-function collection in the run itself.
 * While a call of a collected function is in progress, every function
 * called is charged as itself within a context: the collected functions
 * whose calls are in progress.  Its records (the instruction records of a
 * function within a context, and their calls) are those of callgrind's
 * --toggle-collect run of each function of the context, so one run gives
 * every collected function's profile (output.c), and the run's own
 * profile is all records, each function's contexts added up. */
#ifndef BM_ENGINE_CONTEXTS_H
#define BM_ENGINE_CONTEXTS_H

#include "pub_tool_basics.h"

struct fn; /* callgraph.h */

/* The collected functions whose calls are in progress: this one (in), and
 * those of up.  Interned: one per chain. */
struct cxt {
	struct cxt *next; /* VgHashNode: next in the bucket, */
	UWord key;        /* and the key (of up and in) */
	const struct cxt *up;
	const struct fn *in;
};

void contexts_init(void);
/* The --collect-in index of a function named name, or -1. */
Int contexts_index(const HChar *name);
/* The function called as callee (a function of no context) from a call in
 * context c: callee within c, and within callee too when it is collected
 * (callee itself when that leaves no context). */
const struct fn *contexts_callee(const struct fn *callee, const struct cxt *c);

#endif
