/* SPDX-License-Identifier: MIT */
/* series_reduce.c: a long series made fit for a chart of a given size.
 * The series is cut into equal runs of points (buckets); each keeps its
 * lowest and highest value and its first point without one (failed or
 * skipped), in their order, so that a step, a spike or a failure shows
 * wherever it is; the points either side of a change of model or
 * platform (where the chart draws its dashed line) are kept too, up to a
 * quarter of the budget, and the first and last point always.  The
 * series is cut into as many runs as the budget holds, so that a chart
 * gets close to the points it asked for. */
#ifndef BM_SERIES_REDUCE_H
#define BM_SERIES_REDUCE_H

#include "store.h"

#include <stddef.h>

/* The points of p[0..n) to keep, at most max_points (at least 8) of
 * them: their indexes, ascending, in keep (room for n).  Returns how
 * many: n (every point) when n <= max_points.  *buckets is how many runs
 * the series was cut into (0: not reduced). */
size_t series_reduce(const struct store_point *p, size_t n, size_t max_points, size_t *keep, size_t *buckets);

#endif
