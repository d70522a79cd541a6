/* SPDX-License-Identifier: MIT */
/* From command lines to jobs: see job_plan.h. */
#include "config.h"

#include "job_plan.h"

#include "dynbuf.h"
#include "libraries.h"
#include "log.h"
#include "manifest.h"
#include "path.h"
#include "sandbox.h"
#include "unnamed_code.h"
#include "virtual_cpu.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct job *jobs_add(struct jobs *js)
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

/* The function pattern of a --bench word, [LIB:]GLOB, and its LIB
 * (newly allocated, or NULL) where lib is not NULL. */
static const char *bench_pattern(const char *word, char **lib)
{
	const char *colon = strchr(word, ':');
	int named = colon && colon != word && colon[1] != ':';
	if (lib)
		*lib = named ? xstrndup(word, (size_t)(colon - word)) : NULL;
	return named ? colon + 1 : word;
}

/* The libraries program loads, each read with libelf (symbol mode looks
 * for functions there too); none for a static program. */
static struct elfinfo *read_libraries(const char *program, const struct elfinfo *elf,
				      const struct run_options *o, char ***paths, size_t *n)
{
	*n = 0;
	*paths = NULL;
	if (!elf->dynamic)
		return NULL;
	char *err = NULL, *client[] = {(char *)program, NULL};
	char **env = sandbox_environment(virtual_cpu(o->cpu)->glibc_tunables, o->env, o->nenv, client, 1, 0);
	*paths = libraries_loaded(program, env, n, &err);
	sandbox_free_environment(env);
	if (!*paths) {
		log_warn("%s; looking for functions in '%s' only", err, program);
		free(err);
		*n = 0;
		return NULL;
	}
	/* Of a library's functions only those --bench can name are kept. */
	const char **patterns = xcalloc(o->nglobs ? o->nglobs : 1, sizeof *patterns);
	for (size_t g = 0; g < o->nglobs; g++)
		patterns[g] = bench_pattern(o->globs[g], NULL);
	struct elfinfo *libs = xcalloc(*n ? *n : 1, sizeof *libs);
	for (size_t i = 0; i < *n; i++)
		if (elfinfo_read_matching((*paths)[i], patterns, o->nglobs, &libs[i], &err) < 0) {
			free(err);
			err = NULL;
			memset(&libs[i], 0, sizeof libs[i]);
		}
	free(patterns);
	return libs;
}

/* Whether the library at path is one that LIB: names (its file name
 * starts with lib). */
static int library_named(const char *path, const char *lib)
{
	return strncmp(path_basename(path), lib, strlen(lib)) == 0;
}

/* Where the names of a stripped file's other functions would come from. */
/* Says why --bench [LIB:]GLOB matched no function of program and the
 * libraries it loads (libs, at paths). */
