/* SPDX-License-Identifier: MIT */
/* The report module: a full round trip through a file, the splitting of
 * benchmark ids, the layout of what is written, and every class of invalid
 * report with its exact message. */
#include "config.h"

#include "report.h"
#include "unit.h"
#include "xalloc.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/bm-test-report.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Removes dir and what the tests left in it (files and empty folders). */
static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (unlink(path) != 0)
			rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static char *in_dir(const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* How many entries dir holds besides "." and "..". */
static int dir_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void set_events(struct bm_events *e, const enum bm_event *which, size_t n, uint64_t base)
{
	for (size_t i = 0; i < n; i++) {
		e->v[which[i]] = base + i;
		e->present |= 1u << which[i];
	}
}

/* A report that uses every field: one benchmark ok, one failed. */
static void build(struct bm_report *r)
{
	static const enum bm_event evs[] = {BM_EV_IR,   BM_EV_DR,       BM_EV_DW,
					    BM_EV_I1MR, BM_EV_D1MR,     BM_EV_D1MW,
					    BM_EV_ILMR, BM_EV_DLMR,     BM_EV_DLMW,
					    BM_EV_SYSCOUNT, BM_EV_SYSTIME, BM_EV_SYSCPUTIME};
	report_init(r);
	r->tool_name = strdup("bm-run");
	r->tool_version = strdup("0.1.0");
	r->valgrind = strdup("3.19.0");
	r->model.id = strdup("bm-model/1");
	r->model.frequency_hz = 3.0e9;
	r->model.l1_hit = 1;
	r->model.ll_hit = 5;
	r->model.ram = 35;
	r->model.i1 = (struct bm_cache_geometry){32768, 8, 64};
	r->model.d1 = (struct bm_cache_geometry){32768, 8, 64};
	r->model.ll = (struct bm_cache_geometry){8388608, 16, 64};
	r->context.compiler = strdup("gcc 12.2.0");
	r->context.os = strdup("Linux 6.1");
	r->context.arch = strdup("x86_64");
	r->context.host = strdup("ci-7");
	r->context.branch = strdup("main");
	r->context.commit = calloc(1, sizeof *r->context.commit);
	r->context.commit->sha = strdup("0123456789abcdef0123456789abcdef01234567");
	r->context.commit->timestamp = strdup("2026-11-21T09:30:00Z");
	r->context.commit->nancestors = 2;
	r->context.commit->ancestors = calloc(2, sizeof(char *));
	r->context.commit->ancestors[0] = strdup("aaaa");
	r->context.commit->ancestors[1] = strdup("bbbb");
	r->context.pr = calloc(1, sizeof *r->context.pr);
	r->context.pr->number = 42;
	r->context.pr->base_branch = strdup("main");
	r->binary_path = strdup("/build/bench/bench_sort");
	r->build_id = strdup("5f2b0c1d");

	struct bm_result *b = report_add_benchmark(r);
	benchmark_set_id(b, "sort::quicksort[n=1000]");
	b->status = BM_STATUS_OK;
	set_events(&b->events, evs, sizeof evs / sizeof *evs, 1000);
	b->cycles = 123456789;
	b->time_s = 123456789 / 3.0e9;
	b->speed = 3.0e9 / 123456789;
	b->syscalls.count = 7;
	b->syscalls.wall_ns = 900000;
	b->syscalls.cpu_ns = 4000;
	b->syscalls.nby_function = 2;
	b->syscalls.by_function = calloc(2, sizeof *b->syscalls.by_function);
	struct bm_syscall_function *f = &b->syscalls.by_function[0];
	f->function = strdup("read");
	f->count = 5;
	f->wall_ns = 800000;
	f->cpu_ns = 3000;
	f->ncallers = 2;
	f->callers = calloc(2, sizeof *f->callers);
	f->callers[0] = (struct bm_syscall_caller){strdup("load_input"), 3, 3, 600000, 2000};
	f->callers[1] = (struct bm_syscall_caller){strdup("main"), 2, 2, 200000, 1000};
	f = &b->syscalls.by_function[1];
	f->function = strdup("nanosleep");
	f->count = 2;
	f->wall_ns = 100000;
	f->cpu_ns = 1000;
	b->profile = json_pack("{s:s, s:[{s:s, s:I}]}", "root", "main", "children", "name",
			       "quicksort", "self", (json_int_t)99);
	ck_assert_ptr_nonnull(b->profile);

	b = report_add_benchmark(r);
	benchmark_set_id(b, "sort::mergesort");
	b->status = BM_STATUS_FAILED;
	b->reason = strdup("exited with status 1");
}

static void eq_str(const char *a, const char *b)
{
	if (!a || !b)
		ck_assert_ptr_eq(a, b);
	else
		ck_assert_str_eq(a, b);
}

static void eq_geometry(const struct bm_cache_geometry *a, const struct bm_cache_geometry *b)
{
	ck_assert_uint_eq(a->size, b->size);
	ck_assert_uint_eq(a->assoc, b->assoc);
	ck_assert_uint_eq(a->line, b->line);
}

static void eq_syscalls(const struct bm_syscalls *a, const struct bm_syscalls *b)
{
	ck_assert_uint_eq(a->count, b->count);
	ck_assert_uint_eq(a->wall_ns, b->wall_ns);
	ck_assert_uint_eq(a->cpu_ns, b->cpu_ns);
	ck_assert_uint_eq(a->nby_function, b->nby_function);
	for (size_t i = 0; i < a->nby_function; i++) {
		const struct bm_syscall_function *f = &a->by_function[i], *g = &b->by_function[i];
		eq_str(f->function, g->function);
		ck_assert_uint_eq(f->count, g->count);
		ck_assert_uint_eq(f->wall_ns, g->wall_ns);
		ck_assert_uint_eq(f->cpu_ns, g->cpu_ns);
		ck_assert_uint_eq(f->ncallers, g->ncallers);
		for (size_t k = 0; k < f->ncallers; k++) {
			eq_str(f->callers[k].function, g->callers[k].function);
			ck_assert_uint_eq(f->callers[k].calls, g->callers[k].calls);
			ck_assert_uint_eq(f->callers[k].count, g->callers[k].count);
			ck_assert_uint_eq(f->callers[k].wall_ns, g->callers[k].wall_ns);
			ck_assert_uint_eq(f->callers[k].cpu_ns, g->callers[k].cpu_ns);
		}
	}
}

static void eq_benchmark(const struct bm_result *a, const struct bm_result *b)
{
	eq_str(a->id, b->id);
	eq_str(a->suite, b->suite);
	eq_str(a->name, b->name);
	eq_str(a->tag, b->tag);
	ck_assert_int_eq(a->status, b->status);
	eq_str(a->reason, b->reason);
	ck_assert_uint_eq(a->events.present, b->events.present);
	for (int e = 0; e < BM_EV_COUNT; e++)
		if (events_has(&a->events, (enum bm_event)e))
			ck_assert_uint_eq(a->events.v[e], b->events.v[e]);
	ck_assert_uint_eq(a->cycles, b->cycles);
	ck_assert(a->time_s == b->time_s);
	ck_assert(a->speed == b->speed);
	eq_syscalls(&a->syscalls, &b->syscalls);
	if (!a->profile || !b->profile)
		ck_assert_ptr_eq(a->profile, b->profile);
	else
		ck_assert(json_equal(a->profile, b->profile));
}

static void eq_report(const struct bm_report *a, const struct bm_report *b)
{
	eq_str(a->run_id, b->run_id);
	eq_str(a->created_at, b->created_at);
	eq_str(a->tool_name, b->tool_name);
	eq_str(a->tool_version, b->tool_version);
	eq_str(a->valgrind, b->valgrind);
	eq_str(a->model.id, b->model.id);
	ck_assert(a->model.frequency_hz == b->model.frequency_hz);
	ck_assert_uint_eq(a->model.l1_hit, b->model.l1_hit);
	ck_assert_uint_eq(a->model.ll_hit, b->model.ll_hit);
	ck_assert_uint_eq(a->model.ram, b->model.ram);
	eq_geometry(&a->model.i1, &b->model.i1);
	eq_geometry(&a->model.d1, &b->model.d1);
	eq_geometry(&a->model.ll, &b->model.ll);
	eq_str(a->context.compiler, b->context.compiler);
	eq_str(a->context.os, b->context.os);
	eq_str(a->context.arch, b->context.arch);
	eq_str(a->context.host, b->context.host);
	eq_str(a->context.branch, b->context.branch);
	ck_assert_int_eq(!a->context.commit, !b->context.commit);
	if (a->context.commit) {
		const struct bm_commit *c = a->context.commit, *d = b->context.commit;
		eq_str(c->sha, d->sha);
		eq_str(c->timestamp, d->timestamp);
		ck_assert_uint_eq(c->nancestors, d->nancestors);
		for (size_t i = 0; i < c->nancestors; i++)
			eq_str(c->ancestors[i], d->ancestors[i]);
	}
	ck_assert_int_eq(!a->context.pr, !b->context.pr);
	if (a->context.pr) {
		ck_assert_int_eq(a->context.pr->number, b->context.pr->number);
		eq_str(a->context.pr->base_branch, b->context.pr->base_branch);
	}
	eq_str(a->binary_path, b->binary_path);
	eq_str(a->build_id, b->build_id);
	ck_assert_uint_eq(a->nbenchmarks, b->nbenchmarks);
	for (size_t i = 0; i < a->nbenchmarks; i++)
		eq_benchmark(&a->benchmarks[i], &b->benchmarks[i]);
}

static void assert_empty(const struct bm_report *r)
{
	static const struct bm_report zero;
	ck_assert(memcmp(r, &zero, sizeof zero) == 0);
}

START_TEST(init_gives_a_v4_uuid_and_utc_time)
{
	struct bm_report r;
	report_init(&r);
	const char *u = r.run_id;
	ck_assert_uint_eq(strlen(u), 36);
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			ck_assert_int_eq(u[i], '-');
		else
			ck_assert_ptr_nonnull(strchr("0123456789abcdef", u[i]));
	}
	ck_assert_int_eq(u[14], '4');
	ck_assert_ptr_nonnull(strchr("89ab", u[19]));
	const char *t = r.created_at;
	ck_assert_uint_eq(strlen(t), 20);
	ck_assert(t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' && t[16] == ':');
	ck_assert_int_eq(t[19], 'Z');
	ck_assert_uint_eq(r.nbenchmarks, 0);

	char *other = report_new_uuid();
	ck_assert_str_ne(other, u);
	free(other);
	report_release(&r);
	assert_empty(&r);
}
END_TEST

START_TEST(a_full_report_survives_a_round_trip)
{
	struct bm_report a, b;
	char *err = NULL, *path = in_dir("report.json");
	build(&a);
	ck_assert_int_eq(report_write_file(&a, path, &err), 0);
	ck_assert_int_eq(dir_entries(), 1); /* no temporary left beside it */
	ck_assert_msg(report_read_file(path, &b, &err) == 0, "%s", err);
	eq_report(&a, &b);
	ck_assert_str_eq(b.benchmarks[0].suite, "sort");
	ck_assert_str_eq(b.benchmarks[0].tag, "n=1000");
	ck_assert_uint_eq(b.benchmarks[0].events.v[BM_EV_SYSCPUTIME], 1011);
	report_release(&a);
	report_release(&b);
	assert_empty(&b);
	free(path);
}
END_TEST

START_TEST(the_written_json_has_the_spec_layout)
{
	struct bm_report r;
	char *err = NULL, *path = in_dir("layout.json");
	build(&r);
	ck_assert_int_eq(report_write_file(&r, path, &err), 0);
	const char *text = slurp(path);
	ck_assert_msg(strncmp(text, "{\n  \"schema\": \"bm-report/1\",\n  \"run_id\": ", 41) == 0,
		      "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\"schema\": \"bm-report/1\""));
	ck_assert_int_eq(text[strlen(text) - 1], '\n');
	ck_assert_int_eq(text[strlen(text) - 2], '}');

	/* The order of keys is SPEC 5's. */
	static const char *const order[] = {
		"\"schema\"",	"\"run_id\"",  "\"created_at\"", "\"tool\"",	   "\"valgrind\"",
		"\"model\"",	"\"weights\"", "\"cache\"",	 "\"I1\"",	   "\"D1\"",
		"\"LL\"",	"\"context\"", "\"platform\"",	 "\"host\"",	   "\"branch\"",
		"\"commit\"",	"\"pr\"",      "\"binary\"",	 "\"benchmarks\"", "\"id\"",
		"\"suite\"",	"\"status\"",  "\"reason\"",	 "\"events\"",	   "\"cycles\"",
		"\"time_s\"",	"\"speed\"",   "\"syscalls\"",	 "\"by_function\"", "\"callers\"",
		"\"profile\"",
	};
	const char *at = text;
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		const char *p = strstr(at, order[i]);
		ck_assert_msg(p != NULL, "%s missing or out of order", order[i]);
		at = p;
	}

	json_t *j = report_to_json(&r);
	json_t *ev = json_object_get(json_array_get(json_object_get(j, "benchmarks"), 0), "events");
	ck_assert_uint_eq(json_object_size(ev), 12);
	ck_assert(json_is_integer(json_object_get(ev, "sysCount")));
	ck_assert_ptr_null(json_object_get(ev, "Bc")); /* not collected, so not written */
	ck_assert(json_is_real(json_object_get(json_object_get(j, "model"), "frequency_hz")));
	json_decref(j);

	/* Unknown geometry is null, not three zero triples. */
	memset(&r.model.i1, 0, 3 * sizeof r.model.i1);
	j = report_to_json(&r);
	ck_assert(json_is_null(json_object_get(json_object_get(j, "model"), "cache")));
	json_decref(j);
	report_release(&r);
	free(path);
}
END_TEST

