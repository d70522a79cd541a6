/* SPDX-License-Identifier: MIT */
/* A report's run id and creation time, for every writer of bm-report/1
 * (bm-run, bm-import, libbm's native report). */
#ifndef BM_REPORT_IDENTITY_H
#define BM_REPORT_IDENTITY_H

#include <time.h>

/* A random (version 4) UUID, newly allocated. */
char *report_new_uuid(void);
/* t (seconds since the epoch) as RFC 3339 UTC ("2026-11-22T10:00:00Z")
 * in buf; returns buf. */
#define REPORT_TIME_SIZE 32
char *report_format_rfc3339(char buf[REPORT_TIME_SIZE], time_t t);
/* The current time the same way, newly allocated. */
char *report_now_rfc3339(void);

#endif
