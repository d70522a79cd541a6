/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "gbench_json.h"

#include "error.h"
#include "xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	double seconds;
} time_units[] = {
	{"ns", 1e-9},
	{"us", 1e-6},
	{"ms", 1e-3},
	{"s", 1},
};

static int field_error(const char *file, char **err, size_t i, const char *key, const char *what)
{
	return bm_error(err, "%s: benchmarks[%zu]%s%s: %s", file, i, *key ? "." : "", key, what);
}

/* An optional string member; *out NULL when absent or null. */
static int get_string(const char *file, const json_t *run, size_t i, const char *key, const char **out,
		      char **err)
{
	const json_t *v = json_object_get(run, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return field_error(file, err, i, key, "expected a string");
	*out = json_string_value(v);
	return 0;
}

static int get_flag(const char *file, const json_t *run, size_t i, const char *key, int *out, char **err)
{
	const json_t *v = json_object_get(run, key);
	*out = 0;
	if (!v)
		return 0;
	if (json_is_boolean(v))
		*out = json_is_true(v);
	else if (json_is_integer(v)) /* "skipped" is an enum in some versions */
		*out = json_integer_value(v) != 0;
	else
		return field_error(file, err, i, key, "expected true or false");
	return 0;
}

/* An optional non-negative integer member; *out def when absent. */
static int get_count(const char *file, const json_t *run, size_t i, const char *key, long long def,
		     long long *out, char **err)
{
	const json_t *v = json_object_get(run, key);
	*out = def;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return field_error(file, err, i, key, "expected a non-negative integer");
	*out = (long long)json_integer_value(v);
	return 0;
}

static int get_seconds(const char *file, const json_t *run, size_t i, const char *key, double scale,
		       double *out, char **err)
{
	const json_t *v = json_object_get(run, key);
	if (!v)
		return field_error(file, err, i, key, "missing");
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return field_error(file, err, i, key, "expected a non-negative number");
	*out = json_number_value(v) * scale;
	return 0;
}

static int time_unit(const char *file, const json_t *run, size_t i, double *scale, char **err)
{
	const char *unit;
	if (get_string(file, run, i, "time_unit", &unit, err))
		return -1;
	if (!unit) {
		*scale = 1e-9; /* the default before time_unit was written */
		return 0;
	}
	for (size_t k = 0; k < sizeof time_units / sizeof *time_units; k++) {
		if (strcmp(unit, time_units[k].name) == 0) {
			*scale = time_units[k].seconds;
			return 0;
		}
	}
	return field_error(file, err, i, "time_unit", "expected ns, us, ms or s");
}

static int read_run(const char *file, const json_t *o, size_t i, gbench_run_fn *each, void *ctx, char **err)
{
	struct gbench_run run = {.index = i};
	const char *run_type, *aggregate;
	long long iterations;
	double scale = 1e-9;
	if (!json_is_object(o))
		return field_error(file, err, i, "", "expected an object");
	const json_t *rn = json_object_get(o, "run_name");
	const char *key = rn && !json_is_null(rn) ? "run_name" : "name";
	if (get_string(file, o, i, key, &run.name, err))
		return -1;
	if (!run.name || !*run.name)
		return field_error(file, err, i, key, "missing");
	run.len = json_string_length(json_object_get(o, key));
	if (run.len > GBENCH_MAX_NAME || memchr(run.name, '\0', run.len))
		return field_error(file, err, i, key, "longer than 4096 bytes or holds a NUL byte");
	if (get_string(file, o, i, "run_type", &run_type, err) ||
	    get_string(file, o, i, "aggregate_name", &aggregate, err) ||
	    get_flag(file, o, i, "error_occurred", &run.failed, err) ||
	    get_flag(file, o, i, "skipped", &run.skipped, err))
		return -1;
	run.aggregate = run_type && strcmp(run_type, "aggregate") == 0;
	if (run_type && !run.aggregate && strcmp(run_type, "iteration") != 0)
		return field_error(file, err, i, "run_type", "expected \"iteration\" or \"aggregate\"");
	if (run.aggregate && !(aggregate && strcmp(aggregate, "median") == 0))
		return 0; /* mean, stddev, cv, BigO, RMS, user-defined */
	if (run.failed || run.skipped)
		return get_string(file, o, i, run.failed ? "error_message" : "skip_message", &run.message, err)
			       ? -1
			       : each(&run, ctx, err);
	if (get_count(file, o, i, "repetition_index", 0, &run.repetition, err) ||
	    get_count(file, o, i, "threads", 1, &run.threads, err) ||
	    get_count(file, o, i, "iterations", 0, &iterations, err) || time_unit(file, o, i, &scale, err) ||
	    get_seconds(file, o, i, "real_time", scale, &run.real_s, err) ||
	    get_seconds(file, o, i, "cpu_time", scale, &run.cpu_s, err))
		return -1;
	run.iterations = (uint64_t)iterations;
	return each(&run, ctx, err);
}

/* The runs of j, which it releases. */
static int read_runs(json_t *j, const char *name, gbench_run_fn *each, void *ctx, char **err)
{
	json_t *runs = json_object_get(j, "benchmarks");
	int rc = -1;
	if (!json_is_object(j))
		bm_error(err, "%s: expected a JSON object", name);
	else if (!json_is_array(runs))
		bm_error(err, "%s: benchmarks: %s", name, runs ? "expected an array" : "missing");
	else
		for (size_t i = rc = 0; rc == 0 && i < json_array_size(runs); i++)
			rc = read_run(name, json_array_get(runs, i), i, each, ctx, err);
	json_decref(j);
	return rc;
}

/* A report the suite did not finish, as the size bytes at data end: its
 * runs so far (it writes each benchmark's whole, then flushes), without
 * the "]}" it closes them with at its end; or NULL. */
static json_t *load_unfinished(const char *data, size_t size)
{
	static const char end[] = "]}";
	char *text = xmalloc(size + sizeof end - 1);
	memcpy(text, data, size);
	memcpy(text + size, end, sizeof end - 1);
	json_t *j = json_loadb(text, size + sizeof end - 1, JSON_REJECT_DUPLICATES, NULL);
	free(text);
	return j;
}

int gbench_json_read(const char *data, size_t size, const char *name, int *unfinished, gbench_run_fn *each,
		     void *ctx, char **err)
{
	json_error_t je;
	json_t *j = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);
	if (unfinished) {
		*unfinished = 0;
		if (!j && (j = load_unfinished(data, size)))
			*unfinished = 1;
	}
	if (!j)
		return bm_error(err, "%s:%d:%d: %s", name, je.line, je.column, je.text);
	return read_runs(j, name, each, ctx, err);
}
