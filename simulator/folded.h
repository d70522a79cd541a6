/* SPDX-License-Identifier: MIT */
/* Folded stacks ("main;parse;memcpy 1234"), the input of flame graph
 * tools, built from a profile's call graph.
 *
 * Callgrind records costs per call edge, not per full stack, so stacks are
 * reconstructed: a function's cost is shared among the paths that reach it
 * in proportion to the cost of the calls on each path (the usual approach
 * of gprof-style tools).  The result is exact for call trees, and an
 * estimate where a function is called from several places with different
 * costs per call.  Every cycle of the profile lands in exactly one stack
 * (the values add up to the profile's cycles) except in call cycles (a
 * calls b calls a), whose inner repetitions are not expanded.  Paths worth
 * less than one cycle, deeper than FOLDED_MAX_DEPTH or beyond
 * FOLDED_MAX_VISITS stay with their caller. */
#ifndef BM_FOLDED_H
#define BM_FOLDED_H

#include "profile.h"

#include <stddef.h>
#include <stdint.h>

#define FOLDED_MAX_DEPTH 256
#define FOLDED_MAX_VISITS 2000000

struct folded;

struct folded *folded_build(const struct bm_profile *p);
/* NULL is a no-op. */
void folded_free(struct folded *f);

/* The stacks, in depth-first order; each has cycles > 0. */
size_t folded_count(const struct folded *f);
const char *folded_stack(const struct folded *f, size_t i);
uint64_t folded_cycles(const struct folded *f, size_t i);

/* Sets *cycles to the value of stack in f and returns 1, or returns 0 when
 * f does not have it. */
int folded_find(const struct folded *f, const char *stack, uint64_t *cycles);

#endif
