/* SPDX-License-Identifier: MIT */
/* Fuzzes the callgrind reader and everything built on what it accepts:
 * profiles, cycles, folded stacks, the system-call breakdown, the report
 * with its profile JSON, and thread merging.  Oracles: no crash or sanitizer report,
 * every error is "fuzz.out:LINE: ..." (or "fuzz.out: ..."), and accepted
 * input gives profiles whose self costs add up to their totals. */
#include "config.h"

#include "benchmark.h"
#include "folded.h"
#include "fuzz.h"
#include "profile.h"
#include "profile_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void exercise(struct bm_profile *p)
{
	for (size_t e = 0; e < p->nevents; e++) {
		uint64_t sum = 0;
		for (size_t i = 0; i < p->nfns; i++)
			sum += p->fn_self[i * p->nevents + e];
		FUZZ_ASSERT(sum == p->totals[e]);
	}
	struct folded *f = folded_build(p);
	folded_free(f);
	json_t *j = profile_to_json(p);
	char *s = json_dumps(j, JSON_COMPACT);
	FUZZ_ASSERT(s != NULL);
	free(s);
	json_decref(j);
	/* The whole of bm-profile --json: a report with the profile. */
	struct bm_report r;
	report_init(&r);
	r.tool_name = strdup("fuzz");
	r.tool_version = strdup("0");
	benchmark_fill_model(&r.model, &model_v1, p);
	struct bm_result *b = report_add_benchmark(&r);
	char *name = benchmark_name_of(p);
	benchmark_set_id(b, name);
	free(name);
	benchmark_fill(b, p, &model_v1, 1);
	j = report_to_json(&r);
	s = json_dumps(j, JSON_COMPACT);
	FUZZ_ASSERT(s != NULL);
	free(s);
	json_decref(j);
	report_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bm_profile **parts;
	size_t n;
	char *err = NULL;
	if (profile_load_buffer("fuzz.out", (const char *)data, size, &model_v1, &parts, &n, &err) < 0) {
		FUZZ_ASSERT(err && strncmp(err, "fuzz.out:", 9) == 0);
		free(err);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		exercise(parts[i]);
	if (n >= 2 && profile_merge(parts[0], parts[1], &model_v1, &err) < 0)
		free(err);
	for (size_t i = 0; i < n; i++)
		profile_free(parts[i]);
	free(parts);
	return 0;
}
