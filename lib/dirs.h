/* SPDX-License-Identifier: MIT */
/* Directories that must exist before something is written into them. */
#ifndef BM_DIRS_H
#define BM_DIRS_H

#include <sys/types.h>

/* mkdir -p: makes dir and every missing parent with mode (less the umask).
 * A path that exists and is a directory is fine.  Returns 0, or -1 with
 * *err set ("cannot create 'a/b': Permission denied", "'a' is not a
 * directory"). */
int dirs_make(const char *dir, mode_t mode, char **err);

#endif
