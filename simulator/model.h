/* SPDX-License-Identifier: MIT */
/* The cycle model: turns counted events into estimated cycles, time and
 * speed.  See the Notes block in model.c for what it assumes. */
#ifndef BM_MODEL_H
#define BM_MODEL_H

#include "cache_geometry.h"
#include "events.h"

#include <jansson.h>

#include <stdint.h>

/* bm-model/2's costs beyond its core cycles (Cc), in hundredths of a
 * cycle: of a miss by where it was served (L2, LL, memory), for an
 * instruction fetch, a load that overlaps others, a load on a
 * loop-carried chain (D1mc...: it cannot overlap) and a store; of a
 * mispredicted conditional and indirect branch.  model.c's Notes say
 * where each value comes from. */
struct model_costs {
	uint64_t fetch[3], read[3], chained[3], write[3];
	uint64_t mispredict, indirect_mispredict;
};

struct bm_model {
	const char *id;       /* changes whenever anything below changes */
	int version;          /* 1 or 2: which formula (bm-model/3's is 2) */
	double frequency_hz;  /* converts cycles to seconds */
	uint64_t l1_hit;      /* bm-model/1: cycles per access that hits L1 */
	uint64_t ll_hit;      /* ...that misses L1 and hits LL */
	uint64_t ram;         /* ...that misses LL */
	struct model_costs costs; /* bm-model/2 */
	struct bm_cache_geometry i1, d1, l2, ll; /* the simulated geometry (l2: model 2's only) */
	const char *cpu;      /* bm-run's virtual CPU under it (--cpu's name); NULL: x86-64-v1 */
};

/* bm-model/1, the default; bm-model/2, bm-model/3 and bm-model/4, which
 * share a formula (version 2) and differ in their core, their costs and
 * their CPU (docs/cycle-model.md). */
extern const struct bm_model model_v1, model_v2, model_v3, model_v4;

/* The model with that id, or NULL. */
const struct bm_model *model_lookup(const char *id);

/* The same for a name the user gave as what (an option, a variable):
 * NULL with *err naming every model there is ("--model is bm-model/1,
 * bm-model/2, bm-model/3 or bm-model/4, not 'x'"). */
const struct bm_model *model_named(const char *name, const char *what, char **err);

/* Bits (1u << ev) of the events the model uses that e lacks: with none of
 * the cache events, every access counts as an L1 hit (bm-model/1), and
 * every event bm-model/2 uses and lacks counts nothing. */
uint32_t model_missing(const struct bm_model *m, const struct bm_events *e);

/* Sets *cycles from e.  System-call events never enter cycles.  Returns 0,
 * or -1 with *err set when the counts contradict each other (more misses
 * than accesses) or the result overflows 64 bits. */
int model_cycles(const struct bm_model *m, const struct bm_events *e, uint64_t *cycles,
		 char **err);

/* The model as a weight per event, in hundredths of a cycle: cycles are
 * the sum of each event's count times its weight, over 100 (bm-model/2
 * rounds that down, bm-model/1 has whole weights), for counts that do not
 * contradict each other.  The bm engine's virtual clock advances so
 * (bm-run's --clock-cost).  Unused events weigh 0. */
void model_event_weights(const struct bm_model *m, int64_t centi[BM_EV_COUNT]);

/* bm-model/2's costs as the report's model.costs (a new reference). */
json_t *model_costs_json(const struct model_costs *c);

/* Estimated seconds for cycles at the model's frequency. */
double model_time_s(const struct bm_model *m, uint64_t cycles);

/* Executions per second, 1 / time; 0 when cycles is 0 (nothing measured). */
double model_speed(const struct bm_model *m, uint64_t cycles);

#endif
