/* SPDX-License-Identifier: MIT */
/* bm-run --keep's copies: see keep_file.h. */
#include "config.h"

#include "keep_file.h"

#include "atomic_file.h"
#include "log.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of blank-separated words in s. */
static size_t words(const char *s)
{
	size_t n = 0;
	for (s += strspn(s, " \t\n"); *s; s += strspn(s, " \t\n"), n++)
		s += strcspn(s, " \t\n");
	return n;
}

/* What the file's summary should say: its "totals:" values, padded with
 * zeros to one per event (callgrind leaves trailing zeros out, which
 * callgrind_annotate reads as undefined), newly allocated with a newline;
 * or NULL without totals. */
static char *totals_of(FILE *in)
{
	char *line = NULL, *totals = NULL;
	size_t cap = 0, events = 0;
	while (getline(&line, &cap, in) > 0) {
		if (strncmp(line, "events:", 7) == 0)
			events = words(line + 7);
		if (strncmp(line, "totals:", 7) == 0) {
			free(totals);
			totals = xstrndup(line + 7, strcspn(line + 7, "\n"));
		}
	}
	free(line);
	if (!totals)
		return NULL;
	size_t have = words(totals), len = strlen(totals);
	char *padded = xmalloc(len + 2 * (events > have ? events - have : 0) + 2);
	memcpy(padded, totals, len);
	for (; have < events; have++, len += 2)
		memcpy(padded + len, " 0", 2);
	memcpy(padded + len, "\n", 2);
	free(totals);
	return padded;
}

/* Copies in to out, the summary made the totals (when known). */
static void copy(FILE *in, FILE *out, const char *totals)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, in)) > 0)
		if (totals && strncmp(line, "summary:", 8) == 0)
			fprintf(out, "summary:%s", totals);
		else
			fwrite(line, 1, (size_t)n, out);
	free(line);
}

void keep_file(const char *dump, const char *dir, const char *id)
{
	char *name = xasprintf("%s/%s.callgrind", dir, id);
	for (char *c = name + strlen(dir) + 1; *c; c++)
		if (*c == '/')
			*c = '_';
	char *err = NULL;
	FILE *in = fopen(dump, "rb");
	struct atomic_file *af = in ? atomic_file_open(name, &err) : NULL;
	if (!in)
		err = xasprintf("cannot open '%s': %s", dump, strerror(errno));
	if (af) {
		char *totals = totals_of(in);
		rewind(in);
		copy(in, atomic_file_stream(af), totals);
		free(totals);
		if (ferror(in)) {
			atomic_file_abort(af);
			err = xasprintf("cannot read '%s'", dump);
		} else {
			atomic_file_commit(af, &err);
		}
	}
	if (err)
		log_warn("cannot keep the callgrind file of '%s': %s", id, err);
	if (in)
		fclose(in);
	free(err);
	free(name);
}
