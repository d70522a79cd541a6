/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "gbench_results.h"

#include "error.h"
#include "gbench_json.h"
#include "keep_file.h"
#include "log.h"
#include "profile.h"
#include "read_all.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The most bytes of a report read. */
#define MAX_REPORT ((size_t)64 << 20)

/* The part of a run's name that says it reports a time of its own
 * (->UseManualTime()), which bm-run does not take. */
#define MANUAL_TIME "/manual_time"

/* One benchmark of the suite's report: its first run of repetition 0. */
struct row {
	char *name;
	enum bm_status status;
	char *reason;
	uint64_t iterations;
	long long threads;
	double cpu_s; /* per iteration */
	int manual;   /* it reports a time of its own */
};

/* Whether name, as Google Benchmark makes them (parts joined by '/'), has
 * the part manual_time. */
static int manual_time(const char *name)
{
	size_t n = strlen(MANUAL_TIME);
	for (const char *at = strstr(name, MANUAL_TIME); at; at = strstr(at + 1, MANUAL_TIME))
		if (at[n] == '\0' || at[n] == '/')
			return 1;
	return 0;
}

struct rows {
	struct row *v;
	size_t n, alloc;
};

static int add_row(const struct gbench_run *run, void *ctx, char **err)
{
	(void)err;
	struct rows *rows = ctx;
	if (run->repetition > 0)
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
	w->manual = manual_time(w->name);
	if (run->aggregate) {
		/* Its median, and no run of its own before it. */
		w->status = BM_STATUS_FAILED;
		w->reason = xstrdup("its report has only its aggregates (--benchmark_report_aggregates_only or "
				    "->ReportAggregatesOnly()): drop that, every repetition counts the same under simulation");
	} else if (w->status != BM_STATUS_OK) {
		w->reason = xstrdup(run->message && *run->message ? run->message
				    : run->failed			   ? "error_occurred"
								   : "skipped");
	}
	return 0;
}

/* What bm-run keeps of one dump: one run of a benchmark's timed loop.
 * (A suite of a hundred benchmarks makes hundreds of dumps: their
 * profiles are read one at a time and let go.) */
struct run {
	char *path;
	uint64_t cycles;
	struct bm_events total;
	int reported; /* the dump at a reporter's ReportRuns: a benchmark's end */
	char *nondeterministic; /* the engine's word on it, or NULL */
};

static void runs_free(struct run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].path);
		free(runs[i].nondeterministic);
	}
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
		(*out)[(*n)++] = (struct run){.path = path, .cycles = p->cycles, .total = p->total,
					      .reported = p->trigger && strstr(p->trigger, "::ReportRuns(") != NULL,
					      .nondeterministic = p->nondeterministic ? xstrdup(p->nondeterministic) : NULL};
		profile_free(p);
	}
}

/* The runs of the next benchmark from *next on: up to the dumps its
 * reporters' ReportRuns made, [*first, *end); *next moves past those. */
static void next_benchmark(const struct run *runs, size_t n, size_t *next, size_t *first, size_t *end)
{
	size_t k = *next;
	*first = k;
	while (k < n && !runs[k].reported)
		k++;
	*end = k;
	while (k < n && runs[k].reported)
		k++;
	*next = k;
}

