/* SPDX-License-Identifier: MIT */
/* QTestLib's XML (a Qt test run with -o FILE,xml), docs/bm-import.md:
 *
 *   <TestCase name="tst_Bench">
 *     <TestFunction name="sort">
 *       <BenchmarkResult metric="WalltimeMilliseconds" tag="1000" value="12.5" iterations="64"/>
 *       <Incident type="fail" file="tst_bench.cpp" line="42">
 *         <DataTag><![CDATA[1000]]></DataTag>
 *         <Description><![CDATA['a == b' returned FALSE. ()]]></Description>
 *       </Incident>
 *
 * Notes
 * -----
 * - There is no XML library to lean on, so a small strict tokenizer reads
 *   the subset QTestLib writes: one root element, elements and attributes,
 *   the five predefined entities and numeric character references,
 *   comments, CDATA and the XML declaration.  DOCTYPE, other processing
 *   instructions and anything not well-formed are errors with the line and
 *   column (bytes, from 1).  Input is at most IMPORT_MAX_INPUT bytes,
 *   elements nest at most MAX_DEPTH deep, names are at most MAX_NAME bytes,
 *   an element has at most MAX_ATTRS attributes and an attribute value or
 *   a collected text at most MAX_TEXT bytes.
 * - The id is "TestCase::TestFunction[tag]", without "[tag]" for an empty
 *   tag.  QTestLib's value is the total over all iterations, so the
 *   benchmark's value is value / iterations, as its plain-text output
 *   prints it; walltime is converted to seconds.
 * - A second BenchmarkResult for the same tag with another metric (Qt 6
 *   can measure several) becomes an extra metric; the same metric twice is
 *   an error.
 * - An Incident of type "fail" or "xpass" fails the benchmark of its
 *   DataTag (created, as failed, when the failure stopped it before its
 *   result), or every benchmark of its function when it has no DataTag.
 *   Failures in a function without any BenchmarkResult are an ordinary
 *   test's, not a benchmark's, and are not imported.
 */
#include "config.h"

#include "import.h"

#include "dynbuf.h"
#include "error.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_NAME 256
#define MAX_ATTRS 16
#define MAX_TEXT (64 * 1024)

struct attr {
	char name[MAX_NAME + 1];
	struct dynbuf value;
};

struct failure {
	char *tag; /* or NULL: the whole function */
	char *reason;
};

/* What the QTestLib handler keeps while the tokenizer walks the file. */
struct qt {
	struct bm_report *r;
	struct import_ids *ids;
	char *testcase, *function;
	size_t first; /* the index of the function's first benchmark */
	char *incident_type, *incident_where;
	struct dynbuf datatag, description;
	struct failure *failures;
	size_t nfailures, failures_alloc;
};

struct xml {
	const char *p, *end, *file;
	size_t line, col;
	char **err;
	char stack[MAX_DEPTH][MAX_NAME + 1];
	size_t depth;
	struct attr attrs[MAX_ATTRS];
	size_t nattrs;
	size_t tag_line, tag_col; /* where the current start tag began */
	struct qt qt;
};

__attribute__((format(printf, 4, 5)))
static int fail_at(struct xml *x, size_t line, size_t col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return bm_error(x->err, "%s:%zu:%zu: %s", x->file, line, col, msg);
}

#define fail(x, ...) fail_at((x), (x)->line, (x)->col, __VA_ARGS__)
#define fail_tag(x, ...) fail_at((x), (x)->tag_line, (x)->tag_col, __VA_ARGS__)

/* The tokenizer ---------------------------------------------------------- */

static void advance(struct xml *x, size_t n)
{
	for (; n && x->p < x->end; n--, x->p++) {
		if (*x->p == '\n') {
			x->line++;
			x->col = 1;
		} else {
			x->col++;
		}
	}
}

