/* SPDX-License-Identifier: MIT */
/* Fuzzes bm-import's gbench importer: any input either gives a report with
 * at least one benchmark, every ok one with a finite metric, that the
 * bm-report/1 reader accepts back, or fails with a message.  And bm-run's
 * reading of the same JSON, which takes a report the suite did not finish
 * too: it reads whatever the importer's reading reads, the same runs, as
 * finished, and fails with a message. */
#include "config.h"

#include "fuzz_import.h"
#include "gbench_json.h"

static int count(const struct gbench_run *run, void *ctx, char **err)
{
	(void)run, (void)err;
	++*(size_t *)ctx;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&import_gbench, data, size);
	size_t strict = 0, any = 0;
	int unfinished = 0;
	char *err = NULL, *err_any = NULL;
	int rc = gbench_json_read((const char *)data, size, "input", NULL, count, &strict, &err);
	int rc_any = gbench_json_read((const char *)data, size, "input", &unfinished, count, &any, &err_any);
	FUZZ_ASSERT(rc != 0 || (rc_any == 0 && !unfinished && any == strict));
	FUZZ_ASSERT(rc_any == 0 || err_any);
	free(err);
	free(err_any);
	return 0;
}
