/* SPDX-License-Identifier: MIT */
/* A long history made fit for a chart (dashboard/api/series_reduce.c):
 * the budget holds, and no step, spike, failure, model change or end is
 * lost. */
#include "series_reduce.h"
#include "unit.h"

#include <stdlib.h>

enum { N = 100000 };

/* A series of n points at value v, measured by model 1 on x86. */
static struct store_point *flat(size_t n, double v)
{
	struct store_point *p = calloc(n, sizeof *p);
	for (size_t i = 0; i < n; i++)
		p[i] = (struct store_point){.model = "bm-model/1", .platform = "x86", .status = BM_STATUS_OK,
					    .has_value = 1, .value = v, .commit_time = (int64_t)i};
	return p;
}

static int kept(const size_t *keep, size_t k, size_t i)
{
	for (size_t j = 0; j < k; j++)
		if (keep[j] == i)
			return 1;
	return 0;
}

START_TEST(a_short_series_is_kept_whole)
{
	struct store_point *p = flat(600, 1);
	size_t keep[600], buckets;
	ck_assert_uint_eq(series_reduce(p, 600, 600, keep, &buckets), 600);
	ck_assert_uint_eq(buckets, 0);
	ck_assert_uint_eq(keep[599], 599);
	free(p);
}
END_TEST

START_TEST(a_long_series_keeps_its_steps_spike_failure_and_ends)
{
	struct store_point *p = flat(N, 100);
	for (size_t i = 61234; i < N; i++)
		p[i].value = 90; /* a regression's step, inside a bucket */
	p[33333].value = 500; /* one spike */
	p[77777].has_value = 0; /* one failure */
	p[77777].status = BM_STATUS_FAILED;
	for (size_t i = 88888; i < N; i++)
		p[i].model = "bm-model/2"; /* the model changed */
	size_t *keep = calloc(N, sizeof *keep), buckets;
	size_t k = series_reduce(p, N, 600, keep, &buckets);
	ck_assert_uint_le(k, 600);
	ck_assert_uint_gt(k, 590);
	ck_assert_uint_gt(buckets, 100);
	for (size_t j = 1; j < k; j++)
		ck_assert_uint_lt(keep[j - 1], keep[j]);
	ck_assert(kept(keep, k, 0) && kept(keep, k, N - 1));
	ck_assert(kept(keep, k, 33333));
	ck_assert(kept(keep, k, 77777));
	ck_assert(kept(keep, k, 88887) && kept(keep, k, 88888));
	/* The step: the last 100 and the first 90 of its bucket, in order. */
	int before = 0, after = 0;
	for (size_t j = 0; j < k; j++) {
		before |= keep[j] < 61234 && p[keep[j]].value == 100 && keep[j] > 61234 - N / buckets;
		after |= keep[j] >= 61234 && keep[j] < 61234 + N / buckets && p[keep[j]].value == 90;
	}
	ck_assert(before && after);
	free(keep);
	free(p);
}
END_TEST

START_TEST(model_changes_take_at_most_their_share)
{
	/* Two platforms taking turns: every point is a change. */
	struct store_point *p = flat(N, 1);
	for (size_t i = 0; i < N; i += 2)
		p[i].platform = "arm";
	size_t *keep = calloc(N, sizeof *keep), buckets;
	ck_assert_uint_le(series_reduce(p, N, 600, keep, &buckets), 600);
	ck_assert_uint_le(series_reduce(p, N, 8, keep, &buckets), 8);
	free(keep);
	free(p);
}
END_TEST

START_TEST(the_budget_is_used)
{
	/* 20 points for 8 (issue 39: one run of 20, two points answered). */
	struct store_point *p = flat(20, 1);
	for (size_t i = 0; i < 20; i++)
		p[i].value = (double)(i * 7 % 13); /* up and down */
	size_t keep[20], buckets;
	size_t k = series_reduce(p, 20, 8, keep, &buckets);
	ck_assert_uint_le(k, 8);
	ck_assert_uint_ge(k, 7);
	ck_assert_uint_gt(buckets, 1);
	ck_assert(keep[0] == 0 && keep[k - 1] == 19);
	for (size_t i = 0; i < 20; i++)
		p[i].value = 1; /* constant: a point a run */
	ck_assert_uint_eq(series_reduce(p, 20, 8, keep, &buckets), 8);
	ck_assert_uint_eq(buckets, 7);
	free(p);
	/* Every budget, over a long series with steps and failures. */
	p = flat(N, 100);
	for (size_t i = 0; i < N; i++) {
		p[i].value = (double)(i / 1000 % 7);
		p[i].has_value = i % 4999 != 0;
	}
	size_t *many = calloc(N, sizeof *many);
	for (size_t budget = 8; budget <= 2000; budget = budget * 3 / 2) {
		k = series_reduce(p, N, budget, many, &buckets);
		ck_assert_uint_le(k, budget);
		ck_assert_uint_ge(k, budget - budget / 8 - 2);
	}
	free(many);
	free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("series_reduce");
	TCase *tc = tcase_create("reduce");
	tcase_add_test(tc, a_short_series_is_kept_whole);
	tcase_add_test(tc, a_long_series_keeps_its_steps_spike_failure_and_ends);
	tcase_add_test(tc, model_changes_take_at_most_their_share);
	tcase_add_test(tc, the_budget_is_used);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
