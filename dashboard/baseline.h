/* SPDX-License-Identifier: MIT */
/* Which run a commit is compared with (SPEC 4.1, CodSpeed's rules):
 *
 * - pull request: the merge commit's first parent when it has a run (for a
 *   GitHub merge commit that is the base branch's head); otherwise the
 *   latest commit of the base branch that has a run;
 * - push: the closest first-parent ancestor (from the ancestry uploaded
 *   with the run) that has a run.
 *
 * Only runs with the head's model and platform count.  The reason always
 * says in words which rule chose the baseline, or why there is none. */
#ifndef BM_BASELINE_H
#define BM_BASELINE_H

#include "store.h"

struct baseline {
	int found;
	struct store_run run; /* when found */
	char *reason;         /* always set; owned */
};

int baseline_find(struct store *st, int64_t project, const struct store_run *head, struct baseline *out,
		  char **err);
void baseline_release(struct baseline *b);

#endif
