/* SPDX-License-Identifier: MIT */
/* Outside text as Markdown code spans: see markdown.h. */
#include "config.h"

#include "markdown.h"

#include "utf8.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s with its control and invisible characters escaped (newly
 * allocated). */
static char *visible(const char *s)
{
	size_t n = strlen(s), len;
	char *out = xmalloc(6 * n + 1), *o = out;
	for (size_t i = 0; i < n; i += len) {
		const unsigned char *p = (const unsigned char *)s + i;
		len = *p < 0x80 ? 1 : utf8_sequence_length(p, n - i);
		if (!len) { /* not UTF-8 */
			o += snprintf(o, 5, "\\x%02x", *p);
			len = 1;
			continue;
		}
		unsigned c = utf8_code_point(p, len);
		if (c < 0x20 || c == 0x7f)
			o += snprintf(o, 5, "\\x%02x", c);
		else if ((c >= 0x80 && c < 0xa0) || utf8_invisible(c))
			o += snprintf(o, 7, "\\u%04x", c);
		else {
			memcpy(o, p, len);
			o += len;
		}
	}
	*o = '\0';
	return out;
}

/* The longest run of backticks in s. */
static size_t longest_backtick_run(const char *s)
{
	size_t longest = 0, run = 0;
	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

void markdown_code(FILE *f, const char *s, enum markdown_place where)
{
	if (!s)
		return;
	char *t = visible(s);
	size_t n = strlen(t), fence = longest_backtick_run(t) + 1;
	/* CommonMark strips one space from each end when both ends have one;
	 * a space on each side keeps a backtick at an end from joining the
	 * fence, and the text's own spaces from being stripped. */
	if (n == 0) { /* "``" would be text: a span of one space */
		fputs("` `", f);
		free(t);
		return;
	}
	int all_spaces = strspn(t, " ") == n;
	int pad = t[0] == '`' || t[n - 1] == '`' || (t[0] == ' ' && t[n - 1] == ' ' && !all_spaces);
	for (size_t i = 0; i < fence; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	for (const char *p = t; *p; p++) {
		if (*p == '|' && where == MARKDOWN_CELL)
			fputc('\\', f);
		fputc(*p, f);
	}
	if (pad)
		fputc(' ', f);
	for (size_t i = 0; i < fence; i++)
		fputc('`', f);
	free(t);
}
