/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * settings.c: the engine's settings, in one place as callgrind keeps its
 * clo_*, read from its command line (callgrind's option names, so that
 * bm-run passes one command line to either engine) and not changed once
 * the tool starts. */
#ifndef BM_ENGINE_SETTINGS_H
#define BM_ENGINE_SETTINGS_H

#include "cachesim.h"
#include "costs.h"

#include "pub_tool_basics.h"

/* The processor the guest sees (cpu.c; docs/engine.md "The virtual CPUs"). */
enum engine_cpu {
	CPU_X86_64_V1, /* VEX's baseline x86-64 (SSE2), the same on every host */
	CPU_X86_64_V3, /* bm's own x86-64-v3 (AVX2), the same on every host */
	CPU_X86_64_V3_SERVER, /* x86-64-v3 with the server cores' PCLMULQDQ, AES, ADX */
	CPU_HOST,      /* what VEX answers on this host (by hand, to compare with callgrind) */
};

/* The core --block-cost describes (--core), each the one before and more. */
enum engine_core {
	CORE_BM_MODEL_2, /* a 2017 core's division */
	CORE_BM_MODEL_3, /* a current core's division, and a misprediction waits
			  * for its guard (blockcost.h) */
	CORE_BM_MODEL_4, /* a value a store hands to the next execution's load
			  * is a loop-carried chain (blockcost.h), and a prefetch
			  * instruction is a load of its line (prefetch.h) */
};

/* The most --zero-before, --dump-before and --clear-before options taken, each. */
#define FN_HOOKS_MAX 8

struct settings {
	const HChar *out_file;          /* --callgrind-out-file */
	Bool systime;                   /* --collect-systime=nsec */
	Bool instr_atstart;             /* --instr-atstart */
	Bool dump_instr;                /* --dump-instr: a cost line per instruction */
	Bool branch_sim;                /* --branch-sim: Bc Bcm Bi Bim (branchsim.h) */
	Bool block_cost;                /* --block-cost: Cc and the chained loads' misses */
	enum engine_core core;          /* --core */
	Bool heap;                      /* --heap: allocCount allocBytes, peak, leaks (heap.h) */
	Bool l2;                        /* --L2 given: I2mr D2mr D2mw, the prefetchers */
	struct sim_geometry i1, d1, ll; /* --I1 --D1 --LL */
	struct sim_geometry l2_geometry; /* --L2 */
	enum engine_cpu cpu;            /* --cpu */
	Bool clock_virtual;             /* --clock=virtual (vclock.h); host: the kernel's */
	Bool layout_canonical;          /* --layout=canonical (layout.h); host: the guest's
					 * own addresses, as callgrind's */
	Bool skip_loader;               /* --skip-loader: the program starts where the
					 * dynamic loader leaves off (program_start.h) */
	ULong clock_hz;                 /* --clock-hz: the virtual clock's cycles per second */
	const HChar *zero_before[FN_HOOKS_MAX]; /* --zero-before=GLOB (fn_hooks.h) */
	Int nzero_before;
	const HChar *dump_before[FN_HOOKS_MAX]; /* --dump-before=GLOB */
	Int ndump_before;
	const HChar *clear_before[FN_HOOKS_MAX]; /* --clear-before=GLOB */
	Int nclear_before;
	Long clock_cost[EV_COUNT];      /* --clock-cost: hundredths of a cycle per event in
					 * the measured region (vclock.h) */
	const HChar **collect_in;       /* --collect-in=NAME: functions whose calls each get
					 * a profile of their own (callgraph.h) */
	Int ncollect_in;
};
extern struct settings clo;

/* Valgrind's needs_command_line_options: one option (False: not the
 * engine's), and the usage text. */
Bool settings_option(const HChar *arg);
void settings_usage(void);

#endif
