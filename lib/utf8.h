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

/* The n bytes at s with each byte that is not part of valid UTF-8
 * replaced by U+FFFD, as a new NUL-terminated string (*len: its length,
 * NUL excluded).  What a name becomes in a report. */
char *utf8_repaired(const char *s, size_t n, size_t *len);

/* The code point of the valid sequence of len bytes at s. */
unsigned utf8_code_point(const unsigned char *s, size_t len);

/* Whether code point c is invisible and can make text display as other
 * text: the bidirectional embeddings, overrides and isolates (U+202A to
 * U+202E, U+2066 to U+2069), the zero-width spaces, joiners and marks
 * (U+200B to U+200F, U+2060 to U+2064) and the byte-order mark. */
int utf8_invisible(unsigned c);

#endif
