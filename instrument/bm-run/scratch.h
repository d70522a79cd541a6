/* SPDX-License-Identifier: MIT */
/* Whether the bm-run that made a scratch directory (/tmp/bm-run.XXXXXX,
 * sandbox.h) is still alive, so that a later run removes what a dead one
 * left (killed with SIGKILL, a crash, a power cut) and never anything of
 * a live one, be it a concurrent bm-run's or another user's.
 *
 * From its first directory on, a run holds a file locked (flock), and
 * each of its directories has a hard link to that file, named lock, which
 * holds the pid of the run that made it.  The lock belongs to the open
 * file, which the keepers bm-run forks (keeper.h) share: it lasts while
 * bm-run or any keeper lives, and so while any process of the run may
 * still write there, and the kernel drops it when they are all gone.  A
 * directory whose lock anyone can take is a dead run's.  One without a
 * lock, or with an empty one (made by a run that died before it could
 * write its pid), is left alone: --print-command's commands and older
 * bm-runs make directories of the same name without one. */
#ifndef BM_SCRATCH_H
#define BM_SCRATCH_H

/* Puts the run's lock into dir, a directory just made.  Returns 0, or -1
 * with *err set. */
int scratch_claim(const char *dir, char **err);

/* Removes dir's files, its lock last (a run that dies meanwhile leaves a
 * directory still known to be a dead run's), and dir. */
void scratch_remove(const char *dir);

/* Removes the scratch directories that dead runs of this user left. */
void scratch_sweep(void);

#endif
