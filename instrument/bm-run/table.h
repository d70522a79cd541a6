/* SPDX-License-Identifier: MIT */
/* The table bm-run prints: benchmark, cycles, estimated time, speed and
 * system calls (count and wall time), failed and skipped ones with why. */
#ifndef BM_TABLE_H
#define BM_TABLE_H

#include "report.h"

#include <stdio.h>

/* whole_process: some benchmark is a whole process, whose system calls
 * include Valgrind's own work (the table says so).  color: use ANSI colours
 * (only on a terminal, never with NO_COLOR). */
void table_print(FILE *out, const struct bm_report *r, int whole_process, int color);

/* Whether colours suit the stream: a terminal, NO_COLOR unset, TERM not dumb. */
int table_use_color(FILE *stream);

#endif
