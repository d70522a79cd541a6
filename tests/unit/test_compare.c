/* SPDX-License-Identifier: MIT */
/* Commit impact, verdicts and the change/stability rule (lib/compare.c,
 * lib/change.c): the seed's worked examples and the deterministic-data
 * cases that statistical detectors cannot handle; which results compare
 * at all (lib/series_identity.c). */
#include "change.h"
#include "compare.h"
#include "series_identity.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

START_TEST(commit_impact_worked_examples)
{
	const double a[] = {0.1, 0, -0.3}, b[] = {0.1, 0.3, -0.2};
	ck_assert_double_eq_tol(commit_impact(a, 3, 0.25), -0.3, 1e-12);
	ck_assert_double_eq_tol(commit_impact(b, 3, 0.25), 0.3, 1e-12);
	/* (1.1 * 1.3 * 0.8)^(1/3) - 1 */
	ck_assert_double_eq_tol(commit_impact(b, 3, 0.5), cbrt(1.1 * 1.3 * 0.8) - 1, 1e-12);
	ck_assert_double_eq_tol(commit_impact(b, 3, 0.5), 0.0459, 1e-4);
}
END_TEST

START_TEST(comparison_verdicts)
{
	const struct result base[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 100}, {.id = "b", .status = BM_STATUS_OK, .speed = 100}, {.id = "c", .status = BM_STATUS_OK, .speed = 100},
				      {.id = "gone", .status = BM_STATUS_OK, .speed = 5}};
	const struct result head[] = {{.id = "c", .status = BM_STATUS_OK, .speed = 70}, {.id = "a", .status = BM_STATUS_OK, .speed = 110}, {.id = "b", .status = BM_STATUS_OK, .speed = 100},
				      {.id = "new", .status = BM_STATUS_OK, .speed = 1}};
	struct comparison c;
	comparison_build(&c, head, 4, base, 4, 0.25);
	ck_assert_int_eq(c.verdict, VERDICT_REGRESSION);
	ck_assert_double_eq_tol(c.commit_impact, -0.3, 1e-12);
	ck_assert_uint_eq(c.nrows, 5);
	ck_assert_str_eq(c.rows[0].id, "c"); /* worst first */
	ck_assert_str_eq(c.rows[2].id, "a");
	ck_assert_str_eq(c.rows[3].id, "gone"); /* then those without an impact */
	ck_assert_int_eq(c.rows[3].in_head, 0);
	ck_assert_str_eq(c.rows[4].id, "new");
	ck_assert_int_eq(c.rows[4].has_base, 0);
	comparison_release(&c);

	comparison_build(&c, head, 4, NULL, 0, 0.25);
	ck_assert_int_eq(c.verdict, VERDICT_NO_BASELINE);
	ck_assert_int_eq(c.has_commit_impact, 0);
	comparison_release(&c);

	const struct result crashed[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 200}, {.id = "b", .status = BM_STATUS_FAILED, .speed = 0}};
	comparison_build(&c, crashed, 2, base, 4, 0.25);
	ck_assert_int_eq(c.verdict, VERDICT_FAILED); /* even with a big improvement */
	ck_assert_str_eq(c.rows[0].id, "b");
	comparison_release(&c);

	const struct result same[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 100}};
	comparison_build(&c, same, 1, base, 4, 0.1);
	ck_assert_int_eq(c.verdict, VERDICT_NEUTRAL);
	ck_assert_double_eq(c.commit_impact, 0);
	comparison_release(&c);
}
END_TEST

/* An acknowledged regression: "acknowledged" only when every benchmark
 * beyond its threshold for the worse is; the commit impact unchanged; a
 * failure still wins. */
