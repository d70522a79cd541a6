/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "gbench_results.h"

#include "error.h"
#include "gbench_json.h"
#include "keep_file.h"
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

/* What bm-run keeps of one dump: one run of a benchmark's timed loop.
 * (A suite of a hundred benchmarks makes hundreds of dumps: their
 * profiles are read one at a time and let go.) */
struct run {
	char *path;
	uint64_t cycles;
	struct bm_events total;
};

static void runs_free(struct run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(runs[i].path);
	free(runs);
}

/* The numbered dumps beside the last part (dump.1, dump.2, ...), in
 * order, into *out (*n of them).  Returns 0, or -1 with *err set. */
static int read_runs(const char *dump, const struct bm_model *m, struct run **out, size_t *n, char **err)
{
	size_t alloc = 0;
	*out = NULL;
	*n = 0;
	for (size_t k = 1;; k++) {
		char *path = xasprintf("%s.%zu", dump, k);
		if (access(path, F_OK) != 0) {
			free(path);
			return 0;
		}
		struct bm_profile *p = profile_load_one(path, m, err);
		if (!p) {
			free(path);
			runs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
		xgrow(out, &alloc, *n + 1, sizeof **out);
		(*out)[(*n)++] = (struct run){.path = path, .cycles = p->cycles, .total = p->total};
		profile_free(p);
	}
}

/* The run w reported among runs from *next on, or NULL; *next moves past
 * it. */
static const struct run *find_run(const struct row *w, const struct run *runs, size_t n, size_t *next, double hz)
{
	double target = w->cpu_s * (double)w->iterations * hz;
	for (size_t k = *next; k < n; k++) {
		if (fabs((double)runs[k].cycles - target) <= target / 1000 + 5000) {
			*next = k + 1;
			return &runs[k];
		}
	}
	return NULL;
}

/* b's numbers: cycles from the suite's time, events (and the heap) per
 * iteration from its run (or none). */
static void fill(struct bm_result *b, const struct row *w, const struct run *run, const struct bm_model *m)
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
	/* The heap per iteration, as the other numbers; no peak: the run's
	 * peak is over all its iterations, not one's. */
	if (events_has(&b->events, BM_EV_ALLOC_COUNT))
		b->heap = (struct bm_heap){.measured = 1, .allocations = b->events.v[BM_EV_ALLOC_COUNT],
					   .bytes_allocated = b->events.v[BM_EV_ALLOC_BYTES]};
}

int gbench_collect(struct bm_report *r, const char *json, const char *dump, const struct bm_model *m,
		   const char *keep_dir, gbench_add_fn *add, char **err)
{
	struct rows rows = {0};
	char *why = NULL;
	size_t nruns = 0, next = 0;
	struct run *runs = NULL;
	int rc = -1;
	if (access(json, F_OK) != 0)
		bm_error(err, "it wrote no Google Benchmark report (its main must call benchmark::Initialize, as "
			      "BENCHMARK_MAIN() does, which reads --benchmark_out)");
	else if (gbench_json_read_path(json, add_row, &rows, &why) != 0)
		bm_error(err, "its Google Benchmark report is unusable: %s", why);
	else if (!rows.n)
		bm_error(err, "it ran no benchmark (a --benchmark_filter that matches none?)");
	else if (read_runs(dump, m, &runs, &nruns, &why))
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
		const struct run *run = w->threads == 1 ? find_run(w, runs, nruns, &next, m->frequency_hz) : NULL;
		fill(b, w, run, m);
		if (keep_dir && run)
			keep_file(run->path, keep_dir, b->id);
	}
	runs_free(runs, nruns);
	for (size_t i = 0; i < rows.n; i++) {
		free(rows.v[i].name);
		free(rows.v[i].reason);
	}
	free(rows.v);
	free(why);
	return rc;
}
