/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "dynbuf.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void dynbuf_grow(struct dynbuf *b, size_t n)
{
	xgrow(&b->data, &b->alloc, b->len + n + 1, 1);
}

int dynbuf_add(struct dynbuf *b, const void *s, size_t n)
{
	if (b->max && n > b->max - b->len)
		return -1;
	if (n)
		memcpy(dynbuf_room(b, n), s, n);
	else
		dynbuf_room(b, 0);
	dynbuf_added(b, n);
	return 0;
}

void dynbuf_drop(struct dynbuf *b, size_t n)
{
	b->len -= n < b->len ? n : b->len;
	if (b->data)
		b->data[b->len] = '\0';
}

const char *dynbuf_str(const struct dynbuf *b)
{
	return b->data ? b->data : "";
}

void dynbuf_reset(struct dynbuf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

char *dynbuf_detach(struct dynbuf *b, size_t *len)
{
	char *text = b->data;
	if (len)
		*len = b->len;
	b->data = NULL;
	b->len = b->alloc = 0;
	return text;
}

void dynbuf_free(struct dynbuf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->alloc = 0;
}
