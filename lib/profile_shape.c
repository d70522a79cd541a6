/* SPDX-License-Identifier: MIT */
/* A benchmark's profile object: see profile_shape.h. */
#include "config.h"

#include "profile_shape.h"

#include "error.h"
#include "json_fields.h"

#include <stdint.h>

/* An optional non-negative integer member. */
static int opt_count(const json_t *o, const char *at, const char *key, char **err)
{
	const json_t *v = json_object_get(o, key);
	return v && !field_is_count(v) ? field_wrong(err, at, key, "a non-negative integer") : 0;
}

/* An optional array of nevents non-negative integers (any length when
 * nevents is SIZE_MAX: the profile names no events). */
static int opt_costs(const json_t *o, const char *at, const char *key, size_t nevents, char **err)
{
	json_t *a;
	if (field_array(o, at, key, FIELD_OPTIONAL, &a, err))
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!field_is_count(json_array_get(a, i)))
			return bm_error(err, "%s%s[%zu]: expected a non-negative integer", at, key, i);
	if (a && nevents != SIZE_MAX && json_array_size(a) != nevents)
		return bm_error(err, "%s%s: expected %zu costs, one per event, not %zu", at, key, nevents,
				json_array_size(a));
	return 0;
}

/* A required member that indexes functions (nfns of them). */
static int get_index(const json_t *o, const char *at, const char *key, size_t nfns, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return field_missing(err, at, key);
	if (!field_is_count(v) || (uint64_t)json_integer_value(v) >= nfns)
		return bm_error(err, "%s%s: expected the index of one of the %zu functions", at, key, nfns);
	return 0;
}

/* The readers of one element of "functions", "calls" or "lines". */
typedef int (*profile_element_fn)(const json_t *o, const char *at, size_t nevents, size_t nfns, char **err);

static int read_profile_function(const json_t *o, const char *at, size_t nevents, size_t nfns, char **err)
{
	const char *s;
	(void)nfns;
	return field_string(o, at, "name", FIELD_OPTIONAL, &s, err) || field_string(o, at, "file", FIELD_OPTIONAL, &s, err) ||
	       field_string(o, at, "object", FIELD_OPTIONAL, &s, err) || opt_count(o, at, "calls", err) ||
	       opt_costs(o, at, "self", nevents, err) || opt_costs(o, at, "inclusive", nevents, err) ||
	       opt_count(o, at, "self_cycles", err) || opt_count(o, at, "inclusive_cycles", err);
}

static int read_profile_call(const json_t *o, const char *at, size_t nevents, size_t nfns, char **err)
{
	return get_index(o, at, "caller", nfns, err) || get_index(o, at, "callee", nfns, err) ||
	       opt_count(o, at, "count", err) || opt_costs(o, at, "inclusive", nevents, err) ||
	       opt_count(o, at, "cycles", err);
}

static int read_profile_line(const json_t *o, const char *at, size_t nevents, size_t nfns, char **err)
{
	const char *s;
	return get_index(o, at, "function", nfns, err) || field_string(o, at, "file", FIELD_OPTIONAL, &s, err) ||
	       opt_count(o, at, "line", err) || opt_costs(o, at, "self", nevents, err) ||
	       opt_count(o, at, "cycles", err);
}

/* Each element of the array at+key, an object, checked by fn. */
static int read_profile_list(const json_t *p, const char *at, const char *key, profile_element_fn fn,
			     size_t nevents, size_t nfns, char **err)
{
	json_t *a, *e;
	char eat[FIELD_MAX];
	if (field_array(p, at, key, FIELD_OPTIONAL, &a, err))
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		field_element_path(eat, at, key, i);
		if (field_element(a, i, at, key, &e, err) || fn(e, eat, nevents, nfns, err))
			return -1;
	}
	return 0;
}

int profile_shape_check(const json_t *p, const char *bat, char **err)
{
	char at[FIELD_MAX];
	json_t *events, *fns;
	field_path(at, "%sprofile.", bat);
	if (field_array(p, at, "events", FIELD_OPTIONAL, &events, err) ||
	    field_array(p, at, "functions", FIELD_OPTIONAL, &fns, err))
		return -1;
	for (size_t i = 0; i < json_array_size(events); i++)
		if (!json_is_string(json_array_get(events, i)))
			return bm_error(err, "%sevents[%zu]: expected a string", at, i);
	size_t nevents = events ? json_array_size(events) : SIZE_MAX, nfns = json_array_size(fns);
	return opt_costs(p, at, "totals", nevents, err) || opt_count(p, at, "cycles", err) ||
	       read_profile_list(p, at, "functions", read_profile_function, nevents, nfns, err) ||
	       read_profile_list(p, at, "calls", read_profile_call, nevents, nfns, err) ||
	       read_profile_list(p, at, "lines", read_profile_line, nevents, nfns, err)
		       ? -1
		       : 0;
}
