/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "url.h"

#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *url_escape_segment(const char *s)
{
	char *out = xmalloc(3 * strlen(s) + 1), *p = out;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("-._~", *c))
			*p++ = (char)*c;
		else
			p += snprintf(p, 4, "%%%02X", *c);
	*p = '\0';
	return out;
}

char *url_project(const char *base, int api, const char *project, const char *rest)
{
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	char *name = url_escape_segment(project);
	char *url = xasprintf("%.*s%s/projects/%s%s%s", (int)n, base, api ? "/api/v1" : "", name, *rest ? "/" : "", rest);
	free(name);
	return url;
}

char *url_commit_query(const char *sha, long pr, const char *run, const char *what)
{
	char *commit = url_escape_segment(sha), *id = run ? url_escape_segment(run) : xstrdup("");
	char *number = pr > 0 ? xasprintf("pr=%ld", pr) : xstrdup("");
	char *rest = xasprintf("commits/%s%s%s%s%s%s%s", commit, what, *number || *id ? "?" : "", number,
			       *number && *id ? "&" : "", *id ? "run=" : "", id);
	free(commit);
	free(id);
	free(number);
	return rest;
}

char *url_commit_page(const char *base, const char *project, const char *sha, long pr, const char *run)
{
	char *rest = url_commit_query(sha, pr, run, "");
	char *url = url_project(base, 0, project, rest);
	free(rest);
	return url;
}
