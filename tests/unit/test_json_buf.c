/* SPDX-License-Identifier: MIT */
/* The server's JSON text writer (lib/json_buf.c): strings escaped
 * and kept valid whatever their bytes, integers exact, reals as printf's
 * "%.15g" writes them (and read back as reals). */
#include "json_buf.h"
#include "unit.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *real_text(double v)
{
	struct json_buf b = {0};
	json_buf_real(&b, v);
	size_t len;
	return json_buf_detach(&b, &len);
}

START_TEST(strings_are_escaped_and_stay_valid_utf8)
{
	struct json_buf b = {0};
	json_buf_raw(&b, "[");
	json_buf_string(&b, "a\"b\\c\n\x01 h\xc3\xa9 \xff<img src=x>");
	json_buf_raw(&b, ",");
	json_buf_string(&b, NULL);
	json_buf_raw(&b, "]");
	size_t len;
	char *text = json_buf_detach(&b, &len);
	ck_assert_str_eq(text, "[\"a\\\"b\\\\c\\u000a\\u0001 h\xc3\xa9 \\ufffd<img src=x>\",null]");
	ck_assert_uint_eq(len, strlen(text));
	json_t *j = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_array_get(j, 0)), "a\"b\\c\n\x01 h\xc3\xa9 \xef\xbf\xbd<img src=x>");
	json_decref(j);
	free(text);
}
END_TEST

START_TEST(integers_are_exact)
{
	struct json_buf b = {0};
	const int64_t v[] = {0, 7, -42, INT64_MAX, INT64_MIN};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		json_buf_int(&b, v[i]);
		json_buf_raw(&b, " ");
	}
	size_t len;
	char *text = json_buf_detach(&b, &len);
	ck_assert_str_eq(text, "0 7 -42 9223372036854775807 -9223372036854775808 ");
	free(text);
}
END_TEST

START_TEST(reals_read_back_as_reals)
{
	const struct {
		double v;
		const char *text;
	} cases[] = {{3, "3.0"},          {-2, "-2.0"},         {0, "0.0"},          {0.5, "0.5"},
		     {1e20, "1e20"},      {1e-7, "1e-7"},      {NAN, "null"},       {INFINITY, "null"},
		     {12.25, "12.25"},    {-0.0001, "-0.0001"}, {2.5e14, "250000000000000.0"},
		     {123456789012345.6, "123456789012346.0"}, {0.1 + 0.2, "0.3"}, {-1.25e-300, "-1.25e-300"},
		     {1.5e100, "1.5e100"}, {-1.10598548282991e-05, "-1.10598548282991e-5"}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = real_text(cases[i].v);
		ck_assert_msg(!strcmp(text, cases[i].text), "%.17g: '%s', not '%s'", cases[i].v, text, cases[i].text);
		free(text);
	}
}
END_TEST

/* Against printf over many magnitudes (its exponent as Jansson writes
 * it): the same text, but for the rare value within an ulp of a rounding
 * boundary, where the fifteenth digit may differ by one. */
START_TEST(reals_match_printf)
{
	unsigned long long state = 88172645463325252ull;
	size_t differ = 0, n = 200000;
	for (size_t i = 0; i < n; i++) {
		state ^= state << 13, state ^= state >> 7, state ^= state << 17;
		double mantissa = (double)(state >> 11) / 9007199254740992.0; /* [0, 1) */
		double v = (0.5 + mantissa) * pow(10, (int)(state % 23) - 6); /* 5e-7 .. 1.5e16 */
		if (state & 1)
			v = -v;
		char *text = real_text(v), want[40];
		snprintf(want, sizeof want, "%.15g", v);
		if (!strpbrk(want, ".eEn"))
			snprintf(want + strlen(want), sizeof want - strlen(want), ".0");
		/* Jansson's exponent: no '+', no leading zeros. */
		char *e = strchr(want, 'e');
		if (e) {
			char *first = e + 1 + (e[1] == '-' || e[1] == '+');
			while (*first == '0' && first[1])
				first++;
			memmove(e + 1 + (e[1] == '-'), first, strlen(first) + 1);
		}
		if (strcmp(text, want)) {
			differ++;
			double got = strtod(text, NULL), expected = strtod(want, NULL);
			ck_assert_msg(fabs(got - expected) <= fabs(expected) * 1.5e-14, "%.17g: '%s', printf '%s'", v, text,
				      want);
		}
		free(text);
	}
	ck_assert_msg(differ * 1000 < n, "%zu of %zu differ from printf", differ, n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json_buf");
	TCase *tc = tcase_create("writing");
	tcase_add_test(tc, strings_are_escaped_and_stay_valid_utf8);
	tcase_add_test(tc, integers_are_exact);
	tcase_add_test(tc, reals_read_back_as_reals);
	tcase_add_test(tc, reals_match_printf);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
