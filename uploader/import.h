/* SPDX-License-Identifier: MIT */
/* Importers: other benchmark suites' results as a bm-report/1 report, so
 * that their history can join bm's (docs/bm-import.md).  One file per
 * format (import_qtestlib.c, import_gbench.c, import_chromium.c), each
 * exporting one table entry; bm-import and bm-upload --from find a format
 * by name in import_formats and read files with import_file.
 *
 * An imported benchmark has no simulated numbers: an ok one carries its
 * source's measurement as a metric named after the source (struct
 * bm_metric in report.h), a failed one its reason. */
#ifndef BM_IMPORT_H
#define BM_IMPORT_H

#include "report.h"

#include <stddef.h>

/* Hard limits on what an importer accepts: larger input, more benchmarks
 * or longer names are clean errors, never a larger allocation. */
#define IMPORT_MAX_INPUT ((size_t)64 << 20)
#define IMPORT_MAX_INPUT_TEXT "64 MiB"
#define IMPORT_MAX_BENCHMARKS 100000
#define IMPORT_MAX_ID 4096 /* bytes of a benchmark id */

/* Parses the size bytes at data, the contents of the file called name
 * (used only in messages), into r, which the importer sets up with
 * report_init.  Returns 0, or -1 with *err set to one line such as
 * "sample.xml:12:5: expected '>'" and r left released.  Input without a
 * benchmark is an error.  Never exits; the caller owns r and *err. */
typedef int import_parse_fn(const char *data, size_t size, const char *name,
			    struct bm_report *r, char **err);

struct import_format {
	const char *name;        /* "qtestlib", as given on the command line */
	const char *description; /* for usage text */
	import_parse_fn *parse;
};

extern const struct import_format import_qtestlib, import_gbench, import_chromium;

/* Every format, ending with a NULL entry. */
extern const struct import_format *const import_formats[];

/* The format called name, or NULL. */
const struct import_format *import_find(const char *name);

/* Parses data with format f (import_parse_fn's contract) and sets the
 * report's tool and model to say where the numbers came from. */
int import_parse(const struct import_format *f, const char *data, size_t size, const char *name,
		 struct bm_report *r, char **err);

/* Reads the file at path ("-": standard input) and parses it with f into
 * r, as import_parse does.  Returns 0, or -1 with *err set to one line:
 * "cannot open 'x': reason", "cannot read 'x': reason", "'x' is larger
 * than 64 MiB" or the parser's message with its position.  Never exits. */
int import_file(const struct import_format *f, const char *path, struct bm_report *r, char **err);

/* Helpers shared by the importers ------------------------------------- */

/* The benchmarks an importer has added, by id, to refuse duplicates. */
struct import_ids;

struct import_ids *import_ids_new(void);
/* NULL is a no-op. */
void import_ids_free(struct import_ids *ids);

/* Adds a benchmark with the given id (len bytes, no NUL inside) to r and
 * returns it, or returns NULL with *err set ("duplicate benchmark 'x'",
 * "more than 100000 benchmarks", "benchmark id longer than 4096 bytes";
 * without a position, which the caller adds).  The id is taken as the
 * report writes it, each byte that is not UTF-8 as U+FFFD: two names that
 * differ only there are a duplicate.  The pointer is valid until the next
 * benchmark is added. */
struct bm_result *import_add(struct bm_report *r, struct import_ids *ids, const char *id,
				size_t len, char **err);

/* The index in r of the benchmark with that id (taken as import_add
 * takes it), or -1. */
long import_lookup(const struct import_ids *ids, const char *id, size_t len);

/* Parses the len bytes at s as a decimal number ("-1.5e-3"; no hex, inf
 * or nan) into *out.  Returns 0, or -1 when s is not one or it is not
 * finite. */
int import_number(const char *s, size_t len, double *out);

#endif
