/* SPDX-License-Identifier: MIT */
/* Reading a report: from a file or a Jansson tree into struct bm_report,
 * validating everything once (the Notes of report.c). */
#include "config.h"

#include "report.h"

#include "error.h"
#include "json_load.h"
#include "xalloc.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_MAX 256 /* longest field path: a few keys and three indices */

/* Reading -------------------------------------------------------------- */

/* Each reader below takes the object o, the path of o as a prefix ("" at
 * the top, "benchmarks[3]." inside) and the key to read, so that a
 * message can name the field without building names that are not needed. */

static int missing(char **err, const char *at, const char *key)
{
	return bm_error(err, "missing field '%s%s'", at, key);
}

static int wrong(char **err, const char *at, const char *key, const char *expected)
{
	return bm_error(err, "%s%s: expected %s", at, key, expected);
}

enum { OPTIONAL = 0, REQUIRED = 1, NONEMPTY = 2 };

/* A string member, borrowed from o; *out is NULL when an optional member is
 * absent or null. */
static int get_string(const json_t *o, const char *at, const char *key, int how,
		      const char **out, char **err)
{
	const json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v)
		return how & REQUIRED ? missing(err, at, key) : 0;
	if (json_is_null(v) && !(how & REQUIRED))
		return 0;
	if (!json_is_string(v) || ((how & NONEMPTY) && json_string_length(v) == 0))
		return wrong(err, at, key, how & NONEMPTY ? "a non-empty string" : "a string");
	*out = json_string_value(v);
	return 0;
}

/* Like get_string, into a newly allocated string stored in *out. */
static int dup_string(const json_t *o, const char *at, const char *key, int how, char **out,
		      char **err)
{
	const char *s;
	if (get_string(o, at, key, how, &s, err))
		return -1;
	*out = s ? xstrdup(s) : NULL;
	return 0;
}

static int is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

static int get_count(const json_t *o, const char *at, const char *key, uint64_t *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return missing(err, at, key);
	if (!is_count(v))
		return wrong(err, at, key, "a non-negative integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_number(const json_t *o, const char *at, const char *key, double *out, char **err)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return missing(err, at, key);
	double x = json_is_number(v) ? json_number_value(v) : -1;
	if (!isfinite(x) || x < 0)
		return wrong(err, at, key, "a finite non-negative number");
	*out = x;
	return 0;
}

/* A member that must be an object or an array (of type, REQUIRED) or may
 * be absent or null (OPTIONAL, *out NULL); json_t is not const because
 * Jansson's getters hand out plain pointers into the tree. */
static int get_container(const json_t *o, const char *at, const char *key, int how, json_type type,
			 json_t **out, char **err)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v)
		return how & REQUIRED ? missing(err, at, key) : 0;
	if (json_is_null(v) && !(how & REQUIRED))
		return 0;
	if (json_typeof(v) != type)
		return wrong(err, at, key, type == JSON_OBJECT ? "an object" : "an array");
	*out = v;
	return 0;
}

static int get_object(const json_t *o, const char *at, const char *key, int how, json_t **out,
		      char **err)
{
	return get_container(o, at, key, how, JSON_OBJECT, out, err);
}

static int get_array(const json_t *o, const char *at, const char *key, int how, json_t **out,
		     char **err)
{
	return get_container(o, at, key, how, JSON_ARRAY, out, err);
}

/* Formats a field path into buf (FIELD_MAX bytes), which always has room:
 * the keys are ours, and at most three indices of at most 20 digits. */
__attribute__((format(printf, 2, 3)))
static void field_path(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, FIELD_MAX, fmt, ap);
	va_end(ap);
	assert(n >= 0 && n < FIELD_MAX);
	(void)n;
}

/* The path of element i of the array at+key, as a prefix for its members. */
static void element_path(char *buf, const char *at, const char *key, size_t i)
{
	field_path(buf, "%s%s[%zu].", at, key, i);
}

/* Element i of the array at+key, which must be an object. */
static int get_element(const json_t *a, size_t i, const char *at, const char *key, json_t **out,
		       char **err)
{
	*out = json_array_get(a, i);
	if (!json_is_object(*out))
		return bm_error(err, "%s%s[%zu]: expected an object", at, key, i);
	return 0;
}

