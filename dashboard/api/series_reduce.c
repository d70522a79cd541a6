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

size_t series_reduce(const struct store_point *p, size_t n, size_t max_points, size_t *keep, size_t *buckets)
{
	*buckets = 0;
	if (n <= max_points) {
		for (size_t i = 0; i < n; i++)
			keep[i] = i;
		return n;
	}
	/* Three points a bucket, a quarter of the budget for the changes of
	 * model or platform (two points each) and the ends. */
	size_t nb = (max_points - max_points / 4 - 2) / 3, changes = max_points / 8;
	unsigned char *kept = xcalloc(n, 1);
	kept[0] = kept[n - 1] = 1;
	for (size_t i = 1; i < n && changes; i++)
		if (boundary(p, i)) {
			kept[i - 1] = kept[i] = 1;
			changes--;
		}
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
		if (kept[i])
			keep[k++] = i;
	free(kept);
	*buckets = nb;
	return k;
}
