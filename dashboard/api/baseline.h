/* SPDX-License-Identifier: MIT */
/* Which run a commit is compared with (SPEC 4.1, CodSpeed's rules):
 *
 * - pull request: the merge commit's first parent when it has a run (for a
 *   GitHub merge commit that is the base branch's head); otherwise the
 *   latest commit of the base branch that has a run;
 * - push: the closest first-parent ancestor (from the ancestry uploaded
 *   with the run) that has a run;
 * - pull request, with the merge-base rule (bm-check --baseline
 *   merge-base): the run of its merge base with the base branch (uploaded
 *   with the run), else of the merge base's closest first-parent ancestor
 *   with a run; when neither has one (or the merge base is not known),
 *   the rule above, the reason saying why.
 *
 * Only runs of the head's series (series_identity.h: cost model, engine,
 * virtual CPU, simulated caches; the runs' model column) and platform
 * count, and only runs of pushes: a pull request's run is never a
 * baseline, nor is the head's own commit (an ancestry or merge base that
 * names it, which uploads refuse, is passed over).  The reason always says in words which rule chose the baseline,
 * or why there is none: for a run of another series, which field differs
 * and what to rerun. */
#ifndef BM_BASELINE_H
#define BM_BASELINE_H

#include "store.h"

struct baseline {
	int found;
	struct store_run run; /* when found */
	char *reason;         /* always set; owned */
};

/* Which rule a pull request's baseline follows. */
enum baseline_rule { BASELINE_AUTO, BASELINE_MERGE_BASE };

/* The rule named name ("auto", "merge-base"): 0, or -1 for another. */
int baseline_rule_lookup(const char *name, enum baseline_rule *rule);

int baseline_find(struct store *st, int64_t project, const struct store_run *head, enum baseline_rule rule,
		  struct baseline *out, char **err);
void baseline_release(struct baseline *b);

#endif
