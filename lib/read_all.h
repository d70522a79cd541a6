/* SPDX-License-Identifier: MIT */
/* One input's bytes, whole, in memory, up to a bound: bm-import's files
 * and bm-run's reports of the suites it runs.  (JSON that is read once is
 * streamed instead: json_load.h.) */
#ifndef BM_READ_ALL_H
#define BM_READ_ALL_H

#include <stddef.h>

/* Reads fd to its end into *out (*size bytes, NUL after them; the
 * caller frees it).  Returns 0, or -1 with errno: EFBIG past max bytes,
 * or read's own; *out is NULL then. */
int read_all(int fd, size_t max, char **out, size_t *size);

#endif
