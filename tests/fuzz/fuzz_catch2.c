/* SPDX-License-Identifier: MIT */
/* Fuzzes bm-run's reader of a Catch2 binary's XML report: any input either
 * fails with one line, or adds benchmarks, every ok one with iterations
 * and a speed that follows its cycles, that the bm-report/1 reader takes
 * back. */
#include "config.h"

#include "catch2_results.h"
#include "fuzz.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bm_result *add(struct bm_report *r, const char *id)
{
	struct bm_result *b = report_add_benchmark(r);
	/* Ids repeat in a report bm-run makes unique ("#2"); here, by index. */
	char *unique = xasprintf("%s#%zu", id, r->nbenchmarks);
	benchmark_set_id(b, unique);
	free(unique);
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bm_report r, back;
	char *err = NULL;
	report_init(&r);
	if (catch2_parse(&r, (const char *)data, size, &model_v1, add, &err)) {
		FUZZ_ASSERT(err && !strchr(err, '\n') && r.nbenchmarks == 0);
		free(err);
		report_release(&r);
		return 0;
	}
	FUZZ_ASSERT(r.nbenchmarks > 0);
	r.tool_name = xstrdup("bm-run");
	r.tool_version = xstrdup(PACKAGE_VERSION);
	r.model.id = xstrdup(model_v1.id);
	r.model.frequency_hz = model_v1.frequency_hz;
	for (size_t i = 0; i < r.nbenchmarks; i++) {
		const struct bm_result *b = &r.benchmarks[i];
		FUZZ_ASSERT(b->status == BM_STATUS_OK ? b->iterations > 0 : b->reason != NULL);
	}
	json_t *j = report_to_json(&r);
	int rc = report_from_json(j, &back, &err);
	if (rc)
		fprintf(stderr, "report_from_json: %s\n", err);
	FUZZ_ASSERT(rc == 0 && back.nbenchmarks == r.nbenchmarks);
	json_decref(j);
	report_release(&back);
	report_release(&r);
	return 0;
}
