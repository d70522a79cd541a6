/* SPDX-License-Identifier: MIT */
/* Reading a report: from a file or a Jansson tree into struct bm_report,
 * validating everything once (the Notes of report.c). */
#include "config.h"

#include "report.h"

#include "error.h"
#include "json_fields.h"
#include "profile_shape.h"
#include "json_load.h"
#include "xalloc.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Reading -------------------------------------------------------------- */

static int read_schema(const json_t *j, char **err)
{
	const char *schema;
	if (field_string(j, "", "schema", FIELD_REQUIRED, &schema, err))
		return -1;
	if (strcmp(schema, REPORT_SCHEMA) != 0)
		return bm_error(err, "unknown report schema '%s' (this bm reads %s)", schema,
				REPORT_SCHEMA);
	return 0;
}

static int read_tool(const json_t *j, struct bm_report *r, char **err)
{
	json_t *t;
	if (field_object(j, "", "tool", FIELD_REQUIRED, &t, err) ||
	    field_dup_string(t, "tool.", "name", FIELD_REQUIRED, &r->tool_name, err) ||
	    field_dup_string(t, "tool.", "version", FIELD_REQUIRED, &r->tool_version, err) ||
	    field_dup_string(t, "tool.", "valgrind", FIELD_OPTIONAL, &r->valgrind, err) ||
	    field_dup_string(t, "tool.", "engine", FIELD_OPTIONAL, &r->engine, err))
		return -1;
	return 0;
}

static int read_geometry(const json_t *cache, const char *key, struct bm_cache_geometry *g,
			 char **err)
{
	json_t *a;
	if (field_array(cache, "model.cache.", key, FIELD_REQUIRED, &a, err))
		return -1;
	if (json_array_size(a) != 3 || !field_is_count(json_array_get(a, 0)) ||
	    !field_is_count(json_array_get(a, 1)) || !field_is_count(json_array_get(a, 2)))
		return field_wrong(err, "model.cache.", key, "[size, associativity, line size]");
	g->size = (uint64_t)json_integer_value(json_array_get(a, 0));
	g->assoc = (uint64_t)json_integer_value(json_array_get(a, 1));
	g->line = (uint64_t)json_integer_value(json_array_get(a, 2));
	return 0;
}

/* model.clock: one of the clocks bm-run measures with (report.h), or
 * absent (older reports). */
static int read_clock(const json_t *o, struct bm_report_model *m, char **err)
{
	static const char *const clocks[] = {"virtual", "host"};
	const char *clock;
	if (field_string(o, "model.", "clock", FIELD_OPTIONAL, &clock, err))
		return -1;
	if (!clock)
		return 0;
	for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++)
		if (!strcmp(clock, clocks[i])) {
			m->clock = xstrdup(clock);
			return 0;
		}
	return field_wrong(err, "model.", "clock", "\"virtual\" or \"host\" (the time the program read)");
}

static int read_model(const json_t *j, struct bm_report_model *m, char **err)
{
	json_t *o, *w, *c, *f;
	if (field_object(j, "", "model", FIELD_REQUIRED, &o, err) ||
	    field_dup_string(o, "model.", "id", FIELD_REQUIRED, &m->id, err))
		return -1;
	if (!(f = json_object_get(o, "frequency_hz")))
		return field_missing(err, "model.", "frequency_hz");
	m->frequency_hz = json_is_number(f) ? json_number_value(f) : 0;
	if (!isfinite(m->frequency_hz) || !(m->frequency_hz > 0))
		return field_wrong(err, "model.", "frequency_hz", "a positive finite number");
	if (field_object(o, "model.", "weights", FIELD_OPTIONAL, &w, err) ||
	    (w && (field_count(w, "model.weights.", "l1_hit", &m->l1_hit, err) ||
		   field_count(w, "model.weights.", "ll_hit", &m->ll_hit, err) ||
		   field_count(w, "model.weights.", "ram", &m->ram, err))))
		return -1;
	if (field_object(o, "model.", "cache", FIELD_OPTIONAL, &c, err) ||
	    (c && (read_geometry(c, "I1", &m->i1, err) || read_geometry(c, "D1", &m->d1, err) ||
		   read_geometry(c, "LL", &m->ll, err) ||
		   (json_object_get(c, "L2") && read_geometry(c, "L2", &m->l2, err)))))
		return -1;
	json_t *costs;
	if (field_object(o, "model.", "costs", FIELD_OPTIONAL, &costs, err))
		return -1;
	m->costs = costs ? json_deep_copy(costs) : NULL;
	json_t *warm = json_object_get(o, "warm_caches");
	if (warm && !json_is_boolean(warm) && !json_is_null(warm))
		return field_wrong(err, "model.", "warm_caches", "true or false");
	m->warm_caches = json_is_true(warm);
	return field_dup_string(o, "model.", "cpu_features", FIELD_OPTIONAL, &m->cpu_features, err) ||
	       field_dup_string(o, "model.", "cpu", FIELD_OPTIONAL, &m->cpu, err) || read_clock(o, m, err);
}

