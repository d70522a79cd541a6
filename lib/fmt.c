/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *fmt_count(char buf[FMT_SIZE], uint64_t n)
{
	char digits[24];
	int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
	size_t o = 0;
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

char *fmt_count_delta(char buf[FMT_SIZE + 1], uint64_t now, uint64_t before)
{
	buf[0] = now >= before ? '+' : '-';
	fmt_count(buf + 1, now >= before ? now - before : before - now);
	return buf;
}

/* Three significant digits with the given unit; from a million up, below
 * a hundredth (but not 0) and what is not finite in exponent notation,
 * which always fits and never reads as 0. */
static char *scaled(char buf[FMT_SIZE], double v, const char *unit)
{
	double a = fabs(v);
	if (!(a < 1e6) || (a > 0 && a < 0.01)) {
		snprintf(buf, FMT_SIZE, "%.3g %s", v, unit);
		return buf;
	}
	int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
	snprintf(buf, FMT_SIZE, "%.*f %s", decimals, v, unit);
	return buf;
}

char *fmt_seconds(char buf[FMT_SIZE], double s)
{
	double a = fabs(s);
	if (a < 1e-6)
		return scaled(buf, s * 1e9, "ns");
	if (a < 1e-3)
		return scaled(buf, s * 1e6, "us");
	if (a < 1)
		return scaled(buf, s * 1e3, "ms");
	return scaled(buf, s, "s");
}

char *fmt_percent(char buf[FMT_SIZE], double fraction)
{
	double p = 100 * fraction;
	snprintf(buf, FMT_SIZE, fabs(p) < 1e6 ? "%+.2f%%" : "%+.3g%%", p);
	return buf;
}

char *fmt_ns(char buf[FMT_SIZE], uint64_t ns)
{
	if (ns < 1000) {
		snprintf(buf, FMT_SIZE, "%llu ns", (unsigned long long)ns);
		return buf;
	}
	return fmt_seconds(buf, (double)ns / 1e9);
}

char *fmt_rate(char buf[FMT_SIZE], double r)
{
	static const char *const units[] = {"/s", "k/s", "M/s", "G/s", "T/s"};
	size_t u = 0;
	while (r >= 1000 && u + 1 < sizeof units / sizeof units[0]) {
		r /= 1000;
		u++;
	}
	snprintf(buf, FMT_SIZE, "%.4g %s", r, units[u]);
	return buf;
}
