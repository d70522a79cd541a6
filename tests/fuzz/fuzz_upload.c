/* SPDX-License-Identifier: MIT */
/* Fuzzes what bm-server does with an upload body before it writes
 * anything: JSON, the bm-report/1 reader (with its duplicate ids and
 * numbers that contradict themselves), the server's own checks (commit
 * SHAs, RFC 3339 times, ancestry, pull request, imported metrics) and the
 * speed it stores for each benchmark. */
#include "config.h"

#include "fuzz.h"
#include "report.h"
#include "upload_check.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	if (!j)
		return 0;
	struct bm_report r;
	char *err = NULL;
	int rc = report_from_json(j, &r, &err);
	json_decref(j);
	if (rc) {
		free(err);
		return 0;
	}
	int64_t t = 0;
	if (upload_check(&r, &t, &err)) {
		FUZZ_ASSERT(err && *err);
		free(err);
	} else {
		FUZZ_ASSERT(r.context.branch && r.context.commit && r.nbenchmarks > 0);
	}
	for (size_t i = 0; i < r.nbenchmarks; i++) {
		const struct bm_result *b = &r.benchmarks[i];
		double speed = benchmark_speed(b);
		FUZZ_ASSERT(isfinite(speed) && speed >= 0);
		/* The reader let through only what its cycles give. */
		if (b->status == BM_STATUS_OK && !b->nmetrics && b->cycles)
			FUZZ_ASSERT(speed > 0 && fabs(speed - r.model.frequency_hz / (double)b->cycles) <= 2e-9 * speed);
	}
	report_release(&r);
	return 0;
}
