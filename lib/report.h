/* SPDX-License-Identifier: MIT */
/* The report: what one bm-run (or bm-profile --json) measured, in the
 * schema "bm-report/1" (SPEC section 5).  This module holds the report in
 * memory and converts it to and from JSON with Jansson.  Fields are added,
 * never renamed, within a schema version; a reader ignores fields it does
 * not know.
 *
 * Ownership: every pointer in these structs is owned by the report and
 * freed by report_release; strings are NUL-terminated and may be NULL
 * where the comment says "or NULL" (written as JSON null). */
#ifndef BM_REPORT_H
#define BM_REPORT_H

#include "cache_geometry.h"
#include "events.h"
#include "report_identity.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define REPORT_SCHEMA "bm-report/1"

/* What the bm engine's guest sees of the processor (its cpuid answers,
 * simulator/engine/cpu.c), one description per virtual CPU of bm-run's
 * --cpu: bm-run records it as model.cpu, and a report of another CPU is
 * of another series (series_identity.h).  A description never changes:
 * another answer to cpuid is another CPU. */
/* --cpu x86-64-v1: VEX's baseline processor. */
#define REPORT_CPU_X86_64_V1                                                                      \
	"VEX baseline x86-64: AuthenticAMD family 15 model 5, cpuid max leaf 1, SSE2 (no SSE3 or later)"
/* --cpu x86-64-v3: bm's own (docs/engine.md has its cpuid). */
#define REPORT_CPU_X86_64_V3                                                                      \
	"bm x86-64-v3: AuthenticAMD family 25 model 1, cpuid max leaf 13, AVX2 BMI2 FMA RDRAND (no AVX-512)"
/* --cpu x86-64-v3-server: the same with PCLMULQDQ, AES and ADX. */
#define REPORT_CPU_X86_64_V3_SERVER                                                               \
	"bm x86-64-v3-server: AuthenticAMD family 25 model 1, cpuid max leaf 13, AVX2 BMI2 FMA RDRAND PCLMULQDQ " \
	"AES ADX (no AVX-512)"
/* The CPU every stored run of the bm engine saw before --cpu, left out of
 * series identities so that their series go on, whatever bm-run's
 * default becomes. */
#define REPORT_FIXED_CPU REPORT_CPU_X86_64_V1

enum bm_status { BM_STATUS_OK, BM_STATUS_FAILED, BM_STATUS_SKIPPED, BM_STATUS_NOT_RUN };

/* One caller of a syscall-making function: how often it called it and the
 * system-call cost that went through those calls. */
struct bm_syscall_caller {
	char *function;
	uint64_t calls, count, wall_ns, cpu_ns;
};

/* A function in which system calls happened (usually a libc wrapper such
 * as read or nanosleep), with its own system-call cost. */
struct bm_syscall_function {
	char *function;
	uint64_t count, wall_ns, cpu_ns;
	struct bm_syscall_caller *callers;
	size_t ncallers;
};

/* System calls of one benchmark: never part of cycles, time or speed. */
struct bm_syscalls {
	uint64_t count, wall_ns, cpu_ns;
	struct bm_syscall_function *by_function;
	size_t nby_function;
};

/* A number another suite's harness measured, named after its source
 * ("walltime", "cpu_time", "InstructionReads", Chromium's units): what
 * bm-import puts in a report instead of simulated events. */
struct bm_metric {
	char *name;
	char *unit; /* "s", "bytes", ... */
	double value; /* finite */
};

/* One benchmark's result in a report (libbm's struct bm_benchmark, in
 * bm.h, is the benchmark a program declares). */
/* What the program asked its allocator for in a benchmark (the bm
 * engine's --heap: docs/report-format.md "heap"): the blocks allocated and
 * their bytes, and, where a dump says (not in symbol mode), the most bytes
 * the benchmark's blocks held at once and those it left allocated. */
struct bm_heap {
	int measured;   /* allocations and bytes_allocated were counted */
	int has_peak;   /* peak_bytes, leaked_bytes, leaked_blocks, frees and bytes_freed too */
	int has_system; /* system_bytes too: what brk and mmap gave the heap */
	uint64_t allocations, bytes_allocated, peak_bytes, leaked_bytes, leaked_blocks, system_bytes;
	uint64_t frees, bytes_freed; /* blocks freed (allocated whenever) and their bytes */
};

