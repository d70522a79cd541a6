/* SPDX-License-Identifier: MIT */
/* JSON strings from text that came from outside: Jansson accepts only
 * valid UTF-8, but function, file and benchmark names are whatever bytes a
 * binary or a user chose. */
#ifndef BM_JSON_TEXT_H
#define BM_JSON_TEXT_H

#include <jansson.h>
#include <stddef.h>

/* A new JSON string holding s, with each byte that is not part of valid
 * UTF-8 replaced by U+FFFD, so that any name still makes a valid report.
 * NULL gives JSON null. */
json_t *json_text(const char *s);

#endif
