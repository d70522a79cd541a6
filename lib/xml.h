/* SPDX-License-Identifier: MIT */
/* A small strict XML tokenizer for the subset test suites write (QTestLib's
 * results for bm-import, Catch2's for bm-run): one root element, elements
 * and attributes, the five predefined entities and numeric character
 * references, comments, CDATA and the XML declaration.  DOCTYPE, other
 * processing instructions and anything not well-formed are errors with
 * the file, line and column (bytes, from 1).  Elements nest at most 32
 * deep, names are at most 256 bytes, an element has at most 16
 * attributes and an attribute value or a piece of text at most
 * XML_MAX_TEXT bytes.  (There is no XML library among bm's dependencies.) */
#ifndef BM_XML_H
#define BM_XML_H

#include <stddef.h>

#define XML_MAX_TEXT (64 * 1024)

struct xml;

/* What a reader does with the document, each returning 0, or -1 after
 * failing with xml_fail or xml_fail_tag (any member may be NULL). */
struct xml_handler {
	/* An element has started: it is at xml_depth, its attributes are
	 * xml_attr's. */
	int (*start)(struct xml *x, void *ctx);
	/* It ends (still at xml_depth; an empty one ends at once). */
	int (*end)(struct xml *x, void *ctx);
	/* Text or CDATA in the element at xml_depth, decoded (a piece of it). */
	int (*text)(struct xml *x, const char *s, size_t n, void *ctx);
};

/* Reads the size bytes at data, the file called file (for messages).
 * Returns 0, or -1 with *err set: "file:LINE:COL: what". */
int xml_parse(const char *data, size_t size, const char *file, const struct xml_handler *h, void *ctx,
	      char **err);

/* The current start tag's attribute of that name, decoded, or NULL. */
const char *xml_attr(const struct xml *x, const char *name);
/* How deep the current element is (the root is 1), and the name of the
 * element at depth (1 to xml_depth). */
size_t xml_depth(const struct xml *x);
const char *xml_name(const struct xml *x, size_t depth);
/* Whether the current element is name at depth, inside parent (NULL: any). */
int xml_is(const struct xml *x, size_t depth, const char *name, const char *parent);

/* Fail at the current position, or where the current start tag began;
 * both return -1. */
__attribute__((format(printf, 2, 3))) int xml_fail(struct xml *x, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) int xml_fail_tag(struct xml *x, const char *fmt, ...);

#endif
