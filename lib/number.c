/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "number.h"

#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Only digits, with one leading '-' where the range has negative
 * numbers, and for a real '.', 'e' and signs after the 'e': strtoll and
 * strtod would take blanks, '+', "0x", "inf". */
static int decimal(const char *text, int negative, int real)
{
	const char *p = text + (negative && text[0] == '-');
	if (!(*p >= '0' && *p <= '9') && !(real && *p == '.'))
		return 0;
	return strspn(p, real ? "0123456789.eE+-" : "0123456789") == strlen(p);
}

int number_whole(const char *text, long long min, long long max, long long *out)
{
	if (!text || !decimal(text, min < 0, 0))
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int number_real(const char *text, double min, double max, double *out)
{
	if (!text || !decimal(text, min < 0, 1))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || *end || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

/* The refusal, with the text as it can be shown. */
static int refused(char **err, const char *opt, const char *units, const char *min, const char *max,
		   const char *text)
{
	char *shown = bm_escape_controls(text ? text : "");
	bm_error(err, "%s needs %s from %s to %s, not '%s'", opt, units, min, max, shown);
	free(shown);
	return -1;
}

int number_option(const char *opt, const char *units, const char *text, long long min, long long max,
		  long long *out, char **err)
{
	if (!number_whole(text, min, max, out))
		return 0;
	char lo[24], hi[24];
	snprintf(lo, sizeof lo, "%lld", min);
	snprintf(hi, sizeof hi, "%lld", max);
	return refused(err, opt, units, lo, hi, text);
}

int number_option_real(const char *opt, const char *units, const char *text, double min, double max,
		       double *out, char **err)
{
	if (!number_real(text, min, max, out))
		return 0;
	char lo[32], hi[32];
	snprintf(lo, sizeof lo, "%.15g", min);
	snprintf(hi, sizeof hi, "%.15g", max);
	return refused(err, opt, units, lo, hi, text);
}
