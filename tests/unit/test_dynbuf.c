/* SPDX-License-Identifier: MIT */
/* The bounded growing buffer (lib/dynbuf.c): a maximum that nothing gets
 * past, an append refused whole, and none for a buffer made with {0}. */
#include "config.h"

#include "dynbuf.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

START_TEST(bounded)
{
	struct dynbuf b = DYNBUF_INIT(8);
	ck_assert_str_eq(dynbuf_str(&b), "");
	ck_assert_int_eq(dynbuf_add(&b, "abcde", 5), 0);
	ck_assert_int_eq(dynbuf_add(&b, "fghi", 4), -1); /* 9 > 8: refused whole */
	ck_assert_str_eq(dynbuf_str(&b), "abcde");
	ck_assert_int_eq(dynbuf_add(&b, "fgh", 3), 0); /* exactly 8 */
	ck_assert_str_eq(dynbuf_str(&b), "abcdefgh");
	ck_assert_int_eq(dynbuf_add(&b, "", 0), 0);
	ck_assert_int_eq(dynbuf_add(&b, "i", 1), -1);
	/* Emptied, it keeps its maximum. */
	dynbuf_reset(&b);
	ck_assert_str_eq(dynbuf_str(&b), "");
	ck_assert_int_eq(dynbuf_add(&b, "123456789", 9), -1);
	ck_assert_int_eq(dynbuf_add(&b, "12345678", 8), 0);
	dynbuf_drop(&b, 3);
	ck_assert_str_eq(dynbuf_str(&b), "12345");
	dynbuf_drop(&b, 99);
	ck_assert_uint_eq(b.len, 0);
	dynbuf_free(&b);
}
END_TEST

START_TEST(unbounded_and_detached)
{
	struct dynbuf b = {0};
	size_t len = 99;
	ck_assert_ptr_null(dynbuf_detach(&b, &len)); /* nothing ever added */
	ck_assert_uint_eq(len, 0);
	for (int i = 0; i < 100000; i++)
		ck_assert_int_eq(dynbuf_add(&b, "0123456789", 10), 0);
	ck_assert_uint_eq(b.len, 1000000);
	ck_assert_int_eq(b.data[b.len], '\0');
	char *text = dynbuf_detach(&b, &len);
	ck_assert_uint_eq(len, 1000000);
	ck_assert_uint_eq(strlen(text), 1000000);
	ck_assert_ptr_null(b.data);
	free(text);
	/* Written in place. */
	memcpy(dynbuf_room(&b, 3), "xyz", 3);
	dynbuf_added(&b, 3);
	ck_assert_str_eq(dynbuf_str(&b), "xyz");
	dynbuf_free(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dynbuf");
	TCase *tc = tcase_create("dynbuf");
	tcase_add_test(tc, bounded);
	tcase_add_test(tc, unbounded_and_detached);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
