/* SPDX-License-Identifier: MIT */
/* A function's cost over all its calls, from the profile of a run that
 * collected everything: what callgrind's --toggle-collect=NAME would have
 * counted, without a Valgrind run per function. */
#ifndef BM_SYMBOL_COST_H
#define BM_SYMBOL_COST_H

#include "events.h"
#include "profile.h"

#include <stdint.h>

struct symbol_cost {
	struct bm_events events; /* inclusive, over every call */
	uint64_t calls;          /* calls from other functions */
	int recursive;           /* reached again through another function:
				  * events count that part twice (measure
				  * such a function with --toggle-collect) */
};

/* The cost of the functions named name in p (every object and file, and
 * callgrind's recursion levels "name'2", ...): their self cost plus the
 * cost of their calls to other functions.  Returns 0, or 1 when p has no
 * such function or it never ran (the function was never called). */
int symbol_cost(const struct bm_profile *p, const char *name, struct symbol_cost *out);

#endif
