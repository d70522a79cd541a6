/* Parsing 2000 lines of comma-separated numbers, with strtol and with a
 * hand-written scanner. */
#include "bench_region.h"

#include <stdio.h>
#include <stdlib.h>

#define ROWS 2000

static __attribute__((noinline)) long parse_strtol(const char *s)
{
	long sum = 0;
	char *end;
	while (*s) {
		sum += strtol(s, &end, 10);
		s = *end ? end + 1 : end;
	}
	return sum;
}

static __attribute__((noinline)) long parse_by_hand(const char *s)
{
	long sum = 0, v = 0;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9') {
			v = v * 10 + (*s - '0');
		} else {
			sum += v;
			v = 0;
		}
	}
	return sum + v;
}

int main(void)
{
	size_t cap = ROWS * 40, len = 0;
	char *text = malloc(cap);
	for (int r = 0; r < ROWS; r++)
		len += (size_t)snprintf(text + len, cap - len, "%d,%d,%d\n", r, r * 31 % 1000, r * 7);
	black_box(parse_strtol("1,2")); /* binds strtol before measuring */
	BENCH("parse::csv[scanner=strtol]", black_box(parse_strtol(text)));
	BENCH("parse::csv[scanner=hand]", black_box(parse_by_hand(text)));
	free(text);
	return 0;
}
