/* SPDX-License-Identifier: MIT */
/* UTF-8 told from what is not (lib/utf8.c). */
#include "config.h"

#include "unit.h"
#include "utf8.h"

#include <string.h>

START_TEST(utf8)
{
	ck_assert_int_eq(utf8_valid("main", 4), 1);
	ck_assert_int_eq(utf8_valid("é✓😀", strlen("é✓😀")), 1);
	ck_assert_int_eq(utf8_valid("\xff\xfe", 2), 0);
	ck_assert_int_eq(utf8_valid("\xc0\xaf", 2), 0);         /* overlong '/' */
	ck_assert_int_eq(utf8_valid("\xed\xa0\x80", 3), 0);     /* a surrogate */
	ck_assert_int_eq(utf8_valid("\xf4\x90\x80\x80", 4), 0); /* past U+10FFFF */
	ck_assert_int_eq(utf8_valid("\xe2\x9c", 2), 0);         /* cut short */
	ck_assert_int_eq(utf8_valid("", 0), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("utf8");
	tcase_add_test(tc, utf8);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
