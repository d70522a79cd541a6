/* SPDX-License-Identifier: MIT */
/* bm-model/1, /2 and /3: from simulated events to estimated cycles.
 *
 * Notes on bm-model/1
 * -------------------
 * The model is the three-level one that cachegrind users have long applied
 * to its counts (and that CodSpeed and iai-callgrind use), with named
 * weights:
 *
 *    L1_misses = I1mr + D1mr + D1mw
 *    LL_misses = ILmr + DLmr + DLmw
 *    L1_hits   = (Ir + Dr + Dw) - L1_misses
 *    LL_hits   = L1_misses - LL_misses
 *    cycles    = l1_hit * L1_hits + ll_hit * LL_hits + ram * LL_misses
 *
 *    time  = cycles / frequency_hz        speed = 1 / time
 *
 * Assumptions, and why they are acceptable:
 * - Every access costs the latency of the level that serves it, and
 *   accesses never overlap.  Real out-of-order cores overlap misses and
 *   retire several instructions per cycle, so absolute times are estimates;
 *   what matters is that the same code always gets the same number and that
 *   more work or more misses always cost more.
 * - l1_hit = 1: an instruction fetch or data access that hits L1 is one
 *   cycle, the usual unit of such models.
 * - ll_hit = 5 and ram = 35: the established weights of this model,
 *   kept so that bm's numbers stay comparable with other callgrind-based
 *   tools.  Real L2/L3 and DRAM latencies are larger; a different choice is
 *   a new model id, never an edit of this one.
 * - The simulated caches are pinned (I1 and D1 32 KiB 8-way, LL 8 MiB
 *   16-way, 64-byte lines): callgrind's host auto-detection differs between
 *   machines and is sometimes wrong, so the geometry is part of the model.
 * - Branch mispredictions (Bc, Bcm, Bi, Bim) are recorded but not costed:
 *   callgrind's predictor is a simple table that does not resemble modern
 *   predictors.
 * - System calls are not costed: their time is real, host-dependent and
 *   includes Valgrind's own work, so it is reported apart (sysCount,
 *   sysTime, sysCpuTime) and never enters cycles, time or speed.
 * - frequency_hz = 3.0e9 only scales cycles into seconds for display.
 * - Without cache simulation (no miss events) every access is an L1 hit:
 *   cycles become Ir + Dr + Dw, and callers are told the events are missing.
 *
 * Notes on bm-model/2
 * -------------------
 * What a modern out-of-order core spends, from the bm engine's events
 * (simulator/engine: blockcost.c, cachesim.c and the branch predictor):
 *
 *    cycles = (Cc + fetch misses + load misses + chained load misses
 *              + store misses + mispredictions) / 100
 *
 * each term a count times its cost in hundredths of a cycle:
 * - Cc: the core's cycles from each executed block's own code (its issue
 *   and port bounds and its loop-carried chain, loads as L1 hits), summed
 *   by the engine per execution.  Ir stays a metric of its own.
 * - A miss is charged what its level adds to an L1 hit's 5 cycles: 12
 *   cycles from L2, 80 from LL, 200 from memory.  A load of a pointer
 *   chase (the engine's D1mc...) pays all of it; any other load overlaps
 *   with others, MEMORY_PARALLELISM of them at once, so it pays a sixth;
 *   a store retires into the store buffer and pays a quarter; an
 *   instruction fetch that misses stalls the front end for all of it.
 * - A mispredicted branch costs 20 cycles, an indirect one 30: the
 *   refill of the pipeline.
 * - These eight numbers are fitted, on the fit half of the fidelity
 *   corpus only (bench/fidelity/fit.py, docs/fidelity.md: coordinate
 *   descent, each level at least twice as far as the one above it), on
 *   an AMD EPYC (Zen, family 23) whose LL misses are slower than its
 *   size says (a virtual machine's share of a shared L3): a machine of
 *   another generation fits other numbers, which would be another model
 *   id.  The core's own numbers (blockcost.c) are published measurements,
 *   not fitted, but for the division, set to what that machine takes.
 * - The hierarchy: I1 and D1 32 KiB 8-way, a private L2 of 1 MiB 8-way,
 *   LL 8 MiB 16-way (as bm-model/1's), 64-byte lines, with the engine's
 *   prefetchers.  TLBs and memory bandwidth are not modelled: a walk
 *   down a column of a matrix, a page per access, costs natively what its
 *   page walks cost, which this model does not see (docs/fidelity.md).
 *
 * Notes on bm-model/3
 * -------------------
 * bm-model/2's formula and its eight fitted costs, over the events of a
 * current core (the engine's --core=bm-model/3, blockcost.c):
 * - a division as current cores take it (Zen 4, Zen 5, Golden Cove: 10
 *   to 18 cycles): 12 cycles for 32 bits, 15 for 64, where bm-model/2
 *   has an AMD Zen 1's 25 and 40, which is three times what the CPUs
 *   machines ship with now take;
 * - a mispredicted conditional branch also waits for its guard: the
 *   latency of the guard's data flow from its superblock's entry, added
 *   to Cc per misprediction.  The core learns it guessed wrong only when
 *   the load and compare that decide the branch have run (a binary
 *   search's), so a flat penalty undercharges such branches.
 * - Neither is fitted: the division is published measurement, the wait
 *   is the block costs' own latencies.  The eight costs stay bm-model/2's
 *   (fitted on Zen 1's fit half): fitted again on a Zen 5's fit half, or
 *   on both CPUs' at once, they fitted that half better and the
 *   validation half worse on both CPUs (docs/fidelity.md), the mark of
 *   eight numbers fitted to ten pairs.
 * - bm-model/3 is judged on both recorded CPUs: it meets every fidelity
 *   bar on the current one (Zen 5) and gives up Zen 1's division pairs.
 *
 * Notes on bm-model/4
 * -------------------
 * bm-model/3's formula and costs, over the events of its core with two
 * mechanisms more (the engine's --core=bm-model/4: blockcost.c,
 * prefetch.c), on the virtual CPU production code runs on:
 * - a value carried from one pass of a loop to the next through memory
 *   (a load, then a store of what it computed to the same address: a
 *   volatile or global counter, a field updated in place, a spilled
 *   accumulator, -O0 code), in a loop of one superblock, waits for
 *   store-to-load forwarding, 4 cycles a pass besides what it computes,
 *   where bm-model/3 lets the passes overlap as if it were free (1.5
 *   cycles a pass of `x += i` on a volatile x, where current cores take
 *   4 to 5);
 * - a software prefetch is a load of its line (VEX drops it: the engine
 *   reads its address from the instruction's bytes), so code that hides
 *   its misses with prefetches finds its lines in the caches, as it does
 *   natively, where bm-model/3 charges it as if it did not prefetch;
 * - x86-64-v3-server: PCLMULQDQ, AES and ADX, which every server core
 *   since 2017 has, so that CRCs, AES and bignum code that dispatch on
 *   cpuid take the path production takes (docs/engine.md).
 * - Not fitted: the forwarding latency is published measurement, a
 *   prefetch a load.
 */
