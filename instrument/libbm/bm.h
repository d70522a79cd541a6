/* SPDX-License-Identifier: MIT */
/* libbm: benchmarks that bm-run measures deterministically.
 *
 *     #include <bm.h>
 *
 *     static void sort_random(struct bm_state *s)
 *     {
 *             int *a = bm_data(s);                  // made by the setup
 *             qsort(a, bm_param(s, "n"), sizeof *a, compare);
 *     }
 *
 *     BM_BENCHMARK(sort, qsort, .run = sort_random, .setup = make_array, .teardown = free_array,
 *                  .params = BM_PARAMS(BM_RANGE("n", 1000, 10000, 100000)));
 *     BM_MAIN();
 *
 * One line registers a benchmark; its id is "suite::name", with a tag of
 * its parameter values when it has parameters: "sort::qsort[n=1000]",
 * "parse::file[input=small.json]".  Every combination of the parameters'
 * values runs.
 *
 * Under Valgrind (as bm-run runs it) each benchmark's run function executes
 * exactly once, between callgrind client requests, so that each benchmark
 * gets its own profile dump; the setups and teardowns run outside the
 * measured region.  Run natively, the same binary times itself with a
 * calibrated wall-clock loop and prints the median and spread (and with
 * --json FILE writes them as a bm-report/1).  Every binary answers --list,
 * --filter GLOB and --help.
 *
 * Link with `pkg-config --cflags --libs bm`.  Benchmarks should be
 * single-threaded: Valgrind serialises threads, and their interleaving is
 * not reproducible. */
#ifndef BM_H
#define BM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libbm is built with hidden visibility; these are its interface. */
#define BM_API __attribute__((visibility("default")))

/* One execution of a benchmark: its parameter values and the data its
 * setup made.  Owned by libbm. */
struct bm_state;

/* A parameter and the values it takes: count integers (BM_RANGE) or
 * count strings (BM_VALUES).  With limit_s > 0 the range is time-bounded:
 * values are tried in order, and once one takes longer than limit_s
 * seconds (estimated from simulated cycles under bm-run, measured
 * natively) the remaining values are skipped, and reported as skipped, for
 * the same values of the other parameters. */
struct bm_param {
	const char *name;
	const long *values;         /* the integers, or NULL */
	size_t count;
	double limit_s;
	const char *const *strings; /* the strings, or NULL */
};

struct bm_benchmark {
	const char *suite, *name;
	void (*run)(struct bm_state *s);      /* the measured work (required) */
	void (*setup)(struct bm_state *s);    /* before each run, not measured */
	void (*teardown)(struct bm_state *s); /* after each run, not measured */
	const struct bm_param *params;        /* ended by an entry with name NULL */
	const char *file;                     /* where it was registered */
	int line;
	/* Once for each combination of parameter values, before its first
	 * setup and after its last teardown (natively: around all the timed
	 * runs, not around each): for work that every run only reads, such as
	 * reading an input file.  Not measured. */
	void (*setup_once)(struct bm_state *s);
	void (*teardown_once)(struct bm_state *s);
};

/* Adds b to the benchmarks bm_main runs (b must outlive the program).  The
 * BM_BENCHMARK macro calls it before main. */
BM_API void bm_register(const struct bm_benchmark *b);

/* In warm runs (bm-run's default) b's measured run follows its warm-up
 * run at once, with one setup before both and one teardown after, rather
 * than after a teardown and a setup that come between them (and whose
 * memory traffic is in the caches the measured run finds): for a run that
 * leaves its input as it found it.  Natively nothing changes.  The
 * BM_WARM_RERUN macro calls it before main. */
BM_API void bm_warm_rerun(const struct bm_benchmark *b);

/* Runs the registered benchmarks as the command line says; returns the
 * exit status (0, 1 when a benchmark could not run, 2 on a usage error). */
BM_API int bm_main(int argc, char **argv);

/* The value of integer parameter name (BM_RANGE) in this execution.  A
 * name the benchmark does not declare, or one of a BM_VALUES parameter, is
 * a programming error: libbm says so and exits 2. */
BM_API long bm_param(const struct bm_state *s, const char *name);

/* The value of string parameter name (BM_VALUES), likewise. */
BM_API const char *bm_param_str(const struct bm_state *s, const char *name);

/* The data the setup made, for run and teardown. */
BM_API void bm_set_data(struct bm_state *s, void *data);
BM_API void *bm_data(const struct bm_state *s);

/* The data setup_once made, for every later callback of the benchmark. */
BM_API void bm_set_shared(struct bm_state *s, void *shared);
BM_API void *bm_shared(const struct bm_state *s);

/* The benchmark's id, "suite::name[tag]". */
BM_API const char *bm_id(const struct bm_state *s);

/* Keeps the compiler from deleting or hoisting work whose result would
 * otherwise be unused: the value (or what a pointer points to) counts as
 * read by code the optimiser cannot see. */
#define bm_black_box(x)                                                                            \
	do {                                                                                       \
		__typeof__(x) bm_black_box_value_ = (x);                                           \
		__asm__ volatile("" : : "r"(&bm_black_box_value_) : "memory");                    \
	} while (0)

/* BM_BENCHMARK(suite, name, .run = f, ...): registers a benchmark in one
 * line; the other members of struct bm_benchmark may follow as designated
 * initialisers. */
#define BM_BENCHMARK(suite_, name_, ...)                                                           \
	static const struct bm_benchmark bm_benchmark_##suite_##_##name_ = {                       \
		.suite = #suite_, .name = #name_, .file = __FILE__, .line = __LINE__, __VA_ARGS__}; \
	__attribute__((constructor)) static void bm_register_##suite_##_##name_(void)             \
	{                                                                                          \
		bm_register(&bm_benchmark_##suite_##_##name_);                                     \
	}

/* BM_WARM_RERUN(suite, name): after BM_BENCHMARK(suite, name, ...) in the
 * same file, marks it for bm_warm_rerun. */
#define BM_WARM_RERUN(suite_, name_)                                                               \
	__attribute__((constructor)) static void bm_warm_rerun_##suite_##_##name_(void)            \
	{                                                                                          \
		bm_warm_rerun(&bm_benchmark_##suite_##_##name_);                                   \
	}

/* BM_PARAMS(BM_RANGE("n", 10, 100), BM_RANGE_LIMITED("k", 0.5, 1, 2, 4),
 *           BM_VALUES("input", "small.json", "large.json"))
 * A string value is its own tag text: it may not be empty or hold white
 * space, control characters, ',', '=', '[' or ']'. */
#define BM_PARAMS(...) ((const struct bm_param[]){__VA_ARGS__, {NULL, NULL, 0, 0, NULL}})
#define BM_RANGE(name, ...) BM_RANGE_LIMITED(name, 0, __VA_ARGS__)
#define BM_RANGE_LIMITED(name, limit, ...)                                                         \
	{(name), (const long[]){__VA_ARGS__},                                                      \
	 sizeof((const long[]){__VA_ARGS__}) / sizeof(long), (limit), NULL}
#define BM_VALUES(name, ...)                                                                       \
	{(name), NULL, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *), 0,      \
	 (const char *const[]){__VA_ARGS__}}

/* The program's main: runs every registered benchmark. */
#define BM_MAIN()                                                                                  \
	int main(int argc, char **argv)                                                            \
	{                                                                                          \
		return bm_main(argc, argv);                                                        \
	}

#ifdef __cplusplus
}
#endif

#endif
