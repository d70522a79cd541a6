/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "dumps.h"

#include "callgraph.h"
#include "costs.h"
#include "heap.h"
#include "output.h"
#include "settings.h"
#include "threads.h"

#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"

static HChar *out_base; /* clo.out_file expanded for this process */
static Int dumps;       /* dumps written by this process so far */
static HChar *command;  /* the client's command line, for the files */

void dumps_at_fork(void)
{
	out_base = VG_(expand_file_name)("--callgrind-out-file", clo.out_file);
}

void dumps_init(void)
{
	dumps_at_fork();
	SizeT len = VG_(strlen)(VG_(args_the_exename)) + 1;
	for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++)
		len += VG_(strlen)(*(HChar **)VG_(indexXA)(VG_(args_for_client), i)) + 1;
	command = VG_(malloc)("bm.cmd", len);
	VG_(strcpy)(command, VG_(args_the_exename));
	for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
		VG_(strcat)(command, " ");
		VG_(strcat)(command, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
	}
}

void dumps_zero(void)
{
	instr_table_zero();
	callgraph_zero();
	heap_zero();
	threads_nondeterministic_clear();
}

void dumps_write(const HChar *kind, const HChar *what)
{
	HChar *path = VG_(malloc)("bm.path", VG_(strlen)(out_base) + 16);
	HChar *trigger = VG_(malloc)("bm.trigger", VG_(strlen)(kind) + (what ? VG_(strlen)(what) : 0) + 3);
	VG_(sprintf)(path, "%s.%d", out_base, ++dumps);
	if (what)
		VG_(sprintf)(trigger, "%s: %s", kind, what);
	else
		VG_(strcpy)(trigger, kind);
	callgraph_before_dump();
	output_dump(path, dumps, trigger, command, False);
	VG_(free)(trigger);
	VG_(free)(path);
	dumps_zero();
}

void dumps_final(void)
{
	/* The last part, as callgrind writes it: whatever the region counted
	 * since the last dump, in the file without a number. */
	callgraph_settle();
	callgraph_before_dump();
	output_dump(out_base, dumps + 1, "Program termination", command, clo.ncollect_in > 0);
}
