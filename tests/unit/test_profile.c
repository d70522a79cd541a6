/* SPDX-License-Identifier: MIT */
/* Profiles of real callgrind runs, made at test time from the programs in
 * tests/programs: the invariants that must hold between self, inclusive,
 * call and line costs, cycles, folded stacks, system calls, threads, the
 * report round trip and diffs. */
#include "config.h"

#include "benchmark.h"
#include "folded.h"
#include "profile.h"
#include "profile_diff.h"
#include "profile_json.h"
#include "profile_shape.h"
#include "report.h"
#include "syscalls.h"
#include "unit.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char workdir[] = "/tmp/bm-test-profile-XXXXXX";

/* Runs a test program under callgrind as bm-run will (pinned caches,
 * region-only collection, system-call times) into workdir/NAME.%p.out. */
static void run_callgrind(const char *program, const char *args, const char *extra)
{
	const char *vg = getenv("VALGRIND"), *top = getenv("top_builddir");
	ck_assert_msg(vg && top, "VALGRIND and top_builddir must be set (run through make check)");
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "env -i LD_BIND_NOW=1 %s --tool=callgrind --cache-sim=yes --collect-systime=nsec "
		 "--instr-atstart=no --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 %s "
		 "--callgrind-out-file=%s/%s.%%p.out %s/tests/programs/%s %s >%s/%s.log 2>&1",
		 vg, extra, workdir, program, top, program, args, workdir, program);
	ck_assert_msg(system(cmd) == 0, "callgrind failed: %s", cmd);
}

/* The one file matching workdir/PATTERN. */
static char *only_file(const char *pattern)
{
	char path[512];
	glob_t g;
	snprintf(path, sizeof path, "%s/%s", workdir, pattern);
	ck_assert_int_eq(glob(path, 0, NULL, &g), 0);
	ck_assert_uint_eq(g.gl_pathc, 1);
	char *s = strdup(g.gl_pathv[0]);
	globfree(&g);
	return s;
}

static struct bm_profile *load_one(const char *pattern)
{
	char *path = only_file(pattern), *err = NULL;
	struct bm_profile **parts;
	size_t n;
	if (profile_load(path, &model_v1, &parts, &n, &err) < 0)
		ck_abort_msg("%s", err);
	ck_assert_uint_eq(n, 1);
	struct bm_profile *p = parts[0];
	free(parts);
	free(path);
	return p;
}

static int find_fn(const struct bm_profile *p, const char *name)
{
	for (size_t i = 0; i < p->nfns; i++)
		if (strcmp(profile_str(p, p->fns[i].name), name) == 0)
			return (int)i;
	return -1;
}

/* Self costs add up to the totals, self cycles to the cycles, and the
 * root of a region dump includes everything. */
static void check_invariants(const struct bm_profile *p, const char *root)
{
	uint64_t sum[64] = {0}, cycles = 0;
	for (size_t i = 0; i < p->nfns; i++) {
		for (size_t e = 0; e < p->nevents; e++)
			sum[e] += p->fn_self[i * p->nevents + e];
		cycles += p->fns[i].self_cycles;
		ck_assert_uint_ge(p->fns[i].inclusive_cycles, p->fns[i].self_cycles);
	}
	for (size_t e = 0; e < p->nevents; e++)
		ck_assert_uint_eq(sum[e], p->totals[e]);
	ck_assert_uint_eq(cycles, p->cycles);
	int r = find_fn(p, root);
	ck_assert_int_ge(r, 0);
	ck_assert_uint_eq(p->fns[r].inclusive_cycles, p->cycles);
	uint64_t line_cycles = 0;
	for (size_t i = 0; i < p->nlines; i++)
		line_cycles += p->lines[i].cycles;
	ck_assert_uint_le(line_cycles, p->cycles);
	ck_assert_uint_gt(line_cycles, 0);
}

/* The sum of the N of every "calls=N" line of a file, read naively. */
static uint64_t calls_lines_sum(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	uint64_t sum = 0;
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "calls=", 6) == 0)
			sum += strtoull(line + 6, NULL, 10);
	fclose(f);
	return sum;
}

static uint64_t folded_sum(const struct bm_profile *p)
{
	struct folded *f = folded_build(p);
	uint64_t s = 0;
	for (size_t i = 0; i < folded_count(f); i++)
		s += folded_cycles(f, i);
	folded_free(f);
	return s;
}

