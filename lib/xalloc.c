/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void out_of_memory(void)
{
	static const char msg[] = "bm: out of memory\n";
	if (write(2, msg, sizeof msg - 1) < 0) {
		/* nothing more can be done */
	}
	_exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(count, size, &bytes))
		out_of_memory();
	void *p = realloc(ptr, bytes ? bytes : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	n = strnlen(s, n);
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s;
}

void xgrow(void *array, size_t *alloc, size_t want, size_t size)
{
	void **p = array;
	if (want <= *alloc)
		return;
	size_t n = *alloc ? *alloc : 8;
	while (n < want) {
		if (__builtin_mul_overflow(n, 2, &n))
			out_of_memory();
	}
	*p = xreallocarray(*p, n, size);
	*alloc = n;
}
