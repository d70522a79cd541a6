/* SPDX-License-Identifier: MIT */
/* Google Benchmark's JSON (--benchmark_format=json or --benchmark_out=F),
 * docs/bm-import.md.
 *
 * Notes
 * -----
 * - Runs are grouped by "run_name" (or "name" when an old version wrote
 *   none), in the order first seen; each group becomes one benchmark with
 *   that id.  With repetitions Google Benchmark adds aggregate runs (mean,
 *   median, stddev, cv); the "median" aggregate is the group's value, as
 *   the least disturbed by outliers.  Without one, a single iteration run
 *   is the value, and several (repetitions with no aggregates) give their
 *   median, computed here the way Google Benchmark computes it.
 * - The metric is "walltime" (real_time) in seconds, with "cpu_time" in
 *   seconds as an extra metric.  Other aggregates, complexity fits (BigO,
 *   RMS) and user counters are not imported.
 * - A run with "error_occurred": true makes its group failed, with the
 *   "error_message"; one with "skipped" (newer versions) makes it skipped.
 * - The JSON is read by Jansson, which gives line and column for syntax;
 *   a field that is wrong is named by its path ("benchmarks[3].time_unit").
 */
#include "config.h"

#include "import.h"

#include "error.h"
#include "strpool.h"
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

/* What one group of runs holds until it becomes a benchmark. */
struct group {
	double *real, *cpu; /* the iteration runs, in seconds */
	size_t n, alloc;
	double median_real, median_cpu;
	int has_median;
	enum bm_status status;
	char *reason; /* the first error or skip message, or NULL */
};

struct state {
	const char *file;
	struct strpool *names;
	struct group *groups;
	size_t ngroups, groups_alloc;
};

static int field_error(struct state *s, char **err, size_t i, const char *key, const char *what)
{
	return bm_error(err, "%s: benchmarks[%zu]%s%s: %s", s->file, i, *key ? "." : "", key, what);
}

static int get_seconds(struct state *s, const json_t *run, size_t i, const char *key, double scale,
		       double *out, char **err)
{
	const json_t *v = json_object_get(run, key);
	if (!v)
		return field_error(s, err, i, key, "missing");
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return field_error(s, err, i, key, "expected a non-negative number");
	*out = json_number_value(v) * scale;
	return 0;
}

/* An optional string member; *out NULL when absent. */
static int get_string(struct state *s, const json_t *run, size_t i, const char *key,
		      const char **out, char **err)
{
	const json_t *v = json_object_get(run, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return field_error(s, err, i, key, "expected a string");
	*out = json_string_value(v);
	return 0;
}

static int get_flag(struct state *s, const json_t *run, size_t i, const char *key, int *out,
		    char **err)
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
		return field_error(s, err, i, key, "expected true or false");
	return 0;
}

static struct group *group_of(struct state *s, const char *key, size_t len)
{
	uint32_t idx = strpool_intern(s->names, key, len);
	if (idx == s->ngroups) {
		xgrow(&s->groups, &s->groups_alloc, s->ngroups + 1, sizeof *s->groups);
		memset(&s->groups[s->ngroups++], 0, sizeof *s->groups);
	}
	return &s->groups[idx];
}

static int run_time_unit(struct state *s, const json_t *run, size_t i, double *scale, char **err)
{
	const char *unit;
	if (get_string(s, run, i, "time_unit", &unit, err))
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
	return field_error(s, err, i, "time_unit", "expected ns, us, ms or s");
}

