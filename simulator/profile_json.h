/* SPDX-License-Identifier: MIT */
/* A profile as JSON, the "profile" member of a bm-report/1 benchmark, in
 * the shape lib/profile_shape.h defines (and readers check). */
#ifndef BM_PROFILE_JSON_H
#define BM_PROFILE_JSON_H

#include "profile.h"

#include <jansson.h>

/* A new reference. */
json_t *profile_to_json(const struct bm_profile *p);

#endif
