/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "xml.h"

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
#define MAX_TEXT XML_MAX_TEXT

struct attr {
	char name[MAX_NAME + 1];
	struct dynbuf value;
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
	const struct xml_handler *h;
	void *ctx;
};

__attribute__((format(printf, 4, 0)))
static int fail_va(struct xml *x, size_t line, size_t col, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	return bm_error(x->err, "%s:%zu:%zu: %s", x->file, line, col, msg);
}

__attribute__((format(printf, 4, 5)))
static int fail_at(struct xml *x, size_t line, size_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = fail_va(x, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

#define fail(x, ...) fail_at((x), (x)->line, (x)->col, __VA_ARGS__)
#define fail_tag(x, ...) fail_at((x), (x)->tag_line, (x)->tag_col, __VA_ARGS__)

int xml_fail(struct xml *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = fail_va(x, x->line, x->col, fmt, ap);
	va_end(ap);
	return rc;
}

int xml_fail_tag(struct xml *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = fail_va(x, x->tag_line, x->tag_col, fmt, ap);
	va_end(ap);
	return rc;
}

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

static const struct dynbuf *attr(const struct xml *x, const char *name)
{
	for (size_t i = 0; i < x->nattrs; i++)
		if (strcmp(x->attrs[i].name, name) == 0)
			return &x->attrs[i].value;
	return NULL;
}

const char *xml_attr(const struct xml *x, const char *name)
{
	const struct dynbuf *v = attr(x, name);
	return v ? dynbuf_str(v) : NULL;
}

size_t xml_depth(const struct xml *x)
{
	return x->depth;
}

const char *xml_name(const struct xml *x, size_t depth)
{
	return depth >= 1 && depth <= x->depth ? x->stack[depth - 1] : "";
}

int xml_is(const struct xml *x, size_t depth, const char *name, const char *parent)
{
	return x->depth == depth && strcmp(x->stack[depth - 1], name) == 0 &&
	       (!parent || (depth >= 2 && strcmp(x->stack[depth - 2], parent) == 0));
}

static int handle_start(struct xml *x)
{
	return x->h->start ? x->h->start(x, x->ctx) : 0;
}

static int handle_end(struct xml *x)
{
	int rc = x->h->end ? x->h->end(x, x->ctx) : 0;
	x->depth--;
	return rc;
}

static int handle_text(struct xml *x, const char *s, size_t n)
{
	return x->h->text ? x->h->text(x, s, n, x->ctx) : 0;
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

int xml_parse(const char *data, size_t size, const char *file, const struct xml_handler *h, void *ctx,
	      char **err)
{
	struct xml *x = xcalloc(1, sizeof *x);
	x->p = data;
	x->end = data + size;
	x->file = file;
	x->line = x->col = 1;
	x->err = err;
	x->h = h;
	x->ctx = ctx;
	for (size_t i = 0; i < MAX_ATTRS; i++)
		x->attrs[i].value = (struct dynbuf)DYNBUF_INIT(MAX_TEXT);
	int rc = document(x);
	for (size_t i = 0; i < MAX_ATTRS; i++)
		dynbuf_free(&x->attrs[i].value);
	free(x);
	return rc;
}
