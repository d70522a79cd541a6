/* SPDX-License-Identifier: MIT */
/* The report in memory and as JSON; the contract is in report.h.
 *
 * Notes
 * -----
 * - Counts are JSON integers, which Jansson holds as signed 64 bits, so a
 *   count must be below 2^63.  The reader never meets a larger one (Jansson
 *   rejects such text as a "too big integer"); the writer asserts it, since
 *   no counter bm collects comes near and a wrapped value would be a lie.
 * - The reader is the boundary: it validates everything once and reports
 *   the first problem with the field's path ("benchmarks[2].cycles").
 *   Required are the fields of SPEC 5 that every report needs; the other
 *   containers are optional, but one that is present must hold every member
 *   the writer always writes.  Fields it does not know are ignored, so that
 *   later writers of bm-report/1 can add fields.
 * - The numbers of a benchmark that did not run ok are written as null
 *   ("events" as {}) and ignored on reading: they mean nothing.
 * - JSON text is UTF-8, but symbol names and paths come from outside; every
 *   string goes through json_text, which replaces each bad byte by U+FFFD
 *   rather than dropping the string or failing the whole report.
 * - An imported benchmark (bm-import) carries "metric", "value" and "unit"
 *   (and maybe "extra_metrics") instead of simulated numbers, which are
 *   then written as for a failed one.  The reader takes a non-null
 *   "metric" as the sign of such a benchmark and then requires the metric
 *   rather than events and cycles; every other report reads as before.
 * - A benchmark id is split into suite, name and tag as report.h says.  The
 *   tag is taken off first, so that a "::" inside it ("sort[std::vector]")
 *   is not mistaken for the suite separator.
 * - The reader is report_read.c.
 */
#include "config.h"

#include "report.h"

#include "atomic_file.h"
#include "error.h"
#include "json_text.h"
#include "xalloc.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DUMP_FLAGS JSON_INDENT(2)

static const char *const status_names[] = {
	[BM_STATUS_OK] = "ok",
	[BM_STATUS_FAILED] = "failed",
	[BM_STATUS_SKIPPED] = "skipped",
	[BM_STATUS_NOT_RUN] = "not-run",
};
#define NSTATUS (sizeof status_names / sizeof *status_names)

const char *report_status_name(enum bm_status status)
{
	return status_names[status];
}

/* Lifecycle ------------------------------------------------------------ */

void report_init(struct bm_report *r)
{
	memset(r, 0, sizeof *r);
	r->run_id = report_new_uuid();
	r->created_at = report_now_rfc3339();
}

void syscalls_release(struct bm_syscalls *s)
{
	for (size_t i = 0; i < s->nby_function; i++) {
		struct bm_syscall_function *f = &s->by_function[i];
		for (size_t k = 0; k < f->ncallers; k++)
			free(f->callers[k].function);
		free(f->callers);
		free(f->function);
	}
	free(s->by_function);
	memset(s, 0, sizeof *s);
}

static void benchmark_release(struct bm_result *b)
{
	free(b->id);
	free(b->suite);
	free(b->name);
	free(b->tag);
	free(b->reason);
	free(b->nondeterministic);
	syscalls_release(&b->syscalls);
	json_decref(b->profile);
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
	}
	free(b->metrics);
}

void report_context_release(struct bm_context *c)
{
	free(c->compiler);
	free(c->os);
	free(c->arch);
	free(c->host);
	free(c->branch);
	if (c->commit) {
		for (size_t i = 0; i < c->commit->nancestors; i++)
			free(c->commit->ancestors[i]);
		free(c->commit->ancestors);
		free(c->commit->sha);
		free(c->commit->timestamp);
		free(c->commit);
	}
	if (c->pr) {
		free(c->pr->base_branch);
		free(c->pr->merge_base);
		free(c->pr);
	}
	memset(c, 0, sizeof *c);
}

void report_release(struct bm_report *r)
{
	for (size_t i = 0; i < r->nbenchmarks; i++)
		benchmark_release(&r->benchmarks[i]);
	free(r->benchmarks);
	free(r->run_id);
	free(r->created_at);
	free(r->tool_name);
	free(r->tool_version);
	free(r->valgrind);
	free(r->engine);
	free(r->model.id);
	free(r->model.cpu_features);
	free(r->model.cpu);
	free(r->model.clock);
	json_decref(r->model.costs);
	report_context_release(&r->context);
	free(r->binary_path);
	free(r->build_id);
	free(r->stdin_sha256);
	memset(r, 0, sizeof *r);
}

