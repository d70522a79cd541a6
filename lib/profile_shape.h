/* SPDX-License-Identifier: MIT */
/* The "profile" member of a bm-report/1 benchmark (docs/report-format.md),
 * which simulator/profile_json.c writes:
 *
 *   {"events": ["Ir", ...], "totals": [...], "cycles": N,
 *    "functions": [{"name", "file", "object", "calls", "self": [...],
 *                   "inclusive": [...], "self_cycles", "inclusive_cycles"}],
 *    "calls": [{"caller": I, "callee": J, "count", "inclusive": [...], "cycles"}],
 *    "lines": [{"function": I, "file", "line", "self": [...], "cycles"}]}
 *
 * Cost arrays follow "events" (sysTime in nanoseconds); caller, callee and
 * function are indices into "functions".
 *
 * A report's profile is kept as JSON and served to the profile view as it
 * came, so readers check its shape: members may be absent (and others
 * added), but those present have their types, cost arrays follow
 * "events", and the indices that link calls and lines to functions point
 * at one. */
#ifndef BM_PROFILE_SHAPE_H
#define BM_PROFILE_SHAPE_H

#include <jansson.h>

/* 0 when p, the profile of the benchmark whose field path is at
 * ("benchmarks[3]."), has that shape; else -1 with *err naming the
 * field. */
int profile_shape_check(const json_t *p, const char *at, char **err);

#endif
