/* SPDX-License-Identifier: MIT */
/* A simulated cache's geometry, as callgrind's --I1=SIZE,ASSOC,LINE gives
 * it: one type for a model's definition (simulator/model.h), a callgrind
 * file's "desc: I1 cache:" line (simulator/callgrind.h) and a report's
 * model (report.h). */
#ifndef BM_CACHE_GEOMETRY_H
#define BM_CACHE_GEOMETRY_H

#include <stdint.h>

struct bm_cache_geometry {
	uint64_t size;  /* bytes; 0: unknown */
	uint64_t assoc; /* ways; 0: fully associative */
	uint64_t line;  /* bytes */
};

#endif
