/* SPDX-License-Identifier: MIT */
/* bm-run's command line: its options, their defaults and environment
 * variables (BM_ENGINE, BM_CPU, BM_MODEL), and the combinations it
 * refuses, each said before anything runs. */
#ifndef BM_RUN_OPTIONS_H
#define BM_RUN_OPTIONS_H

#include "launcher.h"
#include "model.h"
#include "virtual_cpu.h"

#include <stddef.h>

struct run_options {
	const char *output;
	char **globs; /* --bench */
	size_t nglobs;
	char **filters; /* --filter, passed to libbm programs */
	size_t nfilters;
	const char *name;
	int whole;
	enum run_mode harness; /* --harness gbench or catch2 (MODE_GBENCH,
				* MODE_CATCH2), else MODE_WHOLE: none said */
	int parallel;
	const char *manifest;
	char **env;
	size_t nenv;
	double timeout_s;
	int verify, quiet, verbose, with_profile, print_command;
	int warm, warm_given; /* --warm (default) or --cold; given: said on the command line */
	enum engine engine;
	enum bm_cpu cpu;
	const char *cpu_from; /* "--cpu" or "BM_CPU": where the CPU was chosen, if it was */
	int branch_sim; /* --branch-sim */
	int virtual_clock;      /* --clock virtual (the default with the bm engine) or host */
	int heap;               /* the bm engine counts allocations (default; --no-heap) */
	const char *clock_from; /* "--clock" or "BM_CLOCK", if either said */
	const char *keep_dir;
	const char *stdin_file; /* --stdin */
	const struct bm_model *model; /* --model or BM_MODEL, else bm-model/3 with the bm
				       * engine and bm-model/1 with callgrind */
};


/* Fills o from the command line and the environment; optind is left at
 * the program (or past the options, with --manifest).  Returns 0, 1 when
 * --help or --version printed what was asked (exit 0), or -1 after saying
 * what is wrong (exit 2).  o's arrays (globs, filters, env) are o's to
 * free. */
int run_options_parse(int argc, char **argv, struct run_options *o);

#endif
