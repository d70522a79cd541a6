/* SPDX-License-Identifier: MIT */
/* The shared libraries a program loads, for symbol mode's --bench GLOB:
 * functions that a program calls in liblz4.so are measured as well as its
 * own. */
#ifndef BM_LIBRARIES_H
#define BM_LIBRARIES_H

#include <stddef.h>

/* The absolute paths of the libraries a dynamically linked program loads,
 * as its dynamic loader finds them in the environment env (bm-run's fixed
 * one: LD_TRACE_LOADED_OBJECTS, as ldd does; the program itself does not
 * run).  Only for a program with a dynamic loader: a static one would run.
 * Returns a NULL-terminated array (free each and the array) with *n
 * entries, or NULL with *err set. */
char **libraries_loaded(const char *program, char *const *env, size_t *n, char **err);

#endif