START_TEST(recursion_and_regions)
{
	run_callgrind("fib", "", "");
	struct bm_profile *fib = load_one("fib.*.out.1"), *sum = load_one("fib.*.out.2");
	ck_assert_str_eq(fib->trigger, "Client Request: bench_fib");
	ck_assert_str_eq(sum->trigger, "Client Request: bench_sum");
	check_invariants(fib, "main");
	check_invariants(sum, "main'2"); /* callgrind sees main entered again */
	ck_assert_int_ge(find_fn(fib, "fib'2"), 0);
	ck_assert_int_ge(find_fn(sum, "sum_squares"), 0);
	/* Call counts are kept as callgrind wrote them: every edge's count
	 * adds up to the calls= lines of the file. */
	int f = find_fn(fib, "fib"), f2 = find_fn(fib, "fib'2");
	ck_assert_uint_eq(fib->fns[f].calls, 1);
	ck_assert_uint_gt(fib->fns[f2].calls, 0);
	uint64_t calls = 0;
	for (size_t i = 0; i < fib->ncalls; i++)
		calls += fib->calls[i].count;
	ck_assert_uint_eq(calls, calls_lines_sum(fib->source));
	ck_assert_uint_eq(folded_sum(fib), fib->cycles);
	ck_assert_uint_eq(folded_sum(sum), sum->cycles);
	char *name = benchmark_name_of(fib);
	ck_assert_str_eq(name, "bench_fib");
	free(name);
	ck_assert(benchmark_geometry_matches(&model_v1, fib));

	struct bm_profile *end = load_one("fib.*.out");
	ck_assert_str_eq(end->trigger, "Program termination");
	ck_assert_uint_eq(end->nfns, 0);
	ck_assert_uint_eq(end->cycles, 0);
	profile_free(fib);
	profile_free(sum);
	profile_free(end);
}
END_TEST

START_TEST(callbacks_and_inlined_code)
{
	run_callgrind("sort", "", "");
	struct bm_profile *p = load_one("sort.*.out.1");
	check_invariants(p, "main");
	char *name = benchmark_name_of(p);
	ck_assert_str_eq(name, "sort::random[n=3000]");
	free(name);
	ck_assert_int_ge(find_fn(p, "compare_ints"), 0);
	int inlined = 0;
	for (size_t i = 0; i < p->nlines; i++)
		inlined |= strstr(profile_str(p, p->lines[i].file), "sort_inline.h") != NULL;
	ck_assert_msg(inlined, "no line costs in the inlined header");
	uint64_t folded = folded_sum(p);
	ck_assert_uint_eq(folded, p->cycles);
	profile_free(p);
}
END_TEST

START_TEST(system_calls_by_function)
{
	run_callgrind("syscalls", "20", "");
	struct bm_profile *p = load_one("syscalls.*.out.1");
	check_invariants(p, "main");
	struct bm_syscalls s;
	syscalls_from_profile(p, &s);
	ck_assert_uint_eq(s.count, 5 + 3 + 3 + 1); /* write, getpid, open/read/close, nanosleep */
	ck_assert_uint_ge(s.wall_ns, 20000000);
	int write = -1, sleep = -1;
	for (size_t i = 0; i < s.nby_function; i++) {
		if (strcmp(s.by_function[i].function, "write") == 0)
			write = (int)i;
		if (strncmp(s.by_function[i].function, "clock_nanosleep", 15) == 0)
			sleep = (int)i;
	}
	ck_assert_int_ge(write, 0);
	ck_assert_int_ge(sleep, 0);
	/* The longest wall time comes first.  (Not that the sleep is first:
	 * on a loaded machine another call may wait longer than 20 ms.) */
	for (size_t i = 1; i < s.nby_function; i++)
		ck_assert_uint_ge(s.by_function[i - 1].wall_ns, s.by_function[i].wall_ns);
	ck_assert_uint_eq(s.by_function[write].count, 5);
	ck_assert_uint_eq(s.by_function[write].ncallers, 1);
	ck_assert_str_eq(s.by_function[write].callers[0].function, "say_nothing");
	ck_assert_uint_eq(s.by_function[write].callers[0].calls, 5);
	ck_assert_uint_eq(s.by_function[write].callers[0].count, 5);
	ck_assert_uint_ge(s.by_function[sleep].wall_ns, 20000000);
	syscalls_release(&s);
	profile_free(p);
}
END_TEST

