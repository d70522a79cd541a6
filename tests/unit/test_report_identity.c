/* SPDX-License-Identifier: MIT */
/* The identity every report gets (lib/report_identity.c): run ids and
 * times well formed. */
#include "config.h"

#include "report_identity.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

START_TEST(run_ids)
{
	char *a = report_new_uuid(), *b = report_new_uuid();
	ck_assert_uint_eq(strlen(a), 36);
	ck_assert_int_eq(a[8], '-');
	ck_assert_int_eq(a[14], '4'); /* version 4 */
	ck_assert_ptr_nonnull(strchr("89ab", a[19])); /* the RFC 4122 variant */
	ck_assert_str_ne(a, b);
	free(a);
	free(b);
}
END_TEST

START_TEST(times)
{
	char buf[REPORT_TIME_SIZE];
	ck_assert_str_eq(report_format_rfc3339(buf, 1795341600), "2026-11-22T10:00:00Z");
	ck_assert_str_eq(report_format_rfc3339(buf, 0), "1970-01-01T00:00:00Z");
	/* Beyond what gmtime can give: the epoch, never garbage. */
	ck_assert_str_eq(report_format_rfc3339(buf, (time_t)1 << 62), "1970-01-01T00:00:00Z");
	char *now = report_now_rfc3339();
	ck_assert_uint_eq(strlen(now), 20);
	ck_assert_int_eq(now[10], 'T');
	free(now);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_identity");
	TCase *tc = tcase_create("report_identity");
	tcase_add_test(tc, run_ids);
	tcase_add_test(tc, times);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
