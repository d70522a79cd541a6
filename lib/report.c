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
 */
#include "config.h"

#include "report.h"

#include "atomic_file.h"
#include "error.h"
#include "hash.h"
#include "json_text.h"
#include "xalloc.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPORT_BYTES ((off_t)256 << 20)
#define MAX_REPORT_TEXT "256 MiB"
#define IO_CHUNK (64 * 1024)
#define DUMP_FLAGS JSON_INDENT(2)
#define FIELD_MAX 256 /* longest field path: a few keys and three indices */

static const char *const status_names[] = {
	[BM_STATUS_OK] = "ok",
	[BM_STATUS_FAILED] = "failed",
	[BM_STATUS_SKIPPED] = "skipped",
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

static void benchmark_release(struct bm_benchmark *b)
{
	free(b->id);
	free(b->suite);
	free(b->name);
	free(b->tag);
	free(b->reason);
	syscalls_release(&b->syscalls);
	json_decref(b->profile);
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
	}
	free(b->metrics);
}

static void context_release(struct bm_context *c)
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
		free(c->pr);
	}
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
	free(r->model.id);
	free(r->model.cpu_features);
	context_release(&r->context);
	free(r->binary_path);
	free(r->build_id);
	memset(r, 0, sizeof *r);
}

struct bm_benchmark *report_add_benchmark(struct bm_report *r)
{
	xgrow(&r->benchmarks, &r->benchmarks_alloc, r->nbenchmarks + 1, sizeof *r->benchmarks);
	struct bm_benchmark *b = &r->benchmarks[r->nbenchmarks++];
	memset(b, 0, sizeof *b);
	return b;
}

void benchmark_add_metric(struct bm_benchmark *b, const char *name, const char *unit, double value)
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

double benchmark_speed(const struct bm_benchmark *b)
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

void benchmark_set_id(struct bm_benchmark *b, const char *id)
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
	json_t *j = need(json_object()), *w = need(json_object());
	put(j, "id", json_text(m->id));
	put(j, "frequency_hz", jreal(m->frequency_hz));
	put(w, "l1_hit", jint(m->l1_hit));
	put(w, "ll_hit", jint(m->ll_hit));
	put(w, "ram", jint(m->ram));
	put(j, "weights", w);
	if (geometry_known(&m->i1) || geometry_known(&m->d1) || geometry_known(&m->ll)) {
		json_t *c = need(json_object());
		put(c, "I1", geometry_json(&m->i1));
		put(c, "D1", geometry_json(&m->d1));
		put(c, "LL", geometry_json(&m->ll));
		put(j, "cache", c);
	} else {
		put(j, "cache", json_null());
	}
	put(j, "cpu_features", json_text(m->cpu_features));
	put(j, "warm_caches", json_boolean(m->warm_caches));
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
		put(j, "pr", o);
	} else {
		put(j, "pr", json_null());
	}
	return j;
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
static void metrics_json(json_t *j, const struct bm_benchmark *b)
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

static json_t *benchmark_json(const struct bm_benchmark *b)
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
	put(j, "tool", tool);
	put(j, "model", model_json(&r->model));
	put(j, "context", context_json(&r->context));
	put(binary, "path", json_text(r->binary_path));
	put(binary, "build_id", json_text(r->build_id));
	put(j, "binary", binary);
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
	    dup_string(t, "tool.", "valgrind", OPTIONAL, &r->valgrind, err))
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
		   read_geometry(c, "LL", &m->ll, err))))
		return -1;
	json_t *warm = json_object_get(o, "warm_caches");
	if (warm && !json_is_boolean(warm) && !json_is_null(warm))
		return wrong(err, "model.", "warm_caches", "true or false");
	m->warm_caches = json_is_true(warm);
	return dup_string(o, "model.", "cpu_features", OPTIONAL, &m->cpu_features, err);
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
	return dup_string(o, at, "base_branch", OPTIONAL, &pr->base_branch, err);
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
	for (size_t i = 0; i < NSTATUS; i++) {
		if (strcmp(s, status_names[i]) == 0) {
			*st = (enum bm_status)i;
			return 0;
		}
	}
	return bm_error(err, "%sstatus: unknown status '%s' (expected ok, failed or skipped)", at,
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

static int read_benchmark(const json_t *o, const char *at, struct bm_benchmark *b, char **err)
{
	const char *id;
	json_t *ev, *sys, *profile;
	if (get_string(o, at, "id", REQUIRED | NONEMPTY, &id, err))
		return -1;
	benchmark_set_id(b, id);
	if (read_id_parts(o, at, b, err) || read_status(o, at, &b->status, err) ||
	    dup_string(o, at, "reason", OPTIONAL, &b->reason, err) ||
	    get_object(o, at, "profile", OPTIONAL, &profile, err))
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
	    (sys && read_syscalls(sys, at, &b->syscalls, err)))
		return -1;
	return 0;
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
		if (get_element(a, i, "", "benchmarks", &e, err) || read_benchmark(e, at, b, err))
			return -1;
	}
	return 0;
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