START_TEST(a_failed_benchmark_carries_no_numbers)
{
	struct bm_report r, back;
	char *err = NULL;
	build(&r);
	struct bm_result *b = &r.benchmarks[1];
	/* Leftovers from a partial measurement must not leak into the JSON. */
	b->events.v[BM_EV_IR] = 5;
	b->events.present = 1u << BM_EV_IR;
	b->cycles = 5;
	b->time_s = 1.0;
	b->speed = 1.0;
	b->syscalls.count = 3;
	json_t *j = report_to_json(&r);
	json_t *bj = json_array_get(json_object_get(j, "benchmarks"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(bj, "status")), "failed");
	ck_assert_str_eq(json_string_value(json_object_get(bj, "reason")), "exited with status 1");
	ck_assert(json_is_object(json_object_get(bj, "events")));
	ck_assert_uint_eq(json_object_size(json_object_get(bj, "events")), 0);
	ck_assert(json_is_null(json_object_get(bj, "cycles")));
	ck_assert(json_is_null(json_object_get(bj, "time_s")));
	ck_assert(json_is_null(json_object_get(bj, "speed")));
	ck_assert(json_is_null(json_object_get(bj, "syscalls")));
	ck_assert(json_is_null(json_object_get(bj, "profile")));

	ck_assert_msg(report_from_json(j, &back, &err) == 0, "%s", err);
	b = &back.benchmarks[1];
	ck_assert_int_eq(b->status, BM_STATUS_FAILED);
	ck_assert_str_eq(b->reason, "exited with status 1");
	ck_assert_uint_eq(b->events.present, 0);
	ck_assert_uint_eq(b->cycles, 0);
	ck_assert(b->time_s == 0 && b->speed == 0);
	ck_assert_uint_eq(b->syscalls.count, 0);
	ck_assert_ptr_null(b->profile);
	json_decref(j);
	report_release(&r);
	report_release(&back);
}
END_TEST

