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
 * - The runs are read by lib/gbench_json.c, which bm-run's gbench
 *   harness shares.
 */
#include "config.h"

#include "import.h"

#include "error.h"
#include "gbench_json.h"
#include "strpool.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

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

static struct group *group_of(struct state *s, const char *key, size_t len)
{
	uint32_t idx = strpool_intern(s->names, key, len);
	if (idx == s->ngroups) {
		xgrow(&s->groups, &s->groups_alloc, s->ngroups + 1, sizeof *s->groups);
		memset(&s->groups[s->ngroups++], 0, sizeof *s->groups);
	}
	return &s->groups[idx];
}

static int add_run(const struct gbench_run *run, void *ctx, char **err)
{
	struct state *s = ctx;
	if (strpool_count(s->names) >= IMPORT_MAX_BENCHMARKS &&
	    !strpool_find(s->names, run->name, run->len, &(uint32_t){0}))
		return bm_error(err, "%s: more than %d benchmarks", s->file, IMPORT_MAX_BENCHMARKS);
	struct group *g = group_of(s, run->name, run->len);
	if (run->failed || run->skipped) {
		if (g->status == BM_STATUS_OK || (run->failed && g->status == BM_STATUS_SKIPPED)) {
			g->status = run->failed ? BM_STATUS_FAILED : BM_STATUS_SKIPPED;
			free(g->reason);
			g->reason = xstrdup(run->message && *run->message ? run->message
					    : run->failed		   ? "error_occurred"
									   : "skipped");
		}
		return 0;
	}
	if (run->aggregate) {
		g->has_median = 1;
		g->median_real = run->real_s;
		g->median_cpu = run->cpu_s;
	} else {
		xgrow(&g->real, &g->alloc, g->n + 1, sizeof *g->real);
		g->cpu = xreallocarray(g->cpu, g->alloc, sizeof *g->cpu);
		g->real[g->n] = run->real_s;
		g->cpu[g->n++] = run->cpu_s;
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
	report_init(r);
	int rc = gbench_json_read(data, size, name, NULL, add_run, &s, err);
	if (rc == 0 && s.ngroups == 0)
		rc = bm_error(err, "%s: no benchmarks", name);
	if (rc == 0)
		rc = emit(&s, r, ids, err);
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
