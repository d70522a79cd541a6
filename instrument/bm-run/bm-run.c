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
#include "interrupt.h"
#include "job_plan.h"
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
#include "run_options.h"
#include "runner.h"
#include "sandbox.h"
#include "scratch.h"
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

/* ---- the report ---- */

static void fill_report(struct bm_report *r, const struct bm_model *model, const char *valgrind_version, const struct jobs *js,
			const struct elfinfo *elf, int warm, enum engine engine, enum bm_cpu cpu, int virtual_clock)
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
	r->model.clock = xstrdup(virtual_clock ? "virtual" : "host");
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
			log_error("verify: '%s' differs between two runs%s: %s", a->id,
				  first->engine && !strcmp(first->engine, "bm") ? " (the second with its mappings and environment moved)" : "", why);
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

/* The descriptors bm-run was given stay out of its benchmarks' reach:
 * the programs could read them through /proc/PID/fd of their ancestors
 * (bm-run, its keeper), as they could an ancestor's environment.  Kept:
 * standard input, output and error, and those its options name (-o
 * /dev/fd/5, --stdin /dev/fd/4, the program as /dev/fd/N). */
static void close_inherited(const struct run_options *o, const char *program)
{
	const char *paths[] = {o->output, o->manifest, o->stdin_file, o->keep_dir, program};
	int keep[sizeof paths / sizeof *paths];
	size_t n = 0;
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
		if (paths[i])
			keep[n++] = atomic_file_descriptor(paths[i]); /* "-" gives 1, kept anyway */
	sandbox_close_except(3, keep, n);
}

/* Checks every path bm-run will write (--keep DIR, -o FILE, which is
 * opened now and written at the end) before anything runs. */
static int open_outputs(const struct run_options *o, struct atomic_file **out)
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
			"names, " DEBUG_SYMBOLS_HINT "\n",
		n->unnamed_benchmarks, n->unnamed_benchmarks == 1 ? "" : "s", n->unnamed_benchmarks == 1 ? "s" : "",
		n->unnamed_benchmarks == 1 ? "its" : "their", objects);
	free(objects);
}

/* A word on the program's code that dispatches on cpuid: it took the
 * paths of the virtual CPU, which may not be production's. */
static void say_cpu_askers(const struct results_notes *n, enum bm_cpu cpu)
{
	if (!n->cpu_askers)
		return;
	const struct virtual_cpu *c = virtual_cpu(cpu);
	fprintf(stderr,
		"bm-run: code in %s chose its path by what the CPU offers (cpuid), on bm's virtual CPU %s, which lacks %s%s "
		"(docs/engine.md, \"The virtual CPUs\")\n",
		n->cpu_askers, c->name, c->lacks,
		cpu != CPU_X86_64_V3_SERVER ? "; for the paths server cores take, measure with --cpu x86-64-v3-server"
					    : "");
}

/* A word on each benchmark whose numbers another run may not repeat
 * (the report's "nondeterministic" says why). */
static void say_nondeterministic(const struct bm_report *r)
{
	for (size_t i = 0; i < r->nbenchmarks; i++)
		if (r->benchmarks[i].nondeterministic)
			log_warn("'%s' may count otherwise in another run: %s (docs/engine.md, \"Threads\")",
				 r->benchmarks[i].id, r->benchmarks[i].nondeterministic);
}

/* Where --print-command's command takes its standard input from: the
 * file of --stdin (absolute: the command changes directory), NULL (the
 * shell's own) where bm-run would read its own, else /dev/null (always
 * for libbm programs).  Newly allocated. */
static char *print_command_input(const struct run_options *o, const struct jobs *js)
{
	char resolved[PATH_MAX];
	if (!jobs_measure_unmodified(js))
		return xstrdup("/dev/null");
	if (o->stdin_file && strcmp(o->stdin_file, "-") != 0)
		return xstrdup(realpath(o->stdin_file, resolved) ? resolved : o->stdin_file);
	if (o->stdin_file || program_input_from_stdin())
		return NULL;
	return xstrdup("/dev/null");
}

static int run_once(struct jobs *js, const struct runner_options *ro, struct bm_report *r,
		    const struct run_options *o, size_t *failed, struct results_notes *notes)
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
		size_t n = results_followups(&js->j[i], o->model, o->with_profile, &fns);
		for (size_t k = 0; k < n; k++) {
			struct job *f = jobs_add(js);
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
	*failed = results_collect(r, js->j, js->n, o->model, o->with_profile, o->keep_dir, notes);
	for (size_t i = 0; i < js->n; i++)
		if (js->j[i].warning) {
			log_error("%s", js->j[i].warning);
			(*failed)++;
		}
	return 0;
}

