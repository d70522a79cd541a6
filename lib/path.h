/* SPDX-License-Identifier: MIT */
/* File names. */
#ifndef BM_PATH_H
#define BM_PATH_H

#include <string.h>

/* The part of path after its last '/' (borrowed from path). */
static inline const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

#endif