static void say_no_match(const char *program, const struct elfinfo *elf, const struct elfinfo *libs,
			 char *const *paths, size_t nlibs, const char *lib, const char *glob)
{
	if (!lib && !elf->has_symtab) {
		log_error("'%s' is stripped: it has no symbol table, so no function matches '%s'%s; "
			  DEBUG_SYMBOLS_HINT ", or drop --bench to measure "
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
			const struct run_options *o, const struct elfinfo *elf)
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
		char *lib;
		const char *glob = bench_pattern(o->globs[g], &lib);
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
				job = jobs_add(js);
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

/* What a suite that times itself runs for before it reports, unless the
 * command line says: under simulation every run counts the same, so more
 * only costs time (docs/bm-run.md).  Each: the option's name, then the
 * words that set it. */
static const char *const gbench_defaults[][3] = {{"--benchmark_min_time", "--benchmark_min_time=0.01"}};
static const char *const catch2_defaults[][3] = {
	{"--benchmark-samples", "--benchmark-samples", "10"},
	{"--benchmark-warmup-time", "--benchmark-warmup-time", "1"},
	{"--benchmark-no-analysis", "--benchmark-no-analysis"},
};

/* Whether the program's words (argv[1] on) set the option name. */
static int gives(char *const *argv, size_t argc, const char *name)
{
	for (size_t i = 1; i < argc; i++)
		if (strncmp(argv[i], name, strlen(name)) == 0)
			return 1;
	return 0;
}

/* A Google Benchmark or Catch2 binary: one run, each benchmark reported
 * (MODE_GBENCH, MODE_CATCH2).  Its benchmarks time themselves, so it needs
 * the virtual clock. */
static int plan_suite(struct jobs *js, enum run_mode mode, const char *program, char *const *argv, size_t argc,
		      const struct run_options *o)
{
	const char *suite = mode == MODE_GBENCH ? "Google Benchmark" : "Catch2";
	const char *why = o->engine != ENGINE_BM ? "--engine bm" : !o->virtual_clock ? "--clock virtual" : NULL;
	if (why) {
		log_error("'%s' is a %s binary, whose benchmarks time themselves: each is measured on the bm engine's "
			  "virtual clock (%s), or the whole process with --whole",
			  program, suite, why);
		return -1;
	}
	if (o->name) {
		log_error("'%s' is a %s binary: its benchmarks name themselves; add --whole to measure the whole "
			  "process as '%s'",
			  program, suite, o->name);
		return -1;
	}
	if (o->nfilters || o->warm_given) {
		log_error("%s is for libbm's programs; '%s' is a %s binary (pass its own %s after the program)",
			  o->nfilters ? "--filter" : o->warm ? "--warm" : "--cold", program, suite,
			  mode == MODE_GBENCH ? "--benchmark_filter=REGEX" : "test spec");
		return -1;
	}
	const char *const(*defaults)[3] = mode == MODE_GBENCH ? gbench_defaults : catch2_defaults;
	size_t ndefaults = mode == MODE_GBENCH ? sizeof gbench_defaults / sizeof *gbench_defaults
					       : sizeof catch2_defaults / sizeof *catch2_defaults;
	size_t nargs = argc - 1;
	char **args = xcalloc(argc + 2 * ndefaults + 1, sizeof *args);
	memcpy(args, argv + 1, nargs * sizeof *args);
	for (size_t d = 0; d < ndefaults; d++)
		if (!gives(argv, argc, defaults[d][0]))
			for (size_t w = 1; w < 3 && defaults[d][w]; w++)
				args[nargs++] = (char *)defaults[d][w];
	job_init(jobs_add(js), program, args, nargs, mode, NULL, path_basename(program));
	free(args);
	return 0;
}

/* Adds the jobs of one command line.  Returns -1 after saying why. */
static int plan_command(struct jobs *js, char *const *argv, size_t argc, const struct run_options *o,
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
	} else if (o->harness != MODE_WHOLE) {
		r = plan_suite(js, o->harness, program, argv, argc, o);
	} else if ((elf.links_gbench || elf.links_catch2) && !elf.links_libbm && !o->whole) {
		r = plan_suite(js, elf.links_gbench ? MODE_GBENCH : MODE_CATCH2, program, argv, argc, o);
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
			job_init(jobs_add(js), program, args, nargs, MODE_HARNESS, NULL, NULL);
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
		job_init(jobs_add(js), program, argv + 1, argc - 1, MODE_WHOLE, NULL,
			 o->name ? o->name : path_basename(program));
	}
	if (r == 0 && first_elf && !first_elf->machine && elf.is_elf)
		*first_elf = elf;
	else
		elfinfo_release(&elf);
	free(program);
	return r;
}

int jobs_plan(struct jobs *js, int argc, char **argv, const struct run_options *o,
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

void jobs_release(struct jobs *js)
{
	for (size_t i = 0; i < js->n; i++)
		job_release(&js->j[i]);
	free(js->j);
	memset(js, 0, sizeof *js);
}

/* A fresh copy of the jobs' inputs, for --verify's second run. */
void jobs_copy(struct jobs *dst, const struct jobs *src)
{
	memset(dst, 0, sizeof *dst);
	for (size_t i = 0; i < src->n; i++) {
		const struct job *s = &src->j[i];
		if (s->followup)
			continue; /* planned again after the first run */
		struct job *d = jobs_add(dst);
		job_init(d, s->program, s->args, s->nargs, s->mode, s->symbol, s->name);
		for (size_t k = 0; k < s->nsymbols; k++)
			job_add_symbol(d, s->symbols[k]);
	}
}

/* Whether a job measures an unmodified program (whole-process or symbol
 * mode), which may well read its standard input. */
int jobs_measure_unmodified(const struct jobs *js)
{
	for (size_t i = 0; i < js->n; i++)
		if (js->j[i].mode != MODE_HARNESS)
			return 1;
	return 0;
}
