/* SPDX-License-Identifier: MIT */
/* bm-run's command line: see run_options.h. */
#include "config.h"

#include "run_options.h"

#include "log.h"
#include "number.h"
#include "xalloc.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bm's own tool where it was built (configure --disable-engine leaves it
 * out, and callgrind counts). */
#ifdef BM_ENGINE_BUILT
#define DEFAULT_ENGINE ENGINE_BM
#define DEFAULT_ENGINE_NAME "bm"
#else
#define DEFAULT_ENGINE ENGINE_CALLGRIND
#define DEFAULT_ENGINE_NAME "callgrind"
#endif

/* The model --model or BM_MODEL named, else the default: the model of a
 * current core, whose numbers follow native time
 * (docs/fidelity.md), where the engine counts its events; callgrind
 * cannot, and measures with bm-model/1. */
static const struct bm_model *model_or_default(const struct run_options *o)
{
	return o->model ? o->model : o->engine == ENGINE_BM ? &model_v3 : &model_v1;
}

static void usage(FILE *out, const struct run_options *o)
{
	const struct bm_model *model = model_or_default(o);
	fprintf(out,
		"usage: bm-run [OPTIONS] -- PROGRAM [ARGS...]\n"
		"       bm-run [OPTIONS] --manifest FILE\n"
		"\n"
		"Runs PROGRAM once under Valgrind (bm's own engine, or callgrind) with\n"
		"pinned caches, a fixed environment and a fixed CPU, and reports for each\n"
		"benchmark its cycles (%s), estimated time and speed at %.1f GHz, and\n"
		"apart from them its system calls.  The same binary gives the same numbers\n"
		"on every run and host.\n"
		"\n"
		"Modes: a PROGRAM that links libbm, Google Benchmark or Catch2 reports each of its\n"
		"benchmarks; with --bench GLOB each matching function of an unmodified\n"
		"PROGRAM is a benchmark over all its calls; otherwise the whole process is\n"
		"one.\n"
		"\n"
		"  -o, --output FILE   write the bm-report/1 report to FILE\n"
		"      --filter GLOB   run only the libbm benchmarks whose ids match GLOB\n"
		"                      (repeatable; the same as the program's --filter)\n"
		"      --bench GLOB    symbol mode: functions matching GLOB (repeatable)\n"
		"      --name NAME     the benchmark's name in whole-process mode\n"
		"      --whole         whole-process mode even for a PROGRAM that links libbm\n"
		"                      or Google Benchmark or Catch2\n"
		"      --harness NAME  PROGRAM is a gbench (Google Benchmark) or catch2 binary\n"
		"                      (found by itself where its symbols say so)\n"
		"  -j, --jobs N        run up to N Valgrind processes at once (default 1)\n"
		"      --manifest FILE run each command line of FILE, one report for all\n"
		"      --env K=V       add K=V to the program's environment (repeatable)\n"
		"      --stdin FILE    feed FILE to the standard input of a program measured\n"
		"                      as it runs (whole-process, symbol mode; default: what\n"
		"                      bm-run reads on its own, when that is a file or a pipe;\n"
		"                      else, and for libbm programs, /dev/null)\n"
		"      --timeout SECONDS  fail a benchmark that runs longer (default: none):\n"
		"                      a libbm benchmark from its own start, not the\n"
		"                      program's; in the other modes the program's whole\n"
		"                      run under Valgrind, its start-up included\n"
		"      --verify        run everything twice; fail on any difference\n"
		"      --cold          measure each libbm benchmark on cold simulated caches\n"
		"      --warm          measure it after an unmeasured first run, on the caches\n"
		"                      that run left (the default)\n"
		"      --engine NAME   count with bm (bm's own Valgrind tool: callgrind's events\n"
		"                      and call graph, 3-4x faster, on a fixed virtual CPU) or\n"
		"                      callgrind; default " DEFAULT_ENGINE_NAME ", or BM_ENGINE\n"
		"      --model NAME    the cost model: bm-model/3 (a current core: each block's\n"
		"                      code, branch prediction, L2 and prefetch; the default\n"
		"                      with the bm engine), bm-model/4 (bm-model/3 with\n"
		"                      chains through memory and software prefetches, on\n"
		"                      x86-64-v3-server), bm-model/2 (bm-model/3 with Zen 1's\n"
		"                      division) or bm-model/1 (events weighted 1/5/35: the\n"
		"                      default with callgrind, and the model of reports made\n"
		"                      before bm-model/3 was the default); or BM_MODEL\n"
		"      --cpu NAME      the bm engine's virtual CPU, what the program sees:\n"
		"                      x86-64-v1 (SSE2 only), x86-64-v3 (AVX2, BMI2, FMA, the\n"
		"                      level of production machines) or x86-64-v3-server (the\n"
		"                      same with PCLMULQDQ, AES and ADX, as every server core\n"
		"                      since 2017); default x86-64-v3 with bm-model/2 and /3,\n"
		"                      x86-64-v3-server with bm-model/4, else %s,\n"
		"                      or BM_CPU\n"
		"      --clock NAME    the time the program reads (clock_gettime, rdtsc...):\n"
		"                      virtual (the bm engine's: starts at a fixed instant and\n"
		"                      advances with the model's cycles and the sleeps, the\n"
		"                      same in every run) or host; default virtual with the bm\n"
		"                      engine, host with callgrind, or BM_CLOCK\n"
		"      --branch-sim    simulate branch prediction too: the events Bc, Bcm, Bi\n"
		"                      and Bim (bm-model/2 and /3 always do and cost them)\n"
		"      --keep DIR      keep the callgrind files in DIR (for KCachegrind;\n"
		"                      made if missing)\n"
		"      --print-command print the Valgrind command line of each program, with\n"
		"                      its environment, and run nothing\n"
		"      --no-profile    leave the per-function profiles out of the report\n"
		"      --no-heap       do not count what the program allocates (the bm engine\n"
		"                      counts it in the same run without changing a number)\n"
		"  -q, --quiet         no progress and no table; errors are still shown\n"
		"  -v, --verbose       show what each program wrote to standard output\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n"
		"\n"
		"Exit status: 0 when every benchmark ran, 1 when one failed (crashed, was\n"
		"killed, timed out, exited non-zero) or --verify found a difference, 2 on\n"
		"a usage or environment error.  Ended by SIGINT, SIGTERM or SIGHUP, bm-run\n"
		"ends its programs, removes its files and dies of that signal.\n",
		model->id, model->frequency_hz / 1e9, virtual_cpu(CPU_DEFAULT)->name);
}

