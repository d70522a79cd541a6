/* SPDX-License-Identifier: MIT */
/* The fixed conditions every program runs under (docs/determinism.md):
 * a scratch directory whose path always has the same length, holding the
 * program's argv[0] (a symlink to it), Valgrind's output files and log,
 * and the program's output; and a fixed environment. */
#ifndef BM_SANDBOX_H
#define BM_SANDBOX_H

#include <stddef.h>

/* glibc's CPU-feature mask and cache thresholds for each of the bm
 * engine's virtual CPUs (virtual_cpu.h): every host takes the same string
 * and memory routines, baseline x86-64's or x86-64-v3's. */
extern const char sandbox_glibc_tunables_v1[];
extern const char sandbox_glibc_tunables_v3[];

struct sandbox {
	char *dir;      /* /tmp/bm-run.XXXXXX */
	char *argv0;    /* DIR/p, a symlink to the program */
	char *outfile;  /* DIR/cg.%p.out, for --callgrind-out-file */
	char *log;      /* DIR/valgrind.log */
	char *output;   /* DIR/program.out: the program's standard output */
	char *errors;   /* DIR/program.err: its standard error */
};

/* Makes the directory, with the run's lock in it (scratch.h), and the
 * argv[0] link to program (an absolute path).  Returns 0, or -1 with *err
 * set. */
int sandbox_create(struct sandbox *s, const char *program, char **err);

/* Removes the directory and everything in it; frees s's strings. */
void sandbox_remove(struct sandbox *s);

/* The environment (NULL-terminated, newly allocated; free with
 * sandbox_free_environment): the padding "=xx...x" (a variable with an
 * empty name), extra ("K=V" strings, but for those that replace a fixed
 * variable) in order, LD_PRELOAD= (unless extra has it: Valgrind puts its
 * preload there), then PATH, LC_ALL, TZ, LD_BIND_NOW, BM_CONTROL and
 * GLIBC_TUNABLES (glibc_tunables).  The padding's length makes the
 * strings of argv (the program's argc arguments, argv[0] included), of the
 * environment and of Valgrind's preload (named by VALGRIND_LIB's
 * directory, else SANDBOX_VALGRIND_LIBDIR) take the same space
 * above the stack whatever their lengths: a multiple of
 * SANDBOX_STRINGS_ALIGN bytes, and more bytes beyond (--verify's second
 * run: another environment size, which must move nothing). */
char **sandbox_environment(const char *glibc_tunables, char *const *extra, size_t nextra, char *const *argv,
			   size_t argc, size_t more);
#define SANDBOX_STRINGS_ALIGN 65536
/* Where Valgrind's own tools and preloads are when VALGRIND_LIB does not
 * say (Debian's valgrind package). */
#define SANDBOX_VALGRIND_LIBDIR "/usr/libexec/valgrind"
void sandbox_free_environment(char **env);

/* Closes every descriptor from first up but the nkeep in keep, however
 * high its number (a CI runner's may be above 1024): in a child about to
 * run the program (keeping none), and in bm-run itself at its start,
 * whose descriptors its benchmarks could read through /proc/PID/fd. */
void sandbox_close_except(int first, const int *keep, size_t nkeep);

#endif
