/* SPDX-License-Identifier: MIT */
/* Valgrind: where its real binary is, which version it is, and the
 * command line bm-run gives it in each mode. */
#ifndef BM_LAUNCHER_H
#define BM_LAUNCHER_H

#include "sandbox.h"
#include "virtual_cpu.h"

#include <stddef.h>
#include <stdio.h>

enum run_mode {
	MODE_HARNESS, /* the program links libbm: one dump per benchmark */
	MODE_SYMBOL,  /* one function's calls, collected with callgrind's
		       * --toggle-collect (--engine callgrind) */
	MODE_SYMBOLS, /* every function's calls from one run (bm's tool
		       * collects in each, --collect-in) */
	MODE_WHOLE,   /* the whole process */
	MODE_GBENCH,  /* a Google Benchmark binary: one dump per run of a
		       * benchmark's timed loop, and its own JSON report */
	MODE_CATCH2,  /* a Catch2 binary with benchmarks: its XML report */
};

/* Where a MODE_GBENCH or MODE_CATCH2 program writes its report, in its
 * sandbox. */
#define GBENCH_REPORT "gbench.json"
#define CATCH2_REPORT "catch2.xml"

/* Where execvp would find name (which has no '/'): the first regular
 * file with an execute bit in PATH (the working directory for an empty
 * entry; /bin:/usr/bin without PATH), skipping directories and files it
 * cannot run.  Newly allocated, or NULL when there is none. */
char *launcher_search_path(const char *name);

/* The real Valgrind binary, newly allocated: $BM_VALGRIND if set, else
 * valgrind.bin (Debian's /usr/bin/valgrind is a shell script that adds
 * LD_LIBRARY_PATH and PWD to the program's environment), else valgrind,
 * searched in PATH.  Returns NULL with *err set when there is none. */
char *launcher_find_valgrind(char **err);

/* Valgrind's version ("3.19.0"), newly allocated, or NULL with *err set. */
char *launcher_valgrind_version(const char *valgrind, char **err);

/* The engines that count: Valgrind's callgrind, or bm's own tool
 * (simulator/engine: the same events and call graph, on a fixed CPU). */
enum engine { ENGINE_CALLGRIND, ENGINE_BM };

/* (What the bm engine's guest sees of the processor is the virtual CPU
 * bm-run's --cpu picks: virtual_cpu.h.) */

/* The directory of bm's tool, to be VALGRIND_LIB (newly allocated; it
 * links callgrind's tool too): $BM_ENGINE_DIR, else the build tree's when
 * this bm-run is run from its build tree, else where `make install` put
 * it.  NULL with *err set when the tool is not there or was built for
 * another Valgrind version than version. */
char *launcher_engine_dir(const char *version, char **err);

/* How programs are measured, as bm-run's options chose. */
struct bm_model;
struct measure_setup {
	enum engine engine;
	const struct bm_model *model; /* its caches: bm-model/2 adds an L2, the blocks' core
				       * cycles and branch prediction (the bm engine only) */
	enum bm_cpu cpu;              /* the bm engine's virtual CPU, and glibc's mask */
	int branch_sim;               /* the branch events (--branch-sim; bm-model/2's always) */
	int virtual_clock;            /* the bm engine's virtual clock at the model's frequency */
	int heap;                     /* the bm engine counts allocations (--heap=yes) */
	int perturbed;                /* --verify's second run with the bm engine: the
				       * mappings elsewhere, the environment larger */
};

/* The bytes m's environment has beyond its fixed size (sandbox.h). */
size_t launcher_padding(const struct measure_setup *m);

/* The argument vector (NULL-terminated, newly allocated; free with
 * launcher_free_argv) that runs the sandbox's program with args under
 * m's engine (callgrind, or bm's tool, which takes its options): the
 * model's pinned caches, system-call times, output in the sandbox, with
 * m->branch_sim the branch events (--branch-sim=yes); bm's tool gets the
 * CPU (its --cpu) and bm-model/2's L2 and block costs.  fns are the
 * functions measured: in MODE_SYMBOL the one callgrind collects in
 * (--toggle-collect, --engine callgrind only), in MODE_SYMBOLS those bm's
 * tool collects in, each in a file of its own (--collect-in). */
char **launcher_argv(const char *valgrind, const struct measure_setup *m, enum run_mode mode,
		     char *const *fns, size_t nfns, const struct sandbox *sb, char *const *args, size_t nargs);
void launcher_free_argv(char **argv);

/* Prints to out, as a shell command, what runs program with args in mode:
 * the sandbox's environment (extra_env: --env) and launcher_argv's
 * command line, in a scratch directory that mktemp makes as
 * /tmp/bm-run.XXXXXX (so that the command runs as often as wanted), the
 * program's standard input from input (NULL: the shell's own) (bm-run
 * --print-command). */
void launcher_print_command(FILE *out, const char *valgrind, const struct measure_setup *m, enum run_mode mode,
			    char *const *fns, size_t nfns, const char *program, char *const *args, size_t nargs,
			    char *const *extra_env, size_t nextra_env, const char *input);

#endif
