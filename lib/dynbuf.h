/* SPDX-License-Identifier: MIT */
/* A growing byte string, always NUL-terminated, with a maximum fixed when
 * it is made (as curl's dynbuf): what comes from outside (an HTTP answer,
 * a request's body, an imported file's text) can never grow it past that,
 * and an append that would is refused whole.  A buffer made with {0} has
 * no maximum: for text bm writes itself (its answers, its reports). */
#ifndef BM_DYNBUF_H
#define BM_DYNBUF_H

#include <stddef.h>

struct dynbuf {
	char *data; /* NULL until something is added */
	size_t len, alloc;
	size_t max; /* the most bytes it may hold (the NUL aside); 0: no maximum */
};

#define DYNBUF_INIT(max) {NULL, 0, 0, (max)}

/* Appends the n bytes at s: 0, or -1 when they would take it past its
 * maximum (then nothing is added). */
int dynbuf_add(struct dynbuf *b, const void *s, size_t n);
/* Room for n bytes more without growing, returned: the caller writes
 * there and then dynbuf_added(b, written).  Not for a bounded buffer.
 * Inline: json_buf writes a history's 70,000 values through these. */
void dynbuf_grow(struct dynbuf *b, size_t n);
static inline char *dynbuf_room(struct dynbuf *b, size_t n)
{
	if (b->len + n + 1 > b->alloc)
		dynbuf_grow(b, n);
	return b->data + b->len;
}
static inline void dynbuf_added(struct dynbuf *b, size_t n)
{
	b->len += n;
	b->data[b->len] = '\0';
}
/* Drops its last n bytes (at most all). */
void dynbuf_drop(struct dynbuf *b, size_t n);
/* Its text ("" when empty). */
const char *dynbuf_str(const struct dynbuf *b);
/* Empties it, keeping its memory and maximum. */
void dynbuf_reset(struct dynbuf *b);
/* Hands its text to the caller (who frees it; NULL when nothing was ever
 * added) with its length in *len, and empties it. */
char *dynbuf_detach(struct dynbuf *b, size_t *len);
void dynbuf_free(struct dynbuf *b);

#endif
