/* SPDX-License-Identifier: MIT */
/* A profile as JSON, the "profile" member of a bm-report/1 benchmark:
 *
 *   {"events": ["Ir", ...], "totals": [...], "cycles": N,
 *    "functions": [{"name", "file", "object", "calls", "self": [...],
 *                   "inclusive": [...], "self_cycles", "inclusive_cycles"}],
 *    "calls": [{"caller": I, "callee": J, "count", "inclusive": [...], "cycles"}],
 *    "lines": [{"function": I, "file", "line", "self": [...], "cycles"}]}
 *
 * Cost arrays follow "events" (sysTime in nanoseconds); caller, callee and
 * function are indices into "functions". */
#ifndef BM_PROFILE_JSON_H
#define BM_PROFILE_JSON_H

#include "profile.h"

#include <jansson.h>

/* A new reference. */
json_t *profile_to_json(const struct bm_profile *p);

#endif
