/* SPDX-License-Identifier: MIT */
/* A hash map from a pair of 64-bit keys to a 32-bit value: the index that
 * identifies a function (object, file, name), a call edge (caller, callee)
 * or a source line (file, line).  Open addressing, no removal. */
#ifndef BM_IDMAP_H
#define BM_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap;

struct idmap *idmap_new(void);
/* NULL is a no-op. */
void idmap_free(struct idmap *map);

/* Returns 1 and sets *value when (a, b) is in the map, else 0. */
int idmap_lookup(const struct idmap *map, uint64_t a, uint64_t b, uint32_t *value);
/* Adds (a, b) -> value; (a, b) must not be in the map yet. */
void idmap_insert(struct idmap *map, uint64_t a, uint64_t b, uint32_t value);

#endif
