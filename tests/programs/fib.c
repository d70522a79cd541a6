/* SPDX-License-Identifier: MIT */
/* Recursion (callgrind names deeper levels fib'2) and a loop over an
 * array, in two regions. */
#include "region.h"

#include <stdlib.h>

static NOINLINE long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static NOINLINE long sum_squares(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += (long)a[i] * a[i];
	return s;
}

int main(void)
{
	static int data[20000];
	for (int i = 0; i < 20000; i++)
		data[i] = i * 7 % 1000;
	REGION("bench_fib", keep(fib(16)));
	REGION("bench_sum", keep(sum_squares(data, 20000)));
	return 0;
}