static void check_id(const char *id, const char *suite, const char *name, const char *tag)
{
	struct bm_result b = {0};
	benchmark_set_id(&b, id);
	ck_assert_str_eq(b.id, id);
	eq_str(b.suite, suite);
	ck_assert_str_eq(b.name, name);
	eq_str(b.tag, tag);
	benchmark_set_id(&b, b.id); /* setting it again, even from itself, replaces it all */
	ck_assert_str_eq(b.id, id);
	eq_str(b.suite, suite);
	ck_assert_str_eq(b.name, name);
	eq_str(b.tag, tag);
	free(b.id);
	free(b.suite);
	free(b.name);
	free(b.tag);
}

START_TEST(syscalls_release_frees_and_zeroes)
{
	struct bm_report r;
	static const struct bm_syscalls zero;
	build(&r);
	struct bm_syscalls *s = &r.benchmarks[0].syscalls;
	syscalls_release(s);
	ck_assert(memcmp(s, &zero, sizeof zero) == 0);
	syscalls_release(s); /* released twice: nothing left to free */
	report_release(&r);
}
END_TEST

START_TEST(benchmark_ids_split_into_suite_name_and_tag)
{
	check_id("s::n[t]", "s", "n", "t");
	check_id("n", NULL, "n", NULL);
	check_id("a::b::c", "a", "b::c", NULL);
	check_id("n[size=1024]", NULL, "n", "size=1024");
	check_id("s::n[]", "s", "n", "");
	check_id("sort[std::vector]", NULL, "sort", "std::vector");
	check_id("s::n[a[b]]", "s", "n", "a[b]");
	check_id("s::n[x]y", "s", "n[x]y", NULL);
	check_id("s::n]", "s", "n]", NULL);
	check_id("[t]", NULL, "[t]", NULL);
}
END_TEST

#define HEAD                                                                                   \
	"{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","                  \
	" \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"                                  \
	" \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 2}, \"context\": {},"
/* At 2 Hz, 1 cycle takes 0.5 s: 2 runs per second. */
#define OK_FIELDS "\"events\": {\"Ir\": 1}, \"cycles\": 1, \"time_s\": 0.5, \"speed\": 2"

/* text is rejected with exactly msg, and the report is left empty. */
static void reject(const char *text, const char *msg)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	ck_assert_msg(j != NULL, "bad test JSON: %s", je.text);
	struct bm_report r;
	char *err = NULL;
	memset(&r, 0xa5, sizeof r); /* "uninitialised" */
	ck_assert_int_eq(report_from_json(j, &r, &err), -1);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err, msg);
	assert_empty(&r);
	free(err);
	json_decref(j);
}

