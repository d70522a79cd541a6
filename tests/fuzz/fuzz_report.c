/* SPDX-License-Identifier: MIT */
/* Fuzzes the bm-report/1 reader: any JSON it accepts must write back and
 * read again to the same report. */
#include "config.h"

#include "fuzz.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (!j)
		return 0;
	struct bm_report r, again;
	char *err = NULL;
	if (report_from_json(j, &r, &err) < 0) {
		FUZZ_ASSERT(err && *err);
		free(err);
		json_decref(j);
		return 0;
	}
	json_decref(j);
	json_t *out = report_to_json(&r);
	char *first = json_dumps(out, JSON_COMPACT);
	FUZZ_ASSERT(first != NULL);
	FUZZ_ASSERT(report_from_json(out, &again, &err) == 0);
	json_t *out2 = report_to_json(&again);
	char *second = json_dumps(out2, JSON_COMPACT);
	FUZZ_ASSERT(second && strcmp(first, second) == 0);
	free(first);
	free(second);
	json_decref(out);
	json_decref(out2);
	report_release(&r);
	report_release(&again);
	return 0;
}
