/* SPDX-License-Identifier: MIT */
/* Fuzzes bm-import's gbench importer: any input either gives a report with
 * at least one benchmark, every ok one with a finite metric, that the
 * bm-report/1 reader accepts back, or fails with a message. */
#include "config.h"

#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&import_gbench, data, size);
	return 0;
}
