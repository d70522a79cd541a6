/* SPDX-License-Identifier: MIT */
/* The cycle model: turns counted events into estimated cycles, time and
 * speed.  See the Notes block in model.c for what it assumes. */
#ifndef BM_MODEL_H
#define BM_MODEL_H

#include "events.h"

#include <stdint.h>

struct model_cache {
	uint64_t size, assoc, line; /* bytes, ways, bytes: callgrind's --I1=size,assoc,line */
};

struct bm_model {
	const char *id;       /* changes whenever anything below changes */
	double frequency_hz;  /* converts cycles to seconds */
	uint64_t l1_hit;      /* cycles per access that hits L1 */
	uint64_t ll_hit;      /* cycles per access that misses L1 and hits LL */
	uint64_t ram;         /* cycles per access that misses LL */
	struct model_cache i1, d1, ll; /* the simulated geometry the weights assume */
};

/* bm-model/1, the default. */
extern const struct bm_model model_v1;

/* Bits (1u << ev) of the events the model uses that e lacks: with none of
 * the cache events, every access counts as an L1 hit. */
uint32_t model_missing(const struct bm_model *m, const struct bm_events *e);

/* Sets *cycles from e.  System-call events never enter cycles.  Returns 0,
 * or -1 with *err set when the counts contradict each other (more misses
 * than accesses) or the result overflows 64 bits. */
int model_cycles(const struct bm_model *m, const struct bm_events *e, uint64_t *cycles,
		 char **err);

/* Estimated seconds for cycles at the model's frequency. */
double model_time_s(const struct bm_model *m, uint64_t cycles);

/* Executions per second, 1 / time; 0 when cycles is 0 (nothing measured). */
double model_speed(const struct bm_model *m, uint64_t cycles);

#endif
