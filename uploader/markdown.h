/* SPDX-License-Identifier: MIT */
/* Outside text (benchmark names, failure reasons, notes, branch names)
 * in the Markdown that bm-check posts to GitHub and GitLab, where it must
 * read as itself: no mention (@user, @org/team), reference (#1, !2),
 * link (a bare URL), emoji (:shipit:), strikethrough, emphasis, HTML or
 * table cell boundary may come out of it.  Both hosts leave the inside of
 * a code span alone (their mention, reference, emoji and autolink filters
 * skip code), so every such text is written as one code span, fenced with
 * more backticks than it holds.  Control characters, and the invisible
 * characters that can make one name display as another (bidirectional
 * overrides and isolates, zero-width spaces and joiners, the byte-order
 * mark), are written as visible escapes ("\x1b", "\u202e"), so that
 * neither a terminal reading `--markdown -` nor a reader of the comment
 * gets them raw. */
#ifndef BM_MARKDOWN_H
#define BM_MARKDOWN_H

#include <stdio.h>

/* Where a code span goes: in a GitHub-flavoured table cell, whose '|'
 * must be written "\|" even inside code (the table is split first). */
enum markdown_place { MARKDOWN_TEXT, MARKDOWN_CELL };

/* Writes s (NULL: nothing) as one code span to f. */
void markdown_code(FILE *f, const char *s, enum markdown_place where);

#endif
