/* JSON text into a buffer: see json_buf.h. */
#include "config.h"

#include "json_buf.h"

#include "json_text.h"
#include "xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static char *room(struct json_buf *b, size_t n)
{
	xgrow(&b->data, &b->alloc, b->len + n + 1, 1);
	return b->data + b->len;
}

static void append(struct json_buf *b, const char *s, size_t n)
{
	memcpy(room(b, n), s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void json_buf_raw(struct json_buf *b, const char *s)
{
	append(b, s, strlen(s));
}

void json_buf_string(struct json_buf *b, const char *s)
{
	if (!s) {
		append(b, "null", 4);
		return;
	}
	size_t n = strlen(s);
	append(b, "\"", 1);
	for (size_t i = 0; i < n;) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\') {
			char esc[2] = {'\\', (char)ch};
			append(b, esc, 2);
			i++;
		} else if (ch < 0x20) {
			char esc[8];
			snprintf(esc, sizeof esc, "\\u%04x", ch);
			append(b, esc, 6);
			i++;
		} else {
			size_t len = json_utf8_length((const unsigned char *)s + i, n - i);
			if (len)
				append(b, s + i, len);
			else
				append(b, "\\ufffd", 6);
			i += len ? len : 1;
		}
	}
	append(b, "\"", 1);
}

void json_buf_int(struct json_buf *b, int64_t v)
{
	char *p = room(b, 24);
	b->len += (size_t)snprintf(p, 24, "%" PRId64, v);
}

void json_buf_real(struct json_buf *b, double v)
{
	if (!isfinite(v)) {
		append(b, "null", 4);
		return;
	}
	char *p = room(b, 32);
	int n = snprintf(p, 32, "%.15g", v);
	/* Stays a real when read back, as Jansson writes it: 3 -> 3.0. */
	if (!strpbrk(p, ".eE"))
		n += snprintf(p + n, 32 - (size_t)n, ".0");
	b->len += (size_t)n;
}

char *json_buf_detach(struct json_buf *b, size_t *len)
{
	char *text = b->data ? b->data : xstrdup("");
	*len = b->len;
	b->data = NULL;
	b->len = b->alloc = 0;
	return text;
}