#include "config.h"

#include "model.h"

#include "error.h"

#include <stdio.h>
#include <string.h>

const struct bm_model model_v1 = {
	.id = "bm-model/1",
	.version = 1,
	.frequency_hz = 3.0e9,
	.l1_hit = 1,
	.ll_hit = 5,
	.ram = 35,
	.i1 = {32768, 8, 64},
	.d1 = {32768, 8, 64},
	.ll = {8388608, 16, 64},
};

/* Fitted on the fidelity corpus's fit half (bench/fidelity/fit.py;
 * docs/fidelity.md): what loads overlap, on average, and stores; what an
 * instruction fetch miss stalls; the cycles a miss adds to an L1 hit by
 * where it is served; a mispredicted branch's penalty. */
#define MEMORY_PARALLELISM 6
#define STORE_PARALLELISM 4
#define TO_L2 12
#define TO_LL 80
#define TO_MEMORY 200
#define MISPREDICT 20
#define INDIRECT_MISPREDICT 30

/* The costs both bm-model/2 and bm-model/3 charge, in hundredths of a
 * cycle. */
#define FITTED_COSTS                                                                                        \
	{                                                                                                   \
		.fetch = {100 * TO_L2, 100 * TO_LL, 100 * TO_MEMORY},                                       \
		.read = {100 * TO_L2 / MEMORY_PARALLELISM, 100 * TO_LL / MEMORY_PARALLELISM,                \
			 100 * TO_MEMORY / MEMORY_PARALLELISM},                                             \
		.chained = {100 * TO_L2, 100 * TO_LL, 100 * TO_MEMORY},                                     \
		.write = {100 * TO_L2 / STORE_PARALLELISM, 100 * TO_LL / STORE_PARALLELISM,                 \
			  100 * TO_MEMORY / STORE_PARALLELISM},                                             \
		.mispredict = 100 * MISPREDICT, .indirect_mispredict = 100 * INDIRECT_MISPREDICT,           \
	}

