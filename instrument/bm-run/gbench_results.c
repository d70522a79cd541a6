/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "gbench_results.h"

#include "error.h"
#include "gbench_json.h"
#include "keep_file.h"
#include "launcher.h"
#include "profile.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One benchmark of the suite's report: its first run of repetition 0. */
struct row {
	char *name;
	enum bm_status status;
	char *reason;
	uint64_t iterations;
	long long threads;
	double cpu_s; /* per iteration */
};

struct rows {
	struct row *v;
	size_t n, alloc;
};

static int add_row(const struct gbench_run *run, void *ctx, char **err)
{
	(void)err;
	struct rows *rows = ctx;
	if (run->aggregate || run->repetition > 0)
		return 0; /* every repetition counts the same under simulation */
	for (size_t i = 0; i < rows->n; i++)
		if (strlen(rows->v[i].name) == run->len && memcmp(rows->v[i].name, run->name, run->len) == 0)
			return 0;
	xgrow(&rows->v, &rows->alloc, rows->n + 1, sizeof *rows->v);
	struct row *w = &rows->v[rows->n++];
	*w = (struct row){.name = xstrndup(run->name, run->len),
			  .status = run->failed ? BM_STATUS_FAILED : run->skipped ? BM_STATUS_SKIPPED : BM_STATUS_OK,
			  .iterations = run->iterations,
			  .threads = run->threads,
			  .cpu_s = run->cpu_s};
	if (w->status != BM_STATUS_OK)
		w->reason = xstrdup(run->message && *run->message ? run->message
				    : run->failed			   ? "error_occurred"
								   : "skipped");
	return 0;
}

/* The numbered dumps beside the last part (dump.1, dump.2, ...). */
static struct bm_profile **load_dumps(const char *dump, const struct bm_model *m, size_t *n, char ***paths,
				      char **err)
{
	struct bm_profile **v = NULL;
	size_t alloc = 0;
	*n = 0;
	*paths = NULL;
	for (size_t k = 1;; k++) {
		char *path = xasprintf("%s.%zu", dump, k);
		if (access(path, F_OK) != 0) {
			free(path);
			return v;
		}
		struct bm_profile *p = profile_load_one(path, m, err);
		if (!p) {
			free(path);
			for (size_t i = 0; i < *n; i++) {
				profile_free(v[i]);
				free((*paths)[i]);
			}
			free(v);
			free(*paths);
			*paths = NULL;
			*n = 0;
			return NULL;
		}
		xgrow(&v, &alloc, *n + 1, sizeof *v);
		*paths = xreallocarray(*paths, alloc, sizeof **paths);
		(*paths)[*n] = path;
		v[(*n)++] = p;
	}
}

/* The run w reported among the dumps from *next on, or -1; *next moves
 * past it. */
static long find_run(const struct row *w, struct bm_profile **dumps, size_t n, size_t *next, double hz)
{
	double target = w->cpu_s * (double)w->iterations * hz;
	for (size_t k = *next; k < n; k++) {
		if (fabs((double)dumps[k]->cycles - target) <= target / 1000 + 5000) {
			*next = k + 1;
			return (long)k;
		}
	}
	return -1;
}

/* b's numbers: cycles from the suite's time, events per iteration from
 * its run (or none). */
static void fill(struct bm_result *b, const struct row *w, const struct bm_profile *run, const struct bm_model *m)
{
	b->status = BM_STATUS_OK;
	b->iterations = w->iterations;
	b->cycles = (uint64_t)llround(w->cpu_s * m->frequency_hz);
	b->time_s = model_time_s(m, b->cycles);
	b->speed = model_speed(m, b->cycles);
	if (!run || !w->iterations)
		return;
	for (int e = 0; e < BM_EV_COUNT; e++) {
		if (!events_has(&run->total, (enum bm_event)e))
			continue;
		b->events.v[e] = (run->total.v[e] + w->iterations / 2) / w->iterations;
		b->events.present |= 1u << e;
	}
	b->syscalls = (struct bm_syscalls){.count = b->events.v[BM_EV_SYSCOUNT],
					   .wall_ns = b->events.v[BM_EV_SYSTIME],
					   .cpu_ns = b->events.v[BM_EV_SYSCPUTIME]};
}

int gbench_collect(struct bm_report *r, const char *dump, const struct bm_model *m, const char *keep_dir,
		   gbench_add_fn *add, char **err)
{
	const char *slash = strrchr(dump, '/');
	char *json = xasprintf("%.*s/" GBENCH_REPORT, slash ? (int)(slash - dump) : 1, slash ? dump : ".");
	struct rows rows = {0};
	char *why = NULL, **paths = NULL;
	size_t ndumps = 0, next = 0;
	struct bm_profile **dumps = NULL;
	int rc = -1;
	if (access(json, F_OK) != 0)
		bm_error(err, "it wrote no Google Benchmark report (its main must call benchmark::Initialize, as "
			      "BENCHMARK_MAIN() does, which reads --benchmark_out)");
	else if (gbench_json_read_path(json, add_row, &rows, &why) != 0)
		bm_error(err, "its Google Benchmark report is unusable: %s", why);
	else if (!rows.n)
		bm_error(err, "it ran no benchmark (a --benchmark_filter that matches none?)");
	else if (!(dumps = load_dumps(dump, m, &ndumps, &paths, &why)) && why)
		bm_error(err, "its callgrind file is unusable: %s", why);
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < rows.n; i++) {
		const struct row *w = &rows.v[i];
		struct bm_result *b = add(r, w->name);
		if (w->status != BM_STATUS_OK) {
			b->status = w->status;
			b->reason = xstrdup(w->reason);
			continue;
		}
		long k = w->threads == 1 ? find_run(w, dumps, ndumps, &next, m->frequency_hz) : -1;
		fill(b, w, k >= 0 ? dumps[k] : NULL, m);
		if (keep_dir && k >= 0)
			keep_file(paths[k], keep_dir, b->id);
	}
	for (size_t i = 0; i < ndumps; i++) {
		profile_free(dumps[i]);
		free(paths[i]);
	}
	free(dumps);
	free(paths);
	for (size_t i = 0; i < rows.n; i++) {
		free(rows.v[i].name);
		free(rows.v[i].reason);
	}
	free(rows.v);
	free(why);
	free(json);
	return rc;
}
