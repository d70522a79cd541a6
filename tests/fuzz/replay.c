/* SPDX-License-Identifier: MIT */
/* Runs a fuzz harness over every file of its seed corpus, as part of
 * `make check` in every build (plain and sanitized), printing TAP.
 * usage: replay_NAME [DIR]; DIR defaults to
 * $top_srcdir/tests/fuzz/corpus/NAME. */
#include "config.h"

#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CORPUS_NAME
#error "CORPUS_NAME must name the corpus directory"
#endif

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char dir[4096];
	const char *top = getenv("top_srcdir");
	if (argc > 1)
		snprintf(dir, sizeof dir, "%s", argv[1]);
	else
		snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", top ? top : ".", CORPUS_NAME);
	DIR *d = opendir(dir);
	if (!d) {
		printf("Bail out! cannot open corpus '%s'\n", dir);
		return 1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "rb");
		if (!f) {
			printf("not ok %zu - %s: cannot open\n", i + 1, names[i]);
			continue;
		}
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		rewind(f);
		unsigned char *buf = malloc(size > 0 ? (size_t)size : 1);
		size_t got = fread(buf, 1, (size_t)size, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, got);
		free(buf);
		printf("ok %zu - %s replays cleanly\n", i + 1, names[i]);
		free(names[i]);
	}
	free(names);
	printf("1..%zu\n", n);
	return 0;
}
