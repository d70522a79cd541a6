/* SPDX-License-Identifier: MIT */
/* bm-check's configuration file (`--config bm.json`), kept in the
 * repository beside the code it guards (SPEC 3.2):
 *
 *   {"threshold": 0.05,
 *    "metric": "cycles",
 *    "benchmarks": {"sort::qsort[n=1000]": {"threshold": 0.02},
 *                   "parse::*": {"threshold": 0.25}}}
 *
 * Every key is optional.  "threshold" (0 to 0.5) replaces the project's
 * threshold (or offline's 0.10) for every benchmark; "metric" is the gate
 * metric (gate.h); "benchmarks" gives benchmarks thresholds of their own
 * (0 to 1; 1 never fails), by exact id or by a shell pattern (fnmatch:
 * '*', '?', '[...]').  An exact id wins over patterns; of several
 * patterns, the longest wins.  Flags given to bm-check win over the file.
 * Unknown keys are errors, so that a misspelt "treshold" does not pass
 * silently.  A malformed file is an error for the check (exit 2), unlike
 * expectations: it decides what fails the build. */
#ifndef BM_CHECK_CONFIG_H
#define BM_CHECK_CONFIG_H

#include "gate.h"

#include <stddef.h>

/* Largest configuration file read. */
#define CHECK_CONFIG_MAX_BYTES (1u << 20)

struct check_config_rule {
	char *pattern;
	double threshold;
};

struct check_config {
	int has_threshold, has_metric;
	double threshold;
	enum gate_metric metric;
	struct check_config_rule *rules; /* in the file's order */
	size_t nrules;
};

/* Parses size bytes at text, the contents of the file called name (used
 * in messages).  Returns 0, or -1 with *err ("bm.json: benchmarks.\"a\".
 * threshold: expected a number from 0 to 1"). */
int check_config_parse(struct check_config *cfg, const char *text, size_t size, const char *name, char **err);

/* Reads and parses the file at path; errors as check_config_parse, or
 * "cannot open 'bm.json': reason". */
int check_config_load(struct check_config *cfg, const char *path, char **err);

/* The threshold the file gives benchmark id: returns 1 with *threshold
 * set, or 0 when no rule names it. */
int check_config_threshold(const struct check_config *cfg, const char *id, double *threshold);

void check_config_release(struct check_config *cfg);

#endif
