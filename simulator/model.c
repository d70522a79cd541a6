/* SPDX-License-Identifier: MIT */
/* bm-model/1: from simulated events to estimated cycles.
 *
 * Notes
 * -----
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
 */
#include "config.h"

#include "model.h"

#include "error.h"

const struct bm_model model_v1 = {
	.id = "bm-model/1",
	.frequency_hz = 3.0e9,
	.l1_hit = 1,
	.ll_hit = 5,
	.ram = 35,
	.i1 = {32768, 8, 64},
	.d1 = {32768, 8, 64},
	.ll = {8388608, 16, 64},
};

#define BIT(ev) (1u << (ev))

uint32_t model_missing(const struct bm_model *m, const struct bm_events *e)
{
	(void)m;
	uint32_t used = BIT(BM_EV_IR) | BIT(BM_EV_DR) | BIT(BM_EV_DW) | BIT(BM_EV_I1MR) |
			BIT(BM_EV_D1MR) | BIT(BM_EV_D1MW) | BIT(BM_EV_ILMR) | BIT(BM_EV_DLMR) |
			BIT(BM_EV_DLMW);
	return used & ~e->present;
}

/* a + b + c, or -1 on overflow. */
static int sum3(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
	return __builtin_add_overflow(a, b, out) || __builtin_add_overflow(*out, c, out) ? -1 : 0;
}

int model_cycles(const struct bm_model *m, const struct bm_events *e, uint64_t *cycles, char **err)
{
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

double model_time_s(const struct bm_model *m, uint64_t cycles)
{
	return (double)cycles / m->frequency_hz;
}

double model_speed(const struct bm_model *m, uint64_t cycles)
{
	return cycles ? m->frequency_hz / (double)cycles : 0.0;
}
