/* Valgrind: where its real binary is, which version it is, and the
 * command line bm-run gives it in each mode. */
#ifndef BM_LAUNCHER_H
#define BM_LAUNCHER_H

#include "sandbox.h"

#include <stddef.h>

enum run_mode {
	MODE_HARNESS, /* the program links libbm: one dump per benchmark */
	MODE_SYMBOL,  /* one function's calls, collected with --toggle-collect */
	MODE_WHOLE,   /* the whole process */
};

/* The real Valgrind binary, newly allocated: $BM_VALGRIND if set, else
 * valgrind.bin (Debian's /usr/bin/valgrind is a shell script that adds
 * LD_LIBRARY_PATH and PWD to the program's environment), else valgrind,
 * searched in PATH.  Returns NULL with *err set when there is none. */
char *launcher_find_valgrind(char **err);

/* Valgrind's version ("3.19.0"), newly allocated, or NULL with *err set. */
char *launcher_valgrind_version(const char *valgrind, char **err);

/* The argument vector (NULL-terminated, newly allocated; free with
 * launcher_free_argv) that runs the sandbox's program with args under
 * callgrind: pinned caches, system-call times, output in the sandbox.
 * symbol is the function to collect in MODE_SYMBOL. */
char **launcher_argv(const char *valgrind, enum run_mode mode, const char *symbol,
		     const struct sandbox *sb, char *const *args, size_t nargs);
void launcher_free_argv(char **argv);

#endif
