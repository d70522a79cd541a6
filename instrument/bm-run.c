/* bm-run: runs benchmark programs under Valgrind's callgrind, under fixed
 * conditions, and reports deterministic cycles, time and speed.
 *
 * Everything that can be checked is checked before anything runs (Valgrind,
 * the programs, their symbols, the output path), so that a usage or
 * environment error costs nothing and writes nothing. */
#include "config.h"

#include "atomic_file.h"
#include "benchmark.h"
#include "elfinfo.h"
#include "launcher.h"
#include "log.h"
#include "manifest.h"
#include "model.h"
#include "path.h"
#include "platform.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "sandbox.h"
#include "table.h"
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
	const char *name;
	int whole;
	int parallel;
	const char *manifest;
	char **env;
	size_t nenv;
	double timeout_s;
	int verify, quiet, with_profile, warm;
	const char *keep_dir;
};

static const struct bm_model *model = &model_v1;

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bm-run [OPTIONS] -- PROGRAM [ARGS...]\n"
		"       bm-run [OPTIONS] --manifest FILE\n"
		"\n"
		"Runs PROGRAM once under Valgrind's callgrind with pinned caches, a fixed\n"
		"environment and a fixed CPU-feature baseline, and reports for each\n"
		"benchmark its cycles (%s), estimated time and speed at %.1f GHz, and\n"
		"apart from them its system calls.  The same binary gives the same numbers\n"
		"on every run and host.\n"
		"\n"
		"Modes: a PROGRAM that links libbm reports each of its benchmarks; with\n"
		"--bench GLOB each matching function of an unmodified PROGRAM is a\n"
		"benchmark over all its calls; otherwise the whole process is one.\n"
		"\n"
		"  -o, --output FILE   write the bm-report/1 report to FILE\n"
		"      --bench GLOB    symbol mode: functions matching GLOB (repeatable)\n"
		"      --name NAME     the benchmark's name in whole-process mode\n"
		"      --whole         whole-process mode even for a PROGRAM that links libbm\n"
		"  -j, --jobs N        run up to N Valgrind processes at once (default 1)\n"
		"      --manifest FILE run each command line of FILE, one report for all\n"
		"      --env K=V       add K=V to the program's environment (repeatable)\n"
		"      --timeout SECONDS  fail a benchmark that runs longer (default: none)\n"
		"      --verify        run everything twice; fail on any difference\n"
		"      --warm          measure each libbm benchmark after an unmeasured first\n"
		"                      run, on warm simulated caches (default: cold)\n"
		"      --keep DIR      keep the callgrind files in DIR (for KCachegrind)\n"
		"      --no-profile    leave the per-function profiles out of the report\n"
		"  -q, --quiet         print nothing but errors\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n"
		"\n"
		"Exit status: 0 when every benchmark ran, 1 when one failed (crashed, was\n"
		"killed, timed out, exited non-zero) or --verify found a difference, 2 on\n"
		"a usage or environment error.\n",
		model->id, model->frequency_hz / 1e9);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_BENCH = 256, OPT_NAME, OPT_WHOLE, OPT_MANIFEST, OPT_ENV, OPT_TIMEOUT, OPT_VERIFY,
	       OPT_WARM, OPT_KEEP, OPT_NO_PROFILE, OPT_VERSION };
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"bench", required_argument, NULL, OPT_BENCH},
		{"name", required_argument, NULL, OPT_NAME},
		{"whole", no_argument, NULL, OPT_WHOLE},
		{"jobs", required_argument, NULL, 'j'},
		{"manifest", required_argument, NULL, OPT_MANIFEST},
		{"env", required_argument, NULL, OPT_ENV},
		{"timeout", required_argument, NULL, OPT_TIMEOUT},
		{"verify", no_argument, NULL, OPT_VERIFY},
		{"warm", no_argument, NULL, OPT_WARM},
		{"keep", required_argument, NULL, OPT_KEEP},
		{"no-profile", no_argument, NULL, OPT_NO_PROFILE},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	*o = (struct options){.parallel = 1, .with_profile = 1};
	int c;
	char *end;
	/* "+": options end at PROGRAM, whose own options follow it. */
	while ((c = getopt_long(argc, argv, "+o:j:qh", longopts, NULL)) != -1) {
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
			o->parallel = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || o->parallel < 1 || o->parallel > 256) {
				log_error("--jobs needs a number from 1 to 256, not '%s'", optarg);
				return -1;
			}
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
		case OPT_TIMEOUT:
			o->timeout_s = strtod(optarg, &end);
			if (*end || end == optarg || !(o->timeout_s > 0 && o->timeout_s <= 1e6)) {
				log_error("--timeout needs seconds (more than 0), not '%s'", optarg);
				return -1;
			}
			break;
		case OPT_VERIFY:
			o->verify = 1;
			break;
		case OPT_WARM:
			o->warm = 1;
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
	struct stat st;
	if (o->keep_dir && (stat(o->keep_dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
		log_error("--keep: '%s' is not a directory", o->keep_dir);
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

/* The absolute path of program: as given when it has a '/', else found in
 * PATH.  Returns NULL after saying why. */
static char *resolve_program(const char *program)
{
	char resolved[PATH_MAX];
	if (!strchr(program, '/')) {
		const char *path = getenv("PATH");
		char *copy = xstrdup(path ? path : "/usr/bin:/bin");
		for (char *dir = strtok(copy, ":"); dir; dir = strtok(NULL, ":")) {
			char *candidate = xasprintf("%s/%s", *dir ? dir : ".", program);
			int found = access(candidate, X_OK) == 0 && realpath(candidate, resolved);
			free(candidate);
			if (found) {
				free(copy);
				return xstrdup(resolved);
			}
		}
		free(copy);
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
			  S_ISREG(st.st_mode) ? "it is not executable (chmod +x?)" : "it is not a file");
		return NULL;
	}
	return xstrdup(resolved);
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
		if (!elf.is_elf) {
			log_error("'%s' is not an ELF file: symbol mode (--bench) reads its function symbols",
				  program);
			r = -1;
		}
		for (size_t g = 0; g < o->nglobs && r == 0; g++) {
			size_t n;
			const char **fns = elfinfo_match(&elf, o->globs[g], &n);
			if (n == 0 && !elf.has_symtab)
				log_error("'%s' is stripped: it has no symbol table, so no function matches "
					  "'%s'; build it without -s (or do not strip it), or drop --bench to "
					  "measure the whole process",
					  program, o->globs[g]);
			else if (n == 0)
				log_error("no function of '%s' matches '%s'", program, o->globs[g]);
			for (size_t i = 0; i < n; i++) {
				char *id = xasprintf("%s::%s", path_basename(program), fns[i]);
				job_init(new_job(js), program, argv + 1, argc - 1, MODE_SYMBOL, fns[i], id);
				free(id);
			}
			free(fns);
			if (n == 0)
				r = -1;
		}
	} else if (elf.links_libbm && !o->whole) {
		char **args = xcalloc(argc + 1, sizeof *args);
		memcpy(args, argv + 1, (argc - 1) * sizeof *args);
		if (o->warm)
			args[argc - 1] = "--warm";
		if (o->name) {
			log_error("'%s' links libbm: its benchmarks name themselves; add --whole to measure "
				  "the whole process as '%s'",
				  program, o->name);
			r = -1;
		} else {
			job_init(new_job(js), program, args, argc - 1 + (o->warm != 0), MODE_HARNESS, NULL,
				 NULL);
		}
		free(args);
	} else if (o->warm) {
		log_error("--warm needs a program that links libbm; '%s' does not", program);
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
		job_init(new_job(dst), s->program, s->args, s->nargs, s->mode, s->symbol, s->name);
	}
}

/* ---- the report ---- */

static void fill_report(struct bm_report *r, const char *valgrind_version, const struct jobs *js,
			const struct elfinfo *elf, int warm)
{
	r->tool_name = xstrdup("bm-run");
	r->tool_version = xstrdup(PACKAGE_VERSION);
	r->valgrind = xstrdup(valgrind_version);
	benchmark_fill_model(&r->model, model, NULL);
	r->model.cpu_features = xstrdup(sandbox_glibc_tunables);
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
static int same_numbers(const struct bm_benchmark *a, const struct bm_benchmark *b, char *why,
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
		const struct bm_benchmark *a = &first->benchmarks[i], *b = NULL;
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

static int run_once(struct jobs *js, const struct runner_options *ro, struct bm_report *r,
		    const struct options *o, size_t *failed)
{
	char *err = NULL;
	if (runner_run(js->j, js->n, ro, &err) < 0) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	*failed = results_collect(r, js->j, js->n, model, o->with_profile, o->keep_dir);
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
	char *err = NULL, *valgrind = NULL, *version = NULL;
	int status = 2;
	log_set_progname(argv[0]);
	report_init(&report);
	if (parse_options(argc, argv, &o) < 0)
		goto done;
	if (!(valgrind = launcher_find_valgrind(&err)) ||
	    !(version = launcher_valgrind_version(valgrind, &err))) {
		log_error("%s", err);
		goto done;
	}
	if (plan_jobs(&js, argc, argv, &o, &elf) < 0)
		goto done;
	/* Fail on an unwritable output now, not after minutes of Valgrind. */
	if (o.output && !(out = atomic_file_open(o.output, &err))) {
		log_error("%s", err);
		goto done;
	}
	struct runner_options ro = {
		.valgrind = valgrind,
		.timeout_s = o.timeout_s,
		.parallel = o.parallel,
		.env = o.env,
		.nenv = o.nenv,
		.progress = !o.quiet && isatty(2),
		.quiet = o.quiet,
		.model = model,
	};
	size_t failed = 0;
	fill_report(&report, version, &js, &elf, o.warm);
	if (run_once(&js, &ro, &report, &o, &failed) < 0)
		goto done;
	if (o.verify) {
		struct jobs again;
		struct bm_report second;
		size_t failed2 = 0;
		copy_jobs(&again, &js);
		report_init(&second);
		int r = run_once(&again, &ro, &second, &o, &failed2);
		if (r == 0 && verify(&report, &second) > 0)
			failed++;
		else if (r == 0 && !o.quiet)
			fprintf(stderr, "bm-run: verify: two runs gave identical numbers\n");
		report_release(&second);
		free_jobs(&again);
		if (r < 0)
			goto done;
	}
	if (!o.quiet)
		table_print(stdout, &report, table_use_color(stdout));
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
	free(err);
	free(valgrind);
	free(version);
	elfinfo_release(&elf);
	free_jobs(&js);
	report_release(&report);
	free(o.globs);
	free(o.env);
	return status;
}
