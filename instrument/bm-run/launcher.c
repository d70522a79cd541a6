/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "launcher.h"

#include "model.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *geometry_option(const char *name, const struct bm_cache_geometry *c)
{
	return xasprintf("--%s=%llu,%llu,%llu", name, (unsigned long long)c->size, (unsigned long long)c->assoc,
			 (unsigned long long)c->line);
}

/* Whether path is what execve can run: a regular file with an execute bit
 * for us (a directory passes access(X_OK), and execve refuses it). */
static int runnable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *launcher_search_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/bin:/usr/bin";
	/* As execvp: each entry in order, an empty one meaning the working
	 * directory (strtok would skip it). */
	for (const char *dir = path;; dir++) {
		size_t len = strcspn(dir, ":");
		char *candidate = len ? xasprintf("%.*s/%s", (int)len, dir, name)
				      : xasprintf("./%s", name);
		if (runnable(candidate))
			return candidate;
		free(candidate);
		dir += len;
		if (!*dir)
			return NULL;
	}
}

char *launcher_find_valgrind(char **err)
{
	const char *env = getenv("BM_VALGRIND");
	if (env && *env) {
		if (access(env, X_OK) == 0)
			return xstrdup(env);
		bm_error(err, "BM_VALGRIND='%s' is not an executable: %s", env, strerror(errno));
		return NULL;
	}
	char *v = launcher_search_path("valgrind.bin");
	if (!v && access("/usr/bin/valgrind.bin", X_OK) == 0)
		v = xstrdup("/usr/bin/valgrind.bin");
	if (!v)
		v = launcher_search_path("valgrind");
	if (!v)
		bm_error(err, "valgrind not found: install it (apt-get install valgrind) or set BM_VALGRIND");
	return v;
}

