/* SPDX-License-Identifier: MIT */
/* What bm-check shows on standard output: the text report (the Markdown
 * summary is check_markdown.h's), and the expectations' judgement.  It
 * lists the benchmarks in the check's order (failed first, then by
 * impact, worst first) with the unchanged ones collapsed into one line. */
#ifndef BM_CHECK_OUTPUT_H
#define BM_CHECK_OUTPUT_H

#include "check.h"
#include "expectations.h"

#include <stdio.h>

/* The expectations' result for each row of a check (c->nrows entries). */
struct check_expected {
	const char *path;            /* the file they came from */
	enum expectation *result;
	const char **key;            /* borrowed from the expectations, or NULL */
	char **note;                 /* owned, or NULL */
	size_t n;
};

/* Judges every row of c; release with check_expected_release. */
void check_expected_init(struct check_expected *x, const struct expectations *e, const char *path,
			 const struct check *c);
void check_expected_release(struct check_expected *x);

/* The exit code with expectations: 1 when a benchmark failed, when an
 * expectation says FAILURE, or when the benchmarks the expectations do
 * not list regress beyond the threshold together; else 0. */
int check_expected_exit_code(const struct check *c, const struct check_expected *x);


/* The text report; x may be NULL (no expectations). */
void check_print_text(FILE *f, const struct check *c, const struct check_expected *x);

/* One line for a commit status: the verdict and the commit impact, at
 * most max bytes (the caller's buffer holds max + 1). */
void check_format_summary(char *buf, size_t max, const struct check *c);

#endif
