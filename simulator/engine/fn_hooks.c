/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "fn_hooks.h"

#include "branchsim.h"
#include "cachesim.h"
#include "dumps.h"
#include "settings.h"

#include "pub_tool_machine.h"
#include "pub_tool_seqmatch.h"

static Bool matches(const HChar *const *globs, Int n, const HChar *name)
{
	for (Int i = 0; i < n; i++)
		if (VG_(string_match)(globs[i], name))
			return True;
	return False;
}

/* What a hooked function's entry does, in this order. */
enum { HOOK_CLEAR = 1, HOOK_DUMP = 2, HOOK_ZERO = 4 };

/* The superblock at the entry starts: nothing of it is counted yet, and
 * what the blocks before it counted is settled first, as a client
 * request's dump does.  The call in progress (the function's own, which
 * the call graph entered at its call) counts from here.  A clear empties
 * the caches and makes the predictors forget, as at every start of
 * instrumentation: what ran before the entry leaves nothing there. */
static VG_REGPARM(2) void at_entry(const struct fn *fn, UWord what)
{
	callgraph_settle();
	if (what & HOOK_CLEAR) {
		sim_clear();
		branch_clear();
	}
	if (what & HOOK_DUMP)
		dumps_write("Function entry", fn->name);
	else if (what & HOOK_ZERO)
		dumps_zero();
}

void fn_hooks_at_entry(IRSB *sb, const struct fn *fn)
{
	if (!fn || !fn->name)
		return;
	UWord what = 0;
	if (matches(clo.clear_before, clo.nclear_before, fn->name))
		what |= HOOK_CLEAR;
	if (matches(clo.dump_before, clo.ndump_before, fn->name))
		what |= HOOK_DUMP;
	else if (matches(clo.zero_before, clo.nzero_before, fn->name))
		what |= HOOK_ZERO;
	if (!what)
		return;
	IRDirty *di = unsafeIRDirty_0_N(2, "bm_at_entry", VG_(fnptr_to_fnentry)(at_entry),
					mkIRExprVec_2(mkIRExpr_HWord((HWord)fn), mkIRExpr_HWord(what)));
	addStmtToIRSB(sb, IRStmt_Dirty(di));
}