static int read_schema(const json_t *j, char **err)
{
	const char *schema;
	if (get_string(j, "", "schema", REQUIRED, &schema, err))
		return -1;
	if (strcmp(schema, REPORT_SCHEMA) != 0)
		return bm_error(err, "unknown report schema '%s' (this bm reads %s)", schema,
				REPORT_SCHEMA);
	return 0;
}

static int read_tool(const json_t *j, struct bm_report *r, char **err)
{
	json_t *t;
	if (get_object(j, "", "tool", REQUIRED, &t, err) ||
	    dup_string(t, "tool.", "name", REQUIRED, &r->tool_name, err) ||
	    dup_string(t, "tool.", "version", REQUIRED, &r->tool_version, err) ||
	    dup_string(t, "tool.", "valgrind", OPTIONAL, &r->valgrind, err) ||
	    dup_string(t, "tool.", "engine", OPTIONAL, &r->engine, err))
		return -1;
	return 0;
}

static int read_geometry(const json_t *cache, const char *key, struct bm_cache_geometry *g,
			 char **err)
{
	json_t *a;
	if (get_array(cache, "model.cache.", key, REQUIRED, &a, err))
		return -1;
	if (json_array_size(a) != 3 || !is_count(json_array_get(a, 0)) ||
	    !is_count(json_array_get(a, 1)) || !is_count(json_array_get(a, 2)))
		return wrong(err, "model.cache.", key, "[size, associativity, line size]");
	g->size = (uint64_t)json_integer_value(json_array_get(a, 0));
	g->assoc = (uint64_t)json_integer_value(json_array_get(a, 1));
	g->line = (uint64_t)json_integer_value(json_array_get(a, 2));
	return 0;
}

static int read_model(const json_t *j, struct bm_report_model *m, char **err)
{
	json_t *o, *w, *c, *f;
	if (get_object(j, "", "model", REQUIRED, &o, err) ||
	    dup_string(o, "model.", "id", REQUIRED, &m->id, err))
		return -1;
	if (!(f = json_object_get(o, "frequency_hz")))
		return missing(err, "model.", "frequency_hz");
	m->frequency_hz = json_is_number(f) ? json_number_value(f) : 0;
	if (!isfinite(m->frequency_hz) || !(m->frequency_hz > 0))
		return wrong(err, "model.", "frequency_hz", "a positive finite number");
	if (get_object(o, "model.", "weights", OPTIONAL, &w, err) ||
	    (w && (get_count(w, "model.weights.", "l1_hit", &m->l1_hit, err) ||
		   get_count(w, "model.weights.", "ll_hit", &m->ll_hit, err) ||
		   get_count(w, "model.weights.", "ram", &m->ram, err))))
		return -1;
	if (get_object(o, "model.", "cache", OPTIONAL, &c, err) ||
	    (c && (read_geometry(c, "I1", &m->i1, err) || read_geometry(c, "D1", &m->d1, err) ||
		   read_geometry(c, "LL", &m->ll, err) ||
		   (json_object_get(c, "L2") && read_geometry(c, "L2", &m->l2, err)))))
		return -1;
	json_t *costs;
	if (get_object(o, "model.", "costs", OPTIONAL, &costs, err))
		return -1;
	m->costs = costs ? json_deep_copy(costs) : NULL;
	json_t *warm = json_object_get(o, "warm_caches");
	if (warm && !json_is_boolean(warm) && !json_is_null(warm))
		return wrong(err, "model.", "warm_caches", "true or false");
	m->warm_caches = json_is_true(warm);
	return dup_string(o, "model.", "cpu_features", OPTIONAL, &m->cpu_features, err) ||
	       dup_string(o, "model.", "cpu", OPTIONAL, &m->cpu, err);
}

static int read_commit(const json_t *o, struct bm_commit *c, char **err)
{
	static const char at[] = "context.commit.";
	json_t *a;
	if (dup_string(o, at, "sha", REQUIRED | NONEMPTY, &c->sha, err) ||
	    dup_string(o, at, "timestamp", OPTIONAL, &c->timestamp, err) ||
	    get_array(o, at, "ancestors", OPTIONAL, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n == 0)
		return 0;
	c->ancestors = xcalloc(n, sizeof *c->ancestors);
	c->nancestors = n;
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(a, i);
		if (!json_is_string(v))
			return bm_error(err, "%sancestors[%zu]: expected a string", at, i);
		c->ancestors[i] = xstrdup(json_string_value(v));
	}
	return 0;
}