/* A "heap" object into *h (at: its path, "benchmarks[0].heap.", for the
 * messages): the counts required, the peak and leaks all three or none. */
int report_heap_from_json(const json_t *o, const char *at, struct bm_heap *h, char **err);

struct bm_result {
	char *id;    /* "suite::name[tag]" */
	char *suite; /* or NULL */
	char *name;
	char *tag;   /* or NULL */
	enum bm_status status;
	char *reason; /* why it failed or was skipped (an ok one's: how it was
		       * measured, where that needs saying), or NULL */
	/* The numbers; meaningful only when status is BM_STATUS_OK. */
	struct bm_events events;
	uint64_t cycles;
	double time_s, speed;
	struct bm_syscalls syscalls;
	uint64_t calls;  /* symbol mode: how often the function was called (the
			  * numbers are its total); 0 when not counted */
	struct bm_heap heap;
	uint64_t iterations; /* a Google Benchmark benchmark: the iterations of
			      * the run it reported (the numbers are per
			      * iteration); 0 for others */
	json_t *profile; /* the profile object as bm-profile builds it, or NULL */
	/* An ok one's: why another run may count otherwise (the bm engine
	 * could not keep its threads' order), or NULL. */
	char *nondeterministic;
	/* Imported measurements, or none: a benchmark of an ok status has
	 * either these or the simulated numbers above, never both.
	 * metrics[0] is the benchmark's value ("metric", "value" and "unit"
	 * in JSON); the others are its "extra_metrics". */
	struct bm_metric *metrics;
	size_t nmetrics;
};

struct bm_report_model {
	char *id; /* "bm-model/1" */
	double frequency_hz;
	uint64_t l1_hit, ll_hit, ram;          /* bm-model/1's weights */
	struct bm_cache_geometry i1, d1, ll; /* all zero when unknown */
	struct bm_cache_geometry l2;         /* bm-model/2's L2, or all zero */
	/* bm-model/2's costs in hundredths of a cycle ({"fetch": [L2, LL,
	 * memory], "read", "chained", "write", "mispredict",
	 * "indirect_mispredict"}: simulator/model.h), or NULL */
	json_t *costs;
	char *cpu_features; /* the GLIBC_TUNABLES the program ran with, or NULL */
	char *cpu;          /* the CPU the guest saw (bm engine: REPORT_CPU_*;
			     * callgrind: "host: " and the host's), or NULL */
	int warm_caches;    /* measured after an unmeasured run (bm-run --warm) */
	char *clock;        /* the time the program read: "virtual" (the bm
			     * engine's) or "host"; NULL when not said */
};

struct bm_commit {
	char *sha;
	char *timestamp; /* committer time, RFC 3339, or NULL */
	char **ancestors; /* first-parent ancestry, nearest first */
	size_t nancestors;
};

struct bm_pull_request {
	long number;
	char *base_branch; /* or NULL */
	char *merge_base;  /* the commit where it left its base branch, or NULL */
};

struct bm_context {
	char *compiler, *os, *arch; /* the platform; each or NULL */
	char *host;                 /* or NULL */
	char *branch;               /* or NULL */
	struct bm_commit *commit;   /* or NULL */
	struct bm_pull_request *pr; /* or NULL */
};

struct bm_report {
	char *run_id;     /* a UUID */
	char *created_at; /* RFC 3339, UTC */
	char *tool_name, *tool_version;
	char *valgrind; /* Valgrind's version, or NULL */
	char *engine;   /* the Valgrind tool that counted: "callgrind", "bm", or NULL */
	struct bm_report_model model;
	struct bm_context context;
	char *binary_path, *build_id; /* each or NULL */
	/* What bm-run fed the program on standard input: its size and
	 * SHA-256 (64 lower-case hex digits), or stdin_sha256 NULL for none
	 * (/dev/null).  Part of the series identity. */
	uint64_t stdin_bytes;
	char *stdin_sha256;
	struct bm_result *benchmarks;
	size_t nbenchmarks, benchmarks_alloc;
};

/* Frees what c holds and zeroes it (report_release does this for the
 * report's context). */