/* bm-model/2's and its successors': the formula of version 2, the fitted
 * costs, the caches with an L2; id and CPU their own. */
#define CURRENT_CORE_MODEL(name, cpu_name)                                                          \
	{                                                                                           \
		.id = name, .version = 2, .frequency_hz = 3.0e9, .costs = FITTED_COSTS,             \
		.i1 = {32768, 8, 64}, .d1 = {32768, 8, 64}, .l2 = {1048576, 8, 64},                 \
		.ll = {8388608, 16, 64}, .cpu = cpu_name,                                           \
	}

const struct bm_model model_v2 = CURRENT_CORE_MODEL("bm-model/2", "x86-64-v3");

/* bm-model/2's formula and costs over a current core's events (the
 * engine's --core=bm-model/3): see Notes. */
const struct bm_model model_v3 = CURRENT_CORE_MODEL("bm-model/3", "x86-64-v3");

/* bm-model/3's, with chains through memory (the engine's
 * --core=bm-model/4) on x86-64-v3-server: see Notes. */
const struct bm_model model_v4 = CURRENT_CORE_MODEL("bm-model/4", "x86-64-v3-server");

static const struct bm_model *const all_models[] = {&model_v1, &model_v2, &model_v3, &model_v4};
#define NMODELS (sizeof all_models / sizeof *all_models)

const struct bm_model *model_lookup(const char *id)
{
	for (size_t i = 0; i < NMODELS; i++)
		if (!strcmp(all_models[i]->id, id))
			return all_models[i];
	return NULL;
}

const struct bm_model *model_named(const char *name, const char *what, char **err)
{
	const struct bm_model *m = model_lookup(name);
	if (m)
		return m;
	/* "bm-model/1, bm-model/2, bm-model/3 or bm-model/4": every id there is. */
	char choices[256] = "";
	for (size_t i = 0; i < NMODELS; i++)
		snprintf(choices + strlen(choices), sizeof choices - strlen(choices), "%s%s",
			 i == 0 ? "" : i + 1 == NMODELS ? " or " : ", ", all_models[i]->id);
	bm_error(err, "%s is %s, not '%s'", what, choices, name);
	return NULL;
}

#define BIT(ev) (1u << (ev))

uint32_t model_missing(const struct bm_model *m, const struct bm_events *e)
{
	uint32_t used = BIT(BM_EV_IR) | BIT(BM_EV_DR) | BIT(BM_EV_DW) | BIT(BM_EV_I1MR) |
			BIT(BM_EV_D1MR) | BIT(BM_EV_D1MW) | BIT(BM_EV_ILMR) | BIT(BM_EV_DLMR) |
			BIT(BM_EV_DLMW);
	if (m->version == 2)
		used |= BIT(BM_EV_CC) | BIT(BM_EV_I2MR) | BIT(BM_EV_D2MR) | BIT(BM_EV_D2MW) | BIT(BM_EV_D1MC) |
			BIT(BM_EV_D2MC) | BIT(BM_EV_DLMC) | BIT(BM_EV_BCM) | BIT(BM_EV_BIM);
	return used & ~e->present;
}

