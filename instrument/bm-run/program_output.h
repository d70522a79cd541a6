/* SPDX-License-Identifier: MIT */
/* What the measured program and Valgrind wrote (the sandbox's files), as
 * bm-run shows it to people: the sandbox's own paths given as the
 * program's, control characters made visible, Valgrind's banner and
 * cache warnings left out, a crash's stack trace kept. */
#ifndef BM_PROGRAM_OUTPUT_H
#define BM_PROGRAM_OUTPUT_H

#include "job.h"

/* A line the program or Valgrind wrote, for people: the sandbox's argv[0]
 * given as the program's path, control characters shown as '?'.  Newly
 * allocated. */
char *program_text(const char *line, const struct sandbox *sb, const char *program);
/* The last non-empty line of a file (at most 200 characters), newly
 * allocated, or NULL (also when it is how Google Benchmark's header
 * ends: its load average or its warnings, such as a DEBUG build's). */
char *program_last_line(const char *path, const struct sandbox *sb, const char *program);
/* Says what (log_error), then what the program wrote and what Valgrind
 * said about process pid (its last lines). */
void program_show_output(const struct job *job, const char *what, int pid);
/* Everything the program wrote to standard output (bm-run -v). */
void program_show_all(const struct job *job);

#endif
