/* SPDX-License-Identifier: MIT */
/* The files of every process of a whole-process or symbol-mode run.
 *
 * A program that forks (without exec) goes on under Valgrind in each
 * child, and each process writes its own file beside the first one's
 * (cg.PID.out in the run's directory).  The bm engine's child counts from
 * the fork, so the files add up to what the program executed; callgrind's
 * child counts its parent's costs up to the fork again, so its files
 * cannot be added, and a run of it that forked is refused.  Processes
 * started by exec run outside Valgrind and are not measured. */
#ifndef BM_PROCESS_DUMPS_H
#define BM_PROCESS_DUMPS_H

#include "model.h"
#include "profile.h"

#include <stddef.h>

/* The files of the run whose first process wrote dump: dump, then the
 * others in the order of their pids.  Returns how many; *out is a new
 * array of new strings (free each and the array). */
size_t process_dumps(const char *dump, char ***out);

/* One profile of every process of the run whose first process wrote
 * dump (profile_merge of each file's) into *out, with *processes how many
 * there were.  Returns 0, or with *err set and *out NULL:
 * PROCESS_DUMPS_UNUSABLE (a file cannot be read as one dump) or
 * PROCESS_DUMPS_FORKED_UNDER_CALLGRIND (*err says why and what to do). */
enum { PROCESS_DUMPS_UNUSABLE = -1, PROCESS_DUMPS_FORKED_UNDER_CALLGRIND = -2 };
int process_dumps_load(const char *dump, const struct bm_model *m, struct bm_profile **out, size_t *processes,
		       char **err);

/* The files of the nth function (from 1) that bm's tool collected in
 * (--collect-in: FILE.fn.N beside each process's FILE) of the run whose
 * first process wrote dump, as process_dumps gives them, with NULL for a
 * process where it was never called.  Returns how many (processes);
 * *out is a new array of new strings. */
size_t process_dumps_collected(const char *dump, size_t n, char ***out);

/* One profile of those files (profile_merge), into *out: NULL when it was
 * never called.  Returns 0, or PROCESS_DUMPS_UNUSABLE with *err set. */
int process_dumps_load_collected(const char *dump, size_t n, const struct bm_model *m, struct bm_profile **out,
				 char **err);

#endif
