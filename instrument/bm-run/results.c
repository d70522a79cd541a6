/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "results.h"

#include "benchmark.h"
#include "catch2_results.h"
#include "gbench_results.h"
#include "keep_file.h"
#include "log.h"
#include "path.h"
#include "process_dumps.h"
#include "profile.h"
#include "profile_json.h"
#include "symbol_cost.h"
#include "syscalls.h"
#include "unnamed_code.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int id_taken(const struct bm_report *r, const char *id)
{
	for (size_t i = 0; i < r->nbenchmarks; i++)
		if (strcmp(r->benchmarks[i].id, id) == 0)
			return 1;
	return 0;
}

static struct bm_result *add(struct bm_report *r, const char *id)
{
	char *unique = xstrdup(id);
	for (int k = 2; id_taken(r, unique); k++) {
		free(unique);
		unique = xasprintf("%s#%d", id, k);
	}
	struct bm_result *b = report_add_benchmark(r);
	benchmark_set_id(b, unique);
	free(unique);
	return b;
}

/* The benchmarks of the results_collect in progress that spend a tenth of
 * their cycles or more in code without symbols, and its objects. */
static struct results_notes *notes;

/* b's numbers and profile from p, noting code without symbols. */
static void fill(struct bm_result *b, const struct bm_profile *p, const struct bm_model *m, int with_profile)
{
	benchmark_fill(b, p, m, with_profile);
	if (!notes)
		return;
	if (p->cpu_askers && !notes->cpu_askers)
		notes->cpu_askers = xstrdup(p->cpu_askers);
	struct unnamed_code u;
	unnamed_code_of(p, &u);
	if (u.share >= 0.1) {
		notes->unnamed_benchmarks++;
		unnamed_code_add_objects(&notes->unnamed, &u);
	}
	unnamed_code_release(&u);
}

static void fail(struct bm_result *b, enum bm_status status, const char *reason)
{
	b->status = status;
	b->reason = xstrdup(reason);
}

/* One profile of every process of a finished whole-process or symbol-mode
 * run (process_dumps.h), or NULL after failing b. */
static struct bm_profile *load_processes(struct bm_result *b, const char *dump, const struct bm_model *m,
					 size_t *processes)
{
	char *err = NULL;
	struct bm_profile *p;
	int r = process_dumps_load(dump, m, &p, processes, &err);
	if (r == PROCESS_DUMPS_FORKED_UNDER_CALLGRIND) {
		fail(b, BM_STATUS_FAILED, err);
	} else if (r < 0) {
		char *why = xasprintf("its callgrind file is unusable: %s", err);
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	}
	free(err);
	return p;
}

/* Keeps the files of a run's processes, paths[0..n) (NULL: a process
 * without one), and frees them: the first as ID.callgrind, the others
 * (forked) as ID.2.callgrind, ID.3.callgrind, ... */
static void keep_each(char **paths, size_t n, const char *dir, const char *id)
{
	for (size_t i = 0; i < n; i++) {
		if (paths[i]) {
			char *name = i ? xasprintf("%s.%zu", id, i + 1) : xstrdup(id);
			keep_file(paths[i], dir, name);
			free(name);
		}
		free(paths[i]);
	}
	free(paths);
}

/* The files of the run whose first process wrote dump. */
static void keep_processes(const char *dump, const char *dir, const char *id)
{
	char **paths;
	size_t n = process_dumps(dump, &paths);
	keep_each(paths, n, dir, id);
}

/* The harness's own cost, as libbm measures it before each benchmark
 * (instrument/libbm/measure.c): the dump of an empty run, named so, and its run
 * function, which stands for the benchmark's. */
#define OVERHEAD_TRIGGER "Client Request: bm: overhead"
#define OVERHEAD_RUN "bm__overhead_run"

/* The dump of libbm's empty run before the benchmark whose dump is dump
 * (cg.PID.out.N: the empty run's is N-1, or N-2 after a warm-up), loaded,
 * and its path in *path where path is not NULL; NULL when there is none
 * (an older libbm). */
static struct bm_profile *harness_dump(const char *dump, const struct bm_model *m, char **path)
{
	const char *dot = strrchr(dump, '.');
	long n = dot ? strtol(dot + 1, NULL, 10) : 0;
	for (long k = n - 1; k >= n - 2 && k >= 1; k--) {
		char *at = xasprintf("%.*s.%ld", (int)(dot - dump), dump, k), *why = NULL;
		struct bm_profile *overhead = profile_load_one(at, m, &why);
		free(why);
		if (overhead && overhead->trigger && strcmp(overhead->trigger, OVERHEAD_TRIGGER) == 0) {
			if (path)
				*path = at;
			else
				free(at);
			return overhead;
		}
		profile_free(overhead);
		free(at);
	}
	return NULL;
}