static int read_pr(const json_t *o, struct bm_pull_request *pr, char **err)
{
	static const char at[] = "context.pr.";
	const json_t *v = json_object_get(o, "number");
	if (!v)
		return missing(err, at, "number");
	if (!json_is_integer(v) || json_integer_value(v) <= 0 || json_integer_value(v) > LONG_MAX)
		return wrong(err, at, "number", "a positive integer");
	pr->number = (long)json_integer_value(v);
	return dup_string(o, at, "base_branch", OPTIONAL, &pr->base_branch, err) ||
			       dup_string(o, at, "merge_base", OPTIONAL, &pr->merge_base, err)
		       ? -1
		       : 0;
}

static int read_context(const json_t *j, struct bm_context *c, char **err)
{
	static const char at[] = "context.", pat[] = "context.platform.";
	json_t *o, *p, *commit, *pr;
	if (get_object(j, "", "context", REQUIRED, &o, err) ||
	    get_object(o, at, "platform", OPTIONAL, &p, err) ||
	    (p && (dup_string(p, pat, "compiler", OPTIONAL, &c->compiler, err) ||
		   dup_string(p, pat, "os", OPTIONAL, &c->os, err) ||
		   dup_string(p, pat, "arch", OPTIONAL, &c->arch, err))) ||
	    dup_string(o, at, "host", OPTIONAL, &c->host, err) ||
	    dup_string(o, at, "branch", OPTIONAL, &c->branch, err) ||
	    get_object(o, at, "commit", OPTIONAL, &commit, err) ||
	    get_object(o, at, "pr", OPTIONAL, &pr, err))
		return -1;
	if (commit) {
		c->commit = xcalloc(1, sizeof *c->commit);
		if (read_commit(commit, c->commit, err))
			return -1;
	}
	if (pr) {
		c->pr = xcalloc(1, sizeof *c->pr);
		if (read_pr(pr, c->pr, err))
			return -1;
	}
	return 0;
}

static int read_binary(const json_t *j, struct bm_report *r, char **err)
{
	json_t *o;
	if (get_object(j, "", "binary", OPTIONAL, &o, err) ||
	    (o && (dup_string(o, "binary.", "path", OPTIONAL, &r->binary_path, err) ||
		   dup_string(o, "binary.", "build_id", OPTIONAL, &r->build_id, err))))
		return -1;
	return 0;
}

static int read_caller(const json_t *o, const char *at, struct bm_syscall_caller *c, char **err)
{
	if (dup_string(o, at, "function", REQUIRED, &c->function, err) ||
	    get_count(o, at, "calls", &c->calls, err) || get_count(o, at, "count", &c->count, err) ||
	    get_count(o, at, "wall_ns", &c->wall_ns, err) ||
	    get_count(o, at, "cpu_ns", &c->cpu_ns, err))
		return -1;
	return 0;
}