START_TEST(invalid_reports_are_rejected_naming_the_field)
{
	reject("{\"schema\": \"bm-report/2\"}",
	       "unknown report schema 'bm-report/2' (this bm reads bm-report/1)");
	reject("{\"run_id\": \"u\"}", "missing field 'schema'");
	reject("{\"schema\": 1}", "schema: expected a string");
	reject("[]", "expected a JSON object");
	reject(HEAD "\"x\": 1}", "missing field 'benchmarks'");
	reject(HEAD "\"benchmarks\": {}}", "benchmarks: expected an array");
	reject(HEAD "\"benchmarks\": [{\"status\": \"ok\"}]}", "missing field 'benchmarks[0].id'");
	reject(HEAD "\"benchmarks\": [{\"id\": \"\", \"status\": \"ok\"}]}",
	       "benchmarks[0].id: expected a non-empty string");
	reject(HEAD "\"benchmarks\": [7]}", "benchmarks[0]: expected an object");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"fast\"}]}",
	       "benchmarks[0].status: unknown status 'fast' (expected ok, failed, skipped or not-run)");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\"}]}", "missing field 'benchmarks[0].status'");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"skipped\"},"
		    " {\"id\": \"b\", \"status\": \"ok\", \"events\": {}, \"cycles\": 1,"
		    " \"time_s\": 0.5, \"speed\": 2},"
		    " {\"id\": \"c\", \"status\": \"ok\", \"events\": {}, \"cycles\": -3,"
		    " \"time_s\": 0, \"speed\": 0}]}",
	       "benchmarks[2].cycles: expected a non-negative integer");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", \"events\": {},"
		    " \"cycles\": 1, \"time_s\": 0.5, \"speed\": -2.5}]}",
	       "benchmarks[0].speed: expected a finite non-negative number");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", \"events\": {},"
		    " \"cycles\": 1, \"time_s\": \"fast\", \"speed\": 1}]}",
	       "benchmarks[0].time_s: expected a finite non-negative number");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", \"cycles\": 1,"
		    " \"time_s\": 0.5, \"speed\": 2}]}",
	       "missing field 'benchmarks[0].events'");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", \"events\": {},"
		    " \"cycles\": \"12\", \"time_s\": 0.5, \"speed\": 2}]}",
	       "benchmarks[0].cycles: expected a non-negative integer");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", \"events\": {},"
		    " \"cycles\": 1.5, \"time_s\": 0.5, \"speed\": 2}]}",
	       "benchmarks[0].cycles: expected a non-negative integer");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\","
		    " \"events\": {\"Ir\": \"5\"}, \"cycles\": 1, \"time_s\": 0.5, \"speed\": 2}]}",
	       "benchmarks[0].events.Ir: expected a non-negative integer");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS ","
		    " \"syscalls\": {\"count\": 1, \"wall_ns\": 2, \"cpu_ns\": 3, \"by_function\":"
		    " [{\"function\": \"read\", \"count\": 1, \"wall_ns\": 2, \"cpu_ns\": 3,"
		    " \"callers\": [{\"function\": \"main\", \"count\": 1, \"wall_ns\": 2,"
		    " \"cpu_ns\": 3}]}]}}]}",
	       "missing field 'benchmarks[0].syscalls.by_function[0].callers[0].calls'");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS ","
		    " \"profile\": [1]}]}",
	       "benchmarks[0].profile: expected an object");
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"name\": null, \"status\": \"failed\"}]}",
	       "benchmarks[0].name: expected a string");

	/* The header fields. */
	reject("{\"schema\": \"bm-report/1\", \"created_at\": \"t\"}", "missing field 'run_id'");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\"}}",
	       "missing field 'tool.version'");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 0}}",
	       "model.frequency_hz: expected a positive finite number");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 1,"
	       " \"cache\": {\"I1\": [1, 2, 3], \"D1\": [1, 2], \"LL\": [1, 2, 3]}}}",
	       "model.cache.D1: expected [size, associativity, line size]");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 1}, \"benchmarks\": []}",
	       "missing field 'context'");
	reject(HEAD "\"benchmarks\": [], \"binary\": 3}", "binary: expected an object");
	reject(HEAD "\"benchmarks\": [], \"stdin\": {\"bytes\": 3}}", "missing field 'stdin.sha256'");
	reject(HEAD "\"benchmarks\": [], \"stdin\": {\"bytes\": 3, \"sha256\": \"ABC\"}}",
	       "stdin.sha256: expected 64 lower-case hex digits");
	reject(HEAD "\"benchmarks\": [], \"stdin\": {\"bytes\": -1, \"sha256\": \"a\"}}",
	       "stdin.bytes: expected a non-negative integer");

	/* The context, as bm-upload fills it. */
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 1},"
	       " \"context\": {\"pr\": {\"number\": 0}}}",
	       "context.pr.number: expected a positive integer");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 1},"
	       " \"context\": {\"commit\": {\"sha\": \"\"}}}",
	       "context.commit.sha: expected a non-empty string");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 1},"
	       " \"context\": {\"commit\": {\"sha\": \"ab\", \"ancestors\": [\"cd\", 1]}}}",
	       "context.commit.ancestors[1]: expected a string");
	reject("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
	       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"
	       " \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 1},"
	       " \"context\": {\"platform\": {\"os\": 5}}}",
	       "context.platform.os: expected a string");
}
END_TEST

/* One ok benchmark "s::a" with these numbers, at 3 GHz. */
#define NUMBERS(cycles, time, speed)                                                            \
	"{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","                  \
	" \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"},"                                  \
	" \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 3e9}, \"context\": {},"              \
	" \"benchmarks\": [{\"id\": \"x\", \"status\": \"failed\"}, {\"id\": \"s::a\", \"status\": \"ok\","   \
	" \"events\": {}, \"cycles\": " cycles ", \"time_s\": " time ", \"speed\": " speed "}]}"

static void accept(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);
	struct bm_report r;
	char *err = NULL;
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	report_release(&r);
	json_decref(j);
}

/* What the program read on standard input: written when there was some,
 * read back; absent and null read as none. */
