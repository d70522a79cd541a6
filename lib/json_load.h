/* SPDX-License-Identifier: MIT */
/* Every report bm reads from a file or standard input, and every spooled
 * one, goes through this one bounded loader: at most JSON_LOAD_MAX bytes
 * are read, so a huge or endless input is refused instead of filling the
 * memory. */
#ifndef BM_JSON_LOAD_H
#define BM_JSON_LOAD_H

#include <jansson.h>
#include <sys/types.h>

#define JSON_LOAD_MAX ((off_t)256 << 20)
#define JSON_LOAD_MAX_TEXT "256 MiB"

/* Why a load failed: the input was larger than JSON_LOAD_MAX, or reading
 * failed (errnum), or else the JSON did not parse (json, Jansson's). */
struct json_load_error {
	int too_big;
	int errnum;
	json_error_t json;
};

/* The JSON read from fd (flags as Jansson's: JSON_REJECT_DUPLICATES), or
 * NULL with *e.  fd stays open. */
json_t *json_load_fd(int fd, size_t flags, struct json_load_error *e);

/* The same from path ("-": standard input).  NULL with *err, one line:
 * "cannot open 'PATH': ...", "'NAME' is larger than 256 MiB", "cannot
 * read 'NAME': ..." or "NAME:LINE:COLUMN: what Jansson said", where NAME
 * is the path or <stdin>. */
json_t *json_load_path(const char *path, size_t flags, char **err);

#endif
