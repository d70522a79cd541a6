/* SPDX-License-Identifier: MIT */
/* The pieces the text report and the Markdown summary both show of a
 * check: a row's cells (impact, values, cause) and counts over the rows.
 * Texts are bm's own words and numbers; names and reasons are the
 * caller's to escape for where they go. */
#ifndef BM_CHECK_CELLS_H
#define BM_CHECK_CELLS_H

#include "check.h"
#include "fmt.h"

#include <stddef.h>

/* "-30.00%"-style text for an impact fraction, into buf (32 bytes):
 * fmt_percent, so "+1.65e+10%" for a huge one, never a cut number. */
char *check_format_impact(char buf[32], double impact);

#define CHECK_CAUSE_SIZE 160
#define CHECK_IMPACT_CELL_SIZE 80

/* The impact ("-30.00%", with " (own threshold 2%)" for a row judged
 * with its own), or what stands instead ("-", "new", "failed", ...). */
const char *check_cell_impact(char buf[CHECK_IMPACT_CELL_SIZE], const struct check *c, const struct check_row *r);

/* The column name of the gate metric's values: "speed" or "base speed",
 * "Ir", "calls", ... */
const char *check_cell_value_name(const struct check *c, int base);

/* A row's value (base: its baseline's) in the gate metric, or "-". */
const char *check_cell_value(char buf[FMT_SIZE], const struct check *c, const struct check_row *r, int base);

/* Why a slower row is slower: more instructions or more cache misses
 * (gate.h); "" when not known or not slower. */
const char *check_cell_cause(char buf[CHECK_CAUSE_SIZE], const struct check *c, const struct check_row *r);

/* A row's change in what its benchmark allocated, where the heap was
 * counted on both sides and it differs: "10 -> 22 blocks (+12), 1,000 ->
 * 5,096 bytes (+4,096), peak 500 -> 900 bytes".  Returns 1, or 0 (buf
 * empty): the check says so even where the speed did not move. */
#define CHECK_ALLOC_SIZE 200
int check_alloc_change(char buf[CHECK_ALLOC_SIZE], const struct check_row *r);
int check_any_alloc_change(const struct check *c);
int check_any_cause(const struct check *c);
int check_any_ack(const struct check *c);
size_t check_count_unchanged(const struct check *c);
size_t check_count_failed(const struct check *c);

/* The baseline's reason without the "no baseline: " it may start with. */
const char *check_no_baseline_why(const struct check *c);

/* "10%" for a threshold of 0.1. */
void check_threshold_text(char buf[32], double t);

#endif