static int parse_engine(const char *name, const char *what, enum engine *engine)
{
	if (strcmp(name, "callgrind") == 0) {
		*engine = ENGINE_CALLGRIND;
	} else if (strcmp(name, "bm") == 0) {
		*engine = ENGINE_BM;
	} else {
		log_error("%s is callgrind or bm, not '%s'", what, name);
		return -1;
	}
	return 0;
}

static int parse_clock(const char *name, const char *what, struct run_options *o)
{
	if (strcmp(name, "virtual") && strcmp(name, "host")) {
		log_error("%s is virtual or host, not '%s'", what, name);
		return -1;
	}
	o->virtual_clock = strcmp(name, "virtual") == 0;
	o->clock_from = what;
	return 0;
}

static int parse_model(const char *name, const char *what, struct run_options *o)
{
	char *err = NULL;
	const struct bm_model *m = model_named(name, what, &err);
	if (!m) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	o->model = m;
	return 0;
}

static int parse_cpu(const char *name, const char *what, struct run_options *o)
{
	if (virtual_cpu_parse(name, &o->cpu) < 0) {
		log_error("%s is x86-64-v1, x86-64-v3 or x86-64-v3-server, not '%s'", what, name);
		return -1;
	}
	o->cpu_from = what;
	return 0;
}