static int read_run(struct state *s, const json_t *run, size_t i, char **err)
{
	const char *name, *run_type, *aggregate, *message;
	int error, skipped;
	double scale = 1e-9, real, cpu;
	if (!json_is_object(run))
		return field_error(s, err, i, "", "expected an object");
	const json_t *rn = json_object_get(run, "run_name");
	const char *key = rn && !json_is_null(rn) ? "run_name" : "name";
	if (get_string(s, run, i, key, &name, err))
		return -1;
	if (!name || !*name)
		return field_error(s, err, i, key, "missing");
	size_t len = json_string_length(json_object_get(run, key));
	if (len > IMPORT_MAX_ID || memchr(name, '\0', len))
		return field_error(s, err, i, key, "longer than 4096 bytes or holds a NUL byte");
	if (get_string(s, run, i, "run_type", &run_type, err) ||
	    get_string(s, run, i, "aggregate_name", &aggregate, err) ||
	    get_flag(s, run, i, "error_occurred", &error, err) ||
	    get_flag(s, run, i, "skipped", &skipped, err))
		return -1;
	int is_aggregate = run_type && strcmp(run_type, "aggregate") == 0;
	if (run_type && !is_aggregate && strcmp(run_type, "iteration") != 0)
		return field_error(s, err, i, "run_type", "expected \"iteration\" or \"aggregate\"");
	if (is_aggregate && !(aggregate && strcmp(aggregate, "median") == 0))
		return 0; /* mean, stddev, cv, BigO, RMS, user-defined */
	if (strpool_count(s->names) >= IMPORT_MAX_BENCHMARKS &&
	    !strpool_find(s->names, name, len, &(uint32_t){0}))
		return bm_error(err, "%s: more than %d benchmarks", s->file, IMPORT_MAX_BENCHMARKS);
	struct group *g = group_of(s, name, len);
	if (error || skipped) {
		const char *mkey = error ? "error_message" : "skip_message";
		if (get_string(s, run, i, mkey, &message, err))
			return -1;
		if (g->status == BM_STATUS_OK || (error && g->status == BM_STATUS_SKIPPED)) {
			g->status = error ? BM_STATUS_FAILED : BM_STATUS_SKIPPED;
			free(g->reason);
			g->reason = xstrdup(message && *message ? message
								: error ? "error_occurred" : "skipped");
		}
		return 0;
	}
	if (run_time_unit(s, run, i, &scale, err) ||
	    get_seconds(s, run, i, "real_time", scale, &real, err) ||
	    get_seconds(s, run, i, "cpu_time", scale, &cpu, err))
		return -1;
	if (is_aggregate) {
		g->has_median = 1;
		g->median_real = real;
		g->median_cpu = cpu;
	} else {
		xgrow(&g->real, &g->alloc, g->n + 1, sizeof *g->real);
		g->cpu = xreallocarray(g->cpu, g->alloc, sizeof *g->cpu);
		g->real[g->n] = real;
		g->cpu[g->n++] = cpu;
	}
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of n >= 1 values, which it sorts. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int emit(struct state *s, struct bm_report *r, struct import_ids *ids, char **err)
{
	for (size_t k = 0; k < s->ngroups; k++) {
		struct group *g = &s->groups[k];
		const char *id = strpool_get(s->names, (uint32_t)k);
		char *why = NULL;
		struct bm_result *b = import_add(r, ids, id, strlen(id), &why);
		if (!b) { /* ids are unique here; only a limit can refuse one */
			bm_error(err, "%s: %s", s->file, why);
			free(why);
			return -1;
		}
		if (g->status != BM_STATUS_OK || (!g->has_median && g->n == 0)) {
			b->status = g->status != BM_STATUS_OK ? g->status : BM_STATUS_FAILED;
			b->reason = xstrdup(g->reason ? g->reason : "no iteration run and no median");
			continue;
		}
		double real = g->has_median ? g->median_real : median(g->real, g->n);
		double cpu = g->has_median ? g->median_cpu : median(g->cpu, g->n);
		benchmark_add_metric(b, "walltime", "s", real);
		benchmark_add_metric(b, "cpu_time", "s", cpu);
	}
	return 0;
}

static int parse(const char *data, size_t size, const char *name, struct bm_report *r, char **err)
{
	struct state s = {.file = name, .names = strpool_new()};
	struct import_ids *ids = import_ids_new();
	json_error_t je;
	int rc = -1;
	report_init(r);
	json_t *j = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);
	json_t *runs = json_object_get(j, "benchmarks");
	if (!j) {
		bm_error(err, "%s:%d:%d: %s", name, je.line, je.column, je.text);
	} else if (!json_is_object(j)) {
		bm_error(err, "%s: expected a JSON object", name);
	} else if (!json_is_array(runs)) {
		bm_error(err, "%s: benchmarks: %s", name, runs ? "expected an array" : "missing");
	} else {
		rc = 0;
		for (size_t i = 0; rc == 0 && i < json_array_size(runs); i++)
			rc = read_run(&s, json_array_get(runs, i), i, err);
		if (rc == 0 && s.ngroups == 0)
			rc = bm_error(err, "%s: no benchmarks", name);
		if (rc == 0)
			rc = emit(&s, r, ids, err);
	}
	json_decref(j);
	for (size_t k = 0; k < s.ngroups; k++) {
		free(s.groups[k].real);
		free(s.groups[k].cpu);
		free(s.groups[k].reason);
	}
	free(s.groups);
	strpool_free(s.names);
	import_ids_free(ids);
	if (rc)
		report_release(r);
	return rc;
}

const struct import_format import_gbench = {
	.name = "gbench",
	.description = "Google Benchmark JSON (--benchmark_format=json)",
	.parse = parse,
};
