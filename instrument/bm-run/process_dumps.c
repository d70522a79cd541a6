/* SPDX-License-Identifier: MIT */
/* Every process's file of a run: see process_dumps.h. */
#include "config.h"

#include "process_dumps.h"

#include "error.h"
#include "xalloc.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct numbered {
	long pid;
	char *path;
};

static int by_pid(const void *a, const void *b)
{
	long x = ((const struct numbered *)a)->pid, y = ((const struct numbered *)b)->pid;
	return (x > y) - (x < y);
}

/* The pid in a final dump's name "cg.PID.out", or -1. */
static long pid_of(const char *name)
{
	char *end;
	if (strncmp(name, "cg.", 3) != 0 || name[3] < '0' || name[3] > '9')
		return -1;
	long pid = strtol(name + 3, &end, 10);
	return strcmp(end, ".out") == 0 ? pid : -1;
}

size_t process_dumps(const char *dump, char ***out)
{
	char *dir = xstrdup(dump), *slash = strrchr(dir, '/');
	const char *first = slash ? slash + 1 : dump;
	if (slash)
		*slash = '\0';
	struct numbered *others = NULL;
	size_t n = 0, alloc = 0;
	DIR *d = opendir(slash ? dir : ".");
	for (struct dirent *de; d && (de = readdir(d));) {
		long pid = pid_of(de->d_name);
		if (pid < 0 || strcmp(de->d_name, first) == 0)
			continue;
		xgrow(&others, &alloc, n + 1, sizeof *others);
		others[n++] = (struct numbered){pid, slash ? xasprintf("%s/%s", dir, de->d_name) : xstrdup(de->d_name)};
	}
	if (d)
		closedir(d);
	if (n)
		qsort(others, n, sizeof *others, by_pid);
	*out = xcalloc(n + 1, sizeof **out);
	(*out)[0] = xstrdup(dump);
	for (size_t i = 0; i < n; i++)
		(*out)[i + 1] = others[i].path;
	free(others);
	free(dir);
	return n + 1;
}

int process_dumps_load(const char *dump, const struct bm_model *m, struct bm_profile **out, size_t *processes,
		       char **err)
{
	char **paths;
	size_t n = process_dumps(dump, &paths);
	int r = PROCESS_DUMPS_UNUSABLE;
	struct bm_profile *all = profile_load_one(paths[0], m, err);
	if (all && n > 1 && all->creator && strncmp(all->creator, "callgrind", 9) == 0) {
		bm_error(err, "it forked %zu process%s, whose work callgrind counts with their parent's up to the "
			      "fork (added up, it would count twice): measure with --engine bm, which counts each "
			      "process's own",
			 n - 1, n == 2 ? "" : "es");
		profile_free(all);
		all = NULL;
		r = PROCESS_DUMPS_FORKED_UNDER_CALLGRIND;
	}
	for (size_t i = 1; all && i < n; i++) {
		struct bm_profile *p = profile_load_one(paths[i], m, err);
		if (!p || profile_merge(all, p, m, err) < 0) {
			profile_free(all);
			all = NULL;
		}
		profile_free(p);
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	*processes = n;
	*out = all;
	return all ? 0 : r;
}

size_t process_dumps_collected(const char *dump, size_t n, char ***out)
{
	size_t processes = process_dumps(dump, out);
	for (size_t i = 0; i < processes; i++) {
		char *path = xasprintf("%s.fn.%zu", (*out)[i], n);
		free((*out)[i]);
		(*out)[i] = access(path, F_OK) == 0 ? path : NULL;
		if (!(*out)[i])
			free(path);
	}
	return processes;
}

int process_dumps_load_collected(const char *dump, size_t n, const struct bm_model *m, struct bm_profile **out,
				 char **err)
{
	char **paths;
	size_t processes = process_dumps_collected(dump, n, &paths);
	struct bm_profile *all = NULL;
	int r = 0;
	for (size_t i = 0; i < processes; i++) {
		if (!paths[i] || r < 0)
			continue;
		struct bm_profile *p = profile_load_one(paths[i], m, err);
		if (!p || (all && profile_merge(all, p, m, err) < 0)) {
			r = PROCESS_DUMPS_UNUSABLE;
		} else if (!all) {
			all = p;
			p = NULL;
		}
		profile_free(p);
	}
	for (size_t i = 0; i < processes; i++)
		free(paths[i]);
	free(paths);
	if (r < 0) {
		profile_free(all);
		all = NULL;
	}
	*out = all;
	return r;
}