START_TEST(standard_input_survives_a_round_trip)
{
#define DIGEST "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	static const char digest[] = DIGEST;
	struct bm_report r;
	char *err = NULL;
	json_t *j = json_loads(HEAD "\"benchmarks\": [], \"stdin\": {\"bytes\": 3, \"sha256\": \"" DIGEST "\"}}", 0,
			       NULL);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	json_decref(j);
	ck_assert_uint_eq(r.stdin_bytes, 3);
	ck_assert_str_eq(r.stdin_sha256, digest);
	j = report_to_json(&r);
	json_t *in = json_object_get(j, "stdin");
	ck_assert_int_eq(json_integer_value(json_object_get(in, "bytes")), 3);
	ck_assert_str_eq(json_string_value(json_object_get(in, "sha256")), digest);
	json_decref(j);
	free(r.stdin_sha256);
	r.stdin_sha256 = NULL;
	j = report_to_json(&r);
	ck_assert_ptr_null(json_object_get(j, "stdin"));
	json_decref(j);
	report_release(&r);
	j = json_loads(HEAD "\"benchmarks\": [], \"stdin\": null}", 0, NULL);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	ck_assert_ptr_null(r.stdin_sha256);
	report_release(&r);
	json_decref(j);
}
END_TEST

/* An ok benchmark's "nondeterministic" (why another run may count
 * otherwise): read, written back, and absent where there is none. */
START_TEST(nondeterministic_survives_a_round_trip)
{
	struct bm_report r;
	char *err = NULL;
	json_t *j = json_loads(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS
				    ", \"nondeterministic\": \"thread 1 waited in the kernel\"},"
				    " {\"id\": \"b\", \"status\": \"ok\", " OK_FIELDS "}]}",
			       0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	json_decref(j);
	ck_assert_str_eq(r.benchmarks[0].nondeterministic, "thread 1 waited in the kernel");
	ck_assert_ptr_null(r.benchmarks[1].nondeterministic);
	j = report_to_json(&r);
	json_t *bs = json_object_get(j, "benchmarks");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(bs, 0), "nondeterministic")),
			 "thread 1 waited in the kernel");
	ck_assert_ptr_null(json_object_get(json_array_get(bs, 1), "nondeterministic"));
	json_decref(j);
	report_release(&r);
	j = json_loads(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS
			    ", \"nondeterministic\": 3}]}",
		       0, NULL);
	ck_assert_int_eq(report_from_json(j, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "nondeterministic"));
	free(err);
	json_decref(j);
}
END_TEST

