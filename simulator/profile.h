/* SPDX-License-Identifier: MIT */
/* A profile: the costs of one callgrind part (one dump of one thread),
 * per function, per call edge and per source line, for every event the
 * part counted plus cycles from the cycle model.
 *
 * Functions are identified as callgrind identifies them: (object, file,
 * name), where file is the file given with the function (fl=), not the
 * file of inlined code inside it (fi=/fe=), which only shows in the
 * per-line costs.  Names keep callgrind's recursion suffixes ("fib'2").
 *
 * Costs are arrays of nevents counters in the part's column order
 * (events[]), except that sysTime is always in nanoseconds whatever unit
 * the file used.  A profile is built by profile_load and read-only after
 * that: its fields are public for reading. */
#ifndef BM_PROFILE_H
#define BM_PROFILE_H

#include "events.h"
#include "model.h"

#include <stddef.h>
#include <stdint.h>

struct strpool;
struct idmap;

struct profile_fn {
	uint32_t object, file, name; /* strings: profile_str() */
	uint64_t calls;              /* times called from other functions */
	uint64_t self_cycles, inclusive_cycles;
};

struct profile_call {
	uint32_t caller, callee; /* indices into fns */
	uint64_t count;
	uint64_t cycles; /* inclusive cycles spent in these calls */
};

struct profile_line {
	uint32_t fn;   /* the function the code belongs to */
	uint32_t file; /* the source file of the code (string) */
	uint64_t line;
	uint64_t cycles;
};

struct bm_profile {
	/* Where it came from. */
	char *source;  /* the callgrind file */
	char *trigger; /* "Client Request: bench_fib", or NULL */
	char *cmd;     /* the profiled command, or NULL */
	char *creator; /* "callgrind-3.19.0", or NULL */
	/* Why the next run may count otherwise (the bm engine's, of threads
	 * the kernel ordered), or NULL; merged files keep the first. */
	char *nondeterministic;
	/* The program's objects that asked the CPU what it offers (the bm
	 * engine's "desc: Cpuid:"), or NULL; merged files keep the first. */
	char *cpu_askers;
	long pid, part, thread; /* -1 when unknown */
	struct bm_cache_geometry i1, d1, ll; /* simulated caches; zero when not given */
	/* The heap's peak and leaks (the bm engine's --heap=yes; heap_known 0
	 * without): merged files add theirs (the processes of a run, whose
	 * peaks need not coincide, so the sum is at most that). */
	int heap_known, heap_system_known;
	uint64_t heap_peak_bytes, heap_leaked_bytes, heap_leaked_blocks, heap_system_bytes;
	uint64_t heap_freed_bytes, heap_freed_blocks;

	/* What it counts. */
	size_t nevents;
	char **events;     /* column names */
	int *event_ids;    /* per column: its enum bm_event, or -1 */
	uint64_t *totals;  /* per column */
	struct bm_events total; /* the totals as known events */
	uint64_t cycles;   /* of the whole part */

	struct profile_fn *fns;
	uint64_t *fn_self, *fn_inclusive; /* nevents per function */
	size_t nfns;
	struct profile_call *calls;
	uint64_t *call_cost; /* nevents per call edge: inclusive */
	size_t ncalls;
	struct profile_line *lines;
	uint64_t *line_cost; /* nevents per line: self */
	size_t nlines;

	/* Private to profile.c. */
	struct strpool *strings;
	struct idmap *fn_index, *call_index, *line_index;
	size_t fns_alloc, calls_alloc, lines_alloc;
};

/* Reads one callgrind file and returns its parts as finished profiles
 * (inclusive costs and cycles from model m) in file order in *out (an
 * array of *n pointers; free each with profile_free and the array with
 * free).  Returns 0, or -1 with *err set ("FILE:LINE: ..." for format
 * errors) and nothing allocated. */
int profile_load(const char *path, const struct bm_model *m, struct bm_profile ***out, size_t *n,
		 char **err);

/* The one dump of a file that holds exactly one (a process's final dump,
 * a benchmark's): the profile, or NULL with *err set (profile_load's
 * errors, or "not exactly one dump in it"). */
struct bm_profile *profile_load_one(const char *path, const struct bm_model *m, char **err);

/* The same from memory (tests, fuzzing); name is used in messages. */
int profile_load_buffer(const char *name, const char *data, size_t size, const struct bm_model *m,
			struct bm_profile ***out, size_t *n, char **err);

/* NULL is a no-op. */
void profile_free(struct bm_profile *p);

/* A string of the profile (function, file or object name). */
const char *profile_str(const struct bm_profile *p, uint32_t idx);

/* Adds src's costs into dst, matching functions, calls and lines by name,
 * then recomputes dst's inclusive costs and cycles.  Used to join the
 * threads of one dump.  Columns are matched by event name; an event that
 * dst lacks is an error.  Returns 0, or -1 with *err set. */
int profile_merge(struct bm_profile *dst, const struct bm_profile *src, const struct bm_model *m,
		  char **err);

/* Takes src's costs out of dst, matching functions, calls and lines by
 * name (none goes below 0; call counts stay), then recomputes dst's
 * inclusive costs and cycles: the harness's own cost out of a
 * benchmark's.  src's function named stand_in stands for the one function
 * that its caller calls in dst (the benchmark's run function: an empty
 * run's call and return come out of it).  Columns are matched by event
 * name; an event that dst lacks is an error.  Returns 0, or -1 with *err
 * set. */
int profile_subtract(struct bm_profile *dst, const struct bm_profile *src, const char *stand_in,
		     const struct bm_model *m, char **err);

/* The known events of a cost array of p (nevents counters). */
void profile_events(const struct bm_profile *p, const uint64_t *cost, struct bm_events *out);

/* Index of the column of event ev, or -1 when p did not count it. */
int profile_column(const struct bm_profile *p, enum bm_event ev);

#endif
