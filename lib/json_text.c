/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "json_text.h"

#include "utf8.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

json_t *json_text(const char *s)
{
	if (!s)
		return json_null();
	size_t n = strlen(s);
	json_t *j = json_stringn(s, n);
	if (j)
		return j;
	/* Each invalid byte becomes the 3-byte U+FFFD. */
	char *out = xmalloc(3 * n + 1);
	size_t o = 0;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_sequence_length(u + i, n - i);
		if (len) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(out, o);
	free(out);
	return j;
}