void report_context_release(struct bm_context *c);
/* Sets the context object j's "branch", "commit" and "pr" from c,
 * replacing what j had: the one writer of them, for whole reports and
 * for bm-upload, which gives a report the CI's context. */
void report_context_put_vcs(json_t *j, const struct bm_context *c);

/* Sets r up empty: a fresh run_id and created_at, no benchmarks. */
void report_init(struct bm_report *r);
/* Frees everything r holds; r itself stays (re-init before reuse). */
void report_release(struct bm_report *r);

/* Frees what s holds and zeroes it (report_release does this for the
 * benchmarks it owns). */
void syscalls_release(struct bm_syscalls *s);

/* Appends a zeroed benchmark owned by r and returns it; the pointer is
 * valid until the next report_add_benchmark. */
struct bm_result *report_add_benchmark(struct bm_report *r);

/* Appends a metric to b (copies of name and unit); value must be finite. */
void benchmark_add_metric(struct bm_result *b, const char *name, const char *unit, double value);

/* How fast b is, as one number to compare between two runs of it: higher
 * is better, and the impact of a change is (speed - base) / base (SPEC
 * 4.1).  The rule (docs/bm-import.md, "How imported benchmarks are
 * compared"):
 * - a simulated benchmark: its speed, executions per second on the
 *   model's CPU;
 * - an imported one: from its primary metric, metrics[0].  A rate
 *   (metric_unit_is_rate: "runs/s", "Hz", ...) is already higher-better:
 *   the value itself.  Any other unit is a cost, lower-better (a time,
 *   bytes, instructions, ...): 1 / value, which for "s" is literally
 *   executions per second.
 * 0 means "not comparable": b is not ok, its value is 0 or negative, or
 * 1 / value overflows a double. */
double benchmark_speed(const struct bm_result *b);

/* Whether unit measures a rate, higher being better: it ends in "/s"
 * ("runs/s", "MB/s") or is "Hz" or "fps" (case matters: "ms" is a
 * time).  Every other unit is taken for a cost. */
int metric_unit_is_rate(const char *unit);

/* Sets b's id and derives suite, name and tag from it: "s::n[t]" gives
 * suite "s", name "n", tag "t"; without "::" the suite is NULL, without a
 * trailing "[...]" the tag is NULL. */
void benchmark_set_id(struct bm_result *b, const char *id);

/* The JSON of a benchmark's system calls (a new reference). */
json_t *syscalls_to_json(const struct bm_syscalls *s);

/* The JSON of r (a new reference). */
json_t *report_to_json(const struct bm_report *r);

/* Writes r as indented JSON to path ("-" is standard output).  A file is
 * written to a temporary name beside it and renamed into place, so a
 * failure leaves no half-written report.  Returns 0, or -1 with *err set. */
int report_write_file(const struct bm_report *r, const char *path, char **err);

/* The same into a file opened earlier with atomic_file_open (bm-run opens
 * its output before running anything, to fail early); commits or aborts
 * af, which is freed either way. */
struct atomic_file;
int report_write_to(const struct bm_report *r, struct atomic_file *af, char **err);

/* Fills r (which must be released or uninitialised) from j.  Rejects a
 * schema other than bm-report/1 and missing or mistyped required fields
 * with a message naming the field, e.g. "benchmarks[2].cycles: expected a
 * non-negative integer"; a benchmark id that appears twice; and a
 * simulated "ok" benchmark whose numbers contradict each other: time_s
 * must be cycles / frequency_hz and speed frequency_hz / cycles, to within
 * floating-point rounding (one part in 10^9), and positive (0 cycles: both
 * 0, not compared), the message naming the benchmark.  An imported benchmark's values must be
 * finite (0 and negative ones are read: benchmark_speed calls them not
 * comparable).  On error r is left empty (released). */
int report_from_json(const json_t *j, struct bm_report *r, char **err);

/* Reads and validates a report file ("-" is standard input).  Errors are
 * prefixed with the path. */
int report_read_file(const char *path, struct bm_report *r, char **err);

/* "ok", "failed", "skipped" or "not-run" (a function that was never
 * called: nothing measured, nothing failed): the name a report gives
 * status. */
const char *report_status_name(enum bm_status status);

#endif
