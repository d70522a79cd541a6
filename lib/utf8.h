/* SPDX-License-Identifier: MIT */
/* UTF-8 validation, for writers of JSON text (which must be valid UTF-8)
 * from names and paths that are whatever bytes a binary or a user chose. */
#ifndef BM_UTF8_H
#define BM_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (of n >= 1 bytes), or 0
 * when s does not start one (overlong forms and surrogates included). */
size_t utf8_sequence_length(const unsigned char *s, size_t n);

/* Whether the n bytes at s are all valid UTF-8 (n may be 0). */
int utf8_valid(const char *s, size_t n);

#endif
