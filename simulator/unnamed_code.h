/* SPDX-License-Identifier: MIT */
/* Code without symbols: the share of a profile's cycles in functions that
 * have no name (Valgrind names them by address, "0x00000000000010f9"),
 * and the objects they are in, so that bm-run and bm-profile can say where
 * names would come from. */
#ifndef BM_UNNAMED_CODE_H
#define BM_UNNAMED_CODE_H

#include "profile.h"

#include <stddef.h>

/* Where the names of stripped code come from. */
#define DEBUG_SYMBOLS_HINT                                                                          \
	"install the debug symbols (Debian: the -dbgsym package; Valgrind and bm-run find them by "     \
	"build-id under /usr/lib/debug, or by .gnu_debuglink beside the file) or build with -g and "   \
	"without -s"

struct unnamed_code {
	uint64_t cycles; /* self cycles in unnamed functions */
	double share;    /* of the profile's cycles, 0..1 */
	char **objects;  /* their objects' file names, each once, in order of cycles */
	size_t nobjects;
};

/* Fills out from p (release it with unnamed_code_release). */
void unnamed_code_of(const struct bm_profile *p, struct unnamed_code *out);
/* Adds the objects of from to into (each once). */
void unnamed_code_add_objects(struct unnamed_code *into, const struct unnamed_code *from);
/* The objects as "a, b and c" (newly allocated). */
char *unnamed_code_objects_text(const struct unnamed_code *u);
void unnamed_code_release(struct unnamed_code *u);

#endif