static int read_commit(const json_t *o, struct bm_commit *c, char **err)
{
	static const char at[] = "context.commit.";
	json_t *a;
	if (field_dup_string(o, at, "sha", FIELD_REQUIRED | FIELD_NONEMPTY, &c->sha, err) ||
	    field_dup_string(o, at, "timestamp", FIELD_OPTIONAL, &c->timestamp, err) ||
	    field_array(o, at, "ancestors", FIELD_OPTIONAL, &a, err))
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
		return field_missing(err, at, "number");
	if (!json_is_integer(v) || json_integer_value(v) <= 0 || json_integer_value(v) > LONG_MAX)
		return field_wrong(err, at, "number", "a positive integer");
	pr->number = (long)json_integer_value(v);
	return field_dup_string(o, at, "base_branch", FIELD_OPTIONAL, &pr->base_branch, err) ||
			       field_dup_string(o, at, "merge_base", FIELD_OPTIONAL, &pr->merge_base, err)
		       ? -1
		       : 0;
}

static int read_context(const json_t *j, struct bm_context *c, char **err)
{
	static const char at[] = "context.", pat[] = "context.platform.";
	json_t *o, *p, *commit, *pr;
	if (field_object(j, "", "context", FIELD_REQUIRED, &o, err) ||
	    field_object(o, at, "platform", FIELD_OPTIONAL, &p, err) ||
	    (p && (field_dup_string(p, pat, "compiler", FIELD_OPTIONAL, &c->compiler, err) ||
		   field_dup_string(p, pat, "os", FIELD_OPTIONAL, &c->os, err) ||
		   field_dup_string(p, pat, "arch", FIELD_OPTIONAL, &c->arch, err))) ||
	    field_dup_string(o, at, "host", FIELD_OPTIONAL, &c->host, err) ||
	    field_dup_string(o, at, "branch", FIELD_OPTIONAL, &c->branch, err) ||
	    field_object(o, at, "commit", FIELD_OPTIONAL, &commit, err) ||
	    field_object(o, at, "pr", FIELD_OPTIONAL, &pr, err))
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
	if (field_object(j, "", "binary", FIELD_OPTIONAL, &o, err) ||
	    (o && (field_dup_string(o, "binary.", "path", FIELD_OPTIONAL, &r->binary_path, err) ||
		   field_dup_string(o, "binary.", "build_id", FIELD_OPTIONAL, &r->build_id, err))))
		return -1;
	return 0;
}

/* "stdin": {"bytes": N, "sha256": HEX}, or absent (or null): none. */
static int read_stdin(const json_t *j, struct bm_report *r, char **err)
{
	json_t *o;
	const char *hex = NULL;
	if (field_object(j, "", "stdin", FIELD_OPTIONAL, &o, err))
		return -1;
	if (!o)
		return 0;
	if (field_count(o, "stdin.", "bytes", &r->stdin_bytes, err) ||
	    field_string(o, "stdin.", "sha256", FIELD_REQUIRED, &hex, err))
		return -1;
	if (strlen(hex) != 64 || hex[strspn(hex, "0123456789abcdef")])
		return field_wrong(err, "stdin.", "sha256", "64 lower-case hex digits");
	r->stdin_sha256 = xstrdup(hex);
	return 0;
}

