/* SPDX-License-Identifier: MIT */
/* A manifest: a file of command lines for bm-run --manifest, one program
 * and its arguments per line.  Blank lines and lines starting with '#' are
 * ignored; words are split at blanks, with '...' and "..." quoting and
 * backslash escapes as in a shell (no variables, globs or pipes). */
#ifndef BM_MANIFEST_H
#define BM_MANIFEST_H

#include <stddef.h>

struct manifest_command {
	char **argv; /* NULL-terminated */
	size_t argc;
	unsigned long line;
};

/* Reads path into *out (*n commands).  Returns 0, or -1 with *err set
 * ("FILE:LINE: unterminated quote", "cannot open ..."). */
int manifest_read(const char *path, struct manifest_command **out, size_t *n, char **err);
void manifest_free(struct manifest_command *cmds, size_t n);

/* Splits one line into words as described above; returns -1 with *err
 * set on an unterminated quote. */
int manifest_split(const char *line, char ***argv, size_t *argc, char **err);

#endif