static int read_function(const json_t *o, const char *at, struct bm_syscall_function *f,
			 char **err)
{
	json_t *a, *e;
	char eat[FIELD_MAX];
	if (dup_string(o, at, "function", REQUIRED, &f->function, err) ||
	    get_count(o, at, "count", &f->count, err) ||
	    get_count(o, at, "wall_ns", &f->wall_ns, err) ||
	    get_count(o, at, "cpu_ns", &f->cpu_ns, err) ||
	    get_array(o, at, "callers", OPTIONAL, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n == 0)
		return 0;
	f->callers = xcalloc(n, sizeof *f->callers);
	f->ncallers = n;
	for (size_t i = 0; i < n; i++) {
		element_path(eat, at, "callers", i);
		if (get_element(a, i, at, "callers", &e, err) ||
		    read_caller(e, eat, &f->callers[i], err))
			return -1;
	}
	return 0;
}

static int read_syscalls(const json_t *o, const char *bat, struct bm_syscalls *s, char **err)
{
	json_t *a, *e;
	char at[FIELD_MAX], eat[FIELD_MAX];
	field_path(at, "%ssyscalls.", bat);
	if (get_count(o, at, "count", &s->count, err) ||
	    get_count(o, at, "wall_ns", &s->wall_ns, err) ||
	    get_count(o, at, "cpu_ns", &s->cpu_ns, err) ||
	    get_array(o, at, "by_function", REQUIRED, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n == 0)
		return 0;
	s->by_function = xcalloc(n, sizeof *s->by_function);
	s->nby_function = n;
	for (size_t i = 0; i < n; i++) {
		element_path(eat, at, "by_function", i);
		if (get_element(a, i, at, "by_function", &e, err) ||
		    read_function(e, eat, &s->by_function[i], err))
			return -1;
	}
	return 0;
}

static int read_events(const json_t *o, const char *bat, struct bm_events *ev, char **err)
{
	char at[FIELD_MAX];
	field_path(at, "%sevents.", bat);
	for (int e = 0; e < BM_EV_COUNT; e++) {
		const char *name = events_name((enum bm_event)e);
		const json_t *v = json_object_get(o, name);
		if (!v)
			continue;
		if (!is_count(v))
			return wrong(err, at, name, "a non-negative integer");
		ev->v[e] = (uint64_t)json_integer_value(v);
		ev->present |= 1u << e;
	}
	return 0;
}

static int read_status(const json_t *o, const char *at, enum bm_status *st, char **err)
{
	const char *s;
	if (get_string(o, at, "status", REQUIRED, &s, err))
		return -1;
	for (size_t i = 0; i <= BM_STATUS_NOT_RUN; i++) {
		if (strcmp(s, report_status_name((enum bm_status)i)) == 0) {
			*st = (enum bm_status)i;
			return 0;
		}
	}
	return bm_error(err, "%sstatus: unknown status '%s' (expected ok, failed, skipped or not-run)", at,
			s);
}

/* suite, name and tag as written, where they are: each replaces what
 * benchmark_set_id derived from the id. */
static int read_id_parts(const json_t *o, const char *at, struct bm_benchmark *b, char **err)
{
	struct {
		const char *key;
		char **field;
		int how;
	} parts[] = {
		{"suite", &b->suite, OPTIONAL},
		{"name", &b->name, REQUIRED},
		{"tag", &b->tag, OPTIONAL},
	};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		const char *s;
		if (!json_object_get(o, parts[i].key))
			continue;
		if (get_string(o, at, parts[i].key, parts[i].how, &s, err))
			return -1;
		free(*parts[i].field);
		*parts[i].field = s ? xstrdup(s) : NULL;
	}
	return 0;
}

/* One metric of an imported benchmark: "metric", "value" and "unit" of o. */
static int read_metric(const json_t *o, const char *at, struct bm_benchmark *b, char **err)
{
	const char *name, *unit;
	const json_t *v = json_object_get(o, "value");
	if (get_string(o, at, "metric", REQUIRED | NONEMPTY, &name, err) ||
	    get_string(o, at, "unit", REQUIRED, &unit, err))
		return -1;
	if (!v)
		return missing(err, at, "value");
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return wrong(err, at, "value", "a finite number");
	benchmark_add_metric(b, name, unit, json_number_value(v));
	return 0;
}

static int read_metrics(const json_t *o, const char *at, struct bm_benchmark *b, char **err)
{
	json_t *a, *e;
	char eat[FIELD_MAX];
	if (read_metric(o, at, b, err) || get_array(o, at, "extra_metrics", OPTIONAL, &a, err))
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		element_path(eat, at, "extra_metrics", i);
		if (get_element(a, i, at, "extra_metrics", &e, err) || read_metric(e, eat, b, err))
			return -1;
	}
	return 0;
}

/* Profiles ------------------------------------------------------------- */

/* The profile object as bm-profile writes it (docs/report-format.md) is
 * kept as JSON and served to the profile view as it came, so its shape is
 * checked here: members may be absent (and others added), but those
 * present have their types, cost arrays follow "events", and the indices
 * that link calls and lines to functions point at one. */

/* An optional non-negative integer member. */
static int opt_count(const json_t *o, const char *at, const char *key, char **err)
{
	const json_t *v = json_object_get(o, key);
	return v && !is_count(v) ? wrong(err, at, key, "a non-negative integer") : 0;
}

/* An optional array of nevents non-negative integers (any length when
 * nevents is SIZE_MAX: the profile names no events). */
static int opt_costs(const json_t *o, const char *at, const char *key, size_t nevents, char **err)
{
	json_t *a;
	if (get_array(o, at, key, OPTIONAL, &a, err))
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!is_count(json_array_get(a, i)))
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
		return missing(err, at, key);
	if (!is_count(v) || (uint64_t)json_integer_value(v) >= nfns)
		return bm_error(err, "%s%s: expected the index of one of the %zu functions", at, key, nfns);
	return 0;
}

