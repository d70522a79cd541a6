/* SPDX-License-Identifier: MIT */
/* qsort with a callback (calls into libc and back), malloc/free, and
 * inlined code from a header. */
#include "region.h"

#include <stdlib.h>

#include "sort_inline.h"

static NOINLINE long sort_random(int n)
{
	unsigned state = 42;
	int *a = malloc(n * sizeof *a);
	for (int i = 0; i < n; i++)
		a[i] = (int)next_random(&state);
	qsort(a, n, sizeof *a, compare_ints);
	long s = a[0] + a[n / 2] + a[n - 1];
	free(a);
	return s;
}

int main(void)
{
	keep(sort_random(16)); /* binds qsort, malloc and free before the region */
	REGION("sort::random[n=3000]", keep(sort_random(3000)));
	return 0;
}
