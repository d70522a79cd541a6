/* SPDX-License-Identifier: MIT */
/* bm-run: runs benchmark programs under Valgrind's callgrind, under fixed
 * conditions, and reports deterministic cycles, time and speed.
 *
 * Everything that can be checked is checked before anything runs (Valgrind,
 * the programs, their symbols, the output path), so that a usage or
 * environment error costs nothing and writes nothing. */
#include "config.h"

#include "atomic_file.h"
#include "benchmark.h"
#include "dirs.h"
#include "dynbuf.h"
#include "elfinfo.h"
#include "launcher.h"
#include "libraries.h"
#include "log.h"
#include "manifest.h"
#include "model.h"
#include "number.h"
#include "path.h"
#include "platform.h"
#include "program_input.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "sandbox.h"
#include "table.h"
#include "virtual_cpu.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct options {
	const char *output;
	char **globs; /* --bench */
	size_t nglobs;
	char **filters; /* --filter, passed to libbm programs */
	size_t nfilters;
	const char *name;
	int whole;
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
	const char *keep_dir;
	const char *stdin_file; /* --stdin */
};

/* The cost model: --model or BM_MODEL, else this one. */
static const struct bm_model *model = &model_v1;

/* bm's own tool where it was built (configure --disable-engine leaves it
 * out, and callgrind counts). */
#ifdef BM_ENGINE_BUILT
#define DEFAULT_ENGINE ENGINE_BM
#define DEFAULT_ENGINE_NAME "bm"
#else
#define DEFAULT_ENGINE ENGINE_CALLGRIND
#define DEFAULT_ENGINE_NAME "callgrind"
#endif

static void usage(FILE *out)
{
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
		"Modes: a PROGRAM that links libbm reports each of its benchmarks; with\n"
		"--bench GLOB each matching function of an unmodified PROGRAM is a\n"
		"benchmark over all its calls; otherwise the whole process is one.\n"
		"\n"
		"  -o, --output FILE   write the bm-report/1 report to FILE\n"
		"      --filter GLOB   run only the libbm benchmarks whose ids match GLOB\n"
		"                      (repeatable; the same as the program's --filter)\n"
		"      --bench GLOB    symbol mode: functions matching GLOB (repeatable)\n"
		"      --name NAME     the benchmark's name in whole-process mode\n"
		"      --whole         whole-process mode even for a PROGRAM that links libbm\n"
		"  -j, --jobs N        run up to N Valgrind processes at once (default 1)\n"
		"      --manifest FILE run each command line of FILE, one report for all\n"
		"      --env K=V       add K=V to the program's environment (repeatable)\n"
		"      --stdin FILE    feed FILE to the program's standard input (default:\n"
		"                      what bm-run reads on its own, when that is a file or a\n"
		"                      pipe; else /dev/null)\n"
		"      --timeout SECONDS  fail a benchmark that runs longer (default: none)\n"
		"      --verify        run everything twice; fail on any difference\n"
		"      --cold          measure each libbm benchmark on cold simulated caches\n"
		"      --warm          measure it after an unmeasured first run, on the caches\n"
		"                      that run left (the default)\n"
		"      --engine NAME   count with bm (bm's own Valgrind tool: callgrind's events\n"
		"                      and call graph, 3-4x faster, on a fixed virtual CPU) or\n"
		"                      callgrind; default " DEFAULT_ENGINE_NAME ", or BM_ENGINE\n"
		"      --model NAME    the cost model: bm-model/1 (events weighted 1/5/35) or\n"
		"                      bm-model/2 (a modern core: each block's code, branch\n"
		"                      prediction, L2 and prefetch; the bm engine only);\n"
		"                      default %s, or BM_MODEL\n"
		"      --cpu NAME      the bm engine's virtual CPU, what the program sees:\n"
		"                      x86-64-v1 (SSE2 only) or x86-64-v3 (AVX2, BMI2, FMA,\n"
		"                      as production machines); default x86-64-v3 with\n"
		"                      bm-model/2, else %s, or BM_CPU\n"
		"      --branch-sim    simulate branch prediction too: the events Bc, Bcm, Bi\n"
		"                      and Bim (bm-model/2 always does and costs them)\n"
		"      --keep DIR      keep the callgrind files in DIR (for KCachegrind;\n"
		"                      made if missing)\n"
		"      --print-command print the Valgrind command line of each program, with\n"
		"                      its environment, and run nothing\n"
		"      --no-profile    leave the per-function profiles out of the report\n"
		"  -q, --quiet         no progress and no table; errors are still shown\n"
		"  -v, --verbose       show what each program wrote to standard output\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n"
		"\n"
		"Exit status: 0 when every benchmark ran, 1 when one failed (crashed, was\n"
		"killed, timed out, exited non-zero) or --verify found a difference, 2 on\n"
		"a usage or environment error.\n",
		model->id, model->frequency_hz / 1e9, model->id, virtual_cpu(CPU_DEFAULT)->name);
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