START_TEST(acknowledged_regressions)
{
	const struct result base[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 100},
				      {.id = "b", .status = BM_STATUS_OK, .speed = 100},
				      {.id = "c", .status = BM_STATUS_OK, .speed = 100}};
	struct result head[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 70, .acknowledged = 1},
				{.id = "b", .status = BM_STATUS_OK, .speed = 80},
				{.id = "c", .status = BM_STATUS_OK, .speed = 130}};
	struct comparison c;
	comparison_build(&c, head, 3, base, 3, 0.1);
	ck_assert_int_eq(c.verdict, VERDICT_REGRESSION); /* b is not acknowledged */
	comparison_release(&c);
	head[1].acknowledged = 1;
	comparison_build(&c, head, 3, base, 3, 0.1);
	ck_assert_int_eq(c.verdict, VERDICT_ACKNOWLEDGED);
	ck_assert_str_eq(verdict_name(c.verdict), "acknowledged");
	ck_assert_double_eq_tol(c.commit_impact, -0.3, 1e-12);
	ck_assert_int_eq(c.rows[0].acknowledged, 1);
	comparison_release(&c);
	/* Within a wider threshold b needs no acknowledgement. */
	head[1].acknowledged = 0;
	comparison_build(&c, head, 3, base, 3, 0.25);
	ck_assert_int_eq(c.verdict, VERDICT_ACKNOWLEDGED);
	comparison_release(&c);
	/* An acknowledgement on a benchmark that is not a regression changes nothing. */
	const struct result fine[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 100, .acknowledged = 1}};
	comparison_build(&c, fine, 1, base, 3, 0.1);
	ck_assert_int_eq(c.verdict, VERDICT_NEUTRAL);
	comparison_release(&c);
	head[2].status = BM_STATUS_FAILED;
	head[1].acknowledged = 1;
	comparison_build(&c, head, 3, base, 3, 0.1);
	ck_assert_int_eq(c.verdict, VERDICT_FAILED);
	comparison_release(&c);
}
END_TEST

START_TEST(per_benchmark_thresholds)
{
	/* A loose threshold on "a" keeps its -40% from failing the commit;
	 * "b"'s tight one makes its -5% the commit's regression. */
	const struct result base[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 100}, {.id = "b", .status = BM_STATUS_OK, .speed = 100}, {.id = "c", .status = BM_STATUS_OK, .speed = 100}};
	const struct result head[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 60, .has_threshold = 1, .threshold = 0.5}, {.id = "b", .status = BM_STATUS_OK, .speed = 95, .has_threshold = 1, .threshold = 0.02},
				      {.id = "c", .status = BM_STATUS_OK, .speed = 100}};
	struct comparison c;
	comparison_build(&c, head, 3, base, 3, 0.10);
	ck_assert_int_eq(c.verdict, VERDICT_REGRESSION);
	ck_assert_double_eq_tol(c.commit_impact, -0.05, 1e-12);
	ck_assert_str_eq(c.rows[0].id, "a");
	ck_assert_double_eq(c.rows[0].threshold, 0.5);
	ck_assert_double_eq(c.rows[2].threshold, 0.10);
	comparison_release(&c);

	/* Without b's own threshold nothing is beyond its threshold: the
	 * geometric mean, neutral. */
	const struct result loose[] = {{.id = "a", .status = BM_STATUS_OK, .speed = 60, .has_threshold = 1, .threshold = 0.5}, {.id = "b", .status = BM_STATUS_OK, .speed = 95}, {.id = "c", .status = BM_STATUS_OK, .speed = 100}};
	comparison_build(&c, loose, 3, base, 3, 0.10);
	ck_assert_int_eq(c.verdict, VERDICT_NEUTRAL);
	ck_assert_double_eq_tol(c.commit_impact, cbrt(0.6 * 0.95) - 1, 1e-12);
	comparison_release(&c);

	/* With one threshold for all, the rule is SPEC 4.1's. */
	const double impacts[] = {0.1, 0.3, -0.2}, ts[] = {0.25, 0.25, 0.25};
	enum verdict v;
	ck_assert_double_eq_tol(commit_impact_each(impacts, ts, 3, &v), 0.3, 1e-12);
	ck_assert_int_eq(v, VERDICT_IMPROVEMENT);
}
END_TEST

START_TEST(a_constant_series_has_no_change)
{
	static double v[1000];
	for (size_t i = 0; i < 1000; i++)
		v[i] = 1234567;
	struct change ch;
	change_find(v, 1000, 0, 4, &ch);
	ck_assert_int_eq(ch.found, 0);
	change_find(v, 1000, 0.005, 4, &ch);
	ck_assert_int_eq(ch.found, 0);
}
END_TEST