START_TEST(heap_counts_survive_a_round_trip_and_are_checked)
{
#define HEAP_OK "{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS ", "
#define HEAP_OK_B "{\"id\": \"b\", \"status\": \"ok\", " OK_FIELDS ", "
	struct bm_report r;
	char *err = NULL;
	json_t *j = json_loads(HEAD "\"benchmarks\": [" HEAP_OK
				    "\"heap\": {\"allocations\": 10, \"bytes_allocated\": 1045, \"peak_bytes\": 900,"
				    " \"leaked_bytes\": 64, \"leaked_blocks\": 1, \"frees\": 9, \"bytes_freed\": 936,"
				    " \"system_bytes\": 4096}}, " HEAP_OK_B
				    "\"heap\": {\"allocations\": 2, \"bytes_allocated\": 8,"
				    " \"peak_bytes\": null}}]}",
			       0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	json_decref(j);
	const struct bm_heap *a = &r.benchmarks[0].heap, *b = &r.benchmarks[1].heap;
	ck_assert(a->measured && a->has_peak && b->measured && !b->has_peak);
	ck_assert_uint_eq(a->allocations, 10);
	ck_assert_uint_eq(a->bytes_allocated, 1045);
	ck_assert_uint_eq(a->peak_bytes, 900);
	ck_assert_uint_eq(a->leaked_bytes, 64);
	ck_assert_uint_eq(a->leaked_blocks, 1);
	ck_assert(a->has_system && !b->has_system);
	ck_assert_uint_eq(a->frees, 9);
	ck_assert_uint_eq(a->bytes_freed, 936);
	ck_assert_uint_eq(a->system_bytes, 4096);
	j = report_to_json(&r);
	json_t *h = json_object_get(json_array_get(json_object_get(j, "benchmarks"), 0), "heap");
	ck_assert_int_eq(json_integer_value(json_object_get(h, "peak_bytes")), 900);
	ck_assert_int_eq(json_integer_value(json_object_get(h, "system_bytes")), 4096);
	h = json_object_get(json_array_get(json_object_get(j, "benchmarks"), 1), "heap");
	ck_assert(json_is_null(json_object_get(h, "peak_bytes")) && json_is_null(json_object_get(h, "leaked_blocks")));
	ck_assert_int_eq(json_integer_value(json_object_get(h, "allocations")), 2);
	json_decref(j);
	report_release(&r);
	reject(HEAD "\"benchmarks\": [" HEAP_OK "\"heap\": {\"allocations\": -1, \"bytes_allocated\": 0}}]}",
	       "benchmarks[0].heap.allocations: expected a non-negative integer");
	reject(HEAD "\"benchmarks\": [" HEAP_OK "\"heap\": {\"allocations\": 1}}]}",
	       "missing field 'benchmarks[0].heap.bytes_allocated'");
	reject(HEAD "\"benchmarks\": [" HEAP_OK
		    "\"heap\": {\"allocations\": 1, \"bytes_allocated\": 4, \"peak_bytes\": 4}}]}",
	       "benchmarks[0].heap.peak_bytes, leaked_bytes and leaked_blocks: expected all three or none");
	reject(HEAD "\"benchmarks\": [" HEAP_OK "\"heap\": 3}]}", "benchmarks[0].heap: expected an object");
#undef HEAP_OK
#undef HEAP_OK_B
}
END_TEST

/* A report of one ok benchmark whose heap is the given members. */
#define HEAP(members) \
	HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS ", \"heap\": {" members "}}]}"
#define PEAK(a, b, p, lb, lk) \
	HEAP("\"allocations\": " a ", \"bytes_allocated\": " b ", \"peak_bytes\": " p ", \"leaked_bytes\": " lb \
	     ", \"leaked_blocks\": " lk)

START_TEST(heap_counts_that_contradict_each_other_are_rejected)
{
	/* The issue's: a peak of 10^12 bytes of 10 allocated, stored and charted. */
	reject(PEAK("1", "10", "1000000000000", "0", "0"),
	       "benchmarks[0].heap.peak_bytes: 1000000000000 is more than bytes_allocated, 10 (the benchmark's blocks "
	       "never hold more at once than all of them)");
	reject(PEAK("2", "10", "5", "6", "1"), "benchmarks[0].heap.leaked_bytes: 6 is more than peak_bytes, 5 (what is "
					       "left allocated at the end was held at once)");
	reject(PEAK("2", "10", "10", "10", "3"), "benchmarks[0].heap.leaked_blocks: 3 is more than allocations, 2 (only "
						 "the benchmark's blocks are its leaks)");
	reject(PEAK("4", "10", "10", "2", "3"), "benchmarks[0].heap.leaked_blocks: 3 is more than leaked_bytes, 2 (every "
						"block is at least 1 byte)");
	reject(PEAK("4", "10", "10", "2", "0"), "benchmarks[0].heap.leaked_blocks: 0 with leaked_bytes 2 (bytes are left "
						"allocated in blocks)");
	reject(HEAP("\"allocations\": 11, \"bytes_allocated\": 10"),
	       "benchmarks[0].heap.allocations: 11 is more than bytes_allocated, 10 (every block is at least 1 byte: a "
	       "request of 0 counts 1)");
	reject(PEAK("0", "10", "0", "0", "0"),
	       "benchmarks[0].heap.allocations: 0 with bytes_allocated 10 (bytes are allocated in blocks)");
	reject(HEAP("\"allocations\": 1, \"bytes_allocated\": 10, \"frees\": 3, \"bytes_freed\": 2"),
	       "benchmarks[0].heap.frees: 3 is more than bytes_freed, 2 (every block is at least 1 byte)");
	reject(HEAP("\"allocations\": 1, \"bytes_allocated\": 10, \"peak_bytes\": 10, \"leaked_bytes\": 10,"
		    " \"leaked_blocks\": 1, \"frees\": 0, \"bytes_freed\": 2"),
	       "benchmarks[0].heap.frees: 0 with bytes_freed 2 (bytes are freed in blocks)");
	/* What the engine counts: blocks of 0 bytes count 1; frees include
	 * blocks allocated before the benchmark; no peak in symbol mode. */
	accept(PEAK("3", "3", "3", "3", "3"));
	accept(PEAK("0", "0", "0", "0", "0"));
	accept(HEAP("\"allocations\": 1, \"bytes_allocated\": 8, \"frees\": 5, \"bytes_freed\": 4096"));
	accept(HEAP("\"allocations\": 2, \"bytes_allocated\": 8, \"peak_bytes\": null"));
	/* Per iteration, rounded: 1 block of 1,000 bytes in 10 iterations. */
	accept(HEAP("\"allocations\": 0, \"bytes_allocated\": 100"));
}
END_TEST
#undef PEAK
#undef HEAP

START_TEST(the_clock_is_one_bm_run_measures_with)
{
	static const char *const ok[] = {"\"virtual\"", "\"host\"", "null"};
	for (size_t i = 0; i < 3; i++) {
		char *text = xasprintf("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
				       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"}, \"model\": {\"id\": \"m\","
				       " \"frequency_hz\": 2, \"clock\": %s}, \"context\": {}, \"benchmarks\": []}",
				       ok[i]);
		accept(text);
		free(text);
	}
	static const char *const bad[] = {"\"sundial\"", "\"\"", "\"Virtual\"", "3"};
	for (size_t i = 0; i < 4; i++) {
		char *text = xasprintf("{\"schema\": \"bm-report/1\", \"run_id\": \"u\", \"created_at\": \"t\","
				       " \"tool\": {\"name\": \"bm-run\", \"version\": \"1\"}, \"model\": {\"id\": \"m\","
				       " \"frequency_hz\": 2, \"clock\": %s}, \"context\": {}, \"benchmarks\": []}",
				       bad[i]);
		reject(text, i == 3 ? "model.clock: expected a string"
				    : "model.clock: expected \"virtual\" or \"host\" (the time the program read)");
		free(text);
	}
}
END_TEST

START_TEST(numbers_that_contradict_themselves_are_rejected)
{
	/* The report: stored, and gated on its claimed speed. */
	reject(NUMBERS("1000", "5", "1e12"),
	       "benchmarks[1].speed: 1e+12 in benchmark 's::a' contradicts its cycles: 1000 cycles at "
	       "model.frequency_hz 3000000000 are 3000000 runs per second (speed = frequency_hz / cycles)");
	reject(NUMBERS("1000", "5", "3e6"),
	       "benchmarks[1].time_s: 5 in benchmark 's::a' contradicts its cycles: 1000 cycles at "
	       "model.frequency_hz 3000000000 take 3.333333333e-07 s (time_s = cycles / frequency_hz)");
	/* No impact and a neutral verdict; a -100% regression ranked first. */
	reject(NUMBERS("1000", "3.3333333333333335e-07", "0"),
	       "benchmarks[1].speed: 0 in benchmark 's::a' contradicts its cycles: 1000 cycles at "
	       "model.frequency_hz 3000000000 are 3000000 runs per second (speed = frequency_hz / cycles)");
	reject(NUMBERS("1000", "3.3333333333333335e-07", "5e-324"),
	       "benchmarks[1].speed: 4.940656458e-324 in benchmark 's::a' contradicts its cycles: 1000 cycles at "
	       "model.frequency_hz 3000000000 are 3000000 runs per second (speed = frequency_hz / cycles)");
	/* 0 cycles (bm-profile of a file that counted nothing): no time, no
	 * speed, not compared. */
	accept(NUMBERS("0", "0", "0"));
	reject(NUMBERS("0", "0", "5"), "benchmarks[1].speed: 5 in benchmark 's::a' contradicts its cycles: 0 cycles "
				       "take no time and have no speed (0 for both)");
	reject(NUMBERS("0", "1e-9", "0"), "benchmarks[1].time_s: 1e-09 in benchmark 's::a' contradicts its cycles: "
					  "0 cycles take no time and have no speed (0 for both)");
	/* More than rounding: cycles rounded down by the writer, 3e9 / 110. */
	reject(NUMBERS("27272727", "0.00909090909090909", "110"),
	       "benchmarks[1].speed: 110 in benchmark 's::a' contradicts its cycles: 27272727 cycles at "
	       "model.frequency_hz 3000000000 are 110.0000011 runs per second (speed = frequency_hz / cycles)");
	/* What bm-run writes (17 digits), and rounding to 15 digits. */
	accept(NUMBERS("27272727", "0.0090909090000000005", "110.00000110000001"));
	accept(NUMBERS("27272727", "0.009090909", "110.0000011"));
	accept(NUMBERS("42857142", "0.014285714", "70.0000014000000"));
	/* A billionth off is more than rounding. */
	reject(NUMBERS("3000", "1.000000002e-6", "1e6"),
	       "benchmarks[1].time_s: 1.000000002e-06 in benchmark 's::a' contradicts its cycles: 3000 cycles at "
	       "model.frequency_hz 3000000000 take 1e-06 s (time_s = cycles / frequency_hz)");
	accept(NUMBERS("3000", "1.0000000005e-6", "1e6"));
}
END_TEST

START_TEST(a_benchmark_id_twice_is_rejected)
{
	reject(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"ok\", " OK_FIELDS "},"
		    " {\"id\": \"b\", \"status\": \"failed\"}, {\"id\": \"a\", \"status\": \"skipped\"}]}",
	       "benchmarks: 'a' appears twice");
	accept(HEAD "\"benchmarks\": [{\"id\": \"a\", \"status\": \"skipped\"}, {\"id\": \"a[t]\", \"status\": \"skipped\"}]}");
}
END_TEST

START_TEST(imported_values_of_zero_or_less_are_read_but_not_compared)
{
	const char *text = HEAD "\"benchmarks\": [{\"id\": \"z\", \"status\": \"ok\", \"metric\": \"bytes\","
			   " \"unit\": \"B\", \"value\": 0}, {\"id\": \"n\", \"status\": \"ok\","
			   " \"metric\": \"delta\", \"unit\": \"runs/s\", \"value\": -3}]}";
	json_t *j = json_loads(text, 0, NULL);
	struct bm_report r;
	char *err = NULL;
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	ck_assert(benchmark_speed(&r.benchmarks[0]) == 0);
	ck_assert(benchmark_speed(&r.benchmarks[1]) == 0);
	report_release(&r);
	json_decref(j);
	reject(HEAD "\"benchmarks\": [{\"id\": \"z\", \"status\": \"ok\", \"metric\": \"m\", \"unit\": \"s\","
		    " \"value\": \"fast\"}]}",
	       "benchmarks[0].value: expected a finite number");
}
END_TEST

START_TEST(unknown_fields_are_ignored)
{
	const char *text =
		"{\"schema\": \"bm-report/1\", \"future\": {\"a\": [1, 2]}, \"run_id\": \"u\","
		" \"created_at\": \"t\", \"tool\": {\"name\": \"bm-run\", \"version\": \"1\","
		" \"flavour\": \"x\"}, \"model\": {\"id\": \"bm-model/1\", \"frequency_hz\": 3000000000,"
		" \"extra\": null}, \"context\": {\"platform\": {\"compiler\": null, \"os\": null,"
		" \"arch\": \"x86_64\", \"libc\": \"glibc\"}, \"ci\": true},"
		" \"benchmarks\": [{\"id\": \"s::n[t]\", \"status\": \"ok\", \"colour\": \"red\","
		" \"events\": {\"Ir\": 10, \"Foo\": \"bar\", \"sysCount\": 0}, \"cycles\": 10,"
		" \"time_s\": 3.3333333333333334e-9, \"speed\": 300000000, \"syscalls\": null,"
		" \"profile\": {\"any\": 1}}]}";
	json_t *j = json_loads(text, 0, NULL);
	struct bm_report r;
	char *err = NULL;
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	ck_assert_str_eq(r.tool_name, "bm-run");
	ck_assert_ptr_null(r.valgrind);
	ck_assert(r.model.frequency_hz == 3e9);
	ck_assert_ptr_null(r.context.compiler);
	ck_assert_str_eq(r.context.arch, "x86_64");
	ck_assert_ptr_null(r.context.commit);
	ck_assert_ptr_null(r.binary_path);
	ck_assert_uint_eq(r.nbenchmarks, 1);
	const struct bm_result *b = &r.benchmarks[0];
	/* suite, name and tag are absent: derived from the id */
	ck_assert_str_eq(b->suite, "s");
	ck_assert_str_eq(b->name, "n");
	ck_assert_str_eq(b->tag, "t");
	ck_assert_uint_eq(b->events.present, 1u << BM_EV_IR | 1u << BM_EV_SYSCOUNT);
	ck_assert_uint_eq(b->events.v[BM_EV_IR], 10);
	ck_assert_uint_eq(b->syscalls.nby_function, 0);
	ck_assert_int_eq(json_integer_value(json_object_get(b->profile, "any")), 1);
	json_decref(j); /* the report keeps its own reference to the profile */
	ck_assert_int_eq(json_integer_value(json_object_get(b->profile, "any")), 1);
	report_release(&r);
}
END_TEST

START_TEST(written_suite_name_and_tag_win_over_the_id)
{
	const char *text = HEAD "\"benchmarks\": [{\"id\": \"x::y[z]\", \"suite\": null,"
				" \"name\": \"Y\", \"status\": \"skipped\", \"reason\": \"no input\"}]}";
	json_t *j = json_loads(text, 0, NULL);
	struct bm_report r;
	char *err = NULL;
	ck_assert_msg(report_from_json(j, &r, &err) == 0, "%s", err);
	ck_assert_ptr_null(r.benchmarks[0].suite);
	ck_assert_str_eq(r.benchmarks[0].name, "Y");
	ck_assert_str_eq(r.benchmarks[0].tag, "z");
	ck_assert_str_eq(r.benchmarks[0].reason, "no input");
	ck_assert_int_eq(r.benchmarks[0].status, BM_STATUS_SKIPPED);
	json_decref(j);
	report_release(&r);
}
END_TEST

START_TEST(a_failed_write_says_why_and_leaves_nothing)
{
	struct bm_report r;
	char *err = NULL, *path = in_dir("no/such/dir/r.json");
	build(&r);
	ck_assert_int_eq(report_write_file(&r, path, &err), -1);
	char *want = malloc(strlen(path) + 64);
	snprintf(want, strlen(path) + 64, "cannot write '%s': No such file or directory", path);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(dir_entries(), 0);
	free(err);
	free(want);
	free(path);

	/* The rename fails: the temporary file that was written is removed. */
	path = in_dir("sub");
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(report_write_file(&r, path, &err), -1);
	want = malloc(strlen(path) + 64);
	snprintf(want, strlen(path) + 64, "cannot write '%s': Is a directory", path);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(dir_entries(), 1);
	free(err);
	free(want);
	free(path);
	report_release(&r);
}
END_TEST

START_TEST(a_write_replaces_the_old_report)
{
	struct bm_report r, back;
	char *err = NULL, *path = in_dir("r.json");
	spit(path, "old and not JSON");
	build(&r);
	ck_assert_int_eq(report_write_file(&r, path, &err), 0);
	ck_assert_int_eq(report_read_file(path, &back, &err), 0);
	eq_report(&r, &back);
	ck_assert_int_eq(dir_entries(), 1);
	report_release(&r);
	report_release(&back);
	free(path);
}
END_TEST

START_TEST(file_errors_name_the_file)
{
	struct bm_report r;
	char *err = NULL, *path = in_dir("missing.json"), want[600];

	ck_assert_int_eq(report_read_file(path, &r, &err), -1);
	snprintf(want, sizeof want, "cannot open '%s': No such file or directory", path);
	ck_assert_str_eq(err, want);
	assert_empty(&r);
	free(err);

	spit(path, "{\n  \"schema\": \"bm-report/1\",\n  \"run_id\" 5\n}\n");
	ck_assert_int_eq(report_read_file(path, &r, &err), -1);
	snprintf(want, sizeof want, "%s:3:12: ':' expected near '5'", path);
	ck_assert_str_eq(err, want);
	free(err);

	spit(path, "{\"schema\": \"bm-report/1\", \"schema\": \"bm-report/1\"}");
	ck_assert_int_eq(report_read_file(path, &r, &err), -1);
	snprintf(want, sizeof want, "%s:1:", path);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "duplicate object key"));
	free(err);

	spit(path, "{\"schema\": \"bm-report/1\"}");
	ck_assert_int_eq(report_read_file(path, &r, &err), -1);
	snprintf(want, sizeof want, "%s: missing field 'run_id'", path);
	ck_assert_str_eq(err, want);
	assert_empty(&r);
	free(err);

	/* A sparse file just over the cap is refused before it is read. */
	int fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, ((off_t)256 << 20) + 1), 0);
	close(fd);
	ck_assert_int_eq(report_read_file(path, &r, &err), -1);
	snprintf(want, sizeof want, "'%s' is larger than 256 MiB", path);
	ck_assert_str_eq(err, want);
	free(err);
	free(path);
}
END_TEST

