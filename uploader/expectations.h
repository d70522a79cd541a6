/* SPDX-License-Identifier: MIT */
/* Chromium-style perf expectations (SPEC 3.2, seed 003): a JSON object
 *
 *   {"PLATFORM/SUITE/BENCHMARK/METRIC": {"improve": X, "regress": Y}, ...,
 *    "load": true}
 *
 * with X and Y impact fractions (-0.05 is 5% slower).  PLATFORM is
 * check_platform_key() of the report's platform ("x86_64-debian-12-gcc-12.2.0")
 * or "*" for any; SUITE is the benchmark id before "::" (empty when it has
 * none) and BENCHMARK the rest, tag included ("sort::qsort[n=1000]" is
 * SUITE "sort", BENCHMARK "qsort[n=1000]"); METRIC is the check's gate
 * metric: "speed" (cycles, the default), "instructions" or "syscalls".
 * Each benchmark gets a result:
 *
 *   failed (crash or timeout)         FAILURE
 *   no entry                          UNLISTED (a success)
 *   impact < regress                  FAILURE
 *   impact > improve                  WARNING  (update your expectations)
 *   listed but not run by the commit  WARNING
 *   otherwise (or nothing compared)   SUCCESS */
#ifndef BM_EXPECTATIONS_H
#define BM_EXPECTATIONS_H

#include "check.h"

#include <stddef.h>

/* Largest expectations file read. */
#define EXPECTATIONS_MAX_BYTES (16u << 20)

enum expectation { EXPECT_UNLISTED, EXPECT_SUCCESS, EXPECT_WARNING, EXPECT_FAILURE };

struct expectations;

/* "unlisted", "SUCCESS", "WARNING" or "FAILURE". */
const char *expectation_name(enum expectation e);

/* Validates the size bytes at text (need not end in '\0'), named name in
 * messages.  Returns the expectations, or NULL with *why set when they
 * are not to be used: more than EXPECTATIONS_MAX_BYTES, malformed
 * (naming the problem: "e.json: key 'a/b/c/speed': 'regress' must be a
 * number (an impact fraction)", "e.json:3:1: ..." for bad JSON), or
 * without "load": true.  Either is a warning for the caller, never an
 * error: the check goes on without them.  *why is one line. */
struct expectations *expectations_parse(const char *text, size_t size, const char *name, char **why);

/* Reads the file at path (at most EXPECTATIONS_MAX_BYTES) and parses it
 * as expectations_parse does, with path as the name; an unreadable file
 * is one more reason for NULL ("cannot open 'e.json': ...", "cannot
 * read 'e.json': Is a directory"). */
struct expectations *expectations_load(const char *path, char **why);

/* Judges one benchmark of a commit on platform (check_platform_key) in
 * metric (expectations_metric).
 * *key is set to the entry's key (borrowed from e) or NULL; *note to a
 * newly allocated explanation, or NULL for unlisted benchmarks. */
enum expectation expectations_judge(const struct expectations *e, const char *platform, const char *metric,
				    const struct check_row *r, const char **key, char **note);

/* The PLATFORM part of e's key nearest to platform (the longest common
 * prefix), for "this file judges nothing" warnings: borrowed from e, its
 * length in *len; NULL when every key is for any platform ("*"). */
const char *expectations_nearest_platform(const struct expectations *e, const char *platform, size_t *len);

/* The METRIC of keys for gate metric m: "speed" for cycles, else its name. */
const char *expectations_metric(enum gate_metric m);

/* NULL is a no-op. */
void expectations_free(struct expectations *e);

#endif