struct bm_result *report_add_benchmark(struct bm_report *r)
{
	xgrow(&r->benchmarks, &r->benchmarks_alloc, r->nbenchmarks + 1, sizeof *r->benchmarks);
	struct bm_result *b = &r->benchmarks[r->nbenchmarks++];
	memset(b, 0, sizeof *b);
	return b;
}

void benchmark_add_metric(struct bm_result *b, const char *name, const char *unit, double value)
{
	assert(isfinite(value));
	b->metrics = xreallocarray(b->metrics, b->nmetrics + 1, sizeof *b->metrics);
	b->metrics[b->nmetrics++] = (struct bm_metric){xstrdup(name), xstrdup(unit), value};
}

int metric_unit_is_rate(const char *unit)
{
	size_t n = strlen(unit);
	return (n >= 2 && !strcmp(unit + n - 2, "/s")) || !strcmp(unit, "Hz") || !strcmp(unit, "fps");
}

double benchmark_speed(const struct bm_result *b)
{
	if (b->status != BM_STATUS_OK)
		return 0;
	if (b->nmetrics == 0)
		return b->speed;
	double v = b->metrics[0].value;
	if (!(v > 0))
		return 0;
	double speed = metric_unit_is_rate(b->metrics[0].unit) ? v : 1 / v;
	return isfinite(speed) ? speed : 0;
}

/* Where the tag of id (of length len) begins: the index of the '[' that
 * matches a final ']', or len when there is no tag.  A '[' at the very
 * start names nothing, so it does not open a tag. */
static size_t tag_start(const char *id, size_t len)
{
	if (len < 2 || id[len - 1] != ']')
		return len;
	size_t depth = 0;
	for (size_t i = len; i-- > 0;) {
		if (id[i] == ']')
			depth++;
		else if (id[i] == '[' && --depth == 0)
			return i > 0 ? i : len;
	}
	return len;
}

void benchmark_set_id(struct bm_result *b, const char *id)
{
	char *copy = xstrdup(id); /* id may be b->id itself */
	free(b->id);
	free(b->suite);
	free(b->name);
	free(b->tag);
	b->id = copy;
	b->suite = b->tag = NULL;

	size_t len = strlen(copy), end = tag_start(copy, len);
	if (end < len)
		b->tag = xstrndup(copy + end + 1, len - end - 2);
	const char *sep = memmem(copy, end, "::", 2);
	if (sep) {
		size_t slen = (size_t)(sep - copy);
		b->suite = xstrndup(copy, slen);
		b->name = xstrndup(sep + 2, end - slen - 2);
	} else {
		b->name = xstrndup(copy, end);
	}
}

/* Writing -------------------------------------------------------------- */

/* Jansson returns NULL when it cannot allocate; like xalloc, bm treats
 * running out of memory as the one unrecoverable condition. */
static void out_of_memory(void)
{
	static const char msg[] = "bm: out of memory\n";
	if (write(2, msg, sizeof msg - 1) < 0) {
		/* nothing more can be done */
	}
	_exit(2);
}

static json_t *need(json_t *j)
{
	if (!j)
		out_of_memory();
	return j;
}

static void put(json_t *object, const char *key, json_t *value)
{
	if (json_object_set_new(object, key, need(value)) != 0)
		out_of_memory();
}

static void append(json_t *array, json_t *value)
{
	if (json_array_append_new(array, need(value)) != 0)
		out_of_memory();
}

static json_t *jint(uint64_t v)
{
	assert(v <= INT64_MAX && "counts in a report must be below 2^63");
	return json_integer((json_int_t)v);
}