START_TEST(dash_means_standard_output_and_input)
{
	struct bm_report r, back;
	char *err = NULL, *path = in_dir("stdout.json");
	int saved_out = dup(1), saved_in = dup(0);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	build(&r);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	int rc = report_write_file(&r, "-", &err);
	dup2(saved_out, 1);
	close(saved_out);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(strncmp(slurp(path), "{\n  \"schema\": \"bm-report/1\"", 27), 0);

	fd = open(path, O_RDONLY);
	dup2(fd, 0);
	close(fd);
	rc = report_read_file("-", &back, &err);
	dup2(saved_in, 0);
	close(saved_in);
	ck_assert_msg(rc == 0, "%s", err);
	eq_report(&r, &back);
	report_release(&r);
	report_release(&back);
	free(path);
}
END_TEST

START_TEST(bad_utf8_is_repaired_not_fatal)
{
	struct bm_report r, back;
	char *err = NULL;
	report_init(&r);
	r.tool_name = strdup("bm-run");
	r.tool_version = strdup("1");
	r.model.id = strdup("bm-model/1");
	r.model.frequency_hz = 3e9;
	r.binary_path = strdup("/tmp/caf\xe9/b\xc3\xa9");
	json_t *j = report_to_json(&r);
	ck_assert_msg(report_from_json(j, &back, &err) == 0, "%s", err);
	ck_assert_str_eq(back.binary_path, "/tmp/caf\xef\xbf\xbd/b\xc3\xa9");
	ck_assert(json_is_null(json_object_get(json_object_get(j, "model"), "cache")));
	json_decref(j);
	report_release(&r);
	report_release(&back);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("bm-report/1");
	tcase_add_checked_fixture(tc, make_dir, remove_dir);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, init_gives_a_v4_uuid_and_utc_time);
	tcase_add_test(tc, a_full_report_survives_a_round_trip);
	tcase_add_test(tc, the_written_json_has_the_spec_layout);
	tcase_add_test(tc, a_failed_benchmark_carries_no_numbers);
	tcase_add_test(tc, syscalls_release_frees_and_zeroes);
	tcase_add_test(tc, heap_counts_that_contradict_each_other_are_rejected);
	tcase_add_test(tc, the_clock_is_one_bm_run_measures_with);
	tcase_add_test(tc, benchmark_ids_split_into_suite_name_and_tag);
	tcase_add_test(tc, invalid_reports_are_rejected_naming_the_field);
	tcase_add_test(tc, standard_input_survives_a_round_trip);
	tcase_add_test(tc, heap_counts_survive_a_round_trip_and_are_checked);
	tcase_add_test(tc, nondeterministic_survives_a_round_trip);
	tcase_add_test(tc, numbers_that_contradict_themselves_are_rejected);
	tcase_add_test(tc, a_benchmark_id_twice_is_rejected);
	tcase_add_test(tc, imported_values_of_zero_or_less_are_read_but_not_compared);
	tcase_add_test(tc, unknown_fields_are_ignored);
	tcase_add_test(tc, written_suite_name_and_tag_win_over_the_id);
	tcase_add_test(tc, a_failed_write_says_why_and_leaves_nothing);
	tcase_add_test(tc, a_write_replaces_the_old_report);
	tcase_add_test(tc, file_errors_name_the_file);
	tcase_add_test(tc, dash_means_standard_output_and_input);
	tcase_add_test(tc, bad_utf8_is_repaired_not_fatal);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
