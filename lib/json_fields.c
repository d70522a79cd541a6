/* SPDX-License-Identifier: MIT */
/* Typed getters of a JSON object's fields: see json_fields.h. */
#include "config.h"

#include "json_fields.h"

#include "error.h"
#include "xalloc.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

int field_missing(char **err, const char *at, const char *key)
{
	return bm_error(err, "missing field '%s%s'", at, key);
}

int field_wrong(char **err, const char *at, const char *key, const char *expected)
{
	return bm_error(err, "%s%s: expected %s", at, key, expected);
}

/* A string member, borrowed from o; *out is NULL when an optional member is
 * absent or null. */
int field_string(const json_t *o, const char *at, const char *key, int how, const char **out, char **err)
{
	const json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v)
		return how & FIELD_REQUIRED ? field_missing(err, at, key) : 0;
	if (json_is_null(v) && !(how & FIELD_REQUIRED))
		return 0;
	if (!json_is_string(v) || ((how & FIELD_NONEMPTY) && json_string_length(v) == 0))
		return field_wrong(err, at, key, how & FIELD_NONEMPTY ? "a non-empty string" : "a string");
	*out = json_string_value(v);
	return 0;
}

/* Like field_string, into a newly allocated string stored in *out. */
int field_dup_string(const json_t *o, const char *at, const char *key, int how, char **out, char **err)
{
	const char *s;
	if (field_string(o, at, key, how, &s, err))
		return -1;
	*out = s ? xstrdup(s) : NULL;
	return 0;
}

int field_is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

int field_count(const json_t *o, const char *at, const char *key, uint64_t *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return field_missing(err, at, key);
	if (!field_is_count(v))
		return field_wrong(err, at, key, "a non-negative integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int field_number(const json_t *o, const char *at, const char *key, double *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return field_missing(err, at, key);
	double x = json_is_number(v) ? json_number_value(v) : -1;
	if (!isfinite(x) || x < 0)
		return field_wrong(err, at, key, "a finite non-negative number");
	*out = x;
	return 0;
}

int field_signed_number(const json_t *o, const char *at, const char *key, double *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return field_missing(err, at, key);
	if (!json_is_number(v))
		return field_wrong(err, at, key, "a number");
	*out = json_number_value(v);
	return 0;
}

int field_optional_number(const json_t *o, const char *at, const char *key, double *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return field_wrong(err, at, key, "a number or null");
	*out = json_number_value(v);
	return 1;
}

int field_optional_count(const json_t *o, const char *at, const char *key, uint64_t *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	if (!field_is_count(v))
		return field_wrong(err, at, key, "a non-negative integer or null");
	*out = (uint64_t)json_integer_value(v);
	return 1;
}

int field_bool(const json_t *o, const char *at, const char *key, int *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return field_missing(err, at, key);
	if (!json_is_boolean(v))
		return field_wrong(err, at, key, "true or false");
	*out = json_is_true(v);
	return 0;
}

/* A member that must be an object or an array (of type, FIELD_REQUIRED) or may
 * be absent or null (FIELD_OPTIONAL, *out NULL); json_t is not const because
 * Jansson's getters hand out plain pointers into the tree. */
static int field_container(const json_t *o, const char *at, const char *key, int how, json_type type,
			 json_t **out, char **err)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v)
		return how & FIELD_REQUIRED ? field_missing(err, at, key) : 0;
	if (json_is_null(v) && !(how & FIELD_REQUIRED))
		return 0;
	if (json_typeof(v) != type)
		return field_wrong(err, at, key, type == JSON_OBJECT ? "an object" : "an array");
	*out = v;
	return 0;
}

int field_object(const json_t *o, const char *at, const char *key, int how, json_t **out, char **err)
{
	return field_container(o, at, key, how, JSON_OBJECT, out, err);
}

int field_array(const json_t *o, const char *at, const char *key, int how, json_t **out, char **err)
{
	return field_container(o, at, key, how, JSON_ARRAY, out, err);
}

/* Formats a field path into buf (FIELD_MAX bytes), which always has room:
 * the keys are ours, and at most three indices of at most 20 digits. */
void field_path(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, FIELD_MAX, fmt, ap);
	va_end(ap);
	assert(n >= 0 && n < FIELD_MAX);
	(void)n;
}

/* The path of element i of the array at+key, as a prefix for its members. */
void field_element_path(char *buf, const char *at, const char *key, size_t i)
{
	field_path(buf, "%s%s[%zu].", at, key, i);
}

/* Element i of the array at+key, which must be an object. */
int field_element(const json_t *a, size_t i, const char *at, const char *key, json_t **out, char **err)
{
	*out = json_array_get(a, i);
	if (!json_is_object(*out))
		return bm_error(err, "%s%s[%zu]: expected an object", at, key, i);
	return 0;
}

