#include "config.h"

#include "error.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

void bm_error_escape(char **err)
{
	if (!err || !*err)
		return;
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)*err; *p; p++)
		n += *p < 0x20 || *p == 0x7f ? 4 : 1;
	char *out = xmalloc(n + 1), *o = out;
	for (const unsigned char *p = (const unsigned char *)*err; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	free(*err);
	*err = out;
}