/* The readers of one element of "functions", "calls" or "lines". */
typedef int (*profile_element_fn)(const json_t *o, const char *at, size_t nevents, size_t nfns, char **err);

static int read_profile_function(const json_t *o, const char *at, size_t nevents, size_t nfns, char **err)
{
	const char *s;
	(void)nfns;
	return get_string(o, at, "name", OPTIONAL, &s, err) || get_string(o, at, "file", OPTIONAL, &s, err) ||
	       get_string(o, at, "object", OPTIONAL, &s, err) || opt_count(o, at, "calls", err) ||
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
	return get_index(o, at, "function", nfns, err) || get_string(o, at, "file", OPTIONAL, &s, err) ||
	       opt_count(o, at, "line", err) || opt_costs(o, at, "self", nevents, err) ||
	       opt_count(o, at, "cycles", err);
}

/* Each element of the array at+key, an object, checked by fn. */
static int read_profile_list(const json_t *p, const char *at, const char *key, profile_element_fn fn,
			     size_t nevents, size_t nfns, char **err)
{
	json_t *a, *e;
	char eat[FIELD_MAX];
	if (get_array(p, at, key, OPTIONAL, &a, err))
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		element_path(eat, at, key, i);
		if (get_element(a, i, at, key, &e, err) || fn(e, eat, nevents, nfns, err))
			return -1;
	}
	return 0;
}

static int read_profile(const json_t *p, const char *bat, char **err)
{
	char at[FIELD_MAX];
	json_t *events, *fns;
	field_path(at, "%sprofile.", bat);
	if (get_array(p, at, "events", OPTIONAL, &events, err) || get_array(p, at, "functions", OPTIONAL, &fns, err))
		return -1;
	for (size_t i = 0; i < json_array_size(events); i++)
		if (!json_is_string(json_array_get(events, i)))
			return bm_error(err, "%sevents[%zu]: expected a string", at, i);
	size_t nevents = events ? json_array_size(events) : SIZE_MAX, nfns = json_array_size(fns);
	return opt_costs(p, at, "totals", nevents, err) || opt_count(p, at, "cycles", err) ||
	       read_profile_list(p, at, "functions", read_profile_function, nevents, nfns, err) ||
	       read_profile_list(p, at, "calls", read_profile_call, nevents, nfns, err) ||
	       read_profile_list(p, at, "lines", read_profile_line, nevents, nfns, err);
}

/* How far a simulated benchmark's time and speed may be from what its
 * cycles and the model's frequency give: floating-point rounding, in the
 * writer's division and in its decimal output (bm's writers divide as
 * below and print 17 digits, which is exact), and nothing more. */
#define ROUNDING 1e-9

static int follows(double claimed, double derived)
{
	return isfinite(derived) && fabs(claimed - derived) <= ROUNDING * fabs(derived);
}

/* A simulated benchmark's numbers say one thing: time_s is cycles /
 * frequency_hz, speed is frequency_hz / cycles (simulator/model.c), and
 * the speed is positive, so that a run is compared on the speed its
 * cycles give, never on a claim.  0 cycles (bm-profile of a file that
 * counted nothing) take no time and have no speed: 0 for both, which is
 * not compared, as a skipped benchmark is not. */
static int check_numbers(const struct bm_benchmark *b, const char *at, double hz, char **err)
{
	if (b->cycles == 0) {
		if (b->time_s == 0 && b->speed == 0)
			return 0;
		int speed = b->speed != 0;
		return bm_error(err, "%s%s: %.10g in benchmark '%s' contradicts its cycles: 0 cycles take no time and "
				     "have no speed (0 for both)",
				at, speed ? "speed" : "time_s", speed ? b->speed : b->time_s, b->id);
	}
	double cycles = (double)b->cycles, time_s = cycles / hz, speed = hz / cycles;
	if (!(b->speed > 0) || !follows(b->speed, speed))
		return bm_error(err, "%sspeed: %.10g in benchmark '%s' contradicts its cycles: %llu cycles at "
				     "model.frequency_hz %.10g are %.10g runs per second (speed = frequency_hz / cycles)",
				at, b->speed, b->id, (unsigned long long)b->cycles, hz, speed);
	if (!follows(b->time_s, time_s))
		return bm_error(err, "%stime_s: %.10g in benchmark '%s' contradicts its cycles: %llu cycles at "
				     "model.frequency_hz %.10g take %.10g s (time_s = cycles / frequency_hz)",
				at, b->time_s, b->id, (unsigned long long)b->cycles, hz, time_s);
	return 0;
}

