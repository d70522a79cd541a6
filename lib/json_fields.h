/* SPDX-License-Identifier: MIT */
/* Typed getters of a JSON object's fields, for readers of what comes from
 * outside (reports, answers, configuration files): each takes the object
 * o, the path of o as a prefix ("" at the top, "benchmarks[3]." inside)
 * and the key to read, and on a missing or mistyped field sets *err to a
 * message naming the whole path ("missing field 'tool.name'",
 * "benchmarks[3].cycles: expected a non-negative integer") and returns
 * -1, so that a message names the field without building names that are
 * not needed. */
#ifndef BM_JSON_FIELDS_H
#define BM_JSON_FIELDS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* How a field may be: absent or null (FIELD_OPTIONAL), there
 * (FIELD_REQUIRED), and for a string not "" (| FIELD_NONEMPTY). */
enum { FIELD_OPTIONAL = 0, FIELD_REQUIRED = 1, FIELD_NONEMPTY = 2 };

/* The longest field path: a few keys and three indices. */
#define FIELD_MAX 256

int field_missing(char **err, const char *at, const char *key);
int field_wrong(char **err, const char *at, const char *key, const char *expected);

/* A string member, borrowed from o; *out is NULL when an optional member
 * is absent or null. */
int field_string(const json_t *o, const char *at, const char *key, int how, const char **out, char **err);
/* The same, into a newly allocated string. */
int field_dup_string(const json_t *o, const char *at, const char *key, int how, char **out, char **err);
/* Whether v is an integer >= 0. */
int field_is_count(const json_t *v);
/* A required integer >= 0. */
int field_count(const json_t *o, const char *at, const char *key, uint64_t *out, char **err);
/* A required finite number >= 0. */
int field_number(const json_t *o, const char *at, const char *key, double *out, char **err);
/* A required number of any sign (an impact, a bound). */
int field_signed_number(const json_t *o, const char *at, const char *key, double *out, char **err);
/* A number of any sign, or a count, that may be absent or null: 1 with
 * *out set, 0 when absent or null, -1 with *err for another type. */
int field_optional_number(const json_t *o, const char *at, const char *key, double *out, char **err);
int field_optional_count(const json_t *o, const char *at, const char *key, uint64_t *out, char **err);
/* A required true or false. */
int field_bool(const json_t *o, const char *at, const char *key, int *out, char **err);
/* An object or an array member, borrowed (FIELD_OPTIONAL: *out NULL when
 * absent or null); not const, as Jansson's getters hand out plain
 * pointers into the tree. */
int field_object(const json_t *o, const char *at, const char *key, int how, json_t **out, char **err);
int field_array(const json_t *o, const char *at, const char *key, int how, json_t **out, char **err);
/* Element i of the array at+key, which must be an object. */
int field_element(const json_t *a, size_t i, const char *at, const char *key, json_t **out, char **err);

/* Formats a field path into buf (FIELD_MAX bytes), which must have room. */
void field_path(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The path of element i of the array at+key, as a prefix for its members. */
void field_element_path(char *buf, const char *at, const char *key, size_t i);

#endif
