/* SPDX-License-Identifier: MIT */
/* bm-run --keep: a benchmark's callgrind file, kept for KCachegrind,
 * callgrind_annotate and bm-profile. */
#ifndef BM_KEEP_FILE_H
#define BM_KEEP_FILE_H

/* Copies the callgrind file dump to DIR/ID.callgrind (with '/' in ids made
 * '_'), as every output file is written (lib/atomic_file.h), with its
 * "summary:" line made its "totals:" line: callgrind writes the summary of
 * a part dumped after its costs were zeroed (libbm's warm runs) as a
 * difference that wraps below zero, which callgrind_annotate shows as
 * PROGRAM TOTALS of 18,446,744,073,709,... and an empty table (the
 * values padded to one per event, which callgrind_annotate needs).  Says why
 * on stderr when it cannot. */
void keep_file(const char *dump, const char *dir, const char *id);

#endif