static int read_benchmark(const json_t *o, const char *at, double hz, struct bm_benchmark *b, char **err)
{
	const char *id;
	json_t *ev, *sys, *profile;
	if (get_string(o, at, "id", REQUIRED | NONEMPTY, &id, err))
		return -1;
	benchmark_set_id(b, id);
	if (read_id_parts(o, at, b, err) || read_status(o, at, &b->status, err) ||
	    dup_string(o, at, "reason", OPTIONAL, &b->reason, err) ||
	    get_object(o, at, "profile", OPTIONAL, &profile, err) || (profile && read_profile(profile, at, err)))
		return -1;
	b->profile = profile ? json_incref(profile) : NULL;
	const json_t *metric = json_object_get(o, "metric");
	if (metric && !json_is_null(metric))
		return b->status == BM_STATUS_OK ? read_metrics(o, at, b, err) : 0;
	if (b->status != BM_STATUS_OK)
		return 0;
	if (get_object(o, at, "events", REQUIRED, &ev, err) || read_events(ev, at, &b->events, err) ||
	    get_count(o, at, "cycles", &b->cycles, err) ||
	    get_number(o, at, "time_s", &b->time_s, err) ||
	    get_number(o, at, "speed", &b->speed, err) ||
	    get_object(o, at, "syscalls", OPTIONAL, &sys, err) ||
	    (sys && read_syscalls(sys, at, &b->syscalls, err)) ||
	    (json_object_get(o, "calls") && get_count(o, at, "calls", &b->calls, err)))
		return -1;
	return check_numbers(b, at, hz, err);
}

static int by_id(const void *a, const void *b)
{
	return strcmp((*(struct bm_benchmark *const *)a)->id, (*(struct bm_benchmark *const *)b)->id);
}

/* No id twice: results are matched by id (the server's series, bm-check's
 * rows), and a second one would be dropped or picked at random. */
static int check_unique(const struct bm_report *r, char **err)
{
	struct bm_benchmark **sorted = xcalloc(r->nbenchmarks + 1, sizeof *sorted);
	for (size_t i = 0; i < r->nbenchmarks; i++)
		sorted[i] = &r->benchmarks[i];
	qsort(sorted, r->nbenchmarks, sizeof *sorted, by_id);
	int rc = 0;
	for (size_t i = 1; !rc && i < r->nbenchmarks; i++)
		if (!strcmp(sorted[i - 1]->id, sorted[i]->id))
			rc = bm_error(err, "benchmarks: '%s' appears twice", sorted[i]->id);
	free(sorted);
	return rc;
}

static int read_benchmarks(const json_t *j, struct bm_report *r, char **err)
{
	json_t *a, *e;
	char at[FIELD_MAX];
	if (get_array(j, "", "benchmarks", REQUIRED, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n)
		xgrow(&r->benchmarks, &r->benchmarks_alloc, n, sizeof *r->benchmarks);
	for (size_t i = 0; i < n; i++) {
		struct bm_benchmark *b = report_add_benchmark(r);
		element_path(at, "", "benchmarks", i);
		if (get_element(a, i, "", "benchmarks", &e, err) ||
		    read_benchmark(e, at, r->model.frequency_hz, b, err))
			return -1;
	}
	return check_unique(r, err);
}

int report_from_json(const json_t *j, struct bm_report *r, char **err)
{
	memset(r, 0, sizeof *r);
	if (!json_is_object(j))
		return bm_error(err, "expected a JSON object");
	if (read_schema(j, err) ||
	    dup_string(j, "", "run_id", REQUIRED, &r->run_id, err) ||
	    dup_string(j, "", "created_at", REQUIRED, &r->created_at, err) ||
	    read_tool(j, r, err) || read_model(j, &r->model, err) ||
	    read_context(j, &r->context, err) || read_binary(j, r, err) ||
	    read_benchmarks(j, r, err)) {
		report_release(r);
		return -1;
	}
	return 0;
}

int report_read_file(const char *path, struct bm_report *r, char **err)
{
	memset(r, 0, sizeof *r);
	json_t *j = json_load_path(path, JSON_REJECT_DUPLICATES, err);
	if (!j)
		return -1;
	int rc = report_from_json(j, r, err);
	json_decref(j);
	if (rc)
		bm_error_prefix(err, strcmp(path, "-") ? path : "<stdin>");
	return rc;
}
