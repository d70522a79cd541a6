/* SPDX-License-Identifier: MIT */
/* The oracle the importers' harnesses share (fuzz_import_*.c). */
#ifndef BM_FUZZ_IMPORT_H
#define BM_FUZZ_IMPORT_H

#include "fuzz.h"
#include "import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Imports data with f: either an error of one line that starts with the
 * input's name, or a report with benchmarks, every ok one with finite
 * metrics, that the bm-report/1 reader takes back unchanged in number. */
static inline void fuzz_import(const struct import_format *f, const uint8_t *data, size_t size)
{
	struct bm_report r, back;
	char *err = NULL;
	if (import_parse(f, (const char *)data, size, "input", &r, &err)) {
		FUZZ_ASSERT(err && strncmp(err, "input", 5) == 0 && !strchr(err, '\n'));
		free(err);
		return;
	}
	FUZZ_ASSERT(r.nbenchmarks > 0);
	for (size_t i = 0; i < r.nbenchmarks; i++) {
		const struct bm_result *b = &r.benchmarks[i];
		FUZZ_ASSERT(b->id && *b->id);
		FUZZ_ASSERT(b->status == BM_STATUS_OK ? b->nmetrics > 0 : b->reason != NULL);
		for (size_t k = 0; k < b->nmetrics; k++)
			FUZZ_ASSERT(isfinite(b->metrics[k].value) && *b->metrics[k].name);
	}
	json_t *j = report_to_json(&r);
	int rc = report_from_json(j, &back, &err);
	if (rc)
		fprintf(stderr, "report_from_json: %s\n", err);
	FUZZ_ASSERT(rc == 0);
	FUZZ_ASSERT(back.nbenchmarks == r.nbenchmarks);
	for (size_t i = 0; i < r.nbenchmarks; i++)
		FUZZ_ASSERT(back.benchmarks[i].nmetrics == r.benchmarks[i].nmetrics);
	json_decref(j);
	report_release(&back);
	report_release(&r);
}

#endif
