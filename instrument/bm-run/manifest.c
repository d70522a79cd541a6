/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "manifest.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST_MAX_LINE 65536

int manifest_split(const char *line, char ***argv, size_t *argc, char **err)
{
	size_t n = 0, alloc = 0, len = strlen(line);
	char **words = NULL;
	char *word = xmalloc(len + 1);
	const char *c = line;
	for (;;) {
		while (*c == ' ' || *c == '\t')
			c++;
		if (!*c || *c == '\n')
			break;
		size_t w = 0;
		while (*c && *c != ' ' && *c != '\t' && *c != '\n') {
			if (*c == '\'' || *c == '"') {
				char q = *c++;
				while (*c && *c != q) {
					if (q == '"' && *c == '\\' && (c[1] == '"' || c[1] == '\\'))
						c++;
					word[w++] = *c++;
				}
				if (!*c) {
					for (size_t i = 0; i < n; i++)
						free(words[i]);
					free(words);
					free(word);
					return bm_error(err, "unterminated %c quote", q);
				}
				c++;
			} else if (*c == '\\' && c[1]) {
				word[w++] = c[1];
				c += 2;
			} else {
				word[w++] = *c++;
			}
		}
		xgrow(&words, &alloc, n + 2, sizeof *words);
		words[n++] = xstrndup(word, w);
	}
	free(word);
	xgrow(&words, &alloc, n + 1, sizeof *words);
	words[n] = NULL;
	*argv = words;
	*argc = n;
	return 0;
}

void manifest_free(struct manifest_command *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < cmds[i].argc; k++)
			free(cmds[i].argv[k]);
		free(cmds[i].argv);
	}
	free(cmds);
}

int manifest_read(const char *path, struct manifest_command **out, size_t *n, char **err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return bm_error(err, "cannot open '%s': %s", path, strerror(errno));
	struct manifest_command *cmds = NULL;
	size_t count = 0, alloc = 0;
	char *line = xmalloc(MANIFEST_MAX_LINE);
	unsigned long lineno = 0;
	int r = 0;
	while (fgets(line, MANIFEST_MAX_LINE, f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			r = bm_error(err, "%s:%lu: line longer than %d bytes", path, lineno, MANIFEST_MAX_LINE);
			break;
		}
		const char *c = line + strspn(line, " \t");
		if (*c == '#' || *c == '\n' || !*c)
			continue;
		struct manifest_command cmd = {.line = lineno};
		char *why = NULL;
		if (manifest_split(c, &cmd.argv, &cmd.argc, &why) < 0) {
			r = bm_error(err, "%s:%lu: %s", path, lineno, why);
			free(why);
			break;
		}
		xgrow(&cmds, &alloc, count + 1, sizeof *cmds);
		cmds[count++] = cmd;
	}
	if (r == 0 && ferror(f))
		r = bm_error(err, "cannot read '%s': %s", path, strerror(errno));
	if (r == 0 && count == 0)
		r = bm_error(err, "'%s' has no command lines", path);
	fclose(f);
	free(line);
	if (r < 0) {
		manifest_free(cmds, count);
		return -1;
	}
	*out = cmds;
	*n = count;
	return 0;
}