int main(int argc, char **argv)
{
	struct run_options o;
	struct jobs js = {0};
	struct elfinfo elf = {0};
	struct bm_report report;
	struct atomic_file *out = NULL;
	struct program_input input = {.fd = -1};
	struct results_notes notes = {0};
	char *err = NULL, *valgrind = NULL, *version = NULL, *engine_dir = NULL, *engine_env = NULL;
	int status = 2;
	log_take_progname(argv);
	interrupt_catch();
	report_init(&report);
	int parsed = run_options_parse(argc, argv, &o);
	if (parsed != 0) {
		status = parsed > 0 ? 0 : 2;
		goto done;
	}
	close_inherited(&o, optind < argc ? argv[optind] : NULL);
	/* Callgrind's runs keep glibc on the baseline, whatever the default
	 * CPU of the bm engine (their series stay theirs). */
	if (o.engine == ENGINE_CALLGRIND)
		o.cpu = CPU_X86_64_V1;
	/* A host that cannot run the CPU's code would count another program
	 * (or crash): said now, before anything runs. */
	if (o.engine == ENGINE_BM && !o.print_command && virtual_cpu_host_check(o.cpu, &err) < 0) {
		if (o.cpu_from)
			log_error("%s %s: %s: measure with --cpu x86-64-v1", o.cpu_from, virtual_cpu(o.cpu)->name, err);
		else /* the model's CPU, the default model's included */
			log_error("%s runs on x86-64-v3, and %s: measure with --cpu x86-64-v1 (the same model on "
				  "SSE2 code), or --model bm-model/1",
				  o.model->id, err);
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
	 * cost, which libbm then measures too (instrument/libbm/measure.c). */
	if (o.model->version == 2) {
		o.env = xreallocarray(o.env, o.nenv + 1, sizeof *o.env);
		o.env[o.nenv++] = "BM_OVERHEAD=1";
	}
	if (jobs_plan(&js, argc, argv, &o, &elf) < 0)
		goto done;
	struct measure_setup setup = {o.engine, o.model, o.cpu, o.branch_sim, o.virtual_clock, o.heap, 0};
	if (o.print_command) {
		char *from = print_command_input(&o, &js);
		for (size_t i = 0; i < js.n; i++) {
			const struct job *j = &js.j[i];
			char *const *fns;
			size_t nfns = job_functions(j, &fns);
			launcher_print_command(stdout, valgrind, &setup, j->mode, fns, nfns, j->program, j->args,
					       j->nargs, o.env, o.nenv, from);
		}
		free(from);
		status = fflush(stdout) == 0 ? 0 : 2;
		goto done;
	}
	/* Standard input is for programs measured as they run: libbm's
	 * benchmarks, each in a process of its own, would share one offset
	 * (and a script's loop that runs bm-run keeps its own). */
	if (o.stdin_file && !jobs_measure_unmodified(&js)) {
		log_error("--stdin feeds a program measured as it runs (whole-process or symbol mode); the benchmarks "
			  "of a program that links libbm read no standard input (read the file in a setup)");
		goto done;
	}
	if (jobs_measure_unmodified(&js) && program_input_take(o.stdin_file, &input, &err) < 0) {
		log_error("%s", err);
		goto done;
	}
	if (input.terminal && !o.quiet && jobs_measure_unmodified(&js))
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
	fill_report(&report, o.model, version, &js, &elf, warm, o.engine, o.cpu, o.virtual_clock);
	if (input.sha256[0]) {
		report.stdin_bytes = input.bytes;
		report.stdin_sha256 = xstrdup(input.sha256);
	}
	/* What runs killed before left in /tmp, before this one adds its own. */
	scratch_sweep();
	if (run_once(&js, &ro, &report, &o, &failed, &notes) < 0 || usage_errors(&js))
		goto done;
	if (o.verify) {
		struct jobs again;
		struct bm_report second;
		size_t failed2 = 0;
		jobs_copy(&again, &js);
		report_init(&second);
		/* With the bm engine, the second run moves what must not matter:
		 * every mapping (Valgrind places them a GiB higher) and the
		 * environment's size (docs/bm-run.md, "--verify"). */
		struct measure_setup moved = setup;
		struct runner_options ro2 = ro;
		moved.perturbed = o.engine == ENGINE_BM;
		ro2.setup = &moved;
		int r = run_once(&again, &ro2, &second, &o, &failed2, NULL);
		if (r == 0 && verify(&report, &second) > 0)
			failed++;
		else if (r == 0 && !o.quiet)
			fprintf(stderr, "bm-run: verify: two runs gave identical numbers\n");
		report_release(&second);
		jobs_release(&again);
		if (r < 0)
			goto done;
	}
	/* A signal after the runs: no table, no report either. */
	if (interrupt_caught())
		goto done;
	say_nondeterministic(&report);
	if (!o.quiet) {
		int whole = 0;
		for (size_t i = 0; i < js.n; i++)
			whole |= js.j[i].mode == MODE_WHOLE;
		/* With the report on standard output (-o -), the table goes to
		 * standard error rather than into the JSON. */
		FILE *t = o.output && atomic_file_is_stdout(o.output) ? stderr : stdout;
		table_print(t, &report, whole, table_use_color(t));
		say_unnamed(&notes);
		say_cpu_askers(&notes, o.cpu);
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
	free(notes.cpu_askers);
	free(err);
	free(valgrind);
	free(version);
	free(engine_dir);
	free(engine_env);
	elfinfo_release(&elf);
	jobs_release(&js);
	report_release(&report);
	free(o.globs);
	free(o.filters);
	free(o.env);
	interrupt_exit();
	return status;
}
