/* SPDX-License-Identifier: MIT */
/* JSON text written straight into a growing buffer, without Jansson: for
 * the server's answers too large to build as a Jansson tree first (a
 * history of 10,000 points is 70,000 values: building, dumping and freeing
 * the tree cost ten times the writing), and for libbm's native report
 * (libbm, linked into users' programs, does not bring Jansson along).
 * The caller writes the punctuation; these write values. */
#ifndef BM_JSON_BUF_H
#define BM_JSON_BUF_H

#include "dynbuf.h"

#include <stddef.h>
#include <stdint.h>

/* {0}: empty.  The text bm writes itself, so its buffer has no maximum. */
struct json_buf {
	struct dynbuf text;
};

/* Appends s as it is: punctuation, keys, or JSON text made elsewhere. */
void json_buf_raw(struct json_buf *b, const char *s);
/* The same for the n bytes at s. */
void json_buf_rawn(struct json_buf *b, const char *s, size_t n);
/* The same for a string literal, its length known at compile time. */
#define json_buf_lit(b, literal) json_buf_rawn((b), "" literal, sizeof(literal) - 1)
/* Appends s as a JSON string (NULL: null); a byte that is not part of
 * valid UTF-8 becomes U+FFFD, as json_text() does. */
void json_buf_string(struct json_buf *b, const char *s);
void json_buf_int(struct json_buf *b, int64_t v);
/* Appends v with 15 significant digits, as the server's Jansson answers
 * are written; NaN and infinities become null. */
void json_buf_real(struct json_buf *b, double v);
/* Makes room for bytes more without growing again. */
void json_buf_reserve(struct json_buf *b, size_t bytes);
/* Hands the text to the caller (who frees it) and empties b. */
char *json_buf_detach(struct json_buf *b, size_t *len);

#endif