START_TEST(a_one_percent_step_is_found_at_its_first_commit)
{
	double v[30];
	for (size_t i = 0; i < 30; i++)
		v[i] = i < 20 ? 1000 : 1010;
	struct change ch;
	for (size_t n = 21; n <= 30; n++) {
		change_find(v, n, 0.005, 4, &ch);
		ck_assert_int_eq(ch.found, 1);
		ck_assert_uint_eq(ch.to, 20);
		ck_assert_uint_eq(ch.from, 19);
		ck_assert_double_eq_tol(ch.fraction, 0.01, 1e-12);
		ck_assert_int_eq(ch.from_stable, 1);
		/* vn is stable once 4 values equal to it precede it */
		ck_assert_int_eq(ch.last_stable, n - 1 - 20 >= 4);
		ck_assert_int_eq(ch.stable, n - 1 - 20 >= 4);
	}
	/* With DT = 1% the step is within tolerance. */
	change_find(v, 30, 0.01, 4, &ch);
	ck_assert_int_eq(ch.found, 0);
}
END_TEST

START_TEST(a_noisy_old_value_is_not_stable)
{
	const double v[] = {100, 130, 100, 100, 100, 90, 90};
	struct change ch;
	change_find(v, 7, 0.01, 3, &ch);
	ck_assert_int_eq(ch.found, 1);
	ck_assert_uint_eq(ch.from, 4);
	ck_assert_int_eq(ch.from_stable, 0); /* only 2 equal values before it */
	ck_assert_int_eq(ch.last_stable, 0);
	ck_assert_double_eq_tol(ch.fraction, -0.1, 1e-12);
}
END_TEST

START_TEST(short_series)
{
	const double v[] = {5};
	struct change ch;
	change_find(v, 1, 0.01, 3, &ch);
	ck_assert_int_eq(ch.found, 0);
	change_find(v, 0, 0.01, 3, &ch);
	ck_assert_int_eq(ch.found, 0);
	ck_assert_int_eq(change_equal(0, 0, 0), 1);
	ck_assert_int_eq(change_equal(0, 1, 0.5), 0);
}
END_TEST

static void identity_is(const char *model, int warm, const char *engine, const char *cpu, const char *want)
{
	struct bm_report r;
	memset(&r, 0, sizeof r);
	r.model.id = (char *)model;
	r.model.warm_caches = warm;
	r.engine = (char *)engine;
	r.model.cpu = (char *)cpu;
	char *id = report_series_identity(&r);
	ck_assert_str_eq(id, want);
	free(id);
}

START_TEST(series_identities)
{
	/* Every stored run of the default configuration keeps its identity. */
	identity_is("bm-model/1", 1, "bm", REPORT_FIXED_CPU, "bm-model/1+warm");
	identity_is("bm-model/1", 1, NULL, NULL, "bm-model/1+warm");
	identity_is("bm-model/1", 0, "bm", REPORT_FIXED_CPU, "bm-model/1");
	identity_is("import/gbench", 0, NULL, NULL, "import/gbench");
	/* Callgrind's guest sees the host's CPU. */
	identity_is("bm-model/1", 1, "callgrind", "host: AMD EPYC", "bm-model/1+warm+callgrind+cpu=host: AMD EPYC");
	identity_is("bm-model/1", 0, "callgrind", NULL, "bm-model/1+callgrind");
	/* Another fixed CPU (another bm version) is another series. */
	identity_is("bm-model/1", 1, "bm", "x86-64-v3", "bm-model/1+warm+cpu=x86-64-v3");
}
END_TEST

/* What the programs read on standard input names the series too (its
 * digest's first 16 digits), between the engine and the CPU. */
START_TEST(series_identity_of_input)
{
	struct bm_report r;
	memset(&r, 0, sizeof r);
	r.model.id = "bm-model/1";
	r.engine = "callgrind";
	r.model.cpu = "host: X";
	r.stdin_sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	char *id = report_series_identity(&r);
	ck_assert_str_eq(id, "bm-model/1+callgrind+stdin=ba7816bf8f01cfea+cpu=host: X");
	free(id);
	/* The Valgrind that ran it, before the input. */
	r.valgrind = "3.19.0";
	id = report_series_identity(&r);
	ck_assert_str_eq(id, "bm-model/1+callgrind+valgrind=3.19.0+stdin=ba7816bf8f01cfea+cpu=host: X");
	free(id);
}
END_TEST


static void difference_is(const char *there, const char *here, const char *want)
{
	char *why = series_identity_difference(there, here, "there", "here");
	if (!want) {
		ck_assert_ptr_null(why);
		return;
	}
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strncmp(why, want, strlen(want)) == 0, "'%s' does not start with '%s'", why, want);
	free(why);
}

