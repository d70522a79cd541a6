/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "model.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

static struct bm_events full(uint64_t ir, uint64_t dr, uint64_t dw, uint64_t i1, uint64_t d1r,
			     uint64_t d1w, uint64_t ill, uint64_t dllr, uint64_t dllw)
{
	struct bm_events e = {.present = (1u << (BM_EV_DLMW + 1)) - 1};
	e.v[BM_EV_IR] = ir;
	e.v[BM_EV_DR] = dr;
	e.v[BM_EV_DW] = dw;
	e.v[BM_EV_I1MR] = i1;
	e.v[BM_EV_D1MR] = d1r;
	e.v[BM_EV_D1MW] = d1w;
	e.v[BM_EV_ILMR] = ill;
	e.v[BM_EV_DLMR] = dllr;
	e.v[BM_EV_DLMW] = dllw;
	return e;
}

START_TEST(cycles_follow_the_three_level_formula)
{
	/* accesses 160, L1 misses 16, LL misses 4: 144*1 + 12*5 + 4*35 */
	struct bm_events e = full(100, 40, 20, 2, 10, 4, 1, 2, 1);
	uint64_t cycles;
	ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, NULL), 0);
	ck_assert_uint_eq(cycles, 144 + 60 + 140);
	ck_assert_uint_eq(model_missing(&model_v1, &e), 0);
}
END_TEST

START_TEST(system_calls_never_enter_cycles)
{
	struct bm_events a = full(1000, 300, 200, 5, 6, 7, 1, 2, 3), b = a;
	b.v[BM_EV_SYSCOUNT] = 12;
	b.v[BM_EV_SYSTIME] = 200000000;
	b.v[BM_EV_SYSCPUTIME] = 5000;
	b.present |= 1u << BM_EV_SYSCOUNT | 1u << BM_EV_SYSTIME | 1u << BM_EV_SYSCPUTIME;
	uint64_t ca, cb;
	ck_assert_int_eq(model_cycles(&model_v1, &a, &ca, NULL), 0);
	ck_assert_int_eq(model_cycles(&model_v1, &b, &cb, NULL), 0);
	ck_assert_uint_eq(ca, cb);
}
END_TEST

START_TEST(time_and_speed_use_the_fixed_frequency)
{
	ck_assert(fabs(model_time_s(&model_v1, 3000000000ull) - 1.0) < 1e-12);
	ck_assert(fabs(model_speed(&model_v1, 3000) - 1e6) < 1e-6);
	ck_assert(model_speed(&model_v1, 0) == 0.0);
	ck_assert(model_v1.frequency_hz == 3.0e9);
}
END_TEST

START_TEST(without_cache_simulation_every_access_is_a_hit)
{
	struct bm_events e = {.present = 1u << BM_EV_IR};
	e.v[BM_EV_IR] = 777;
	uint64_t cycles;
	ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, NULL), 0);
	ck_assert_uint_eq(cycles, 777);
	ck_assert(model_missing(&model_v1, &e) & (1u << BM_EV_D1MR));
}
END_TEST

START_TEST(contradictory_counts_are_rejected)
{
	struct bm_events e = full(10, 0, 0, 11, 0, 0, 0, 0, 0);
	uint64_t cycles;
	char *err = NULL;
	ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, &err), -1);
	ck_assert_str_eq(err, "inconsistent events: 11 L1 misses but only 10 accesses");
	free(err);
	e = full(10, 0, 0, 1, 0, 0, 2, 0, 0);
	ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, &err), -1);
	ck_assert_str_eq(err, "inconsistent events: 2 LL misses but only 1 L1 misses");
	free(err);
	e = full(UINT64_MAX, 1, 0, 0, 0, 0, 0, 0, 0);
	ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, &err), -1);
	ck_assert_str_eq(err, "event counts overflow 64 bits");
	free(err);
}
END_TEST