/* The run w reported among runs [first, end), or NULL. */
static const struct run *find_run(const struct row *w, const struct run *runs, size_t first, size_t end, double hz)
{
	double target = w->cpu_s * (double)w->iterations * hz;
	for (size_t k = first; k < end; k++)
		if (!runs[k].reported && fabs((double)runs[k].cycles - target) <= target / 1000 + 5000)
			return &runs[k];
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
	if (w->manual) {
		/* An ok row's reason says how it was measured. */
		b->reason = xstrdup("measured as CPU time: the time it reports itself (->UseManualTime()) is not taken");
		log_warn("'%s' is measured as CPU time, not by the time it reports itself (->UseManualTime())", b->id);
	}
	if (!run || !w->iterations)
		return;
	if (run->nondeterministic)
		b->nondeterministic = xstrdup(run->nondeterministic);
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

/* The suite's report at path, whole, in *data (*size bytes).  Returns 0,
 * or -1 with *err set. */
static int read_report(const char *path, char **data, size_t *size, char **err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	*data = NULL;
	if (fd < 0)
		return bm_error(err, "it wrote no Google Benchmark report (its main must call benchmark::Initialize, as "
				     "BENCHMARK_MAIN() does, which reads --benchmark_out)");
	if (read_all(fd, MAX_REPORT, data, size) && errno == EFBIG)
		bm_error(err, "its Google Benchmark report is larger than 64 MiB");
	else if (!*data)
		bm_error(err, "cannot read its Google Benchmark report: %s", strerror(errno));
	close(fd);
	return *data ? 0 : -1;
}

/* Why a suite wrote an empty report, which it does when it runs nothing:
 * its --benchmark_filter (the last one wins) matches no benchmark. */
static void ran_nothing(const struct job *job, char **err)
{
	static const char opt[] = "--benchmark_filter=";
	const char *filter = NULL;
	for (size_t i = 0; i < job->nargs; i++)
		if (strncmp(job->args[i], opt, sizeof opt - 1) == 0)
			filter = job->args[i] + sizeof opt - 1;
	if (filter)
		bm_error(err, "its --benchmark_filter=%s matches no benchmark (--benchmark_list_tests=true lists them)",
			 filter);
	else
		bm_error(err, "it ran no benchmark: its Google Benchmark report is empty");
}

/* The rows of the suite's report at path, in *rows (*unfinished: it ends
 * before the suite did).  Returns 0, or -1 with *err set. */
static int read_rows(const struct job *job, const char *path, struct rows *rows, int *unfinished, char **err)
{
	char *data, *why = NULL;
	size_t size;
	int rc = -1;
	if (read_report(path, &data, &size, err))
		return -1;
	if (!size)
		ran_nothing(job, err);
	else if (gbench_json_read(data, size, path, unfinished, add_row, rows, &why))
		bm_error(err, "its Google Benchmark report is unusable: %s", why);
	else
		rc = 0;
	if (rc)
		bm_error_escape(err); /* Jansson's messages quote the input */
	free(why);
	free(data);
	return rc;
}

/* Why a run that wrote a report failed: ended is the runner's reason
 * (how the program ended, then ": " and its last line of standard error
 * where there is one), or NULL when it exited 0 before the suite
 * finished; last, the last benchmark the report has, or NULL. */
static char *cut_short(const char *ended, int unfinished, const char *last)
{
	const char *how = ended ? ended : "exited (status 0)", *line = strstr(how, ": ");
	int n = line ? (int)(line - how) : (int)strlen(how);
	if (!line)
		line = "";
	if (!unfinished)
		return xasprintf("%.*s after the suite finished%s", n, how, line);
	if (!last)
		return xasprintf("%.*s during its first benchmark, before the suite finished%s", n, how, line);
	return xasprintf("%.*s during the benchmark after %s, before the suite finished%s", n, how, last, line);
}

int gbench_collect(struct bm_report *r, const struct job *job, const struct bm_model *m, const char *keep_dir,
		   gbench_add_fn *add, char **err)
{
	const struct entry *e = &job->entries[0];
	const char *ended = e->state == ENTRY_DONE ? NULL : e->reason;
	char *path = xasprintf("%s/" GBENCH_REPORT, job->sb.dir), *why = NULL;
	struct rows rows = {0};
	size_t nruns = 0, next = 0;
	struct run *runs = NULL;
	int unfinished = 0, rc = -1;
	/* A program that failed without a usable report failed for its own
	 * reason. */
	if (read_rows(job, path, &rows, &unfinished, &why))
		bm_error(err, "%s", ended ? ended : why);
	else if (!rows.n && !unfinished && !ended)
		bm_error(err, "it ran no benchmark: its Google Benchmark report lists none");
	else if (read_runs(e->dump, m, &runs, &nruns, &why))
		bm_error(err, "its callgrind file is unusable: %s", why);
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < rows.n; i++) {
		const struct row *w = &rows.v[i];
		struct bm_result *b = add(r, w->name);
		/* Each benchmark's runs end where the suite reports them. */
		size_t first, end;
		next_benchmark(runs, nruns, &next, &first, &end);
		if (w->status != BM_STATUS_OK) {
			b->status = w->status;
			b->reason = xstrdup(w->reason);
			continue;
		}
		const struct run *run = w->threads == 1 ? find_run(w, runs, first, end, m->frequency_hz) : NULL;
		fill(b, w, run, m);
		if (keep_dir && run)
			keep_file(run->path, keep_dir, b->id);
	}
	if (rc == 0 && (unfinished || ended)) {
		struct bm_result *b = add(r, job->name);
		b->status = BM_STATUS_FAILED;
		b->reason = cut_short(ended, unfinished, rows.n ? rows.v[rows.n - 1].name : NULL);
	}
	runs_free(runs, nruns);
	for (size_t i = 0; i < rows.n; i++) {
		free(rows.v[i].name);
		free(rows.v[i].reason);
	}
	free(rows.v);
	free(why);
	free(path);
	return rc;
}
