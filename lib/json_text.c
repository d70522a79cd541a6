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
	size_t o;
	char *out = utf8_repaired(s, n, &o);
	j = json_stringn(out, o);
	free(out);
	return j;
}