/* bm-model/2 counts the benchmark alone: the harness's cost (the client
 * requests around the run, its call and return), measured by libbm's
 * empty run just before in the same process, comes out of p, the dump of
 * a libbm benchmark (cg.PID.out.N; the empty run's is N-1, or N-2 after a
 * warm-up).  A program of an older libbm has no such run, and its numbers
 * stay as measured.  The empty run's dump goes to *path where path is
 * not NULL (NULL when there was none: --keep keeps it).  Returns 0, or
 * -1 with *err set. */
static int without_harness(struct bm_profile *p, const char *dump, const struct bm_model *m, char **path,
			   char **err)
{
	struct bm_profile *overhead = harness_dump(dump, m, path);
	int r = overhead ? profile_subtract(p, overhead, OVERHEAD_RUN, m, err) : 0;
	profile_free(overhead);
	return r < 0 ? -1 : 0;
}

/* The one dump of a finished single-process run, or NULL after failing b. */
static struct bm_profile *load_one(struct bm_result *b, const char *dump, const struct bm_model *m)
{
	char *err = NULL;
	struct bm_profile *p = profile_load_one(dump, m, &err);
	if (!p) {
		char *why = xasprintf("its callgrind file is unusable: %s", err);
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	}
	free(err);
	return p;
}

static void measured(struct bm_result *b, const struct job *job, const struct entry *e,
		     const struct bm_model *m, int with_profile, char **harness)
{
	char *err = NULL;
	if (job->mode == MODE_WHOLE) {
		size_t processes;
		struct bm_profile *all = load_processes(b, e->dump, m, &processes);
		if (all)
			fill(b, all, m, with_profile);
		profile_free(all);
		return;
	}
	struct bm_profile *p = load_one(b, e->dump, m);
	if (!p)
		return;
	if (job->mode == MODE_SYMBOL && p->nfns == 0) {
		char *why = xasprintf("'%s' was never called", job->symbol);
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	} else if (job->mode == MODE_HARNESS && m->version == 2 && without_harness(p, e->dump, m, harness, &err) < 0) {
		char *why = xasprintf("its callgrind file is unusable: %s", err);
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	} else {
		fill(b, p, m, with_profile);
	}
	profile_free(p);
	free(err);
}

/* The job that measured fn alone (MODE_SYMBOL), if there is one. */
static const struct job *toggled_job(const struct job *jobs, size_t njobs, const struct job *of,
				     const char *fn)
{
	for (size_t j = 0; j < njobs; j++)
		if (jobs[j].mode == MODE_SYMBOL && jobs[j].symbol && strcmp(jobs[j].symbol, fn) == 0 &&
		    strcmp(jobs[j].program, of->program) == 0 && jobs[j].nentries)
			return &jobs[j];
	return NULL;
}

/* The events one run and a toggled run must agree on: the instructions
 * and cache events (a toggled run's system calls are not to be trusted:
 * callgrind leaves those made with collection off on the blocks that made
 * them, and counts them again when collection is on there). */
static int same_events(const struct bm_events *a, const struct bm_events *b)
{
	for (int e = 0; e < BM_EV_COUNT; e++)
		if (e != BM_EV_SYSCOUNT && e != BM_EV_SYSTIME && e != BM_EV_SYSCPUTIME && a->v[e] != b->v[e])
			return 0;
	return 1;
}

/* b's numbers from the events of the run of every function. */
static int fill_from_events(struct bm_result *b, const struct bm_events *ev, const struct bm_model *m)
{
	char *err = NULL;
	uint64_t cycles;
	if (model_cycles(m, ev, &cycles, &err) < 0) {
		fail(b, BM_STATUS_FAILED, err);
		free(err);
		return -1;
	}
	b->status = BM_STATUS_OK;
	b->events = *ev;
	b->cycles = cycles;
	b->time_s = model_time_s(m, cycles);
	b->speed = model_speed(m, cycles);
	free(b->syscalls.by_function);
	b->syscalls = (struct bm_syscalls){.count = ev->v[BM_EV_SYSCOUNT],
					   .wall_ns = ev->v[BM_EV_SYSTIME],
					   .cpu_ns = ev->v[BM_EV_SYSCPUTIME]};
	return 0;
}

/* Whether whole, the profile of a MODE_SYMBOLS run, is bm's tool's, which
 * collected in each function in the run itself (--collect-in); callgrind
 * measures each in a MODE_SYMBOL run of its own. */
