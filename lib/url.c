#include "config.h"

#include "url.h"

#include "xalloc.h"

#include <stdio.h>
#include <string.h>

char *url_escape_segment(const char *s)
{
	char *out = xmalloc(3 * strlen(s) + 1), *p = out;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("-._~", *c))
			*p++ = (char)*c;
		else
			p += sprintf(p, "%%%02X", *c);
	*p = '\0';
	return out;
}
