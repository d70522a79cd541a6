/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "program_start.h"

#include "branchsim.h"
#include "cachesim.h"
#include "callgraph.h"
#include "dumps.h"
#include "initial_stack.h"
#include "instrument.h"
#include "settings.h"
#include "vclock.h"

#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "libvex_guest_amd64.h"

#define AT_BASE 7

static Bool waiting;   /* for the program's start (--skip-loader) */
static HChar *loader;  /* the loader's file, or NULL: a static program */
static Addr loader_base, loader_end; /* its mappings, contiguous */

/* The file segment a lies in, if the program's. */
static const HChar *client_file(Addr a, Bool *client)
{
	NSegment const *seg = VG_(am_find_nsegment)(a);
	*client = seg && (seg->kind == SkFileC || seg->kind == SkAnonC || seg->kind == SkShmC);
	return *client && seg->kind == SkFileC ? VG_(am_get_filename)(seg) : NULL;
}

void program_start_init(ThreadId tid)
{
	if (!clo.skip_loader)
		return;
	waiting = True;
	Addr base = initial_stack_aux(tid, AT_BASE);
	Bool client;
	const HChar *name = base ? client_file(base, &client) : NULL;
	if (name) {
		loader = VG_(strdup)("bm.start", name);
		loader_base = loader_end = base;
		while (program_start_in_loader(loader_end))
			loader_end = VG_(am_find_nsegment)(loader_end)->end + 1;
	}
}

static Bool is_loader(const HChar *name)
{
	return loader && name && !VG_(strcmp)(name, loader);
}

Bool program_start_is(Addr a)
{
	if (!waiting)
		return False;
	Bool client;
	const HChar *name = client_file(a, &client);
	return client && !is_loader(name);
}

Bool program_start_in_loader(Addr a)
{
	if (!waiting)
		return False;
	Bool client;
	return is_loader(client_file(a, &client));
}

void program_start_lean_entry(IRSB *sb, Addr a)
{
	/* Started: no longer waiting (a Bool, one byte). */
	IRTemp now = newIRTemp(sb->tyenv, Ity_I8), yes = newIRTemp(sb->tyenv, Ity_I1);
	IRExpr *flag = mkIRExpr_HWord((HWord)&waiting);
	addStmtToIRSB(sb, IRStmt_WrTmp(now, IRExpr_Load(Iend_LE, Ity_I8, flag)));
	addStmtToIRSB(sb, IRStmt_WrTmp(yes, IRExpr_Binop(Iop_CmpEQ8, IRExpr_RdTmp(now), IRExpr_Const(IRConst_U8(0)))));
	/* What to discard, which Valgrind reads only where the exit is taken. */
	addStmtToIRSB(sb, IRStmt_Put(offsetof(VexGuestAMD64State, guest_CMSTART), mkIRExpr_HWord(loader_base)));
	addStmtToIRSB(sb, IRStmt_Put(offsetof(VexGuestAMD64State, guest_CMLEN),
				     mkIRExpr_HWord(loader_end - loader_base)));
	addStmtToIRSB(sb, IRStmt_Exit(IRExpr_RdTmp(yes), Ijk_InvalICache, IRConst_U64(a),
				      offsetof(VexGuestAMD64State, guest_RIP)));
}

static VG_REGPARM(0) void at_start(void)
{
	if (!waiting)
		return; /* another translation of the start, or a forked child */
	waiting = False;
	callgraph_settle();
	if (engine_instrumenting)
		dumps_zero();
	sim_clear();
	branch_clear();
	vclock_restart(VG_(get_running_tid)());
}

void program_start_at_block(IRSB *sb, Addr a)
{
	if (!program_start_is(a))
		return;
	IRDirty *di = unsafeIRDirty_0_N(0, "bm_at_start", VG_(fnptr_to_fnentry)(at_start), mkIRExprVec_0());
	addStmtToIRSB(sb, IRStmt_Dirty(di));
}