static int parse_model(const char *name, const char *what)
{
	const struct bm_model *m = model_lookup(name);
	if (!m) {
		log_error("%s is bm-model/1 or bm-model/2, not '%s'", what, name);
		return -1;
	}
	model = m;
	return 0;
}

static int parse_cpu(const char *name, const char *what, struct options *o)
{
	if (virtual_cpu_parse(name, &o->cpu) < 0) {
		log_error("%s is x86-64-v1 or x86-64-v3, not '%s'", what, name);
		return -1;
	}
	o->cpu_from = what;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_BENCH = 256, OPT_NAME, OPT_WHOLE, OPT_MANIFEST, OPT_ENV, OPT_TIMEOUT, OPT_VERIFY,
	       OPT_WARM, OPT_COLD, OPT_KEEP, OPT_NO_PROFILE, OPT_VERSION, OPT_FILTER,
	       OPT_PRINT_COMMAND, OPT_ENGINE, OPT_BRANCH_SIM, OPT_CPU, OPT_MODEL, OPT_STDIN };
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
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"filter", required_argument, NULL, OPT_FILTER},
		{"print-command", no_argument, NULL, OPT_PRINT_COMMAND},
		{"engine", required_argument, NULL, OPT_ENGINE},
		{"cpu", required_argument, NULL, OPT_CPU},
		{"model", required_argument, NULL, OPT_MODEL},
		{"branch-sim", no_argument, NULL, OPT_BRANCH_SIM},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	*o = (struct options){.parallel = 1, .with_profile = 1, .warm = 1, .engine = DEFAULT_ENGINE,
			      .cpu = CPU_DEFAULT};
	const char *engine_env = getenv("BM_ENGINE");
	if (engine_env && *engine_env && parse_engine(engine_env, "BM_ENGINE", &o->engine) < 0)
		return -1;
	const char *cpu_env = getenv("BM_CPU"), *model_env = getenv("BM_MODEL");
	if (cpu_env && *cpu_env && parse_cpu(cpu_env, "BM_CPU", o) < 0)
		return -1;
	if (model_env && *model_env && parse_model(model_env, "BM_MODEL") < 0)
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
			if (parse_model(optarg, "--model") < 0)
				return -1;
			break;
		case OPT_BRANCH_SIM:
			o->branch_sim = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("bm-run %s (%s)\n", PACKAGE_VERSION, model->id);
			exit(0);
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
	if (o->nfilters && o->nglobs) {
		log_error("--filter selects libbm benchmarks; symbol mode (--bench) names functions");
		return -1;
	}
	/* bm-model/2 counts what only the bm engine counts, on the level of
	 * the machines programs run on, branches included. */
	if (model->version == 2 && o->engine == ENGINE_CALLGRIND) {
		log_error("%s needs the bm engine (callgrind does not count its events): measure with --engine bm, or "
			  "--model bm-model/1",
			  model->id);
		return -1;
	}
	if (model->version == 2) {
		o->branch_sim = 1;
		if (!o->cpu_from)
			o->cpu = CPU_X86_64_V3;
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

/* ---- from command lines to jobs ---- */

struct jobs {
	struct job *j;
	size_t n, alloc;
};

static struct job *new_job(struct jobs *js)
{
	xgrow(&js->j, &js->alloc, js->n + 1, sizeof *js->j);
	return &js->j[js->n++];
}

/* The absolute path of program, found as execvp finds it: as given when
 * it has a '/', else the first file in PATH that can run (directories and
 * files without an execute bit are skipped).  Returns NULL after saying
 * why: before Valgrind starts, which would only say so in its log. */
static char *resolve_program(const char *program)
{
	char resolved[PATH_MAX];
	if (!*program) {
		log_error("the program's name is empty");
		return NULL;
	}
	if (!strchr(program, '/')) {
		char *found = launcher_search_path(program);
		int ok = found && realpath(found, resolved);
		free(found);
		if (ok)
			return xstrdup(resolved);
		log_error("cannot run '%s': not found in PATH", program);
		return NULL;
	}
	struct stat st;
	if (!realpath(program, resolved) || stat(resolved, &st) != 0) {
		log_error("cannot run '%s': %s", program, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || access(resolved, X_OK) != 0) {
		log_error("cannot run '%s': %s", program,
			  S_ISDIR(st.st_mode)	? "it is a directory"
			  : S_ISREG(st.st_mode) ? "it is not executable (chmod +x?)"
						: "it is not a file");
		return NULL;
	}
	return xstrdup(resolved);
}

/* The libraries program loads, each read with libelf (symbol mode looks
 * for functions there too); none for a static program. */
static struct elfinfo *read_libraries(const char *program, const struct elfinfo *elf,
				      const struct options *o, char ***paths, size_t *n)
{
	*n = 0;
	*paths = NULL;
	if (!elf->dynamic)
		return NULL;
	char *err = NULL, *client[] = {(char *)program, NULL};
	char **env = sandbox_environment(virtual_cpu(o->cpu)->glibc_tunables, o->env, o->nenv, client, 1);
	*paths = libraries_loaded(program, env, n, &err);
	sandbox_free_environment(env);
	if (!*paths) {
		log_warn("%s; looking for functions in '%s' only", err, program);
		free(err);
		*n = 0;
		return NULL;
	}
	struct elfinfo *libs = xcalloc(*n ? *n : 1, sizeof *libs);
	for (size_t i = 0; i < *n; i++)
		if (elfinfo_read((*paths)[i], &libs[i], &err) < 0) {
			free(err);
			err = NULL;
			memset(&libs[i], 0, sizeof libs[i]);
		}
	return libs;
}

/* Whether the library at path is one that LIB: names (its file name
 * starts with lib). */
static int library_named(const char *path, const char *lib)
{
	return strncmp(path_basename(path), lib, strlen(lib)) == 0;
}

/* Where the names of a stripped file's other functions would come from. */
#define DEBUG_SYMBOLS_HINT                                                                          \
	"install its debug symbols (Debian: its -dbgsym package; Valgrind and bm-run find them by "   \
	"build-id under /usr/lib/debug, or by .gnu_debuglink beside it)"

/* Says why --bench [LIB:]GLOB matched no function of program and the
 * libraries it loads (libs, at paths). */
static void say_no_match(const char *program, const struct elfinfo *elf, const struct elfinfo *libs,
			 char *const *paths, size_t nlibs, const char *lib, const char *glob)
{
	if (!lib && !elf->has_symtab) {
		log_error("'%s' is stripped: it has no symbol table, so no function matches '%s'%s; build it "
			  "without -s (or do not strip it), or " DEBUG_SYMBOLS_HINT ", or drop --bench to measure "
			  "the whole process",
			  program, glob, nlibs ? ", nor does one in the libraries it loads" : "");
		return;
	}
	if (!lib) {
		log_error("no function of '%s'%s matches '%s'", program, nlibs ? " or of the libraries it loads" : "",
			  glob);
		return;
	}
	const char *stripped = NULL;
	size_t named = 0;
	for (size_t l = 0; l < nlibs; l++)
		if (library_named(paths[l], lib)) {
			named++;
			if (!libs[l].has_symtab)
				stripped = path_basename(paths[l]);
		}
	if (named && stripped) {
		log_error("no function of '%s' matches '%s': it is stripped, so only the functions it exports have "
			  "names; " DEBUG_SYMBOLS_HINT,
			  stripped, glob);
	} else if (named) {
		log_error("no function of a library of '%s' named '%s*' matches '%s'", program, lib, glob);
	} else {
		size_t own;
		free(elfinfo_match(elf, glob, &own));
		struct dynbuf loaded = DYNBUF_INIT(0);
		for (size_t l = 0; l < nlibs; l++) {
			if (l)
				dynbuf_add(&loaded, ", ", 2);
			dynbuf_add(&loaded, path_basename(paths[l]), strlen(path_basename(paths[l])));
		}
		if (own)
			log_error("no library matching '%s*' is loaded by '%s', but %zu of its own functions %s "
				  "'%s': it links that code statically (drop '%s:' to measure %s)",
				  lib, program, own, own == 1 ? "matches" : "match", glob, lib, own == 1 ? "it" : "them");
		else if (nlibs)
			log_error("no library matching '%s*' is loaded by '%s' (it loads %s)", lib, program,
				  dynbuf_str(&loaded));
		else
			log_error("no library matching '%s*' is loaded by '%s': it loads no shared library", lib,
				  program);
		dynbuf_free(&loaded);
	}
}

/* Symbol mode: one job that measures every function matching a --bench
 * GLOB in the program or in a library it loads ("LIB:GLOB": only in the
 * libraries whose file name starts with LIB).  Returns -1 after saying
 * why when a GLOB matches nothing. */
static int plan_symbols(struct jobs *js, const char *program, char *const *argv, size_t argc,
			const struct options *o, const struct elfinfo *elf)
{
	if (!elf->is_elf) {
		log_error("'%s' is not an ELF file: symbol mode (--bench) reads its function symbols",
			  program);
		return -1;
	}
	char **paths;
	size_t nlibs;
	struct elfinfo *libs = read_libraries(program, elf, o, &paths, &nlibs);
	struct job *job = NULL;
	int r = 0;
	for (size_t g = 0; g < o->nglobs && r == 0; g++) {
		const char *glob = o->globs[g], *colon = strchr(glob, ':');
		char *lib = colon && colon != glob && colon[1] != ':' ? xstrndup(glob, (size_t)(colon - glob)) : NULL;
		if (lib)
			glob = colon + 1;
		size_t total = 0;
		for (size_t l = 0; l <= nlibs; l++) {
			const struct elfinfo *in = l == 0 ? elf : &libs[l - 1];
			if ((l == 0 && lib) ||
			    (l > 0 && lib && !library_named(paths[l - 1], lib)))
				continue;
			size_t n;
			const char **fns = elfinfo_match(in, glob, &n);
			/* One run measures every function (results.c). */
			if (n && !job) {
				job = new_job(js);
				job_init(job, program, argv + 1, argc - 1, MODE_SYMBOLS, NULL, path_basename(program));
			}
			for (size_t i = 0; i < n; i++)
				job_add_symbol(job, fns[i]);
			free(fns);
			total += n;
		}
		if (total == 0)
			say_no_match(program, elf, libs, paths, nlibs, lib, glob);
		r = total ? 0 : -1;
		free(lib);
	}
	for (size_t i = 0; i < nlibs; i++) {
		elfinfo_release(&libs[i]);
		free(paths[i]);
	}
	free(libs);
	free(paths);
	return r;
}

/* Adds the jobs of one command line.  Returns -1 after saying why. */
static int plan_command(struct jobs *js, char *const *argv, size_t argc, const struct options *o,
			struct elfinfo *first_elf)
{
	char *program = resolve_program(argv[0]);
	if (!program)
		return -1;
	struct elfinfo elf;
	char *err = NULL;
	if (elfinfo_read(program, &elf, &err) < 0) {
		log_error("%s", err);
		free(err);
		free(program);
		return -1;
	}
	int r = 0;
	if (o->nglobs) {
		r = plan_symbols(js, program, argv, argc, o, &elf);
	} else if (elf.links_libbm && !o->whole) {
		/* The program's arguments, then --filter GLOB... and --warm. */
		size_t nargs = argc - 1;
		char **args = xcalloc(argc + 2 * o->nfilters + 1, sizeof *args);
		memcpy(args, argv + 1, (argc - 1) * sizeof *args);
		for (size_t i = 0; i < o->nfilters; i++) {
			args[nargs++] = "--filter";
			args[nargs++] = o->filters[i];
		}
		if (o->warm)
			args[nargs++] = "--warm";
		if (o->name) {
			log_error("'%s' links libbm: its benchmarks name themselves; add --whole to measure "
				  "the whole process as '%s'",
				  program, o->name);
			r = -1;
		} else {
			job_init(new_job(js), program, args, nargs, MODE_HARNESS, NULL, NULL);
		}
		free(args);
	} else if (o->nfilters) {
		log_error("--filter selects the benchmarks of a program that links libbm; '%s' does not "
			  "(--bench GLOB measures its functions)",
			  program);
		r = -1;
	} else if (o->warm_given) {
		log_error("--%s needs a program that links libbm; '%s' does not (symbol and "
			  "whole-process mode measure the program as it runs)",
			  o->warm ? "warm" : "cold", program);
		r = -1;
	} else {
		job_init(new_job(js), program, argv + 1, argc - 1, MODE_WHOLE, NULL,
			 o->name ? o->name : path_basename(program));
	}
	if (r == 0 && first_elf && !first_elf->machine && elf.is_elf)
		*first_elf = elf;
	else
		elfinfo_release(&elf);
	free(program);
	return r;
}

static int plan_jobs(struct jobs *js, int argc, char **argv, const struct options *o,
		     struct elfinfo *first_elf)
{
	if (!o->manifest)
		return plan_command(js, argv + optind, (size_t)(argc - optind), o, first_elf);
	struct manifest_command *cmds;
	size_t n;
	char *err = NULL;
	if (manifest_read(o->manifest, &cmds, &n, &err) < 0) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		r = plan_command(js, cmds[i].argv, cmds[i].argc, o, first_elf);
	manifest_free(cmds, n);
	return r;
}

static void free_jobs(struct jobs *js)
{
	for (size_t i = 0; i < js->n; i++)
		job_release(&js->j[i]);
	free(js->j);
	memset(js, 0, sizeof *js);
}

/* A fresh copy of the jobs' inputs, for --verify's second run. */
static void copy_jobs(struct jobs *dst, const struct jobs *src)
{
	memset(dst, 0, sizeof *dst);
	for (size_t i = 0; i < src->n; i++) {
		const struct job *s = &src->j[i];
		if (s->followup)
			continue; /* planned again after the first run */
		struct job *d = new_job(dst);
		job_init(d, s->program, s->args, s->nargs, s->mode, s->symbol, s->name);
		for (size_t k = 0; k < s->nsymbols; k++)
			job_add_symbol(d, s->symbols[k]);
	}
}

/* ---- the report ---- */

static void fill_report(struct bm_report *r, const char *valgrind_version, const struct jobs *js,
			const struct elfinfo *elf, int warm, enum engine engine, enum bm_cpu cpu)
{
	r->tool_name = xstrdup("bm-run");
	r->tool_version = xstrdup(PACKAGE_VERSION);
	r->valgrind = xstrdup(valgrind_version);
	r->engine = xstrdup(engine == ENGINE_BM ? "bm" : "callgrind");
	benchmark_fill_model(&r->model, model, NULL);
	r->model.cpu_features = xstrdup(virtual_cpu(cpu)->glibc_tunables);
	/* The bm engine's virtual CPU (simulator/engine/cpu.c); under
	 * callgrind the guest sees a CPU derived from the host's, which makes
	 * the run a series of its own (series_identity.h). */
	r->model.cpu = engine == ENGINE_BM ? xstrdup(virtual_cpu(cpu)->description) : platform_host_cpu();
	r->model.warm_caches = warm;
	r->context.compiler = elf->compiler ? xstrdup(elf->compiler) : NULL;
	r->context.os = platform_os();
	r->context.arch = platform_arch();
	r->context.host = platform_host();
	/* One program: the report says which binary made the numbers. */
	int one_program = 1;
	for (size_t i = 1; i < js->n; i++)
		one_program &= strcmp(js->j[i].program, js->j[0].program) == 0;
	if (js->n && one_program) {
		r->binary_path = xstrdup(js->j[0].program);
		r->build_id = elf->build_id ? xstrdup(elf->build_id) : NULL;
	}
}

/* The events that must not differ between runs: all but the system-call
 * times, which are real clock readings. */
static int same_numbers(const struct bm_result *a, const struct bm_result *b, char *why,
			size_t len)
{
	if (a->status != b->status) {
		snprintf(why, len, "ran %s, then %s", a->status == BM_STATUS_OK ? "ok" : "not ok",
			 b->status == BM_STATUS_OK ? "ok" : "not ok");
		return 0;
	}
	if (a->status != BM_STATUS_OK)
		return 1;
	for (int e = 0; e < BM_EV_COUNT; e++) {
		if (e == BM_EV_SYSTIME || e == BM_EV_SYSCPUTIME)
			continue;
		if (a->events.v[e] != b->events.v[e] || events_has(&a->events, e) != events_has(&b->events, e)) {
			snprintf(why, len, "%s %llu, then %llu", events_name(e),
				 (unsigned long long)a->events.v[e], (unsigned long long)b->events.v[e]);
			return 0;
		}
	}
	if (a->cycles != b->cycles) {
		snprintf(why, len, "cycles %llu, then %llu", (unsigned long long)a->cycles,
			 (unsigned long long)b->cycles);
		return 0;
	}
	return 1;
}

static int verify(const struct bm_report *first, const struct bm_report *second)
{
	int differences = 0;
	char why[256];
	for (size_t i = 0; i < first->nbenchmarks; i++) {
		const struct bm_result *a = &first->benchmarks[i], *b = NULL;
		for (size_t k = 0; k < second->nbenchmarks && !b; k++)
			if (strcmp(second->benchmarks[k].id, a->id) == 0)
				b = &second->benchmarks[k];
		if (!b) {
			log_error("verify: '%s' ran only the first time", a->id);
			differences++;
		} else if (!same_numbers(a, b, why, sizeof why)) {
			log_error("verify: '%s' differs between two runs: %s", a->id, why);
			differences++;
		}
	}
	return differences;
}

/* ---- main ---- */

/* --keep DIR: made if missing, then a file made in it and removed, so that
 * a directory that takes no files (read-only, /proc) fails now rather than
 * in a warning after the run. */
static int check_keep_dir(const char *dir)
{
	char *err = NULL;
	if (dirs_make(dir, 0777, &err) < 0) {
		log_error("--keep: %s", err);
		free(err);
		return -1;
	}
	char *probe = xasprintf("%s/.bm-run.XXXXXX", dir);
	int fd = mkstemp(probe);
	if (fd < 0) {
		log_error("--keep: cannot write in '%s': %s", dir, strerror(errno));
	} else {
		close(fd);
		unlink(probe);
	}
	free(probe);
	return fd < 0 ? -1 : 0;
}

/* Checks every path bm-run will write (--keep DIR, -o FILE, which is
 * opened now and written at the end) before anything runs. */
static int open_outputs(const struct options *o, struct atomic_file **out)
{
	char *err = NULL;
	if (o->keep_dir && check_keep_dir(o->keep_dir) < 0)
		return -1;
	if (o->output && !(*out = atomic_file_open(o->output, &err))) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	return 0;
}

/* Says which programs refused their arguments (a --filter that matches
 * nothing, an option libbm does not know): a usage error of bm-run's,
 * after which nothing is written.  Returns how many. */
static size_t usage_errors(const struct jobs *js)
{
	size_t n = 0;
	for (size_t i = 0; i < js->n; i++)
		if (js->j[i].usage_error) {
			log_error("%s", js->j[i].usage_error);
			n++;
		}
	return n;
}

/* A word on the benchmarks that spend much of their time in code without
 * symbols, whose profiles name functions by address only. */
static void say_unnamed(const struct results_notes *n)
{
	if (!n->unnamed_benchmarks)
		return;
	char *objects = unnamed_code_objects_text(&n->unnamed);
	fprintf(stderr, "bm-run: %zu benchmark%s spend%s a tenth of %s cycles or more in code without symbols, in %s "
			"(its profile names those functions by address: bm-profile on a --keep file lists them): for "
			"names, " UNNAMED_CODE_HINT "\n",
		n->unnamed_benchmarks, n->unnamed_benchmarks == 1 ? "" : "s", n->unnamed_benchmarks == 1 ? "s" : "",
		n->unnamed_benchmarks == 1 ? "its" : "their", objects);
	free(objects);
}

/* Whether a job measures an unmodified program (whole-process or symbol
 * mode), which may well read its standard input. */
static int measures_unmodified(const struct jobs *js)
{
	for (size_t i = 0; i < js->n; i++)
		if (js->j[i].mode != MODE_HARNESS)
			return 1;
	return 0;
}

/* Where --print-command's command takes its standard input from: the
 * file of --stdin (absolute: the command changes directory), NULL (the
 * shell's own) where bm-run would read its own, else /dev/null (always
 * for libbm programs).  Newly allocated. */
static char *print_command_input(const struct options *o, const struct jobs *js)
{
	char resolved[PATH_MAX];
	if (!measures_unmodified(js))
		return xstrdup("/dev/null");
	if (o->stdin_file && strcmp(o->stdin_file, "-") != 0)
		return xstrdup(realpath(o->stdin_file, resolved) ? resolved : o->stdin_file);
	if (o->stdin_file || program_input_from_stdin())
		return NULL;
	return xstrdup("/dev/null");
}

static int run_once(struct jobs *js, const struct runner_options *ro, struct bm_report *r,
		    const struct options *o, size_t *failed, struct results_notes *notes)
{
	char *err = NULL;
	size_t planned = js->n;
	if (runner_run(js->j, js->n, ro, &err) < 0) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	/* Symbol mode: the functions that need a run of their own. */
	for (size_t i = 0; i < planned; i++) {
		const char **fns;
		size_t n = results_followups(&js->j[i], model, o->with_profile, &fns);
		for (size_t k = 0; k < n; k++) {
			struct job *f = new_job(js);
			const struct job *of = &js->j[i];
			char *id = xasprintf("%s::%s", of->name, fns[k]);
			job_init(f, of->program, of->args, of->nargs, MODE_SYMBOL, fns[k], id);
			f->followup = 1;
			free(id);
		}
		free(fns);
	}
	if (js->n > planned && runner_run(js->j + planned, js->n - planned, ro, &err) < 0) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	*failed = results_collect(r, js->j, js->n, model, o->with_profile, o->keep_dir, notes);
	for (size_t i = 0; i < js->n; i++)
		if (js->j[i].warning) {
			log_error("%s", js->j[i].warning);
			(*failed)++;
		}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct jobs js = {0};
	struct elfinfo elf = {0};
	struct bm_report report;
	struct atomic_file *out = NULL;
	struct program_input input = {.fd = -1};
	struct results_notes notes = {0};
	char *err = NULL, *valgrind = NULL, *version = NULL, *engine_dir = NULL, *engine_env = NULL;
	int status = 2;
	log_take_progname(argv);
	report_init(&report);
	if (parse_options(argc, argv, &o) < 0)
		goto done;
	/* Callgrind's runs keep glibc on the baseline, whatever the default
	 * CPU of the bm engine (their series stay theirs). */
	if (o.engine == ENGINE_CALLGRIND)
		o.cpu = CPU_X86_64_V1;
	/* A host that cannot run the CPU's code would count another program
	 * (or crash): said now, before anything runs. */
	if (o.engine == ENGINE_BM && !o.print_command && virtual_cpu_host_check(o.cpu, &err) < 0) {
		log_error("%s", err);
		goto done;
	}
	/* Fail on an unwritable output now, before any work, not after
	 * minutes of Valgrind (--print-command writes nothing). */
	if (!o.print_command && open_outputs(&o, &out) < 0)
		goto done;
	if (!(valgrind = launcher_find_valgrind(&err)) ||
	    !(version = launcher_valgrind_version(valgrind, &err))) {
		log_error("%s", err);
		goto done;
	}
	/* Valgrind finds bm's tool through VALGRIND_LIB, which the program
	 * sees too.  Callgrind runs with the same VALGRIND_LIB wherever the
	 * tool is installed (its directory links callgrind's), so that a
	 * program sees one environment whichever engine counts. */
	if (!(engine_dir = launcher_engine_dir(version, &err)) && o.engine == ENGINE_BM) {
		log_error("%s", err);
		goto done;
	}
	free(err);
	err = NULL;
	if (engine_dir) {
		o.env = xreallocarray(o.env, o.nenv + 1, sizeof *o.env);
		o.env[o.nenv++] = engine_env = xasprintf("VALGRIND_LIB=%s", engine_dir);
	}
	/* bm-model/2 counts a libbm benchmark without the harness's own
	 * cost, which libbm then measures too (instrument/measure.c). */
	if (model->version == 2) {
		o.env = xreallocarray(o.env, o.nenv + 1, sizeof *o.env);
		o.env[o.nenv++] = "BM_OVERHEAD=1";
	}
	if (plan_jobs(&js, argc, argv, &o, &elf) < 0)
		goto done;
	struct measure_setup setup = {o.engine, model, o.cpu, o.branch_sim};
	if (o.print_command) {
		char *from = print_command_input(&o, &js);
		for (size_t i = 0; i < js.n; i++) {
			const struct job *j = &js.j[i];
			launcher_print_command(stdout, valgrind, &setup, j->mode, j->symbol, j->program, j->args,
					       j->nargs, o.env, o.nenv, from);
		}
		free(from);
		status = fflush(stdout) == 0 ? 0 : 2;
		goto done;
	}
	/* Standard input is for programs measured as they run: libbm's
	 * benchmarks, each in a process of its own, would share one offset
	 * (and a script's loop that runs bm-run keeps its own). */
	if (o.stdin_file && !measures_unmodified(&js)) {
		log_error("--stdin feeds a program measured as it runs (whole-process or symbol mode); the benchmarks "
			  "of a program that links libbm read no standard input (read the file in a setup)");
		goto done;
	}
	if (measures_unmodified(&js) && program_input_take(o.stdin_file, &input, &err) < 0) {
		log_error("%s", err);
		goto done;
	}
	if (input.terminal && !o.quiet && measures_unmodified(&js))
		fprintf(stderr, "bm-run: standard input is a terminal: the program reads /dev/null (feed it a file "
				"with < FILE or --stdin FILE)\n");
	struct runner_options ro = {
		.valgrind = valgrind,
		.setup = &setup,
		.timeout_s = o.timeout_s,
		.parallel = o.parallel,
		.env = o.env,
		.nenv = o.nenv,
		.progress = !o.quiet && isatty(2),
		.quiet = o.quiet,
		.verbose = o.verbose,
		.input = input.path,
	};
	size_t failed = 0;
	/* Only libbm benchmarks are measured warm or cold; the flag says how
	 * they were, and stays false for a report without any. */
	int warm = 0;
	for (size_t i = 0; i < js.n; i++)
		warm |= o.warm && js.j[i].mode == MODE_HARNESS;
	fill_report(&report, version, &js, &elf, warm, o.engine, o.cpu);
	if (input.sha256[0]) {
		report.stdin_bytes = input.bytes;
		report.stdin_sha256 = xstrdup(input.sha256);
	}
	if (run_once(&js, &ro, &report, &o, &failed, &notes) < 0 || usage_errors(&js))
		goto done;
	if (o.verify) {
		struct jobs again;
		struct bm_report second;
		size_t failed2 = 0;
		copy_jobs(&again, &js);
		report_init(&second);
		int r = run_once(&again, &ro, &second, &o, &failed2, NULL);
		if (r == 0 && verify(&report, &second) > 0)
			failed++;
		else if (r == 0 && !o.quiet)
			fprintf(stderr, "bm-run: verify: two runs gave identical numbers\n");
		report_release(&second);
		free_jobs(&again);
		if (r < 0)
			goto done;
	}
	if (!o.quiet) {
		int whole = 0;
		for (size_t i = 0; i < js.n; i++)
			whole |= js.j[i].mode == MODE_WHOLE;
		/* With the report on standard output (-o -), the table goes to
		 * standard error rather than into the JSON. */
		FILE *t = o.output && atomic_file_is_stdout(o.output) ? stderr : stdout;
		table_print(t, &report, whole, table_use_color(t));
		say_unnamed(&notes);
	}
	if (out) {
		int r = report_write_to(&report, out, &err);
		out = NULL;
		if (r < 0) {
			log_error("%s", err);
			goto done;
		}
	}
	status = failed ? 1 : 0;
done:
	atomic_file_abort(out);
	program_input_release(&input);
	unnamed_code_release(&notes.unnamed);
	free(err);
	free(valgrind);
	free(version);
	free(engine_dir);
	free(engine_env);
	elfinfo_release(&elf);
	free_jobs(&js);
	report_release(&report);
	free(o.globs);
	free(o.filters);
	free(o.env);
	return status;
}