static int collected_in_run(const struct bm_profile *whole)
{
	return whole->creator && strncmp(whole->creator, "bm-engine", 9) == 0;
}

/* Function n (from 1) of a MODE_SYMBOLS run of bm's tool: its numbers and
 * profile from what ran while it was called (its files, one per process),
 * its calls from the run's profile. */
static void collected_symbol(struct bm_result *b, const struct bm_profile *whole, const char *fn,
			     const char *dump, size_t n, const struct bm_model *m, int with_profile)
{
	struct symbol_cost cost;
	if (symbol_cost(whole, fn, &cost) != 0) {
		fail(b, BM_STATUS_NOT_RUN, "never called");
		return;
	}
	char *err = NULL;
	struct bm_profile *own;
	if (process_dumps_load_collected(dump, n, m, &own, &err) < 0) {
		char *why = xasprintf("its callgrind file is unusable: %s", err);
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	} else if (!own) {
		fail(b, BM_STATUS_FAILED, "the engine wrote no file of its calls (is bm's Valgrind tool as new as bm-run?)");
	} else {
		fill(b, own, m, with_profile);
		b->calls = cost.calls;
	}
	profile_free(own);
	free(err);
}

/* The files of function n's calls, numbered by process as keep_processes
 * numbers the run's. */
static void keep_collected(const char *dump, size_t n, const char *dir, const char *id)
{
	char **paths;
	size_t processes = process_dumps_collected(dump, n, &paths);
	keep_each(paths, processes, dir, id);
}

/* One function of a MODE_SYMBOLS run of callgrind: its numbers from the
 * run's profile (from the function's own toggled run only when it
 * re-enters itself through other functions), its profile from its own
 * toggled run when it has one. */
static void measured_symbol(struct bm_result *b, const struct bm_profile *whole, const char *fn,
			    const struct job *toggled, const struct bm_model *m, int with_profile)
{
	struct symbol_cost cost;
	if (symbol_cost(whole, fn, &cost) != 0) {
		fail(b, BM_STATUS_NOT_RUN, "never called");
		return;
	}
	if (cost.recursive && !toggled) {
		/* No run of its own: the program forked (results_followups). */
		fail(b, BM_STATUS_FAILED,
		     "it re-enters itself through other functions, and callgrind's one run cannot tell its cost apart "
		     "in a program that forks (measure with --engine bm, or the whole process)");
		return;
	}
	if (toggled && toggled->entries[0].state != ENTRY_DONE) {
		fail(b, BM_STATUS_FAILED,
		     toggled->entries[0].reason ? toggled->entries[0].reason : "its own run failed");
		return;
	}
	if (toggled) {
		struct bm_profile *own = load_one(b, toggled->entries[0].dump, m);
		if (!own)
			return;
		fill(b, own, m, with_profile);
		profile_free(own);
		if (!cost.recursive && !same_events(&cost.events, &b->events))
			log_warn("'%s': its own run counted other events than the run of every function "
				 "(Ir %llu, then %llu)",
				 b->id, (unsigned long long)cost.events.v[BM_EV_IR],
				 (unsigned long long)b->events.v[BM_EV_IR]);
		if (!cost.recursive && fill_from_events(b, &cost.events, m) < 0)
			return;
	} else if (fill_from_events(b, &cost.events, m) < 0) {
		return;
	}
	b->calls = cost.calls;
}

/* Every function of a MODE_SYMBOLS job. */
static void collect_symbols(struct bm_report *r, const struct job *job, const struct job *jobs,
			    size_t njobs, const struct bm_model *m, int with_profile, const char *keep_dir)
{
	const struct entry *e = &job->entries[0];
	struct bm_result scratch = {0};
	size_t processes = 0;
	struct bm_profile *whole = e->state == ENTRY_DONE ? load_processes(&scratch, e->dump, m, &processes) : NULL;
	int in_run = whole && collected_in_run(whole);
	for (size_t i = 0; i < job->nsymbols; i++) {
		char *id = xasprintf("%s::%s", job->name, job->symbols[i]);
		struct bm_result *b = add(r, id);
		free(id);
		const struct job *toggled = in_run ? NULL : toggled_job(jobs, njobs, job, job->symbols[i]);
		if (in_run)
			collected_symbol(b, whole, job->symbols[i], e->dump, i + 1, m, with_profile);
		else if (whole)
			measured_symbol(b, whole, job->symbols[i], toggled, m, with_profile);
		else
			fail(b, BM_STATUS_FAILED, scratch.reason ? scratch.reason : e->reason ? e->reason : "not run");
		if (keep_dir && b->status == BM_STATUS_OK && in_run)
			keep_collected(e->dump, i + 1, keep_dir, b->id);
		if (keep_dir && b->status == BM_STATUS_OK && toggled)
			keep_file(toggled->entries[0].dump, keep_dir, b->id);
	}
	if (keep_dir && whole)
		keep_processes(e->dump, keep_dir, job->name);
	free(scratch.reason);
	profile_free(whole);
}

