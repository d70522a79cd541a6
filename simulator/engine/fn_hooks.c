/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "fn_hooks.h"

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

/* The superblock at the entry starts: nothing of it is counted yet, and
 * what the blocks before it counted is settled first, as a client
 * request's dump does.  The call in progress (the function's own, which
 * the call graph entered at its call) counts from here. */
static VG_REGPARM(1) void zero_before(const struct fn *fn)
{
	(void)fn;
	callgraph_settle();
	dumps_zero();
}

static VG_REGPARM(1) void dump_before(const struct fn *fn)
{
	callgraph_settle();
	dumps_write("Function entry", fn->name);
}

void fn_hooks_at_entry(IRSB *sb, const struct fn *fn)
{
	void *hook = NULL;
	const HChar *name = NULL;
	if (!fn || !fn->name)
		return;
	if (matches(clo.dump_before, clo.ndump_before, fn->name)) {
		hook = dump_before;
		name = "bm_dump_before";
	} else if (matches(clo.zero_before, clo.nzero_before, fn->name)) {
		hook = zero_before;
		name = "bm_zero_before";
	} else {
		return;
	}
	IRDirty *di = unsafeIRDirty_0_N(1, name, VG_(fnptr_to_fnentry)(hook), mkIRExprVec_1(mkIRExpr_HWord((HWord)fn)));
	addStmtToIRSB(sb, IRStmt_Dirty(di));
}