static int at(const struct xml *x, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(x->end - x->p) >= n && memcmp(x->p, s, n) == 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_spaces(struct xml *x)
{
	while (x->p < x->end && is_space(*x->p))
		advance(x, 1);
}

/* Control characters other than tab, newline and return are not XML. */
static int bad_char(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

static int is_name_char(char c, int first)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
	       (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

static int read_name(struct xml *x, char out[MAX_NAME + 1])
{
	size_t n = 0;
	if (x->p >= x->end || !is_name_char(*x->p, 1))
		return fail(x, "expected a name");
	while (x->p < x->end && is_name_char(*x->p, 0)) {
		if (n == MAX_NAME)
			return fail(x, "name longer than %d bytes", MAX_NAME);
		out[n++] = *x->p;
		advance(x, 1);
	}
	out[n] = '\0';
	return 0;
}

/* Skips past the text that ends with close, or fails with what at the
 * position where the construct began. */
static int skip_past(struct xml *x, const char *close, const char *what)
{
	size_t line = x->line, col = x->col, n = strlen(close);
	while (x->p < x->end && !at(x, close))
		advance(x, 1);
	if (x->p >= x->end)
		return fail_at(x, line, col, "unterminated %s", what);
	advance(x, n);
	return 0;
}

static size_t utf8_encode(unsigned long c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

static const struct {
	const char *name;
	char c;
} entities[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};

/* Decodes the reference at x->p ('&') into out (4 bytes); returns its
 * length, or 0 after failing. */
static size_t reference(struct xml *x, char *out)
{
	size_t line = x->line, col = x->col;
	advance(x, 1);
	for (size_t i = 0; i < sizeof entities / sizeof *entities; i++) {
		if (at(x, entities[i].name)) {
			advance(x, strlen(entities[i].name));
			out[0] = entities[i].c;
			return 1;
		}
	}
	if (x->p >= x->end || *x->p != '#') {
		fail_at(x, line, col, "unknown entity (only &amp; &lt; &gt; &quot; &apos; and &#N;)");
		return 0;
	}
	advance(x, 1);
	int hex = x->p < x->end && *x->p == 'x';
	unsigned long c = 0;
	size_t digits = 0;
	if (hex)
		advance(x, 1);
	for (; x->p < x->end && *x->p != ';'; advance(x, 1), digits++) {
		const char *set = hex ? "0123456789abcdefABCDEF" : "0123456789";
		const char *d = memchr(set, *x->p, strlen(set));
		if (!d || digits == 8) {
			fail(x, "bad character reference");
			return 0;
		}
		size_t v = (size_t)(d - set);
		c = c * (hex ? 16 : 10) + (v >= 16 ? v - 6 : v);
	}
	if (x->p >= x->end || digits == 0 || c == 0 || bad_char(c < 0x20 ? (unsigned char)c : 0x20) ||
	    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff || c > 0x10ffff) {
		fail_at(x, line, col, "bad character reference");
		return 0;
	}
	advance(x, 1);
	return utf8_encode(c, out);
}

/* Character data up to the next '<' (in content) or quote (in a value),
 * decoded into out, which a handler may then use.  Returns 0 or -1. */
static int char_data(struct xml *x, char stop, struct dynbuf *out)
{
	while (x->p < x->end && *x->p != stop && *x->p != '<') {
		char ref[4];
		size_t n = 1;
		const char *s = x->p;
		if (*x->p == '&') {
			if (!(n = reference(x, ref)))
				return -1;
			s = ref;
		} else if (bad_char((unsigned char)*x->p) || *x->p == '\0') {
			return fail(x, "control character in text");
		} else {
			advance(x, 1);
		}
		if (dynbuf_add(out, s, n))
			return fail(x, "text longer than %d bytes", MAX_TEXT);
	}
	return 0;
}

static int handle_start(struct xml *x);
static int handle_end(struct xml *x);
static int handle_text(struct xml *x, const char *s, size_t n);

static const struct dynbuf *attr(const struct xml *x, const char *name)
{
	for (size_t i = 0; i < x->nattrs; i++)
		if (strcmp(x->attrs[i].name, name) == 0)
			return &x->attrs[i].value;
	return NULL;
}

static int start_tag(struct xml *x)
{
	x->tag_line = x->line;
	x->tag_col = x->col;
	advance(x, 1);
	if (x->depth == MAX_DEPTH)
		return fail_tag(x, "elements nested deeper than %d", MAX_DEPTH);
	if (read_name(x, x->stack[x->depth]))
		return -1;
	x->nattrs = 0;
	for (;;) {
		int spaced = x->p < x->end && is_space(*x->p);
		skip_spaces(x);
		if (at(x, "/>") || at(x, ">"))
			break;
		if (x->p >= x->end || *x->p == '<')
			return fail(x, "expected '>'");
		if (!spaced)
			return fail(x, "expected a space before an attribute");
		if (x->nattrs == MAX_ATTRS)
			return fail(x, "more than %d attributes", MAX_ATTRS);
		struct attr *a = &x->attrs[x->nattrs];
		size_t line = x->line, col = x->col;
		if (read_name(x, a->name))
			return -1;
		if (attr(x, a->name))
			return fail_at(x, line, col, "duplicate attribute '%s'", a->name);
		skip_spaces(x);
		if (x->p >= x->end || *x->p != '=')
			return fail(x, "expected '='");
		advance(x, 1);
		skip_spaces(x);
		if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
			return fail(x, "expected a quoted value");
		char quote = *x->p;
		advance(x, 1);
		dynbuf_reset(&a->value);
		if (char_data(x, quote, &a->value))
			return -1;
		if (x->p >= x->end || *x->p != quote)
			return fail(x, x->p < x->end ? "'<' in an attribute value" : "expected '%c'",
				    quote);
		advance(x, 1);
		x->nattrs++;
	}
	int empty = at(x, "/>");
	advance(x, empty ? 2 : 1);
	x->depth++;
	if (handle_start(x))
		return -1;
	return empty ? handle_end(x) : 0;
}

static int end_tag(struct xml *x)
{
	char name[MAX_NAME + 1];
	x->tag_line = x->line;
	x->tag_col = x->col;
	advance(x, 2);
	if (read_name(x, name))
		return -1;
	skip_spaces(x);
	if (x->p >= x->end || *x->p != '>')
		return fail(x, "expected '>'");
	if (x->depth == 0 || strcmp(name, x->stack[x->depth - 1]) != 0)
		return fail_tag(x, "'</%s>' does not close '<%s>'", name,
				x->depth ? x->stack[x->depth - 1] : "");
	advance(x, 1);
	return handle_end(x);
}

/* One piece of content at x->p: markup or text. */
static int content(struct xml *x, struct dynbuf *text)
{
	if (at(x, "<!--"))
		return skip_past(x, "-->", "comment");
	if (at(x, "<![CDATA[")) {
		size_t line = x->line, col = x->col;
		advance(x, 9);
		const char *s = x->p;
		if (skip_past(x, "]]>", "CDATA section"))
			return -1;
		for (const char *c = s; c < x->p - 3; c++)
			if (bad_char((unsigned char)*c) || !*c)
				return fail_at(x, line, col, "control character in CDATA");
		return handle_text(x, s, (size_t)(x->p - 3 - s));
	}
	if (at(x, "</"))
		return end_tag(x);
	if (at(x, "<?"))
		return fail(x, "processing instructions are not supported");
	if (at(x, "<!"))
		return fail(x, "DOCTYPE and declarations are not supported");
	if (at(x, "<"))
		return start_tag(x);
	dynbuf_reset(text);
	if (char_data(x, '<', text))
		return -1;
	return handle_text(x, dynbuf_str(text), text->len);
}

/* Whitespace and comments before or after the root element. */
static int misc(struct xml *x)
{
	for (;;) {
		skip_spaces(x);
		if (!at(x, "<!--"))
			return 0;
		if (skip_past(x, "-->", "comment"))
			return -1;
	}
}

static int document(struct xml *x)
{
	struct dynbuf text = DYNBUF_INIT(MAX_TEXT);
	int rc = 0;
	if (at(x, "\xef\xbb\xbf"))
		x->p += 3; /* a UTF-8 byte order mark */
	if (at(x, "<?xml") && x->end - x->p > 5 && is_space(x->p[5]) &&
	    skip_past(x, "?>", "XML declaration"))
		return -1;
	if (misc(x))
		return -1;
	if (x->p >= x->end)
		return fail(x, "no root element");
	if (!at(x, "<") || at(x, "</") || at(x, "<!") || at(x, "<?"))
		return fail(x, at(x, "<!D") ? "DOCTYPE is not supported" : "expected the root element");
	rc = start_tag(x);
	while (rc == 0 && x->depth > 0) {
		if (x->p >= x->end)
			rc = fail(x, "expected '</%s>'", x->stack[x->depth - 1]);
		else
			rc = content(x, &text);
	}
	dynbuf_free(&text);
	if (rc == 0)
		rc = misc(x);
	if (rc == 0 && x->p < x->end)
		rc = fail(x, "content after the root element");
	return rc;
}

/* The QTestLib handler --------------------------------------------------- */

/* QTestLib's metric names and what bm calls them; others keep their name
 * and count things. */
static const struct {
	const char *qt, *metric, *unit;
	double scale;
} metrics[] = {
	{"WalltimeMilliseconds", "walltime", "s", 1e-3},
	{"WalltimeNanoseconds", "walltime", "s", 1e-9},
	{"CPUTicks", "CPUTicks", "ticks", 1},
	{"InstructionReads", "InstructionReads", "instructions", 1},
	{"BytesAllocated", "BytesAllocated", "bytes", 1},
	{"Events", "Events", "events", 1},
};

/* Where the element on top of the stack is: its name and its parent's. */
static int is(const struct xml *x, size_t depth, const char *name, const char *parent)
{
	return x->depth == depth && strcmp(x->stack[depth - 1], name) == 0 &&
	       (!parent || strcmp(x->stack[depth - 2], parent) == 0);
}

static const char *required(struct xml *x, const char *name)
{
	const struct dynbuf *v = attr(x, name);
	if (!v) {
		fail_tag(x, "<%s> without a '%s' attribute", x->stack[x->depth - 1], name);
		return NULL;
	}
	return dynbuf_str(v);
}

static char *benchmark_id(const struct qt *q, const char *tag)
{
	return *tag ? xasprintf("%s::%s[%s]", q->testcase, q->function, tag)
		    : xasprintf("%s::%s", q->testcase, q->function);
}

static int add_result(struct xml *x)
{
	struct qt *q = &x->qt;
	const char *metric, *value, *iterations, *tag = attr(x, "tag") ? dynbuf_str(attr(x, "tag")) : "";
	double v, n;
	if (!(metric = required(x, "metric")) || !(value = required(x, "value")) ||
	    !(iterations = required(x, "iterations")))
		return -1;
	if (import_number(value, strlen(value), &v))
		return fail_tag(x, "value: expected a number");
	/* Bounded before the cast: a double beyond 2^53 is no iteration count. */
	if (import_number(iterations, strlen(iterations), &n) || !(n >= 1 && n <= 9007199254740992.0) ||
	    n != (double)(long long)n)
		return fail_tag(x, "iterations: expected a positive integer");
	const char *name = metric, *unit = "count";
	double scale = 1;
	for (size_t i = 0; i < sizeof metrics / sizeof *metrics; i++) {
		if (strcmp(metrics[i].qt, metric) == 0) {
			name = metrics[i].metric;
			unit = metrics[i].unit;
			scale = metrics[i].scale;
		}
	}
	if (!*name)
		return fail_tag(x, "metric: expected a name");
	char *id = benchmark_id(q, tag), *why = NULL;
	long k = import_lookup(q->ids, id, strlen(id));
	struct bm_result *b = NULL;
	if (k >= (long)q->first) { /* another metric of the same benchmark */
		b = &q->r->benchmarks[k];
		int seen = 0;
		for (size_t i = 0; i < b->nmetrics; i++)
			seen |= strcmp(b->metrics[i].name, name) == 0;
		if (seen)
			b = NULL;
		if (!b)
			bm_error(&why, "duplicate metric in one benchmark");
	} else {
		b = import_add(q->r, q->ids, id, strlen(id), &why);
	}
	if (b)
		benchmark_add_metric(b, name, unit, v / n * scale);
	else
		fail_tag(x, "%s", why);
	free(why);
	free(id);
	return b ? 0 : -1;
}

static int handle_start(struct xml *x)
{
	struct qt *q = &x->qt;
	const char *name;
	if (x->depth == 1) {
		if (strcmp(x->stack[0], "TestCase") != 0)
			return fail_tag(x, "expected <TestCase> as the root element, not <%s>",
					x->stack[0]);
		if (!(name = required(x, "name")))
			return -1;
		q->testcase = xstrdup(name);
	} else if (is(x, 2, "TestFunction", "TestCase")) {
		if (!(name = required(x, "name")))
			return -1;
		if (!*name)
			return fail_tag(x, "<TestFunction> with an empty name");
		q->function = xstrdup(name);
		q->first = q->r->nbenchmarks;
	} else if (is(x, 3, "BenchmarkResult", "TestFunction")) {
		return add_result(x);
	} else if (is(x, 3, "Incident", "TestFunction")) {
		const struct dynbuf *file = attr(x, "file"), *line = attr(x, "line");
		if (!(name = required(x, "type")))
			return -1;
		q->incident_type = xstrdup(name);
		q->incident_where = file && file->len ? xasprintf("%s:%s: ", dynbuf_str(file),
								 line ? dynbuf_str(line) : "0")
						       : xstrdup("");
		dynbuf_reset(&q->datatag);
		dynbuf_reset(&q->description);
	}
	return 0;
}

static int handle_text(struct xml *x, const char *s, size_t n)
{
	struct qt *q = &x->qt;
	struct dynbuf *to = is(x, 4, "DataTag", "Incident")       ? &q->datatag
			 : is(x, 4, "Description", "Incident") ? &q->description
							       : NULL;
	if (to && dynbuf_add(to, s, n))
		return fail(x, "text longer than %d bytes", MAX_TEXT);
	return 0;
}

static void fail_benchmark(struct bm_result *b, const char *reason)
{
	if (b->status == BM_STATUS_FAILED)
		return; /* the first failure is the reason */
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
	}
	free(b->metrics);
	b->metrics = NULL;
	b->nmetrics = 0;
	b->status = BM_STATUS_FAILED;
	b->reason = xstrdup(reason);
}

/* Applies the function's failures to its benchmarks (QTestLib's Notes). */
static int end_function(struct xml *x)
{
	struct qt *q = &x->qt;
	int rc = 0;
	for (size_t i = 0; i < q->nfailures; i++) {
		struct failure *f = &q->failures[i];
		size_t n = q->r->nbenchmarks;
		if (n == q->first)
			break; /* not a benchmark */
		if (!f->tag) {
			for (size_t k = q->first; k < n; k++)
				fail_benchmark(&q->r->benchmarks[k], f->reason);
			continue;
		}
		char *id = benchmark_id(q, f->tag), *why = NULL;
		long k = import_lookup(q->ids, id, strlen(id));
		struct bm_result *b = k >= (long)q->first ? &q->r->benchmarks[k]
				       : k < 0 ? import_add(q->r, q->ids, id, strlen(id), &why)
					       : NULL;
		if (b)
			fail_benchmark(b, f->reason);
		else if (rc == 0)
			rc = fail_tag(x, "%s", why ? why : "duplicate benchmark");
		free(why);
		free(id);
	}
	for (size_t i = 0; i < q->nfailures; i++) {
		free(q->failures[i].tag);
		free(q->failures[i].reason);
	}
	q->nfailures = 0;
	free(q->function);
	q->function = NULL;
	return rc;
}

static void end_incident(struct qt *q)
{
	if (strcmp(q->incident_type, "fail") == 0 || strcmp(q->incident_type, "xpass") == 0) {
		const char *d = q->description.len ? dynbuf_str(&q->description) : q->incident_type;
		xgrow(&q->failures, &q->failures_alloc, q->nfailures + 1, sizeof *q->failures);
		q->failures[q->nfailures++] = (struct failure){
			.tag = q->datatag.len ? xstrdup(dynbuf_str(&q->datatag)) : NULL,
			.reason = xasprintf("%s%s", q->incident_where, d),
		};
	}
	free(q->incident_type);
	free(q->incident_where);
	q->incident_type = q->incident_where = NULL;
}

static int handle_end(struct xml *x)
{
	int rc = 0;
	if (is(x, 2, "TestFunction", "TestCase"))
		rc = end_function(x);
	else if (is(x, 3, "Incident", "TestFunction"))
		end_incident(&x->qt);
	x->depth--;
	return rc;
}

static int parse(const char *data, size_t size, const char *name, struct bm_report *r, char **err)
{
	struct xml *x = xcalloc(1, sizeof *x);
	x->p = data;
	x->end = data + size;
	x->file = name;
	x->line = x->col = 1;
	x->err = err;
	x->qt.r = r;
	x->qt.ids = import_ids_new();
	x->qt.datatag = x->qt.description = (struct dynbuf)DYNBUF_INIT(MAX_TEXT);
	for (size_t i = 0; i < MAX_ATTRS; i++)
		x->attrs[i].value = (struct dynbuf)DYNBUF_INIT(MAX_TEXT);
	report_init(r);
	int rc = document(x);
	if (rc == 0 && r->nbenchmarks == 0)
		rc = bm_error(err, "%s: no <BenchmarkResult> elements", name);
	struct qt *q = &x->qt;
	for (size_t i = 0; i < q->nfailures; i++) {
		free(q->failures[i].tag);
		free(q->failures[i].reason);
	}
	free(q->failures);
	free(q->testcase);
	free(q->function);
	free(q->incident_type);
	free(q->incident_where);
	dynbuf_free(&q->datatag);
	dynbuf_free(&q->description);
	for (size_t i = 0; i < MAX_ATTRS; i++)
		dynbuf_free(&x->attrs[i].value);
	import_ids_free(q->ids);
	free(x);
	if (rc)
		report_release(r);
	return rc;
}

const struct import_format import_qtestlib = {
	.name = "qtestlib",
	.description = "QTestLib XML (a Qt test run with -o FILE,xml)",
	.parse = parse,
};
