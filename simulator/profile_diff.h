/* SPDX-License-Identifier: MIT */
/* The difference between two profiles of the same benchmark (a base and a
 * head): per function, the change of self and inclusive cycles, for
 * tables and differential flame graphs.  Functions are matched by name and
 * by the basenames of their file and object, so that profiles of builds in
 * different directories still line up. */
#ifndef BM_PROFILE_DIFF_H
#define BM_PROFILE_DIFF_H

#include "profile.h"

#include <stddef.h>
#include <stdint.h>

struct profile_diff_row {
	const char *name, *file, *object; /* borrowed from the profiles */
	uint64_t base_self, head_self;    /* cycles; 0 where the function is absent */
	uint64_t base_inclusive, head_inclusive;
	int in_base, in_head;
};

struct profile_diff {
	struct profile_diff_row *rows; /* sorted by |head_self - base_self|, largest first */
	size_t nrows;
	uint64_t base_cycles, head_cycles;
};

/* Fills out; both profiles must outlive it. */
void profile_diff(const struct bm_profile *base, const struct bm_profile *head,
		  struct profile_diff *out);
void profile_diff_release(struct profile_diff *d);

#endif
