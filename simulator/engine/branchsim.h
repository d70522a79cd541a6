/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * branchsim.c: the branch predictor of a modern core, for --branch-sim=yes
 * (Bcm and Bim): a filter of the branches that have only ever gone one
 * way, a TAGE-like predictor of the other conditional branches' direction
 * and an ITTAGE-like one of indirect jumps' and calls' targets (the
 * sizes and why in branchsim.c's Notes).  Deterministic: what it predicts
 * depends only on the branches it was shown since branch_clear. */
#ifndef BM_ENGINE_BRANCHSIM_H
#define BM_ENGINE_BRANCHSIM_H

#include "pub_tool_basics.h"

/* Forgets everything learnt, as the caches are emptied at every start of
 * instrumentation (so that a region's counts do not depend on what ran
 * before it). */
void branch_clear(void);

/* What the predictor knows of the conditional branch at pc, for the
 * translation's inline check: BRANCH_NOT_TAKEN or BRANCH_TAKEN while it
 * has gone only that way since branch_clear (predicted so, correctly,
 * with nothing to learn: the translation calls branch_cond only when the
 * byte is not 1 + taken), else BRANCH_UNSEEN or BRANCH_BOTH.  The pointer
 * stays valid; the byte changes only in branch_cond and branch_clear. */
enum { BRANCH_UNSEEN, BRANCH_NOT_TAKEN, BRANCH_TAKEN, BRANCH_BOTH };
UChar *branch_cond_site(Addr pc);

/* The conditional branch at pc (site: branch_cond_site's) went (taken: to
 * its target) or not: learns it, and returns whether the predictor had
 * said otherwise. */
Bool branch_cond(UChar *site, Addr pc, Bool taken);

/* The same for the indirect jump or call at pc: the only target it has
 * gone to since branch_clear (predicted, correctly, with nothing to
 * learn: the translation calls branch_indirect only when the target is
 * another), or 0 before its first, or BRANCH_TARGETS once it went to two. */
#define BRANCH_TARGETS (~(Addr)0)
Addr *branch_indirect_site(Addr pc);

/* The indirect jump or call at pc went to target (canonical: its
 * canonical address, layout.h, by which the path history is hashed):
 * learns it, and returns whether the predictor had named another
 * target. */
Bool branch_indirect(Addr *site, Addr pc, Addr target, Addr canonical);

#endif