/* A buffered reader from a file descriptor for json_load_callback that
 * stops at MAX_REPORT_BYTES, the cap on what bm will hold of a report. */
struct source {
	int fd;
	int errnum;
	int too_big;
	off_t total;
	size_t pos, len;
	char buf[IO_CHUNK];
};

static size_t source_read(void *buffer, size_t buflen, void *data)
{
	struct source *s = data;
	if (s->pos == s->len) {
		ssize_t n;
		do
			n = read(s->fd, s->buf, sizeof s->buf);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			s->errnum = errno;
			return (size_t)-1;
		}
		s->total += n;
		if (s->total > MAX_REPORT_BYTES) {
			s->too_big = 1;
			return (size_t)-1;
		}
		s->pos = 0;
		s->len = (size_t)n;
	}
	size_t k = s->len - s->pos < buflen ? s->len - s->pos : buflen;
	memcpy(buffer, s->buf + s->pos, k);
	s->pos += k;
	return k;
}

int report_read_file(const char *path, struct bm_report *r, char **err)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	struct stat st;
	json_error_t je;
	memset(r, 0, sizeof *r);

	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bm_error(err, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > MAX_REPORT_BYTES) {
		if (!is_stdin)
			close(fd);
		return bm_error(err, "'%s' is larger than " MAX_REPORT_TEXT, name);
	}
	struct source *s = xcalloc(1, sizeof *s);
	s->fd = fd;
	json_t *j = json_load_callback(source_read, s, JSON_REJECT_DUPLICATES, &je);
	if (!is_stdin)
		close(fd);
	int too_big = s->too_big, errnum = s->errnum;
	free(s);
	if (!j) {
		if (too_big)
			return bm_error(err, "'%s' is larger than " MAX_REPORT_TEXT, name);
		if (errnum)
			return bm_error(err, "cannot read '%s': %s", name, strerror(errnum));
		return bm_error(err, "%s:%d:%d: %s", name, je.line, je.column, je.text);
	}
	int rc = report_from_json(j, r, err);
	json_decref(j);
	if (rc)
		bm_error_prefix(err, name);
	return rc;
}

/* Identity and time ---------------------------------------------------- */

static void random_bytes(unsigned char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = getrandom(buf + got, n - got, 0);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += (size_t)k;
	}
	if (got == n)
		return;
	/* No getrandom (a kernel before 3.17): unique rather than secret, which
	 * is all a run id needs. */
	static uint64_t counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	x ^= (uint64_t)getpid() << 40 ^ __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) << 20;
	for (; got < n; got++) {
		x += 0x9e3779b97f4a7c15ull;
		buf[got] = (unsigned char)(hash_mix64(x) >> 56);
	}
}

char *report_new_uuid(void)
{
	unsigned char b[16];
	random_bytes(b, sizeof b);
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* the RFC 4122 variant */
	return xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			 b[12], b[13], b[14], b[15]);
}

char *report_format_rfc3339(char buf[REPORT_TIME_SIZE], time_t t)
{
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, REPORT_TIME_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm))
		strcpy(buf, "1970-01-01T00:00:00Z"); /* a time beyond year 9999 */
	return buf;
}

char *report_now_rfc3339(void)
{
	char buf[REPORT_TIME_SIZE];
	return xstrdup(report_format_rfc3339(buf, time(NULL)));
}
