/* SPDX-License-Identifier: MIT */
/* Fuzzes bm-check's --config reader: any input either parses, with every
 * threshold in its range and every rule usable for matching, or fails
 * with a message. */
#include "config.h"

#include "fuzz.h"

#include "check_config.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_config cfg;
	char *err = NULL;
	if (check_config_parse(&cfg, (const char *)data, size, "bm.json", &err)) {
		FUZZ_ASSERT(err && *err);
		free(err);
		return 0;
	}
	FUZZ_ASSERT(!cfg.has_threshold || (cfg.threshold >= 0 && cfg.threshold <= 0.5));
	for (size_t i = 0; i < cfg.nrules; i++) {
		double t = -1;
		FUZZ_ASSERT(cfg.rules[i].threshold >= 0 && cfg.rules[i].threshold <= 1);
		/* A rule's own pattern, as an id, matches at least itself. */
		FUZZ_ASSERT(check_config_threshold(&cfg, cfg.rules[i].pattern, &t) && t >= 0 && t <= 1);
	}
	check_config_release(&cfg);
	return 0;
}
