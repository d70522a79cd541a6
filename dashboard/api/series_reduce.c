/* SPDX-License-Identifier: MIT */
/* A long series for a chart: see series_reduce.h. */
#include "config.h"

#include "series_reduce.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Whether p[i] was measured otherwise than p[i - 1]. */
static int boundary(const struct store_point *p, size_t i)
{
	return strcmp(p[i].model, p[i - 1].model) || strcmp(p[i].platform, p[i - 1].platform);
}

/* kept: what base marks (the ends and the changes), and what each of nb
 * equal runs of p[0..n) keeps: its lowest and highest value and its first
 * point without one.  Returns how many points are kept in all. */
static size_t mark(const struct store_point *p, size_t n, size_t nb, const unsigned char *base, unsigned char *kept)
{
	memcpy(kept, base, n);
	for (size_t b = 0; b < nb; b++) {
		size_t lo = b * n / nb, hi = (b + 1) * n / nb, min = n, max = n, none = n;
		for (size_t i = lo; i < hi; i++) {
			if (!p[i].has_value) {
				if (none == n)
					none = i;
				continue;
			}
			if (min == n || p[i].value < p[min].value)
				min = i;
			if (max == n || p[i].value > p[max].value)
				max = i;
		}
		if (min < n)
			kept[min] = kept[max] = 1;
		if (none < n)
			kept[none] = 1;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += kept[i];
	return k;
}

size_t series_reduce(const struct store_point *p, size_t n, size_t max_points, size_t *keep, size_t *buckets)
{
	*buckets = 0;
	if (n <= max_points) {
		for (size_t i = 0; i < n; i++)
			keep[i] = i;
		return n;
	}
	unsigned char *base = xcalloc(n, 1), *kept = xcalloc(n, 1);
	base[0] = base[n - 1] = 1;
	for (size_t i = 1, changes = max_points / 8; i < n && changes; i++)
		if (boundary(p, i)) {
			base[i - 1] = base[i] = 1;
			changes--;
		}
	/* As many runs as the budget holds.  A run keeps one to three points,
	 * as its values fall, so the number is searched for: one run always
	 * fits (the ends, a quarter for the changes and three points are at
	 * most 8), and nb runs keep at least nb points. */
	size_t lo = 1, hi = max_points;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		if (mark(p, n, mid, base, kept) <= max_points)
			lo = mid;
		else
			hi = mid - 1;
	}
	mark(p, n, lo, base, kept);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (kept[i])
			keep[k++] = i;
	free(base);
	free(kept);
	*buckets = lo;
	return k;
}
