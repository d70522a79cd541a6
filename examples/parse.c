/* SPDX-License-Identifier: MIT */
/* Parsing lines of comma-separated numbers, with strtol and with a
 * hand-written scanner. */
#include <bm.h>
#include <stdio.h>
#include <stdlib.h>

static void make_text(struct bm_state *s)
{
	long rows = bm_param(s, "rows");
	size_t cap = (size_t)rows * 40, len = 0;
	char *text = malloc(cap);
	for (long r = 0; r < rows; r++)
		len += (size_t)snprintf(text + len, cap - len, "%ld,%ld,%ld\n", r, r * 31 % 1000, r * 7);
	bm_set_data(s, text);
}

static void free_text(struct bm_state *s)
{
	free(bm_data(s));
}

static void parse_strtol(struct bm_state *s)
{
	const char *p = bm_data(s);
	long sum = 0;
	char *end;
	while (*p) {
		sum += strtol(p, &end, 10);
		p = *end ? end + 1 : end;
	}
	bm_black_box(sum);
}

static void parse_by_hand(struct bm_state *s)
{
	const char *p = bm_data(s);
	long sum = 0, v = 0;
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			v = v * 10 + (*p - '0');
		} else {
			sum += v;
			v = 0;
		}
	}
	bm_black_box(sum + v);
}

BM_BENCHMARK(parse, csv_strtol, .run = parse_strtol, .setup = make_text, .teardown = free_text,
	     .params = BM_PARAMS(BM_RANGE("rows", 100, 2000)));
BM_BENCHMARK(parse, csv_by_hand, .run = parse_by_hand, .setup = make_text, .teardown = free_text,
	     .params = BM_PARAMS(BM_RANGE("rows", 100, 2000)));

BM_MAIN()