char *launcher_valgrind_version(const char *valgrind, char **err)
{
	int fds[2];
	if (pipe(fds) != 0) {
		bm_error(err, "cannot run '%s --version': %s", valgrind, strerror(errno));
		return NULL;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(valgrind, valgrind, "--version", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char buf[128] = "";
	size_t len = 0;
	ssize_t r;
	while (len < sizeof buf - 1 && (r = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)r;
	buf[len] = '\0';
	close(fds[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	/* "valgrind-3.19.0\n" */
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || strncmp(buf, "valgrind-", 9) != 0) {
		bm_error(err, "'%s --version' did not say which Valgrind it is", valgrind);
		return NULL;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf + 9);
}

/* Whether dir holds bm's tool, and callgrind's beside it (--engine
 * callgrind runs in the same environment). */
static int engine_in(const char *dir)
{
	char *tool = xasprintf("%s/bm-amd64-linux", dir);
	char *callgrind = xasprintf("%s/callgrind-amd64-linux", dir);
	int ok = access(tool, X_OK) == 0 && access(callgrind, X_OK) == 0;
	free(tool);
	free(callgrind);
	return ok;
}

/* BUILD/simulator/engine when this bm-run is BUILD/instrument/bm-run/bm-run
 * (run from its build tree, before make install), or NULL. */
static char *build_tree_engine(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	static const char tail[] = "/instrument/bm-run/bm-run";
	size_t len = strlen(exe), tail_len = sizeof tail - 1;
	if (len <= tail_len || strcmp(exe + len - tail_len, tail) != 0)
		return NULL;
	exe[len - tail_len] = '\0';
	char *dir = xasprintf("%s/simulator/engine", exe);
	if (engine_in(dir))
		return dir;
	free(dir);
	return NULL;
}

char *launcher_engine_dir(const char *version, char **err)
{
	const char *env = getenv("BM_ENGINE_DIR");
	if (!(env && *env)) {
		char *built = build_tree_engine();
		if (built && strcmp(version, BM_ENGINE_VALGRIND_VERSION) == 0)
			return built;
		free(built);
	}
	const char *dir = env && *env ? env : BM_ENGINE_INSTALL_DIR;
	if (!engine_in(dir)) {
		bm_error(err, "bm's Valgrind tool is not in '%s'%s: build bm with it (./configure, "
			 "make, make install) or measure with --engine callgrind",
			 dir, env && *env ? " (BM_ENGINE_DIR)" : "");
		return NULL;
	}
	if (strcmp(version, BM_ENGINE_VALGRIND_VERSION) != 0) {
		bm_error(err, "bm's Valgrind tool was built for Valgrind %s, and this is %s: rebuild bm "
			 "against this Valgrind, or measure with --engine callgrind",
			 BM_ENGINE_VALGRIND_VERSION, version);
		return NULL;
	}
	return xstrdup(dir);
}

/* --clock-cost=EVENT:CENTI,...: the model's weights, as the engine's
 * virtual clock adds them up. */
static char *clock_cost_option(const struct bm_model *model)
{
	int64_t w[BM_EV_COUNT];
	model_event_weights(model, w);
	char *s = xstrdup("--clock-cost=");
	for (int e = 0; e < BM_EV_COUNT; e++) {
		if (!w[e])
			continue;
		char *t = xasprintf("%s%s%s:%lld", s, s[13] ? "," : "", events_name((enum bm_event)e), (long long)w[e]);
		free(s);
		s = t;
	}
	return s;
}

/* Three pages: the stack and the arguments' strings (which the padding
 * follows) move down by as much, each string keeping its offset in its
 * page, on which string functions' counts depend (__strcmp_avx2 takes
 * another path near a page's end: a program's name and arguments are
 * its input, not its layout). */
size_t launcher_padding(const struct measure_setup *m)
{
	return m->perturbed ? 3 * 4096 : 0;
}

char **launcher_argv(const char *valgrind, const struct measure_setup *m, enum run_mode mode,
		     char *const *fns, size_t nfns, const struct sandbox *sb, char *const *args, size_t nargs)
{
	size_t n = 0;
	char **argv = xcalloc(nargs + nfns + 32, sizeof *argv);
	int bm = m->engine == ENGINE_BM;
	argv[n++] = xstrdup(valgrind);
	argv[n++] = xstrdup(bm ? "--tool=bm" : "--tool=callgrind");
	/* No gdbserver: its FIFOs in /tmp would outlive a Valgrind that
	 * bm-run kills (past its timeout, left running, bm-run killed). */
	argv[n++] = xstrdup("--vgdb=no");
	/* The model's caches, pinned: the host's auto-detected ones never
	 * enter a number. */
	argv[n++] = xstrdup("--cache-sim=yes");
	argv[n++] = geometry_option("I1", &m->model->i1);
	argv[n++] = geometry_option("D1", &m->model->d1);
	argv[n++] = geometry_option("LL", &m->model->ll);
	argv[n++] = xstrdup("--collect-systime=nsec");
	/* Callgrind's option name, which both engines take (their
	 * predictors differ: docs/engine.md). */
	if (m->branch_sim)
		argv[n++] = xstrdup("--branch-sim=yes");
	/* The CPU bm's tool answers cpuid as (callgrind's guest sees the
	 * host's), and bm-model/2's L2 and core cycles. */
	if (bm)
		argv[n++] = xasprintf("--cpu=%s", virtual_cpu(m->cpu)->name);
	/* --verify's second run: every mapping of the program elsewhere
	 * (Valgrind places them from this address up). */
	if (bm && m->perturbed)
		argv[n++] = xstrdup("--aspace-minaddr=0x40000000");
	/* Below L1, addresses each mapping's canonical place, and the
	 * program from where the dynamic loader leaves off: where the loader
	 * and Valgrind put things, and what the loader had to search, move
	 * no number (docs/engine.md). */
	if (bm) {
		argv[n++] = xstrdup("--layout=canonical");
		argv[n++] = xstrdup("--skip-loader=yes");
		/* Threads take turns as the engine says (threads.h), each
		 * waiting thread taking Valgrind's lock in its turn. */
		argv[n++] = xstrdup("--fair-sched=yes");
	}
	/* The time the program reads, at the model's frequency and by its
	 * cycles (docs/engine.md). */
	if (bm && m->virtual_clock) {
		argv[n++] = xstrdup("--clock=virtual");
		argv[n++] = xasprintf("--clock-hz=%.0f", m->model->frequency_hz);
		argv[n++] = clock_cost_option(m->model);
	}
	if (bm && m->model->version == 2) {
		argv[n++] = geometry_option("L2", &m->model->l2);
		argv[n++] = xstrdup("--block-cost=yes");
		argv[n++] = xasprintf("--core=%s", m->model->id);
	}
	/* What the program allocates, from the same run: the allocator is
	 * its own, the counts unchanged (docs/engine.md "Heap profiles"). */
	if (bm && m->heap)
		argv[n++] = xstrdup("--heap=yes");
	switch (mode) {
	case MODE_HARNESS:
		/* libbm turns collection on around each benchmark. */
		argv[n++] = xstrdup("--instr-atstart=no");
		break;
	case MODE_SYMBOL:
		argv[n++] = xstrdup("--collect-atstart=no");
		argv[n++] = xasprintf("--toggle-collect=%s", fns[0]);
		argv[n++] = xstrdup("--demangle=no");
		break;
	case MODE_SYMBOLS:
		/* Each function's calls, in the one run (bm's tool; callgrind
		 * measures each in a MODE_SYMBOL run of its own). */
		for (size_t i = 0; bm && i < nfns; i++)
			argv[n++] = xasprintf("--collect-in=%s", fns[i]);
		/* Functions by their symbols' names, as --bench matched them in
		 * the ELF files: a C++ function's mangled name. */
		argv[n++] = xstrdup("--demangle=no");
		break;
	case MODE_GBENCH:
		/* Each run of a benchmark's timed loop (docs/bm-run.md), demangled
		 * as the engine names functions by default. */
		argv[n++] = xstrdup("--zero-before=benchmark::State::StartKeepRunning()");
		/* Each run from the same empty machine, warmed by its own
		 * iterations: neither the benchmarks before it nor the filter
		 * (through what the suite allocated) reach into it. */
		argv[n++] = xstrdup("--clear-before=benchmark::State::StartKeepRunning()");
		argv[n++] = xstrdup("--dump-before=benchmark::State::FinishKeepRunning()");
		/* And where its reporters report a benchmark, after all its runs:
		 * the end of each benchmark's runs among the dumps. */
		argv[n++] = xstrdup("--dump-before=benchmark::*Reporter::ReportRuns(*)");
		break;
	case MODE_CATCH2:
		/* Each benchmark's run (its warm-up, then its samples) from the
		 * same empty machine, whatever ran before it. */
		argv[n++] = xstrdup("--clear-before=*Catch::Benchmark::Benchmark::run<*>()");
		break;
	case MODE_WHOLE:
		break;
	}
	argv[n++] = xasprintf("--callgrind-out-file=%s", sb->outfile);
	argv[n++] = xasprintf("--log-file=%s", sb->log);
	argv[n++] = xstrdup(sb->argv0);
	for (size_t i = 0; i < nargs; i++)
		argv[n++] = xstrdup(args[i]);
	/* The suite's own report, after the user's words: its last
	 * --benchmark_out (-r, -o) wins. */
	if (mode == MODE_GBENCH) {
		argv[n++] = xasprintf("--benchmark_out=%s/" GBENCH_REPORT, sb->dir);
		argv[n++] = xstrdup("--benchmark_out_format=json");
	} else if (mode == MODE_CATCH2) {
		argv[n++] = xstrdup("-r");
		argv[n++] = xstrdup("xml");
		argv[n++] = xstrdup("-o");
		argv[n++] = xasprintf("%s/" CATCH2_REPORT, sb->dir);
	}
	argv[n] = NULL;
	return argv;
}

void launcher_free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* s for a POSIX shell: as is when it is plain, else in single quotes. */
static void print_quoted(FILE *out, const char *s)
{
	if (*s && s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:%@")] == '\0') {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	fputc('\'', out);
}

/* s for a POSIX shell, with each occurrence of dir as "$d" (the directory
 * the printed command makes). */
static void print_with_dir(FILE *out, const char *s, const char *dir)
{
	const char *at = strstr(s, dir);
	if (!at) {
		print_quoted(out, s);
		return;
	}
	if (at > s) {
		char *before = xstrndup(s, (size_t)(at - s));
		print_quoted(out, before);
		free(before);
	}
	fputs("\"$d\"", out);
	if (at[strlen(dir)])
		print_with_dir(out, at + strlen(dir), dir);
}

void launcher_print_command(FILE *out, const char *valgrind, const struct measure_setup *m, enum run_mode mode,
			    char *const *fns, size_t nfns, const char *program, char *const *args, size_t nargs,
			    char *const *extra_env, size_t nextra_env, const char *input)
{
	static const char dir[] = "/tmp/bm-run.XXXXXX";
	struct sandbox sb = {
		.dir = (char *)dir,
		.argv0 = xasprintf("%s/p", dir),
		.outfile = xasprintf("%s/cg.%%p.out", dir),
		.log = xasprintf("%s/valgrind.log", dir),
	};
	char **argv = launcher_argv(valgrind, m, mode, fns, nfns, &sb, args, nargs);
	char **client = xcalloc(nargs + 2, sizeof *client);
	client[0] = sb.argv0;
	memcpy(client + 1, args, nargs * sizeof *client);
	char **env = sandbox_environment(virtual_cpu(m->cpu)->glibc_tunables, extra_env, nextra_env, client, nargs + 1,
				  launcher_padding(m));
	fprintf(out, "# %s, as bm-run runs it: from a new directory whose name is always as\n"
		     "# long as %s (mktemp makes one on each run), holding p, a symbolic\n"
		     "# link to the program, with its output in files (libbm's control\n"
		     "# channel, fd 3, is left out here)%s\n",
		program, dir, input ? "" : ", and your standard input as its own\n# (bm-run feeds it what it reads on its own)");
	fprintf(out, "d=$(mktemp -d %s) && ln -s ", dir);
	print_quoted(out, program);
	fprintf(out, " \"$d/p\" && cd \"$d\" &&\nenv -i");
	for (size_t i = 0; env[i]; i++) {
		fputs(" \\\n    ", out);
		if (env[i][0] == '=')
			fprintf(out, "\"=$(printf '%%*s' %zu '' | tr ' ' x)\"", strlen(env[i] + 1));
		else
			print_with_dir(out, env[i], dir);
	}
	for (size_t i = 0; argv[i]; i++) {
		fputs(i == 0 || i == 1 ? " \\\n    " : " ", out);
		print_with_dir(out, argv[i], dir);
	}
	/* Where its output goes matters: glibc asks what standard output is. */
	fputs(" \\\n    ", out);
	if (input) {
		fputc('<', out);
		print_quoted(out, input);
		fputc(' ', out);
	}
	fputs(">program.out 2>program.err\n", out);
	sandbox_free_environment(env);
	free(client);
	launcher_free_argv(argv);
	free(sb.argv0);
	free(sb.outfile);
	free(sb.log);
}
