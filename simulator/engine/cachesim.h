/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bm-engine's cache simulator: the model of callgrind's default simulator
 * (callgrind/sim.c without --cacheuse or prefetching), so that the misses
 * it counts are callgrind's.
 *
 * Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#ifndef BM_ENGINE_CACHESIM_H
#define BM_ENGINE_CACHESIM_H

#include "pub_tool_basics.h"

/* Where an access was found: SIM_L2_HIT only with an L2 (sim_init_l2). */
enum sim_result { SIM_L1_HIT, SIM_L2_HIT, SIM_LL_HIT, SIM_MEM };

struct sim_geometry {
	Int size, assoc, line; /* bytes, ways, bytes per line */
};

/* Sets up I1, D1 and LL; a geometry callgrind would refuse is an error
 * (message in *why, False returned). */
Bool sim_init(const struct sim_geometry *i1, const struct sim_geometry *d1,
	      const struct sim_geometry *ll, const HChar **why);

/* bm-model/2's hierarchy on top of sim_init's: a private L2 between the
 * first level and LL (asked on every L1 miss, LL on every L2 miss), and
 * the hardware prefetchers of a modern core (cachesim.c's Notes).  A
 * geometry callgrind would refuse is an error, as for sim_init. */
Bool sim_init_l2(const struct sim_geometry *l2, const HChar **why);

/* The geometry sim_init was given: of I1 (level 0), D1 (1) or LL (2). */
const struct sim_geometry *sim_geometry(Int level);

/* Empties every cache, as callgrind does when instrumentation starts. */
void sim_clear(void);

/* Where D1's tags are, for translations that check inline whether an
 * access finds its line most recent in its set (a hit that changes
 * nothing): set s's ways are tags[s * assoc ...], most recent first. */
struct sim_layout {
	const UWord *tags;
	UWord sets_mask;
	Int assoc, line_bits;
};
void sim_d1_layout(struct sim_layout *l);
/* The same of I1, for fetches. */
void sim_i1_layout(struct sim_layout *l);

/* An instruction fetch of size bytes at a (canonical: its canonical
 * address, layout.h), and a data access of size bytes at a by the
 * instruction at canonical address pc (what the stride prefetcher
 * learns by). */
enum sim_result sim_fetch(Addr a, Addr canonical, UWord size);
enum sim_result sim_data(Addr pc, Addr a, UWord size);

#endif