int run_options_parse(int argc, char **argv, struct run_options *o)
{
	enum { OPT_BENCH = 256, OPT_NAME, OPT_WHOLE, OPT_MANIFEST, OPT_ENV, OPT_TIMEOUT, OPT_VERIFY,
	       OPT_WARM, OPT_COLD, OPT_KEEP, OPT_NO_PROFILE, OPT_NO_HEAP, OPT_VERSION, OPT_FILTER,
	       OPT_PRINT_COMMAND, OPT_ENGINE, OPT_BRANCH_SIM, OPT_CPU, OPT_MODEL, OPT_STDIN, OPT_CLOCK, OPT_HARNESS };
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"bench", required_argument, NULL, OPT_BENCH},
		{"name", required_argument, NULL, OPT_NAME},
		{"whole", no_argument, NULL, OPT_WHOLE},
		{"jobs", required_argument, NULL, 'j'},
		{"manifest", required_argument, NULL, OPT_MANIFEST},
		{"env", required_argument, NULL, OPT_ENV},
		{"stdin", required_argument, NULL, OPT_STDIN},
		{"timeout", required_argument, NULL, OPT_TIMEOUT},
		{"verify", no_argument, NULL, OPT_VERIFY},
		{"warm", no_argument, NULL, OPT_WARM},
		{"cold", no_argument, NULL, OPT_COLD},
		{"keep", required_argument, NULL, OPT_KEEP},
		{"no-profile", no_argument, NULL, OPT_NO_PROFILE},
		{"no-heap", no_argument, NULL, OPT_NO_HEAP},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"filter", required_argument, NULL, OPT_FILTER},
		{"print-command", no_argument, NULL, OPT_PRINT_COMMAND},
		{"engine", required_argument, NULL, OPT_ENGINE},
		{"cpu", required_argument, NULL, OPT_CPU},
		{"model", required_argument, NULL, OPT_MODEL},
		{"branch-sim", no_argument, NULL, OPT_BRANCH_SIM},
		{"clock", required_argument, NULL, OPT_CLOCK},
		{"harness", required_argument, NULL, OPT_HARNESS},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	*o = (struct run_options){.parallel = 1, .harness = MODE_WHOLE, .with_profile = 1, .warm = 1, .engine = DEFAULT_ENGINE,
			      .cpu = CPU_DEFAULT, .virtual_clock = 1, .heap = 1};
	const char *engine_env = getenv("BM_ENGINE");
	if (engine_env && *engine_env && parse_engine(engine_env, "BM_ENGINE", &o->engine) < 0)
		return -1;
	const char *cpu_env = getenv("BM_CPU"), *model_env = getenv("BM_MODEL");
	if (cpu_env && *cpu_env && parse_cpu(cpu_env, "BM_CPU", o) < 0)
		return -1;
	if (model_env && *model_env && parse_model(model_env, "BM_MODEL", o) < 0)
		return -1;
	const char *clock_env = getenv("BM_CLOCK");
	if (clock_env && *clock_env && parse_clock(clock_env, "BM_CLOCK", o) < 0)
		return -1;
	int c;
	long long whole;
	char *err = NULL;
	/* "+": options end at PROGRAM, whose own options follow it. */
	while ((c = getopt_long(argc, argv, "+o:j:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_BENCH:
			o->globs = xreallocarray(o->globs, o->nglobs + 1, sizeof *o->globs);
			o->globs[o->nglobs++] = optarg;
			break;
		case OPT_NAME:
			o->name = optarg;
			break;
		case OPT_WHOLE:
			o->whole = 1;
			break;
		case OPT_HARNESS:
			if (strcmp(optarg, "gbench") == 0) {
				o->harness = MODE_GBENCH;
			} else if (strcmp(optarg, "catch2") == 0) {
				o->harness = MODE_CATCH2;
			} else {
				log_error("--harness names the suite PROGRAM is built with: gbench (Google Benchmark) "
					  "or catch2, not '%s' (libbm's programs are recognised by themselves)",
					  optarg);
				return -1;
			}
			break;
		case 'j':
			if (number_option("--jobs", "a number", optarg, 1, 256, &whole, &err))
				return log_refusal(err);
			o->parallel = (int)whole;
			break;
		case OPT_MANIFEST:
			o->manifest = optarg;
			break;
		case OPT_ENV:
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				log_error("--env needs KEY=VALUE, not '%s'", optarg);
				return -1;
			}
			o->env = xreallocarray(o->env, o->nenv + 1, sizeof *o->env);
			o->env[o->nenv++] = optarg;
			break;
		case OPT_STDIN:
			o->stdin_file = optarg;
			break;
		case OPT_TIMEOUT:
			if (number_option_real("--timeout", "seconds", optarg, 0.001, 1e6, &o->timeout_s, &err))
				return log_refusal(err);
			break;
		case OPT_VERIFY:
			o->verify = 1;
			break;
		case OPT_WARM:
		case OPT_COLD:
			o->warm = c == OPT_WARM;
			o->warm_given = 1;
			break;
		case OPT_KEEP:
			o->keep_dir = optarg;
			break;
		case OPT_NO_PROFILE:
			o->with_profile = 0;
			break;
		case OPT_NO_HEAP:
			o->heap = 0;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case OPT_FILTER:
			o->filters = xreallocarray(o->filters, o->nfilters + 1, sizeof *o->filters);
			o->filters[o->nfilters++] = optarg;
			break;
		case OPT_PRINT_COMMAND:
			o->print_command = 1;
			break;
		case OPT_ENGINE:
			if (parse_engine(optarg, "--engine", &o->engine) < 0)
				return -1;
			break;
		case OPT_CPU:
			if (parse_cpu(optarg, "--cpu", o) < 0)
				return -1;
			break;
		case OPT_MODEL:
			if (parse_model(optarg, "--model", o) < 0)
				return -1;
			break;
		case OPT_BRANCH_SIM:
			o->branch_sim = 1;
			break;
		case OPT_CLOCK:
			if (parse_clock(optarg, "--clock", o) < 0)
				return -1;
			break;
		case 'h':
			usage(stdout, o);
			return 1;
		case OPT_VERSION:
			printf("bm-run %s (%s)\n", PACKAGE_VERSION, model_or_default(o)->id);
			return 1;
		default:
			fprintf(stderr, "Try 'bm-run --help'.\n");
			return -1;
		}
	}
	if (o->manifest && optind < argc) {
		log_error("give either --manifest FILE or -- PROGRAM, not both");
		return -1;
	}
	if (!o->manifest && optind >= argc) {
		log_error("no program to run");
		fprintf(stderr, "Try 'bm-run --help'.\n");
		return -1;
	}
	if (o->name && o->manifest) {
		log_error("--name names one program's benchmark; it does not go with --manifest");
		return -1;
	}
	if (o->name && o->nglobs) {
		log_error("--name is for whole-process mode; symbol mode names benchmarks after functions");
		return -1;
	}
	if (o->harness != MODE_WHOLE && (o->whole || o->nglobs)) {
		log_error("--harness %s reports each of the suite's benchmarks; it does not go with %s",
			  o->harness == MODE_GBENCH ? "gbench" : "catch2", o->whole ? "--whole" : "--bench");
		return -1;
	}
	if (o->nfilters && o->nglobs) {
		log_error("--filter selects libbm benchmarks; symbol mode (--bench) names functions");
		return -1;
	}
	o->model = model_or_default(o);
	/* bm-model/2 counts what only the bm engine counts, on the level of
	 * the machines programs run on, branches included. */
	if (o->model->version == 2 && o->engine == ENGINE_CALLGRIND) {
		log_error("%s needs the bm engine (callgrind does not count its events): measure with --engine bm, or "
			  "--model bm-model/1",
			  o->model->id);
		return -1;
	}
	if (o->model->version == 2)
		o->branch_sim = 1;
	/* The model's CPU (bm-model/2 and on), unless one was asked for. */
	if (!o->cpu_from && o->model->cpu && virtual_cpu_parse(o->model->cpu, &o->cpu) < 0)
		abort();
	/* Callgrind's program reads the kernel's clock. */
	if (o->engine == ENGINE_CALLGRIND && o->virtual_clock) {
		if (o->clock_from) {
			log_error("%s virtual is the bm engine's clock, and callgrind's program reads the host's: measure "
				  "with --engine bm, or with %s host",
				  o->clock_from, o->clock_from);
			return -1;
		}
		o->virtual_clock = 0;
	}
	/* A CPU asked for and not given would be a number of another CPU. */
	if (o->cpu_from && o->engine == ENGINE_CALLGRIND) {
		log_error("%s is the bm engine's virtual CPU, and callgrind's program sees the host's: measure with "
			  "--engine bm, or without %s",
			  o->cpu_from, o->cpu_from);
		return -1;
	}
	return 0;
}
