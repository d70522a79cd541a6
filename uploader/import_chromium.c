/* SPDX-License-Identifier: MIT */
/* Chromium perf lines (docs/bm-import.md), as perf_test::PrintResult and
 * its friends print them among a test's other output:
 *
 *   RESULT graph: trace= 12.5 ms
 *   *RESULT graph: trace= [1,2,3] ms        (the mean of the list)
 *   RESULT graph: trace= {12.5,0.3} ms      (mean and standard deviation)
 *
 * Notes
 * -----
 * - A line is a result when it starts with "RESULT " or "*RESULT " (the
 *   mark of an important result, which changes nothing here); every other
 *   line is the test's own output and is skipped.  A result line that does
 *   not parse is an error, not skipped: a typo must not lose a benchmark.
 * - The id is "graph::trace"; the metric and its unit are both the units
 *   as printed ("ms", "bytes", "runs/s"), since Chromium has no other name
 *   for what was measured.  Values are kept as printed, not converted.
 * - Lines are at most LINE_MAX_BYTES; lists hold at most LIST_MAX values.
 */
#include "config.h"

#include "import.h"

#include "error.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES (64 * 1024)
#define LIST_MAX 100000

/* One line being parsed: its bytes, where we are, and where it is in the
 * file for messages. */
struct line {
	const char *s;
	size_t len, i;
	const char *file;
	size_t lineno;
};

static int fail(const struct line *l, char **err, const char *what)
{
	return bm_error(err, "%s:%zu:%zu: %s", l->file, l->lineno, l->i + 1, what);
}

static void skip_spaces(struct line *l)
{
	while (l->i < l->len && (l->s[l->i] == ' ' || l->s[l->i] == '\t'))
		l->i++;
}

/* Reads up to the first stop byte; the field must not be empty. */
static int field(struct line *l, char stop, const char **out, size_t *n, char **err,
		 const char *what)
{
	const char *p = memchr(l->s + l->i, stop, l->len - l->i);
	if (!p || p == l->s + l->i)
		return fail(l, err, what);
	*out = l->s + l->i;
	*n = (size_t)(p - *out);
	l->i += *n + 1;
	return 0;
}

/* A number ending at one of the bytes in stops (or the line's end). */
static int number(struct line *l, const char *stops, double *out, char **err)
{
	skip_spaces(l);
	size_t start = l->i;
	while (l->i < l->len && !strchr(stops, l->s[l->i]))
		l->i++;
	size_t end = l->i;
	while (end > start && (l->s[end - 1] == ' ' || l->s[end - 1] == '\t'))
		end--;
	if (import_number(l->s + start, end - start, out)) {
		l->i = start;
		return fail(l, err, "expected a number");
	}
	return 0;
}

static int expect(struct line *l, char c, char **err)
{
	skip_spaces(l);
	if (l->i >= l->len || l->s[l->i] != c) {
		char what[32];
		snprintf(what, sizeof what, "expected '%c'", c);
		return fail(l, err, what);
	}
	l->i++;
	return 0;
}

/* The value: a number, "[v1,v2,...]" (their mean) or "{mean,stddev}". */
static int value(struct line *l, double *out, char **err)
{
	skip_spaces(l);
	if (l->i < l->len && l->s[l->i] == '[') {
		double sum = 0, x;
		size_t n = 0;
		l->i++;
		do {
			if (n == LIST_MAX)
				return fail(l, err, "more than 100000 values in a list");
			if (number(l, ",]", &x, err))
				return -1;
			sum += x;
			n++;
		} while (l->i < l->len && l->s[l->i++] == ',');
		if (l->s[l->i - 1] != ']')
			return fail(l, err, "expected ']'");
		*out = sum / (double)n;
		return isfinite(*out) ? 0 : fail(l, err, "the mean is not finite");
	}
	if (l->i < l->len && l->s[l->i] == '{') {
		double sd;
		l->i++;
		if (number(l, ",}", out, err) || expect(l, ',', err) || number(l, "}", &sd, err) ||
		    expect(l, '}', err))
			return -1;
		return 0;
	}
	return number(l, " \t", out, err);
}

/* A result line, from just after "RESULT ". */
static int result(struct line *l, struct bm_report *r, struct import_ids *ids, char **err)
{
	const char *graph, *trace;
	size_t ng, nt;
	double v;
	if (field(l, ':', &graph, &ng, err, "expected 'graph:'"))
		return -1;
	skip_spaces(l);
	if (field(l, '=', &trace, &nt, err, "expected 'trace='") || value(l, &v, err))
		return -1;
	skip_spaces(l);
	size_t end = l->len;
	while (end > l->i && (l->s[end - 1] == ' ' || l->s[end - 1] == '\t'))
		end--;
	if (end == l->i)
		return fail(l, err, "expected the units");
	if (ng + nt + 2 > IMPORT_MAX_ID)
		return fail(l, err, "benchmark id longer than 4096 bytes");
	char *id = xasprintf("%.*s::%.*s", (int)ng, graph, (int)nt, trace);
	char *units = xstrndup(l->s + l->i, end - l->i);
	char *why = NULL;
	struct bm_result *b = import_add(r, ids, id, strlen(id), &why);
	if (b)
		benchmark_add_metric(b, units, units, v);
	else
		bm_error(err, "%s:%zu: %s", l->file, l->lineno, why);
	free(why);
	free(units);
	free(id);
	return b ? 0 : -1;
}

static int parse(const char *data, size_t size, const char *name, struct bm_report *r, char **err)
{
	struct import_ids *ids = import_ids_new();
	struct line l = {.file = name};
	size_t pos = 0;
	int rc = 0;
	report_init(r);
	while (rc == 0 && pos < size) {
		const char *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
		l.s = data + pos;
		l.len = len;
		l.i = 0;
		l.lineno++;
		pos += len + (nl != NULL);
		if (l.len && l.s[l.len - 1] == '\r')
			l.len--;
		if (l.len > LINE_MAX_BYTES) {
			rc = bm_error(err, "%s:%zu: line longer than %d bytes", name, l.lineno,
				      LINE_MAX_BYTES);
			break;
		}
		if (l.len && l.s[0] == '*')
			l.i = 1;
		if (l.len - l.i < 7 || memcmp(l.s + l.i, "RESULT ", 7) != 0)
			continue;
		l.i += 7;
		if (memchr(l.s, '\0', l.len)) {
			rc = bm_error(err, "%s:%zu: NUL byte in a result line", name, l.lineno);
			break;
		}
		rc = result(&l, r, ids, err);
	}
	if (rc == 0 && r->nbenchmarks == 0)
		rc = bm_error(err, "%s: no RESULT lines", name);
	import_ids_free(ids);
	if (rc)
		report_release(r);
	return rc;
}

const struct import_format import_chromium = {
	.name = "chromium",
	.description = "Chromium perf lines (RESULT graph: trace= value units)",
	.parse = parse,
};
