/* SPDX-License-Identifier: MIT */
/* What bm-server needs of an uploaded report beyond its schema: where the
 * run sits in the project's history.  Kept apart from the HTTP handler so
 * that it can be fuzzed. */
#ifndef BM_UPLOAD_CHECK_H
#define BM_UPLOAD_CHECK_H

#include "report.h"

#include <stdint.h>

/* The longest branch, model id, engine, CPU, metric name or metric unit
 * an upload may carry, in bytes. */
#define UPLOAD_MAX_NAME 1024
/* The longest benchmark id, in bytes: its history's URL, percent-encoded
 * (up to three bytes a byte), stays far below what servers and proxies
 * take (libmicrohttpd answers 414 past about 32 KB with the headers). */
#define UPLOAD_MAX_ID 512

/* Checks a report that report_from_json accepted: a run_id of 1 to 128
 * bytes, a branch, a hexadecimal commit SHA with an RFC 3339
 * committer time (returned in *commit_time, seconds since the epoch), at
 * most 1,000 hexadecimal ancestors (not the commit, none twice), a
 * complete pull request if any (its merge base not the commit), and
 * a model id, engine and CPU of at most UPLOAD_MAX_NAME bytes each, at
 * least one benchmark, no id over UPLOAD_MAX_ID bytes (no id twice: the
 * reader refuses that), and an imported benchmark's metrics
 * with names and units of at most UPLOAD_MAX_NAME bytes, none twice.  SHAs
 * are lower-cased in place.
 * Returns 0, or -1 with *err naming the field. */
int upload_check(struct bm_report *r, int64_t *commit_time, char **err);

#endif
