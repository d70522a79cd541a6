/* SPDX-License-Identifier: MIT */
/* What bm-run reads from a program's ELF file with libelf: whether it links
 * libbm, its function symbols, its build-id and the compiler that built it
 * (from the .comment section). */
#ifndef BM_ELFINFO_H
#define BM_ELFINFO_H

#include <stddef.h>

struct elfinfo {
	int is_elf;
	int links_libbm;   /* defines bm_main, or needs libbm.so */
	int links_gbench;  /* Google Benchmark: defines or imports
			    * benchmark::State::StartKeepRunning(), or needs
			    * libbenchmark.so */
	int links_catch2;  /* Catch2's benchmarks: a symbol of its
			    * Catch::Benchmark namespace */
	int has_symtab;    /* a .symtab (not stripped), or a separate debug
			    * file with one (debug_file) */
	char *debug_file;  /* where a stripped file's names came from, or NULL */
	int dynamic;       /* has a dynamic loader (PT_INTERP): loads shared libraries */
	char *build_id;    /* hex, or NULL */
	char *compiler;    /* the first .comment string ("GCC: (Debian 12.2.0-14) 12.2.0"), or NULL */
	char *machine;     /* "x86_64", ... */
	char **functions;  /* defined function symbols, sorted, unique */
	size_t nfunctions;
};

/* Reads path.  Returns 0, or -1 with *err set when the file cannot be
 * opened or read; a file that is not ELF is not an error (is_elf 0). */
int elfinfo_read(const char *path, struct elfinfo *out, char **err);
/* The same, keeping of the functions only those matching one of the
 * nglobs shell patterns in globs (all of them with none): a library's
 * whole table, copied and sorted, is most of symbol mode's planning. */
int elfinfo_read_matching(const char *path, const char *const *globs, size_t nglobs, struct elfinfo *out,
			  char **err);
void elfinfo_release(struct elfinfo *e);

/* The defined functions matching the shell pattern glob (fnmatch), in a
 * new array of borrowed strings (free the array only); *n is the count. */
const char **elfinfo_match(const struct elfinfo *e, const char *glob, size_t *n);

#endif
