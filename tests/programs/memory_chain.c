/* SPDX-License-Identifier: MIT */
/* Loops whose value goes from one pass to the next through memory, as
 * bm-model/4 charges them (tests/cli/model4.sh): a volatile counter, a
 * field updated through a pointer the compiler cannot keep in a
 * register, and -O0 code, whose every variable lives on the stack; and
 * the same sum in a register, which no store carries.  Each runs STEPS
 * passes; symbol mode measures each function. */
#include "region.h"

#include <stdio.h>

#define STEPS 5000

volatile unsigned counter;

static NOINLINE void volatile_counter(void)
{
	for (unsigned i = 0; i < STEPS; i++)
		counter += i;
}

struct stats {
	long count;
	long other;
};

/* The store through p may alias nothing the compiler knows, but the
 * volatile access keeps it in memory each pass. */
static NOINLINE long field_in_place(volatile struct stats *p)
{
	for (int i = 0; i < STEPS; i++)
		p->count += i;
	return p->count;
}

#if defined(__clang__)
#define UNOPTIMISED __attribute__((optnone))
#else
#define UNOPTIMISED __attribute__((optimize("O0")))
#endif

UNOPTIMISED static NOINLINE long unoptimised_sum(void)
{
	long sum = 0;
	for (int i = 0; i < STEPS; i++)
		sum += i;
	return sum;
}

static NOINLINE long register_sum(int n)
{
	long sum = 0;
	for (int i = 0; i < n; i++) {
		sum += i;
		__asm__("" : "+r"(sum));
	}
	return sum;
}

int main(void)
{
	static volatile struct stats s;
	volatile_counter();
	long a = field_in_place(&s), b = unoptimised_sum(), c = register_sum(STEPS);
	printf("%u %ld %ld %ld\n", counter, a, b, c);
	return 0;
}
