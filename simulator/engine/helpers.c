/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The helpers the translations call (helpers.h). */
#include "helpers.h"

#include "branchsim.h"
#include "cachesim.h"
#include "callgraph.h"
#include "costs.h"
#include "layout.h"
#include "settings.h"

/* Counts event e of instruction i. */
static inline void count(struct instr *i, Int e)
{
	i->cost[e]++;
	engine_total[e]++;
}

/* Whether r missed L2 (--L2; without one, LL is asked on an L1 miss). */
static inline Bool missed_l2(enum sim_result r)
{
	return clo.l2 && (r == SIM_LL_HIT || r == SIM_MEM);
}

/* The fetch, simulated as one access of the instruction's size. */
static inline void fetch(struct instr *i, Bool keep)
{
	enum sim_result r = sim_fetch(i->addr, i->canonical, i->size ? i->size : 1);
	ULong last = 0, last2 = 0;
	if (r != SIM_L1_HIT) {
		count(i, EV_I1MR);
		last = 1;
		if (missed_l2(r)) {
			count(i, EV_I2MR);
			last2 = 1;
		}
		if (r == SIM_MEM) {
			count(i, EV_ILMR);
			last = 3;
		}
	}
	if (keep) {
		i->last = last;
		i->last2 = last2;
	}
}

VG_REGPARM(1) void log_fetch(struct instr *i)
{
	fetch(i, False);
}

/* In a superblock whose last execution may be taken back (HOW_KEEP). */
VG_REGPARM(1) void log_fetch_kept(struct instr *i)
{
	fetch(i, True);
}

/* A data access's simulation: size in the low byte of how, its slot
 * above; a write adds 1 to the event indexes of a read (Dw after Dr, D1mw
 * after D1mr, DLmw after DLmr).  An unconditional access is counted with
 * its segment, and this runs only when the inline check (maybe_miss)
 * could not tell a hit. */
static inline void simulate(struct instr *i, Addr a, UWord how, Int w, ULong done)
{
	enum sim_result r = sim_data(i->canonical, a, how & 0xff);
	ULong bits = done;
	UWord slot = (how >> 8) & 0xffff;
	/* A load of a pointer chase: its misses do not overlap.  (Known per
	 * superblock: the same instruction may be one in a loop, and not in
	 * the block that enters the loop.) */
	Bool chained = !w && (how & HOW_CHAINED);
	Bool keep = (how & HOW_KEEP) && slot < LAST_SLOTS;
	if (r != SIM_L1_HIT) {
		count(i, EV_D1MR + w);
		if (chained)
			count(i, EV_D1MC);
		bits |= 2;
		if (missed_l2(r)) {
			count(i, EV_D2MR + w);
			if (chained)
				count(i, EV_D2MC);
			if (keep)
				i->last2 |= 2ULL << slot;
		}
		if (chained && keep)
			i->last2 |= 1ULL << (LAST2_CHAINED + slot);
		if (r == SIM_MEM) {
			count(i, EV_DLMR + w);
			if (chained)
				count(i, EV_DLMC);
			bits |= 4;
		}
	}
	if (keep)
		i->last |= bits << (2 + 3 * slot);
}

VG_REGPARM(3) void log_read(struct instr *i, Addr a, UWord how)
{
	simulate(i, a, how, 0, 0);
}

VG_REGPARM(3) void log_write(struct instr *i, Addr a, UWord how)
{
	simulate(i, a, how, 1, 0);
}

/* A conditional access (guarded load or store): counted here, when its
 * guard holds. */
VG_REGPARM(3) void log_read_if(struct instr *i, Addr a, UWord how)
{
	i->cost[EV_DR]++;
	engine_total[EV_DR]++;
	simulate(i, a, how, 0, 1);
}

VG_REGPARM(3) void log_write_if(struct instr *i, Addr a, UWord how)
{
	i->cost[EV_DW]++;
	engine_total[EV_DW]++;
	simulate(i, a, how, 1, 1);
}

/* --branch-sim=yes: a conditional branch (its execution counted with its
 * segment) given to the predictor, and an indirect jump or call; only
 * where the inline check could not tell a correct prediction (site:
 * branchsim.h).  Bit 0 of how: the branch was taken; the rest, the
 * cycles a misprediction waits for the guard (--core=bm-model/3), which
 * count in Cc. */
VG_REGPARM(3) void log_cond(struct instr *i, UWord how, UChar *site)
{
	if (branch_cond(site, i->canonical, how & 1)) {
		i->cost[EV_BCM]++;
		engine_total[EV_BCM]++;
		if (how & HOW_COND_KEEP)
			i->last |= 1ULL << LAST_BCM;
		ULong wait = 100 * (ULong)((how & ~HOW_COND_KEEP) >> 1);
		i->cost[EV_CC] += wait;
		engine_total[EV_CC] += wait;
	}
}

VG_REGPARM(3) void log_indirect(struct instr *i, Addr target, Addr *site)
{
	if (branch_indirect(site, i->canonical, target, layout_canonical(target))) {
		i->cost[EV_BIM]++;
		engine_total[EV_BIM]++;
	}
}