/* bm-model/2's events: core centi-cycles, then per level as named. */
static struct bm_events model2(uint64_t cc, const uint64_t fetch[3], const uint64_t read[3],
			       const uint64_t chained[3], const uint64_t write[3], uint64_t bcm, uint64_t bim)
{
	struct bm_events e = {.present = ~0u};
	e.v[BM_EV_CC] = cc;
	e.v[BM_EV_I1MR] = fetch[0];
	e.v[BM_EV_I2MR] = fetch[1];
	e.v[BM_EV_ILMR] = fetch[2];
	e.v[BM_EV_D1MR] = read[0];
	e.v[BM_EV_D2MR] = read[1];
	e.v[BM_EV_DLMR] = read[2];
	e.v[BM_EV_D1MC] = chained[0];
	e.v[BM_EV_D2MC] = chained[1];
	e.v[BM_EV_DLMC] = chained[2];
	e.v[BM_EV_D1MW] = write[0];
	e.v[BM_EV_D2MW] = write[1];
	e.v[BM_EV_DLMW] = write[2];
	e.v[BM_EV_BCM] = bcm;
	e.v[BM_EV_BIM] = bim;
	return e;
}

START_TEST(model2_charges_each_miss_by_its_level_and_kind)
{
	const struct model_costs *c = &model_v2.costs;
	uint64_t none[3] = {0, 0, 0}, cycles;
	/* The core alone: hundredths of a cycle, rounded down. */
	struct bm_events e = model2(12399, none, none, none, none, 0, 0);
	ck_assert_int_eq(model_cycles(&model_v2, &e, &cycles, NULL), 0);
	ck_assert_uint_eq(cycles, 123);
	/* 10 load misses: 4 served by L2, 3 by LL, 3 by memory; of them 1,
	 * 1 and 2 on a chain: the chained pay all, the others overlap. */
	uint64_t read[3] = {10, 6, 3}, chained[3] = {4, 3, 2};
	e = model2(0, none, read, chained, none, 0, 0);
	ck_assert_int_eq(model_cycles(&model_v2, &e, &cycles, NULL), 0);
	ck_assert_uint_eq(cycles, (3 * c->read[0] + 2 * c->read[1] + 1 * c->read[2] + 1 * c->chained[0] +
				   1 * c->chained[1] + 2 * c->chained[2]) / 100);
	/* A chained miss costs more than an overlapped one at every level. */
	for (int k = 0; k < 3; k++)
		ck_assert_uint_gt(c->chained[k], c->read[k]);
	e = model2(0, none, none, none, none, 3, 1);
	ck_assert_int_eq(model_cycles(&model_v2, &e, &cycles, NULL), 0);
	ck_assert_uint_eq(cycles, (3 * c->mispredict + c->indirect_mispredict) / 100);
	ck_assert_ptr_eq(model_lookup("bm-model/2"), &model_v2);
	ck_assert_ptr_eq(model_lookup("bm-model/1"), &model_v1);
	ck_assert_ptr_eq(model_lookup("bm-model/3"), &model_v3);
	ck_assert_ptr_eq(model_lookup("bm-model/4"), &model_v4);
	ck_assert_str_eq(model_v4.cpu, "x86-64-v3-server");
	ck_assert_ptr_null(model_lookup("bm-model/5"));
	char *err = NULL;
	ck_assert_ptr_eq(model_named("bm-model/3", "--model", &err), &model_v3);
	ck_assert_ptr_null(err);
	ck_assert_ptr_null(model_named("model2", "BM_MODEL", &err));
	ck_assert_str_eq(err, "BM_MODEL is bm-model/1, bm-model/2, bm-model/3 or bm-model/4, not 'model2'");
	free(err);
}
END_TEST

/* bm-model/3 is bm-model/2's formula and costs over another core's
 * events (the engine's --core): the same events give the same cycles,
 * under another id. */
START_TEST(model3_is_model2s_formula_under_its_own_id)
{
	uint64_t read[3] = {10, 6, 3}, chained[3] = {4, 3, 2}, fetch[3] = {7, 2, 1}, write[3] = {5, 1, 0};
	struct bm_events e = model2(123456, fetch, read, chained, write, 17, 3);
	uint64_t c2, c3;
	ck_assert_int_eq(model_cycles(&model_v2, &e, &c2, NULL), 0);
	ck_assert_int_eq(model_cycles(&model_v3, &e, &c3, NULL), 0);
	ck_assert_uint_eq(c2, c3);
	ck_assert_int_eq(model_v3.version, 2);
	ck_assert_str_ne(model_v3.id, model_v2.id);
	ck_assert_uint_eq(model_missing(&model_v3, &(struct bm_events){.present = 0}),
			  model_missing(&model_v2, &(struct bm_events){.present = 0}));
}
END_TEST