/* Another Valgrind is another series, said so, and taken apart from the
 * engine, the input and the CPU around it. */
START_TEST(series_identity_of_valgrind)
{
	difference_is("bm-model/3+valgrind=3.19.0+cpu=bm x86-64-v3: X", "bm-model/3+valgrind=3.22.0+cpu=bm x86-64-v3: X",
		      "Valgrind: 3.19.0 there, 3.22.0 here (another Valgrind translates the program otherwise");
	difference_is("bm-model/3+warm+valgrind=3.19.0", "bm-model/3+warm", "Valgrind: 3.19.0 there, none recorded here");
	difference_is("bm-model/1+callgrind+valgrind=3.19.0+stdin=aa", "bm-model/1+valgrind=3.19.0+stdin=aa",
		      "engine: callgrind there, bm here");
	difference_is("bm-model/1+valgrind=3.19.0+stdin=aa", "bm-model/1+valgrind=3.19.0+stdin=bb",
		      "standard input: 'aa' there, 'bb' here");
}
END_TEST

START_TEST(series_differences_name_the_field)
{
	difference_is("bm-model/1+warm", "bm-model/1+warm", NULL);
	difference_is("bm-model/1+warm", "bm-model/1+warm+callgrind+cpu=host: AMD EPYC",
		      "engine: bm there, callgrind here (rerun one of them with the other's engine: bm-run --engine bm, "
		      "or --engine callgrind)");
	difference_is("bm-model/1+callgrind+cpu=host: A", "bm-model/1+callgrind+cpu=host: B",
		      "virtual CPU: 'host: A' there, 'host: B' here (");
	difference_is("bm-model/1+warm+cpu=x86-64-v3", "bm-model/1+warm", "virtual CPU: 'x86-64-v3' there, bm's fixed virtual CPU here (");
	difference_is("bm-model/1+callgrind", "bm-model/1+callgrind+cpu=host: B", "virtual CPU: none recorded there, 'host: B' here (");
	difference_is("bm-model/2", "bm-model/1+warm+callgrind", "cost model: bm-model/2 there, bm-model/1 here (");
	difference_is("import/gbench", "bm-model/1", "cost model: import/gbench there, bm-model/1 here (");
	difference_is("bm-model/1", "bm-model/1+warm",
		      "simulated caches: cold there, warm here (rerun one of them as the other was: bm-run --cold, or --warm)");
	difference_is("bm-model/1+warm+callgrind", "bm-model/1+callgrind", "simulated caches: warm there, cold here (");
	/* A CPU may hold a '+', and "+cpu=" too. */
	difference_is("bm-model/1+cpu=a+b+cpu=c", "bm-model/1+cpu=a+b+cpu=d", "virtual CPU: 'a+b+cpu=c' there, 'a+b+cpu=d' here (");
	difference_is("bm-model/1+warm+stdin=0123456789abcdef", "bm-model/1+warm",
		      "standard input: '0123456789abcdef' there, none here (the programs read other input: rerun one of "
		      "them with the other's, bm-run --stdin FILE)");
	difference_is("bm-model/1+callgrind+stdin=aa+cpu=host: A", "bm-model/1+callgrind+stdin=bb+cpu=host: A",
		      "standard input: 'aa' there, 'bb' here (");
	difference_is("bm-model/1+callgrind+stdin=aa+cpu=host: A", "bm-model/1+stdin=aa+cpu=host: A",
		      "engine: callgrind there, bm here (");
	/* What does not take apart as written still differs. */
	difference_is("m+warm+x+y", "m+warm+x", "engine: x+y there, x here (");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("impact and change");
	tcase_add_test(tc, commit_impact_worked_examples);
	tcase_add_test(tc, per_benchmark_thresholds);
	tcase_add_test(tc, comparison_verdicts);
	tcase_add_test(tc, acknowledged_regressions);
	tcase_add_test(tc, a_constant_series_has_no_change);
	tcase_add_test(tc, a_one_percent_step_is_found_at_its_first_commit);
	tcase_add_test(tc, a_noisy_old_value_is_not_stable);
	tcase_add_test(tc, short_series);
	tcase_add_test(tc, series_identities);
	tcase_add_test(tc, series_identity_of_input);
	tcase_add_test(tc, series_identity_of_valgrind);
	tcase_add_test(tc, series_differences_name_the_field);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