static int read_caller(const json_t *o, const char *at, struct bm_syscall_caller *c, char **err)
{
	if (field_dup_string(o, at, "function", FIELD_REQUIRED, &c->function, err) ||
	    field_count(o, at, "calls", &c->calls, err) || field_count(o, at, "count", &c->count, err) ||
	    field_count(o, at, "wall_ns", &c->wall_ns, err) ||
	    field_count(o, at, "cpu_ns", &c->cpu_ns, err))
		return -1;
	return 0;
}

static int read_function(const json_t *o, const char *at, struct bm_syscall_function *f,
			 char **err)
{
	json_t *a, *e;
	char eat[FIELD_MAX];
	if (field_dup_string(o, at, "function", FIELD_REQUIRED, &f->function, err) ||
	    field_count(o, at, "count", &f->count, err) ||
	    field_count(o, at, "wall_ns", &f->wall_ns, err) ||
	    field_count(o, at, "cpu_ns", &f->cpu_ns, err) ||
	    field_array(o, at, "callers", FIELD_OPTIONAL, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n == 0)
		return 0;
	f->callers = xcalloc(n, sizeof *f->callers);
	f->ncallers = n;
	for (size_t i = 0; i < n; i++) {
		field_element_path(eat, at, "callers", i);
		if (field_element(a, i, at, "callers", &e, err) ||
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
	if (field_count(o, at, "count", &s->count, err) ||
	    field_count(o, at, "wall_ns", &s->wall_ns, err) ||
	    field_count(o, at, "cpu_ns", &s->cpu_ns, err) ||
	    field_array(o, at, "by_function", FIELD_REQUIRED, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n == 0)
		return 0;
	s->by_function = xcalloc(n, sizeof *s->by_function);
	s->nby_function = n;
	for (size_t i = 0; i < n; i++) {
		field_element_path(eat, at, "by_function", i);
		if (field_element(a, i, at, "by_function", &e, err) ||
		    read_function(e, eat, &s->by_function[i], err))
			return -1;
	}
	return 0;
}

int report_heap_from_json(const json_t *o, const char *at, struct bm_heap *h, char **err)
{
	if (field_count(o, at, "allocations", &h->allocations, err) ||
	    field_count(o, at, "bytes_allocated", &h->bytes_allocated, err))
		return -1;
	h->measured = 1;
	static const char *const rest[] = {"peak_bytes", "leaked_bytes", "leaked_blocks"};
	uint64_t *dst[] = {&h->peak_bytes, &h->leaked_bytes, &h->leaked_blocks};
	int given = 0;
	for (int i = 0; i < 3; i++) {
		const json_t *v = json_object_get(o, rest[i]);
		if (!v || json_is_null(v))
			continue;
		if (field_count(o, at, rest[i], dst[i], err))
			return -1;
		given++;
	}
	if (given != 0 && given != 3)
		return bm_error(err, "%speak_bytes, leaked_bytes and leaked_blocks: expected all three or none", at);
	h->has_peak = given == 3;
	static const char *const freed[] = {"frees", "bytes_freed"};
	uint64_t *to[] = {&h->frees, &h->bytes_freed};
	for (int i = 0; i < 2; i++) {
		const json_t *v = json_object_get(o, freed[i]);
		if (v && !json_is_null(v) && field_count(o, at, freed[i], to[i], err))
			return -1;
	}
	const json_t *sys = json_object_get(o, "system_bytes");
	if (sys && !json_is_null(sys)) {
		if (field_count(o, at, "system_bytes", &h->system_bytes, err))
			return -1;
		h->has_system = 1;
	}
	return 0;
}

/* What heap counts say of each other, as the bm engine counts them
 * (docs/report-format.md): a count is at most another, or (nonzero) is
 * not 0 while the other is not: bytes come in blocks.  whole: a rule of
 * a whole benchmark's counts, given with its peak and leaks; symbol mode
 * has none, and a Google Benchmark suite's counts are per iteration,
 * rounded (1 block of 1,000 bytes in 10 iterations is 0 blocks of 100
 * bytes each).  A report that breaks one was not counted so (bm-server
 * stored and charted a peak of 10^12 bytes with 10 allocated). */
static const struct heap_rule {
	struct heap_field {
		const char *name;
		size_t offset; /* in struct bm_heap */
	} a, b;
	int nonzero, whole;
	const char *why;
} heap_rules[] = {
#define COUNT(f) {#f, offsetof(struct bm_heap, f)}
	{COUNT(allocations), COUNT(bytes_allocated), 0, 0, "every block is at least 1 byte: a request of 0 counts 1"},
	{COUNT(allocations), COUNT(bytes_allocated), 1, 1, "bytes are allocated in blocks"},
	{COUNT(frees), COUNT(bytes_freed), 0, 0, "every block is at least 1 byte"},
	{COUNT(frees), COUNT(bytes_freed), 1, 1, "bytes are freed in blocks"},
	{COUNT(peak_bytes), COUNT(bytes_allocated), 0, 1,
	 "the benchmark's blocks never hold more at once than all of them"},
	{COUNT(leaked_bytes), COUNT(peak_bytes), 0, 1, "what is left allocated at the end was held at once"},
	{COUNT(leaked_blocks), COUNT(allocations), 0, 1, "only the benchmark's blocks are its leaks"},
	{COUNT(leaked_blocks), COUNT(leaked_bytes), 0, 1, "every block is at least 1 byte"},
	{COUNT(leaked_blocks), COUNT(leaked_bytes), 1, 1, "bytes are left allocated in blocks"},
#undef COUNT
};

static uint64_t heap_count(const struct bm_heap *h, size_t offset)
{
	return *(const uint64_t *)((const char *)h + offset);
}

static int check_heap(const struct bm_heap *h, const char *at, char **err)
{
	for (size_t i = 0; i < sizeof heap_rules / sizeof *heap_rules; i++) {
		const struct heap_rule *r = &heap_rules[i];
		unsigned long long a = heap_count(h, r->a.offset), b = heap_count(h, r->b.offset);
		if (r->whole && !h->has_peak)
			continue;
		if (!r->nonzero && a > b)
			return bm_error(err, "%s%s: %llu is more than %s, %llu (%s)", at, r->a.name, a, r->b.name, b,
					r->why);
		if (r->nonzero && a == 0 && b > 0)
			return bm_error(err, "%s%s: 0 with %s %llu (%s)", at, r->a.name, r->b.name, b, r->why);
	}
	return 0;
}

static int read_heap(const json_t *o, const char *bat, struct bm_heap *h, char **err)
{
	char at[FIELD_MAX];
	field_path(at, "%sheap.", bat);
	return report_heap_from_json(o, at, h, err) || check_heap(h, at, err) ? -1 : 0;
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
		if (!field_is_count(v))
			return field_wrong(err, at, name, "a non-negative integer");
		ev->v[e] = (uint64_t)json_integer_value(v);
		ev->present |= 1u << e;
	}
	return 0;
}

static int read_status(const json_t *o, const char *at, enum bm_status *st, char **err)
{
	const char *s;
	if (field_string(o, at, "status", FIELD_REQUIRED, &s, err))
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
static int read_id_parts(const json_t *o, const char *at, struct bm_result *b, char **err)
{
	struct {
		const char *key;
		char **field;
		int how;
	} parts[] = {
		{"suite", &b->suite, FIELD_OPTIONAL},
		{"name", &b->name, FIELD_REQUIRED},
		{"tag", &b->tag, FIELD_OPTIONAL},
	};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		const char *s;
		if (!json_object_get(o, parts[i].key))
			continue;
		if (field_string(o, at, parts[i].key, parts[i].how, &s, err))
			return -1;
		free(*parts[i].field);
		*parts[i].field = s ? xstrdup(s) : NULL;
	}
	return 0;
}

/* One metric of an imported benchmark: "metric", "value" and "unit" of o. */
static int read_metric(const json_t *o, const char *at, struct bm_result *b, char **err)
{
	const char *name, *unit;
	const json_t *v = json_object_get(o, "value");
	if (field_string(o, at, "metric", FIELD_REQUIRED | FIELD_NONEMPTY, &name, err) ||
	    field_string(o, at, "unit", FIELD_REQUIRED, &unit, err))
		return -1;
	if (!v)
		return field_missing(err, at, "value");
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return field_wrong(err, at, "value", "a finite number");
	benchmark_add_metric(b, name, unit, json_number_value(v));
	return 0;
}

static int read_metrics(const json_t *o, const char *at, struct bm_result *b, char **err)
{
	json_t *a, *e;
	char eat[FIELD_MAX];
	if (read_metric(o, at, b, err) || field_array(o, at, "extra_metrics", FIELD_OPTIONAL, &a, err))
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		field_element_path(eat, at, "extra_metrics", i);
		if (field_element(a, i, at, "extra_metrics", &e, err) || read_metric(e, eat, b, err))
			return -1;
	}
	return 0;
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
static int check_numbers(const struct bm_result *b, const char *at, double hz, char **err)
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

static int read_benchmark(const json_t *o, const char *at, double hz, struct bm_result *b, char **err)
{
	const char *id;
	json_t *ev, *sys, *profile, *heap;
	if (field_string(o, at, "id", FIELD_REQUIRED | FIELD_NONEMPTY, &id, err))
		return -1;
	benchmark_set_id(b, id);
	if (read_id_parts(o, at, b, err) || read_status(o, at, &b->status, err) ||
	    field_dup_string(o, at, "reason", FIELD_OPTIONAL, &b->reason, err) ||
	    field_object(o, at, "profile", FIELD_OPTIONAL, &profile, err) || (profile && profile_shape_check(profile, at, err)))
		return -1;
	b->profile = profile ? json_incref(profile) : NULL;
	const json_t *metric = json_object_get(o, "metric");
	if (metric && !json_is_null(metric))
		return b->status == BM_STATUS_OK ? read_metrics(o, at, b, err) : 0;
	if (b->status != BM_STATUS_OK)
		return 0;
	if (field_object(o, at, "events", FIELD_REQUIRED, &ev, err) || read_events(ev, at, &b->events, err) ||
	    field_count(o, at, "cycles", &b->cycles, err) ||
	    field_number(o, at, "time_s", &b->time_s, err) ||
	    field_number(o, at, "speed", &b->speed, err) ||
	    field_object(o, at, "syscalls", FIELD_OPTIONAL, &sys, err) ||
	    (sys && read_syscalls(sys, at, &b->syscalls, err)) ||
	    (json_object_get(o, "calls") && field_count(o, at, "calls", &b->calls, err)) ||
	    (json_object_get(o, "iterations") && field_count(o, at, "iterations", &b->iterations, err)) ||
	    field_dup_string(o, at, "nondeterministic", FIELD_OPTIONAL, &b->nondeterministic, err) ||
	    field_object(o, at, "heap", FIELD_OPTIONAL, &heap, err) || (heap && read_heap(heap, at, &b->heap, err)))
		return -1;
	return check_numbers(b, at, hz, err);
}

static int by_id(const void *a, const void *b)
{
	return strcmp((*(struct bm_result *const *)a)->id, (*(struct bm_result *const *)b)->id);
}

/* No id twice: results are matched by id (the server's series, bm-check's
 * rows), and a second one would be dropped or picked at random. */
static int check_unique(const struct bm_report *r, char **err)
{
	struct bm_result **sorted = xcalloc(r->nbenchmarks + 1, sizeof *sorted);
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
	if (field_array(j, "", "benchmarks", FIELD_REQUIRED, &a, err))
		return -1;
	size_t n = json_array_size(a);
	if (n)
		xgrow(&r->benchmarks, &r->benchmarks_alloc, n, sizeof *r->benchmarks);
	for (size_t i = 0; i < n; i++) {
		struct bm_result *b = report_add_benchmark(r);
		field_element_path(at, "", "benchmarks", i);
		if (field_element(a, i, "", "benchmarks", &e, err) ||
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
	    field_dup_string(j, "", "run_id", FIELD_REQUIRED, &r->run_id, err) ||
	    field_dup_string(j, "", "created_at", FIELD_REQUIRED, &r->created_at, err) ||
	    read_tool(j, r, err) || read_model(j, &r->model, err) ||
	    read_context(j, &r->context, err) || read_binary(j, r, err) || read_stdin(j, r, err) ||
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