size_t results_followups(const struct job *job, const struct bm_model *m, int with_profile,
			 const char ***fns)
{
	size_t n = 0;
	*fns = NULL;
	if (job->mode != MODE_SYMBOLS || !job->nentries || job->entries[0].state != ENTRY_DONE)
		return 0;
	struct bm_result scratch = {0};
	size_t processes = 0;
	struct bm_profile *whole = load_processes(&scratch, job->entries[0].dump, m, &processes);
	free(scratch.reason);
	/* bm's tool collected in every function in its one run.  A program
	 * that forks: callgrind's runs of one function would count the
	 * parent's calls again in each child (process_dumps.h). */
	for (size_t i = 0; whole && !collected_in_run(whole) && processes == 1 && i < job->nsymbols; i++) {
		struct symbol_cost cost;
		if (symbol_cost(whole, job->symbols[i], &cost) == 0 && (with_profile || cost.recursive)) {
			*fns = xreallocarray(*fns, n + 1, sizeof **fns);
			(*fns)[n++] = job->symbols[i];
		}
	}
	profile_free(whole);
	return n;
}

size_t results_collect(struct bm_report *r, const struct job *jobs, size_t njobs,
		       const struct bm_model *m, int with_profile, const char *keep_dir,
		       struct results_notes *out)
{
	size_t failed = 0;
	notes = out;
	for (size_t j = 0; j < njobs; j++) {
		const struct job *job = &jobs[j];
		if (job->mode == MODE_HARNESS && job->nentries == 0) {
			struct bm_result *b = add(r, path_basename(job->program));
			fail(b, BM_STATUS_FAILED,
			     "the program ran no benchmark (does its main call bm_main, e.g. with BM_MAIN()?)");
		}
		if (job->followup)
			continue; /* reported with its MODE_SYMBOLS job */
		if (job->mode == MODE_SYMBOLS) {
			collect_symbols(r, job, jobs, njobs, m, with_profile, keep_dir);
			continue;
		}
		/* A Google Benchmark suite that failed keeps the benchmarks
		 * it finished before. */
		enum entry_state state = job->nentries ? job->entries[0].state : ENTRY_PLANNED;
		if (job->mode == MODE_GBENCH && (state == ENTRY_DONE || state == ENTRY_FAILED)) {
			char *err = NULL;
			if (gbench_collect(r, job, m, keep_dir, add, &err))
				fail(add(r, job->name), BM_STATUS_FAILED, err);
			free(err);
			continue;
		}
		if (job->mode == MODE_CATCH2 && state == ENTRY_DONE) {
			char *err = NULL, *report = xasprintf("%s/" CATCH2_REPORT, job->sb.dir);
			if (catch2_collect(r, report, m, add, &err))
				fail(add(r, job->name), BM_STATUS_FAILED, err);
			free(err);
			free(report);
			continue;
		}
		for (size_t i = 0; i < job->nentries; i++) {
			const struct entry *e = &job->entries[i];
			struct bm_result *b = add(r, e->id);
			if (e->state == ENTRY_DONE) {
				/* Under bm-model/2's formula, a libbm benchmark's empty
				 * run, which the report takes out, is kept as
				 * ID.harness.callgrind: the report's counts are
				 * ID.callgrind's less its. */
				char *harness = NULL;
				measured(b, job, e, m, with_profile, keep_dir ? &harness : NULL);
				if (keep_dir && b->status == BM_STATUS_OK) {
					keep_processes(e->dump, keep_dir, b->id);
					if (harness) {
						char *name = xasprintf("%s.harness", b->id);
						keep_file(harness, keep_dir, name);
						free(name);
					}
				}
				free(harness);
			} else if (e->state == ENTRY_SKIPPED) {
				fail(b, BM_STATUS_SKIPPED, e->reason ? e->reason : "skipped");
			} else {
				fail(b, BM_STATUS_FAILED, e->reason ? e->reason : "not run");
			}
		}
	}
	for (size_t i = 0; i < r->nbenchmarks; i++)
		failed += r->benchmarks[i].status == BM_STATUS_FAILED;
	notes = NULL;
	return failed;
}