/* Of n misses of L1, those served by L2, LL and memory from the counts of
 * L2 misses (l2) and LL misses (ll); -1 when they contradict. */
static int by_level(uint64_t n, uint64_t l2, uint64_t ll, uint64_t out[3])
{
	if (l2 > n || ll > l2)
		return -1;
	out[0] = n - l2;
	out[1] = l2 - ll;
	out[2] = ll;
	return 0;
}

/* *sum += the counts times their costs; -1 on overflow. */
static int charge(uint64_t *sum, const uint64_t count[3], const uint64_t cost[3])
{
	for (int k = 0; k < 3; k++) {
		uint64_t c;
		if (__builtin_mul_overflow(count[k], cost[k], &c) || __builtin_add_overflow(*sum, c, sum))
			return -1;
	}
	return 0;
}

static int model2_cycles(const struct bm_model *m, const struct bm_events *e, uint64_t *cycles, char **err)
{
	const uint64_t *v = e->v;
	uint64_t fetch[3], reads[3], chained[3], writes[3], centi = v[BM_EV_CC], a, b;
	if (by_level(v[BM_EV_I1MR], v[BM_EV_I2MR], v[BM_EV_ILMR], fetch) ||
	    by_level(v[BM_EV_D1MR], v[BM_EV_D2MR], v[BM_EV_DLMR], reads) ||
	    by_level(v[BM_EV_D1MC], v[BM_EV_D2MC], v[BM_EV_DLMC], chained) ||
	    by_level(v[BM_EV_D1MW], v[BM_EV_D2MW], v[BM_EV_DLMW], writes))
		return bm_error(err, "inconsistent events: more misses of a level than of the one above it");
	for (int k = 0; k < 3; k++) {
		if (chained[k] > reads[k])
			return bm_error(err, "inconsistent events: more chained load misses than load misses");
		reads[k] -= chained[k];
	}
	if (charge(&centi, fetch, m->costs.fetch) || charge(&centi, reads, m->costs.read) ||
	    charge(&centi, chained, m->costs.chained) || charge(&centi, writes, m->costs.write) ||
	    __builtin_mul_overflow(v[BM_EV_BCM], m->costs.mispredict, &a) ||
	    __builtin_mul_overflow(v[BM_EV_BIM], m->costs.indirect_mispredict, &b) ||
	    __builtin_add_overflow(centi, a, &centi) || __builtin_add_overflow(centi, b, &centi))
		return bm_error(err, "cycles overflow 64 bits");
	*cycles = centi / 100;
	return 0;
}

/* a + b + c, or -1 on overflow. */
static int sum3(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
	return __builtin_add_overflow(a, b, out) || __builtin_add_overflow(*out, c, out) ? -1 : 0;
}

