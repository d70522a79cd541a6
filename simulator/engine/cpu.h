/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * cpu.c: the processor the guest sees, that is what its cpuid answers
 * (--cpu; docs/engine.md, "The virtual CPUs"). */
#ifndef BM_ENGINE_CPU_H
#define BM_ENGINE_CPU_H

#include "cachesim.h"
#include "settings.h"

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Whether this host, and the simulated caches, can give clo.cpu: NULL,
 * or why not (x86-64-v3 needs what VEX needs to run its code).  Its cpuid
 * then describes these caches (l2: NULL for none), as the model
 * simulates them. */
const HChar *cpu_cannot(const struct sim_geometry *i1, const struct sim_geometry *d1,
			const struct sim_geometry *l2, const struct sim_geometry *ll);

/* A dirty call of VEX's cpuid helpers, of the instruction at guest
 * address at, becomes a call of clo.cpu's (nothing for CPU_HOST, nor for
 * another dirty call); its object is one that asks (cpu_askers.h). */
void cpu_fix_cpuid(IRDirty *d, Addr at);

#endif
