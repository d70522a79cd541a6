/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * cpu.c: the processor the guest sees, that is what its cpuid answers
 * (--cpu; docs/engine.md, "The virtual CPUs"). */
#ifndef BM_ENGINE_CPU_H
#define BM_ENGINE_CPU_H

#include "cachesim.h"

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

enum engine_cpu {
	CPU_X86_64_V1, /* VEX's baseline x86-64 (SSE2), the same on every host */
	CPU_X86_64_V3, /* bm's own x86-64-v3 (AVX2), the same on every host */
	CPU_HOST,      /* what VEX answers on this host (by hand, to compare with callgrind) */
};

/* The tool's --cpu (engine.c). */
extern enum engine_cpu engine_cpu;

/* --cpu=NAME: x86-64-v1, x86-64-v3 or host.  False for another name. */
Bool cpu_parse(const HChar *name, enum engine_cpu *cpu);

/* Whether this host, and the simulated caches, can give engine_cpu: NULL,
 * or why not (x86-64-v3 needs what VEX needs to run its code).  Its cpuid
 * then describes these caches (l2: NULL for none), as the model
 * simulates them. */
const HChar *cpu_cannot(const struct sim_geometry *i1, const struct sim_geometry *d1,
			const struct sim_geometry *l2, const struct sim_geometry *ll);

/* A dirty call of VEX's cpuid helpers becomes a call of engine_cpu's
 * (nothing for CPU_HOST, nor for another dirty call). */
void cpu_fix_cpuid(IRDirty *d);

#endif