int model_cycles(const struct bm_model *m, const struct bm_events *e, uint64_t *cycles, char **err)
{
	if (m->version == 2)
		return model2_cycles(m, e, cycles, err);
	const uint64_t *v = e->v;
	uint64_t accesses, l1_misses, ll_misses, a, b, c;
	if (sum3(v[BM_EV_IR], v[BM_EV_DR], v[BM_EV_DW], &accesses) < 0 ||
	    sum3(v[BM_EV_I1MR], v[BM_EV_D1MR], v[BM_EV_D1MW], &l1_misses) < 0 ||
	    sum3(v[BM_EV_ILMR], v[BM_EV_DLMR], v[BM_EV_DLMW], &ll_misses) < 0)
		return bm_error(err, "event counts overflow 64 bits");
	if (l1_misses > accesses)
		return bm_error(err, "inconsistent events: %llu L1 misses but only %llu accesses",
				(unsigned long long)l1_misses, (unsigned long long)accesses);
	if (ll_misses > l1_misses)
		return bm_error(err, "inconsistent events: %llu LL misses but only %llu L1 misses",
				(unsigned long long)ll_misses, (unsigned long long)l1_misses);
	if (__builtin_mul_overflow(m->l1_hit, accesses - l1_misses, &a) ||
	    __builtin_mul_overflow(m->ll_hit, l1_misses - ll_misses, &b) ||
	    __builtin_mul_overflow(m->ram, ll_misses, &c) || sum3(a, b, c, cycles) < 0)
		return bm_error(err, "cycles overflow 64 bits");
	return 0;
}

/* Of a level split (by_level), the weights of the counts n, l2 and ll
 * that charge cost[] to each part. */
static void level_weights(int64_t *n, int64_t *l2, int64_t *ll, const uint64_t cost[3], int sign)
{
	*n += sign * (int64_t)cost[0];
	*l2 += sign * ((int64_t)cost[1] - (int64_t)cost[0]);
	*ll += sign * ((int64_t)cost[2] - (int64_t)cost[1]);
}

void model_event_weights(const struct bm_model *m, int64_t w[BM_EV_COUNT])
{
	memset(w, 0, BM_EV_COUNT * sizeof *w);
	if (m->version == 2) {
		const struct model_costs *c = &m->costs;
		w[BM_EV_CC] = 1;
		level_weights(&w[BM_EV_I1MR], &w[BM_EV_I2MR], &w[BM_EV_ILMR], c->fetch, 1);
		level_weights(&w[BM_EV_D1MR], &w[BM_EV_D2MR], &w[BM_EV_DLMR], c->read, 1);
		/* A chained load is charged as chained, not as a read. */
		level_weights(&w[BM_EV_D1MC], &w[BM_EV_D2MC], &w[BM_EV_DLMC], c->chained, 1);
		level_weights(&w[BM_EV_D1MC], &w[BM_EV_D2MC], &w[BM_EV_DLMC], c->read, -1);
		level_weights(&w[BM_EV_D1MW], &w[BM_EV_D2MW], &w[BM_EV_DLMW], c->write, 1);
		w[BM_EV_BCM] = (int64_t)c->mispredict;
		w[BM_EV_BIM] = (int64_t)c->indirect_mispredict;
		return;
	}
	/* l1_hit * (accesses - L1 misses) + ll_hit * (L1 misses - LL misses)
	 * + ram * LL misses. */
	int64_t access = 100 * (int64_t)m->l1_hit, l1_miss = 100 * ((int64_t)m->ll_hit - (int64_t)m->l1_hit),
		ll_miss = 100 * ((int64_t)m->ram - (int64_t)m->ll_hit);
	w[BM_EV_IR] = w[BM_EV_DR] = w[BM_EV_DW] = access;
	w[BM_EV_I1MR] = w[BM_EV_D1MR] = w[BM_EV_D1MW] = l1_miss;
	w[BM_EV_ILMR] = w[BM_EV_DLMR] = w[BM_EV_DLMW] = ll_miss;
}

static json_t *levels(const uint64_t v[3])
{
	return json_pack("[III]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

json_t *model_costs_json(const struct model_costs *c)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:I,s:I}", "fetch", levels(c->fetch), "read", levels(c->read), "chained",
			 levels(c->chained), "write", levels(c->write), "mispredict", (json_int_t)c->mispredict,
			 "indirect_mispredict", (json_int_t)c->indirect_mispredict);
}

double model_time_s(const struct bm_model *m, uint64_t cycles)
{
	return (double)cycles / m->frequency_hz;
}

double model_speed(const struct bm_model *m, uint64_t cycles)
{
	return cycles ? m->frequency_hz / (double)cycles : 0.0;
}
