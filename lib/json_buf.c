/* SPDX-License-Identifier: MIT */
/* JSON text into a buffer: see json_buf.h. */
#include "config.h"

#include "json_buf.h"

#include "utf8.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void append(struct json_buf *b, const char *s, size_t n)
{
	memcpy(dynbuf_room(&b->text, n), s, n);
	dynbuf_added(&b->text, n);
}

void json_buf_raw(struct json_buf *b, const char *s)
{
	append(b, s, strlen(s));
}

void json_buf_rawn(struct json_buf *b, const char *s, size_t n)
{
	append(b, s, n);
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
		/* Printable ASCII goes out in one copy: names and SHAs are mostly that. */
		size_t plain = i;
		while (plain < n && s[plain] >= 0x20 && s[plain] < 0x7f && s[plain] != '"' && s[plain] != '\\')
			plain++;
		if (plain > i) {
			append(b, s + i, plain - i);
			i = plain;
			continue;
		}
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
			size_t len = utf8_sequence_length((const unsigned char *)s + i, n - i);
			if (len)
				append(b, s + i, len);
			else
				append(b, "\\ufffd", 6);
			i += len ? len : 1;
		}
	}
	append(b, "\"", 1);
}

/* Digits by hand: snprintf was a tenth of a history's time. */
void json_buf_int(struct json_buf *b, int64_t v)
{
	char digits[24], *d = digits + sizeof digits;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--d = '-';
	append(b, d, (size_t)(digits + sizeof digits - d));
}

/* v (finite, 1e-4 <= v < 1e15) as printf's "%.15g" writes it, in
 * integers: fifteen significant digits, trailing zeros dropped, and ".0"
 * where no fraction is left, as Jansson writes reals.  printf took a
 * fifth of a history's time; this a tenth of that.  The product is taken
 * in long double (64-bit mantissa) and rounded half to even, as printf
 * rounds, so only a value within about 2^-64 of a rounding boundary can
 * come out one off in the fifteenth digit. */
static void real_digits(struct json_buf *b, double v)
{
	static const long double pow10[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
					    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L};
	int e = (int)floor(log10(v)); /* 10^e <= v < 10^(e+1), give or take one */
	if (e < -4)
		e = -4;
	if (e > 14)
		e = 14;
	uint64_t m = (uint64_t)rintl(v * pow10[14 - e]);
	if (m >= 1000000000000000ull && e < 14)
		m = (uint64_t)rintl(v * pow10[14 - ++e]);
	else if (m < 100000000000000ull && e > -4)
		m = (uint64_t)rintl(v * pow10[14 - --e]);
	if (m >= 1000000000000000ull) { /* rounded up to the next power of ten */
		m /= 10;
		e++;
	}
	char digits[15];
	for (int i = 14; i >= 0; i--, m /= 10)
		digits[i] = (char)('0' + m % 10);
	int last = 14; /* the last significant digit */
	while (last > 0 && digits[last] == '0')
		last--;
	char out[32];
	size_t n = 0;
	if (e >= 0) {
		for (int i = 0; i <= e; i++)
			out[n++] = digits[i];
		out[n++] = '.';
		if (last > e)
			for (int i = e + 1; i <= last; i++)
				out[n++] = digits[i];
		else
			out[n++] = '0'; /* stays a real when read back: 3 -> 3.0 */
	} else {
		out[n++] = '0';
		out[n++] = '.';
		for (int i = 0; i < -e - 1; i++)
			out[n++] = '0';
		for (int i = 0; i <= last; i++)
			out[n++] = digits[i];
	}
	append(b, out, n);
}

void json_buf_real(struct json_buf *b, double v)
{
	if (!isfinite(v)) {
		append(b, "null", 4);
		return;
	}
	/* Whole numbers (event counts, cycles) need no floating-point printf. */
	if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v) {
		json_buf_int(b, (int64_t)v);
		append(b, ".0", 2);
		return;
	}
	if (fabs(v) >= 1e-4 && fabs(v) < 1e15) {
		if (v < 0)
			append(b, "-", 1);
		real_digits(b, fabs(v));
		return;
	}
	char *p = dynbuf_room(&b->text, 32);
	int n = snprintf(p, 32, "%.15g", v);
	/* Stays a real when read back, as Jansson writes it: 3 -> 3.0. */
	if (!strpbrk(p, ".eE"))
		n += snprintf(p + n, 32 - (size_t)n, ".0");
	/* The exponent as Jansson writes it: no '+', no leading zeros
	 * (1e+20 -> 1e20, 1e-07 -> 1e-7). */
	char *e = memchr(p, 'e', (size_t)n);
	if (e) {
		char *from = e + 1, *to = e + 1;
		if (*from == '-')
			from++, to++;
		else if (*from == '+')
			from++;
		while (*from == '0' && from[1])
			from++;
		memmove(to, from, (size_t)(p + n - from));
		n -= (int)(from - to);
	}
	dynbuf_added(&b->text, (size_t)n);
}

void json_buf_reserve(struct json_buf *b, size_t bytes)
{
	dynbuf_room(&b->text, bytes);
}

char *json_buf_detach(struct json_buf *b, size_t *len)
{
	char *text = dynbuf_detach(&b->text, len);
	return text ? text : xstrdup("");
}
