/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "error.h"
#include "utf8.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bm_error(char **err, const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return -1;
	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = xstrdup("out of memory while formatting an error");
	va_end(ap);
	return -1;
}

void bm_error_prefix(char **err, const char *prefix)
{
	if (!err || !*err)
		return;
	char *s = xasprintf("%s: %s", prefix, *err);
	free(*err);
	*err = s;
}

void bm_error_suffix(char **err, const char *suffix)
{
	if (!err || !*err)
		return;
	char *s = xasprintf("%s%s", *err, suffix);
	free(*err);
	*err = s;
}

/* How many bytes at p (n left) are one control character, 0 when p
 * starts a printable one (*len: its length). */
static size_t control_at(const unsigned char *p, size_t n, size_t *len)
{
	if (*p < 0x80) {
		*len = 1;
		return *p < 0x20 || *p == 0x7f;
	}
	*len = utf8_sequence_length(p, n);
	if (!*len) {
		*len = 1; /* not UTF-8: escaped byte by byte */
		return 1;
	}
	if (*len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 2;
	/* A right-to-left override makes "gnp.exe" read "exe.png". */
	return utf8_invisible(utf8_code_point(p, *len)) ? *len : 0;
}

const char *bm_find_control(const char *s)
{
	size_t n = strlen(s), len;
	for (size_t i = 0; i < n; i += len)
		if (control_at((const unsigned char *)s + i, n - i, &len))
			return s + i;
	return NULL;
}

char *bm_escape_controls(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s), len;
	char *out = xmalloc(4 * n + 1), *o = out;
	for (size_t i = 0; i < n; i += len) {
		const unsigned char *p = (const unsigned char *)s + i;
		size_t c = control_at(p, n - i, &len);
		if (!c) {
			memcpy(o, p, len);
			o += len;
		}
		for (size_t k = 0; k < c; k++)
			o += snprintf(o, 5, "\\x%02x", p[k]);
	}
	*o = '\0';
	return out;
}

void bm_error_escape(char **err)
{
	if (!err || !*err)
		return;
	char *out = bm_escape_controls(*err);
	free(*err);
	*err = out;
}