START_TEST(threads_of_one_dump_merge)
{
	run_callgrind("threads", "", "--separate-threads=yes");
	char path[512];
	glob_t g;
	/* Threads that ended inside the region are dumped at termination. */
	snprintf(path, sizeof path, "%s/threads.*.out-0*", workdir);
	ck_assert_int_eq(glob(path, 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 2);
	struct bm_profile *all = NULL;
	uint64_t total_ir = 0;
	char *err = NULL;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct bm_profile **parts;
		size_t n;
		if (profile_load(g.gl_pathv[i], &model_v1, &parts, &n, &err) < 0)
			ck_abort_msg("%s", err);
		ck_assert_uint_eq(n, 1);
		ck_assert_int_ge(parts[0]->thread, 1);
		total_ir += parts[0]->total.v[BM_EV_IR];
		if (!all) {
			all = parts[0];
		} else {
			ck_assert_int_eq(profile_merge(all, parts[0], &model_v1, &err), 0);
			profile_free(parts[0]);
		}
		free(parts);
	}
	globfree(&g);
	ck_assert_uint_eq(all->total.v[BM_EV_IR], total_ir);
	int spin = find_fn(all, "spin");
	ck_assert_int_ge(spin, 0);
	ck_assert_uint_eq(all->fns[spin].calls, 2);
	uint64_t cycles = 0;
	for (size_t i = 0; i < all->nfns; i++)
		cycles += all->fns[i].self_cycles;
	ck_assert_uint_eq(cycles, all->cycles);
	profile_free(all);
}
END_TEST

START_TEST(report_round_trip)
{
	run_callgrind("fib", "", "");
	struct bm_profile *p = load_one("fib.*.out.1");
	struct bm_report r, back;
	char *err = NULL, out[600];
	report_init(&r);
	r.tool_name = strdup("bm-profile");
	r.tool_version = strdup("test");
	benchmark_fill_model(&r.model, &model_v1, p);
	struct bm_result *b = report_add_benchmark(&r);
	benchmark_set_id(b, "fib::bench_fib");
	benchmark_fill(b, p, &model_v1, 1);
	snprintf(out, sizeof out, "%s/report.json", workdir);
	if (report_write_file(&r, out, &err) < 0 || report_read_file(out, &back, &err) < 0)
		ck_abort_msg("%s", err);
	ck_assert_uint_eq(back.nbenchmarks, 1);
	ck_assert_str_eq(back.benchmarks[0].suite, "fib");
	ck_assert_uint_eq(back.benchmarks[0].cycles, p->cycles);
	ck_assert_uint_eq(back.benchmarks[0].events.v[BM_EV_DLMW], p->total.v[BM_EV_DLMW]);
	ck_assert(back.benchmarks[0].speed == model_speed(&model_v1, p->cycles));
	json_t *fns = json_object_get(back.benchmarks[0].profile, "functions");
	ck_assert_uint_eq(json_array_size(fns), p->nfns);
	ck_assert_str_eq(back.model.id, "bm-model/1");
	ck_assert_uint_eq(back.model.ll.size, 8388608);
	/* What profile_to_json writes has the shape readers check, and a call
	 * to a function that is not there is refused by name. */
	json_t *shape = profile_to_json(p);
	ck_assert_int_eq(profile_shape_check(shape, "benchmarks[0].", &err), 0);
	json_object_set_new(json_array_get(json_object_get(shape, "calls"), 0), "callee", json_integer((json_int_t)p->nfns));
	ck_assert_int_eq(profile_shape_check(shape, "benchmarks[0].", &err), -1);
	ck_assert_msg(strstr(err, "benchmarks[0].profile.calls[0].callee: expected the index of one of the"), "%s", err);
	free(err);
	json_decref(shape);
	report_release(&r);
	report_release(&back);
	profile_free(p);
}
END_TEST

START_TEST(diff_of_two_profiles)
{
	run_callgrind("fib", "", "");
	struct bm_profile *a = load_one("fib.*.out.1"), *b = load_one("fib.*.out.2");
	struct profile_diff d;
	profile_diff(a, a, &d);
	for (size_t i = 0; i < d.nrows; i++)
		ck_assert_uint_eq(d.rows[i].base_self, d.rows[i].head_self);
	profile_diff_release(&d);
	profile_diff(a, b, &d);
	ck_assert_uint_eq(d.base_cycles, a->cycles);
	ck_assert_uint_eq(d.head_cycles, b->cycles);
	int64_t net = 0;
	for (size_t i = 0; i < d.nrows; i++)
		net += (int64_t)(d.rows[i].head_self - d.rows[i].base_self);
	ck_assert_int_eq(net, (int64_t)(b->cycles - a->cycles));
	ck_assert(!d.rows[0].in_base || !d.rows[0].in_head); /* fib'2 or sum_squares moved most */
	profile_diff_release(&d);
	profile_free(a);
	profile_free(b);
}
END_TEST

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(workdir));
}

static void teardown(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", workdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", workdir);
	snprintf(workdir, sizeof workdir, "/tmp/bm-test-profile-XXXXXX");
}

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("callgrind runs");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, recursion_and_regions);
	tcase_add_test(tc, callbacks_and_inlined_code);
	tcase_add_test(tc, system_calls_by_function);
	tcase_add_test(tc, threads_of_one_dump_merge);
	tcase_add_test(tc, report_round_trip);
	tcase_add_test(tc, diff_of_two_profiles);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
