/* SPDX-License-Identifier: MIT */
/* Why a process of a job ended without saying how, read from the files it
 * left in the sandbox (Valgrind's log, callgrind's dumps): it ran exec
 * (which Valgrind does not follow), exited inside a benchmark, or lost
 * the harness's word that it was done.  The reasons are for people and
 * say what to do. */
#ifndef BM_BLAME_H
#define BM_BLAME_H

#include "job.h"

/* Whether process pid of the job ran exec (forked: a benchmark's process,
 * forked from the running program; else the program's own). */
int blame_execed(const struct job *job, int pid, int forked);
/* Why a process replaced itself with exec: what (it did), and what to
 * do; code is the exit status of what it ran, when the parent saw one.
 * Newly allocated. */
char *blame_exec(const char *what, int pid, int code, const char *todo);
/* Why benchmark e failed whose process ended without a "done" (code: the
 * status of the program's "fail", 0 when it said none).  Newly
 * allocated. */
char *blame_lost(const struct job *job, const struct entry *e, int code);

#endif
