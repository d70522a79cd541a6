/* SPDX-License-Identifier: MIT */
/* The check in Markdown, for GitHub's job summary, --markdown and the
 * comment on a pull request or merge request.  Everything that came from
 * outside (names, reasons, notes, the baseline's reason with its branch
 * names) is written through markdown.h, so it reads as itself. */
#ifndef BM_CHECK_MARKDOWN_H
#define BM_CHECK_MARKDOWN_H

#include "check.h"
#include "check_output.h"

#include <stdio.h>

/* The summary of one check: a "### bm: VERDICT" heading, the baseline,
 * the commit impact and the table; x may be NULL (no expectations). */
void check_print_markdown(FILE *f, const struct check *c, const struct check_expected *x);

/* One job's part of a comment: a commit measured on one platform and
 * model (the server merges the shards of a suite into one). */
struct check_section {
	const struct check *c;
	const struct check_expected *x; /* or NULL */
	const char *label;              /* "x86_64, bm-model/1" */
	const char *report_url;         /* the dashboard's page, or NULL */
};

/* How bad a verdict is, for putting the worst first: failed, regression,
 * no baseline, acknowledged, neutral, improvement (0 is the worst). */
int check_verdict_rank(enum verdict v);

/* The comment: marker alone on its first line (review_comment.h finds it
 * there), then the worst verdict of all sections as the heading and, for
 * more than one, a line per section; then each section, the worst first
 * (s is sorted in place). */
void check_print_comment(FILE *f, const char *marker, struct check_section *s, size_t n);

#endif
