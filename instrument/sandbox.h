/* The fixed conditions every program runs under (docs/determinism.md):
 * a scratch directory whose path always has the same length, holding the
 * program's argv[0] (a symlink to it), Valgrind's output files and log,
 * and the program's output; and a fixed environment. */
#ifndef BM_SANDBOX_H
#define BM_SANDBOX_H

#include <stddef.h>

/* glibc's CPU-feature mask and cache thresholds: every host takes the
 * same (baseline x86-64) string and memory routines. */
extern const char sandbox_glibc_tunables[];

struct sandbox {
	char *dir;      /* /tmp/bm-run.XXXXXX */
	char *argv0;    /* DIR/p, a symlink to the program */
	char *outfile;  /* DIR/cg.%p.out, for --callgrind-out-file */
	char *log;      /* DIR/valgrind.log */
	char *output;   /* DIR/program.out: the program's stdout and stderr */
};

/* Makes the directory and the argv[0] link to program (an absolute path).
 * Returns 0, or -1 with *err set. */
int sandbox_create(struct sandbox *s, const char *program, char **err);

/* Removes the directory and everything in it; frees s's strings. */
void sandbox_remove(struct sandbox *s);

/* The environment (NULL-terminated, newly allocated; free with
 * sandbox_free_environment): PATH, LC_ALL, TZ, LD_BIND_NOW,
 * GLIBC_TUNABLES and BM_CONTROL, then extra ("K=V" strings) in order. */
char **sandbox_environment(char *const *extra, size_t nextra);
void sandbox_free_environment(char **env);

#endif
