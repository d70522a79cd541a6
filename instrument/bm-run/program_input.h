/* SPDX-License-Identifier: MIT */
/* What the measured programs read on standard input.
 *
 * bm-run reads it once, before anything runs: the file of --stdin FILE, or
 * else bm-run's own standard input when that is a file, a pipe or a
 * socket.  The bytes are kept in a private, already unlinked file, and
 * every program (each run of --verify and of a manifest too) reads that
 * file from its first byte: a regular file, so that the program's reads
 * return the same bytes in the same pieces on every run (a pipe's reads
 * would depend on timing).  A terminal, /dev/null, another device or a
 * closed descriptor, and an empty input, give the program /dev/null and
 * record nothing.  The report records the input's size and SHA-256 (and
 * the series identity its digest), so that runs on other input are never
 * compared. */
#ifndef BM_PROGRAM_INPUT_H
#define BM_PROGRAM_INPUT_H

#include "sha256.h"

#include <stdint.h>

struct program_input {
	int fd;         /* the private copy, or -1: none (/dev/null) */
	char path[32];  /* what a child opens: /proc/self/fd/N or /dev/null */
	uint64_t bytes;
	char sha256[SHA256_HEX_SIZE]; /* "" when none */
	int terminal;   /* bm-run's standard input was a terminal */
};

/* Takes the programs' input: file (--stdin; "-" for bm-run's standard
 * input whatever it is; NULL to look at bm-run's standard input as above).  Returns 0, or -1 with *err set (cannot open or read
 * it, no room for the copy). */
int program_input_take(const char *file, struct program_input *in, char **err);

/* Whether program_input_take(NULL) would read bm-run's standard input. */
int program_input_from_stdin(void);

/* Closes the copy. */
void program_input_release(struct program_input *in);

#endif
