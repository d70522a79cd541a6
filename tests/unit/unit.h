/* SPDX-License-Identifier: MIT */
/* Shared by the Check unit tests: every suite reports TAP on stdout, one
 * line per test, so that `make check` counts test cases, not binaries. */
#ifndef BM_TESTS_UNIT_H
#define BM_TESTS_UNIT_H

#include <check.h>
#include <stdlib.h>

static inline int unit_run(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	srunner_set_tap(runner, "-");
	srunner_run_all(runner, CK_SILENT);
	int failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