static json_t *jreal(double x)
{
	assert(isfinite(x) && "numbers in a report must be finite");
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *geometry_json(const struct bm_cache_geometry *g)
{
	json_t *a = need(json_array());
	append(a, jint(g->size));
	append(a, jint(g->assoc));
	append(a, jint(g->line));
	return a;
}

static int geometry_known(const struct bm_cache_geometry *g)
{
	return g->size || g->assoc || g->line;
}

static json_t *model_json(const struct bm_report_model *m)
{
	json_t *j = need(json_object());
	put(j, "id", json_text(m->id));
	put(j, "frequency_hz", jreal(m->frequency_hz));
	if (m->costs) { /* bm-model/2's */
		put(j, "costs", json_incref(m->costs));
	} else {
		json_t *w = need(json_object());
		put(w, "l1_hit", jint(m->l1_hit));
		put(w, "ll_hit", jint(m->ll_hit));
		put(w, "ram", jint(m->ram));
		put(j, "weights", w);
	}
	if (geometry_known(&m->i1) || geometry_known(&m->d1) || geometry_known(&m->ll)) {
		json_t *c = need(json_object());
		put(c, "I1", geometry_json(&m->i1));
		put(c, "D1", geometry_json(&m->d1));
		if (geometry_known(&m->l2))
			put(c, "L2", geometry_json(&m->l2));
		put(c, "LL", geometry_json(&m->ll));
		put(j, "cache", c);
	} else {
		put(j, "cache", json_null());
	}
	put(j, "cpu_features", json_text(m->cpu_features));
	put(j, "cpu", json_text(m->cpu));
	put(j, "warm_caches", json_boolean(m->warm_caches));
	if (m->clock)
		put(j, "clock", json_text(m->clock));
	return j;
}

static json_t *context_json(const struct bm_context *c)
{
	json_t *j = need(json_object()), *p = need(json_object());
	put(p, "compiler", json_text(c->compiler));
	put(p, "os", json_text(c->os));
	put(p, "arch", json_text(c->arch));
	put(j, "platform", p);
	put(j, "host", json_text(c->host));
	report_context_put_vcs(j, c);
	return j;
}

void report_context_put_vcs(json_t *j, const struct bm_context *c)
{
	put(j, "branch", json_text(c->branch));
	if (c->commit) {
		json_t *o = need(json_object()), *a = need(json_array());
		put(o, "sha", json_text(c->commit->sha));
		put(o, "timestamp", json_text(c->commit->timestamp));
		for (size_t i = 0; i < c->commit->nancestors; i++)
			append(a, json_text(c->commit->ancestors[i]));
		put(o, "ancestors", a);
		put(j, "commit", o);
	} else {
		put(j, "commit", json_null());
	}
	if (c->pr) {
		json_t *o = need(json_object());
		put(o, "number", json_integer(c->pr->number));
		put(o, "base_branch", json_text(c->pr->base_branch));
		if (c->pr->merge_base)
			put(o, "merge_base", json_text(c->pr->merge_base));
		put(j, "pr", o);
	} else {
		put(j, "pr", json_null());
	}
}

json_t *syscalls_to_json(const struct bm_syscalls *s)
{
	json_t *j = need(json_object()), *by = need(json_array());
	put(j, "count", jint(s->count));
	put(j, "wall_ns", jint(s->wall_ns));
	put(j, "cpu_ns", jint(s->cpu_ns));
	for (size_t i = 0; i < s->nby_function; i++) {
		const struct bm_syscall_function *f = &s->by_function[i];
		json_t *fj = need(json_object()), *callers = need(json_array());
		put(fj, "function", json_text(f->function));
		put(fj, "count", jint(f->count));
		put(fj, "wall_ns", jint(f->wall_ns));
		put(fj, "cpu_ns", jint(f->cpu_ns));
		for (size_t k = 0; k < f->ncallers; k++) {
			const struct bm_syscall_caller *c = &f->callers[k];
			json_t *cj = need(json_object());
			put(cj, "function", json_text(c->function));
			put(cj, "calls", jint(c->calls));
			put(cj, "count", jint(c->count));
			put(cj, "wall_ns", jint(c->wall_ns));
			put(cj, "cpu_ns", jint(c->cpu_ns));
			append(callers, cj);
		}
		put(fj, "callers", callers);
		append(by, fj);
	}
	put(j, "by_function", by);
	return j;
}

static json_t *metric_json(const struct bm_metric *m)
{
	json_t *j = need(json_object());
	put(j, "metric", json_text(m->name));
	put(j, "value", jreal(m->value));
	put(j, "unit", json_text(m->unit));
	return j;
}

/* The metrics of an imported benchmark into its object j. */
static void metrics_json(json_t *j, const struct bm_result *b)
{
	put(j, "metric", json_text(b->metrics[0].name));
	put(j, "value", jreal(b->metrics[0].value));
	put(j, "unit", json_text(b->metrics[0].unit));
	if (b->nmetrics < 2)
		return;
	json_t *extra = need(json_array());
	for (size_t i = 1; i < b->nmetrics; i++)
		append(extra, metric_json(&b->metrics[i]));
	put(j, "extra_metrics", extra);
}

static json_t *heap_json(const struct bm_heap *h)
{
	json_t *j = need(json_object());
	put(j, "allocations", jint(h->allocations));
	put(j, "bytes_allocated", jint(h->bytes_allocated));
	put(j, "peak_bytes", h->has_peak ? jint(h->peak_bytes) : json_null());
	put(j, "leaked_bytes", h->has_peak ? jint(h->leaked_bytes) : json_null());
	put(j, "leaked_blocks", h->has_peak ? jint(h->leaked_blocks) : json_null());
	put(j, "frees", h->has_peak ? jint(h->frees) : json_null());
	put(j, "bytes_freed", h->has_peak ? jint(h->bytes_freed) : json_null());
	put(j, "system_bytes", h->has_system ? jint(h->system_bytes) : json_null());
	return j;
}

static json_t *benchmark_json(const struct bm_result *b)
{
	json_t *j = need(json_object()), *ev = need(json_object());
	int imported = b->nmetrics > 0, ok = b->status == BM_STATUS_OK && !imported;
	assert((size_t)b->status < NSTATUS);
	put(j, "id", json_text(b->id));
	put(j, "suite", json_text(b->suite));
	put(j, "name", json_text(b->name));
	put(j, "tag", json_text(b->tag));
	put(j, "status", json_text(status_names[b->status]));
	put(j, "reason", json_text(b->reason));
	for (int e = 0; ok && e < BM_EV_COUNT; e++)
		if (events_has(&b->events, (enum bm_event)e))
			put(ev, events_name((enum bm_event)e), jint(b->events.v[e]));
	put(j, "events", ev);
	put(j, "cycles", ok ? jint(b->cycles) : json_null());
	put(j, "time_s", ok ? jreal(b->time_s) : json_null());
	put(j, "speed", ok ? jreal(b->speed) : json_null());
	put(j, "syscalls", ok ? syscalls_to_json(&b->syscalls) : json_null());
	if (ok && b->calls) {
		put(j, "calls", jint(b->calls));
		put(j, "cycles_per_call", jreal((double)b->cycles / (double)b->calls));
		put(j, "speed_per_call", jreal(b->speed * (double)b->calls));
	}
	if (ok && b->iterations)
		put(j, "iterations", jint(b->iterations));
	if (ok && b->heap.measured)
		put(j, "heap", heap_json(&b->heap));
	if (ok && b->nondeterministic)
		put(j, "nondeterministic", json_text(b->nondeterministic));
	put(j, "profile", b->profile ? json_incref(b->profile) : json_null());
	if (imported)
		metrics_json(j, b);
	return j;
}

json_t *report_to_json(const struct bm_report *r)
{
	json_t *j = need(json_object()), *tool = need(json_object());
	json_t *binary = need(json_object()), *benchmarks = need(json_array());
	put(j, "schema", json_text(REPORT_SCHEMA));
	put(j, "run_id", json_text(r->run_id));
	put(j, "created_at", json_text(r->created_at));
	put(tool, "name", json_text(r->tool_name));
	put(tool, "version", json_text(r->tool_version));
	put(tool, "valgrind", json_text(r->valgrind));
	put(tool, "engine", json_text(r->engine));
	put(j, "tool", tool);
	put(j, "model", model_json(&r->model));
	put(j, "context", context_json(&r->context));
	put(binary, "path", json_text(r->binary_path));
	put(binary, "build_id", json_text(r->build_id));
	put(j, "binary", binary);
	if (r->stdin_sha256) {
		json_t *in = need(json_object());
		put(in, "bytes", jint(r->stdin_bytes));
		put(in, "sha256", json_text(r->stdin_sha256));
		put(j, "stdin", in);
	}
	for (size_t i = 0; i < r->nbenchmarks; i++)
		append(benchmarks, benchmark_json(&r->benchmarks[i]));
	put(j, "benchmarks", benchmarks);
	return j;
}

int report_write_to(const struct bm_report *r, struct atomic_file *af, char **err)
{
	json_t *j = report_to_json(r);
	FILE *f = atomic_file_stream(af);
	/* A failed write leaves the stream in error, which the commit reports
	 * with its errno; Jansson itself fails only when it cannot allocate. */
	int failed = json_dumpf(j, f, DUMP_FLAGS) != 0 && !ferror(f);
	json_decref(j);
	if (failed) {
		atomic_file_abort(af);
		return bm_error(err, "cannot write the report: %s", strerror(ENOMEM));
	}
	putc('\n', f);
	return atomic_file_commit(af, err);
}

int report_write_file(const struct bm_report *r, const char *path, char **err)
{
	struct atomic_file *af = atomic_file_open(path, err);
	return af ? report_write_to(r, af, err) : -1;
}