START_TEST(model2_refuses_contradictory_levels)
{
	uint64_t none[3] = {0, 0, 0}, cycles, more_l2[3] = {1, 2, 0}, more_chained[3] = {1, 0, 0}, chained[3] = {2, 0, 0};
	char *err = NULL;
	struct bm_events e = model2(0, none, more_l2, none, none, 0, 0);
	ck_assert_int_eq(model_cycles(&model_v2, &e, &cycles, &err), -1);
	ck_assert_str_eq(err, "inconsistent events: more misses of a level than of the one above it");
	free(err);
	e = model2(0, none, more_chained, chained, none, 0, 0);
	ck_assert_int_eq(model_cycles(&model_v2, &e, &cycles, &err), -1);
	ck_assert_str_eq(err, "inconsistent events: more chained load misses than load misses");
	free(err);
}
END_TEST

/* Sum of counts times weights, in hundredths of a cycle. */
static int64_t weighed(const struct bm_model *m, const struct bm_events *e)
{
	int64_t w[BM_EV_COUNT], sum = 0;
	model_event_weights(m, w);
	for (int k = 0; k < BM_EV_COUNT; k++)
		sum += w[k] * (int64_t)e->v[k];
	return sum;
}

START_TEST(the_weights_per_event_give_the_cycles)
{
	/* What the virtual clock adds up as it goes must be the model's
	 * cycles, for any consistent counts of either model. */
	uint64_t cycles;
	struct bm_events e = full(100, 40, 20, 2, 10, 4, 1, 2, 1);
	ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, NULL), 0);
	ck_assert_int_eq(weighed(&model_v1, &e), (int64_t)cycles * 100);
	srand(7);
	for (int round = 0; round < 1000; round++) {
		uint64_t lv[4][3];
		for (int k = 0; k < 4; k++) {
			lv[k][0] = (uint64_t)(rand() % 1000);
			lv[k][1] = lv[k][0] ? (uint64_t)rand() % (lv[k][0] + 1) : 0;
			lv[k][2] = lv[k][1] ? (uint64_t)rand() % (lv[k][1] + 1) : 0;
		}
		/* chained (lv[2]) within reads (lv[1]) at every level */
		uint64_t chained[3];
		for (int k = 0; k < 3; k++)
			chained[k] = lv[2][k] < lv[1][k] ? lv[2][k] : lv[1][k];
		if (chained[1] > chained[0] || chained[2] > chained[1] ||
		    lv[1][0] - chained[0] < lv[1][1] - chained[1] || lv[1][1] - chained[1] < lv[1][2] - chained[2])
			continue;
		e = model2((uint64_t)rand() % 100000, lv[0], lv[1], chained, lv[3], (uint64_t)rand() % 50,
			   (uint64_t)rand() % 50);
		ck_assert_int_eq(model_cycles(&model_v2, &e, &cycles, NULL), 0);
		ck_assert_int_eq(weighed(&model_v2, &e) / 100, (int64_t)cycles);
		e = full((uint64_t)rand() % 100000 + 4000, (uint64_t)rand() % 1000, (uint64_t)rand() % 1000,
			 lv[0][0], lv[1][0], lv[3][0], lv[0][2], lv[1][2], lv[3][2]);
		ck_assert_int_eq(model_cycles(&model_v1, &e, &cycles, NULL), 0);
		ck_assert_int_eq(weighed(&model_v1, &e), (int64_t)cycles * 100);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("bm-model/1");
	tcase_add_test(tc, cycles_follow_the_three_level_formula);
	tcase_add_test(tc, system_calls_never_enter_cycles);
	tcase_add_test(tc, time_and_speed_use_the_fixed_frequency);
	tcase_add_test(tc, without_cache_simulation_every_access_is_a_hit);
	tcase_add_test(tc, contradictory_counts_are_rejected);
	suite_add_tcase(s, tc);
	TCase *tc2 = tcase_create("bm-model/2");
	tcase_add_test(tc2, model2_charges_each_miss_by_its_level_and_kind);
	tcase_add_test(tc2, model2_refuses_contradictory_levels);
	tcase_add_test(tc2, the_weights_per_event_give_the_cycles);
	tcase_add_test(tc2, model3_is_model2s_formula_under_its_own_id);
	suite_add_tcase(s, tc2);
	return unit_run(s);
}
