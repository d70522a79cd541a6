/* SPDX-License-Identifier: MIT */
/* Change and stability: see change.h. */
#include "config.h"

#include "change.h"

#include <math.h>
#include <string.h>

int change_equal(double v, double w, double dt)
{
	if (v == w)
		return 1;
	if (v == 0)
		return 0;
	return fabs((v - w) / v) <= dt;
}

/* Whether at least st values right before v[i] equal it. */
static int stable_at(const double *v, size_t i, double dt, unsigned st)
{
	size_t run = 0;
	while (run < st && run < i && change_equal(v[i], v[i - run - 1], dt))
		run++;
	return run >= st;
}

void change_find(const double *v, size_t n, double dt, unsigned st, struct change *out)
{
	memset(out, 0, sizeof *out);
	if (n < 2)
		return;
	size_t last = n - 1, c = last;
	while (c > 0 && change_equal(v[last], v[c - 1], dt))
		c--;
	if (c == 0)
		return;
	c--; /* v[c] is vc */
	out->found = 1;
	out->from = c;
	out->to = c + 1;
	out->from_value = v[c];
	out->last_value = v[last];
	out->fraction = v[c] != 0 ? (v[last] - v[c]) / v[c] : INFINITY;
	out->from_stable = stable_at(v, c, dt, st);
	out->last_stable = stable_at(v, last, dt, st);
	out->stable = out->from_stable && out->last_stable;
}
