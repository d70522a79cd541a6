/* SPDX-License-Identifier: MIT */
/* Allocation that cannot fail: on exhaustion bm prints one line and exits
 * with status 2, as git does.  Everything else in bm reports errors to its
 * caller; running out of memory is the one condition no caller can repair. */
#ifndef BM_XALLOC_H
#define BM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
/* Grows (or shrinks) the block at ptr to count * size bytes; overflow of the
 * product counts as exhaustion. */
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
/* The first n bytes of s, or all of it when it is shorter. */
char *xstrndup(const char *s, size_t n);
/* Returns a newly allocated formatted string; the caller owns it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes room for at least want elements in *array (of *alloc elements of
 * size bytes), growing geometrically. */
void xgrow(void *array, size_t *alloc, size_t want, size_t size);

#endif
