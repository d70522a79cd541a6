/* SPDX-License-Identifier: MIT */
/* A string interning pool: every distinct string gets a small index, in the
 * order first seen.  Strings may hold any bytes but NUL.  Lookups hash the
 * bytes once; the pool owns its copies. */
#ifndef BM_STRPOOL_H
#define BM_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct strpool;

struct strpool *strpool_new(void);
/* Frees the pool and its strings; NULL is a no-op. */
void strpool_free(struct strpool *pool);

/* Returns the index of the len bytes at s, adding a copy when new. */
uint32_t strpool_intern(struct strpool *pool, const char *s, size_t len);
/* Returns 1 and sets *idx when the string is in the pool, else 0. */
int strpool_find(const struct strpool *pool, const char *s, size_t len, uint32_t *idx);
/* The NUL-terminated string with index idx (borrowed; lives as long as the pool). */
const char *strpool_get(const struct strpool *pool, uint32_t idx);
size_t strpool_count(const struct strpool *pool);

#endif
