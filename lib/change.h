/* SPDX-License-Identifier: MIT */
/* Change and stability over a time series (the BM seed, SPEC 4.1).
 *
 * With difference tolerance DT and stability tolerance ST:
 * - v and w are significantly equal when |(v - w) / v| <= DT, v being the
 *   value under test (vn when looking for the change, the value whose
 *   stability is asked);
 * - vn is the last value; the current change is the latest vc before vn
 *   that differs significantly from vn; every value after vc is then
 *   significantly equal to vn, so the change happened at vc's successor;
 * - a value is stable when at least ST values right before it are
 *   significantly equal to it; the change is stable when vc and vn are.
 * No statistics: an exactly constant series (deterministic data) has no
 * change, and a single step is found at its first commit. */
#ifndef BM_CHANGE_H
#define BM_CHANGE_H

#include <stddef.h>

struct change {
	int found;
	size_t from, to;           /* indices of vc and of the first value after it */
	double from_value, last_value;
	double fraction;           /* (vn - vc) / vc */
	int from_stable, last_stable, stable;
};

/* Significantly equal: |(v - w) / v| <= dt (two zeros are equal). */
int change_equal(double v, double w, double dt);

/* Finds the current change of v[0..n-1]; out->found is 0 when there is
 * none (n < 2, or every value equals the last). */
void change_find(const double *v, size_t n, double dt, unsigned st, struct change *out);

#endif
