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

/* Adds the profiles of the files paths[0..n) (NULL: a process without
 * one) to *all (NULL: the first one read becomes it).  Returns 0, or -1
 * with *err set and *all freed and NULL. */
static int merge_files(struct bm_profile **all, char *const *paths, size_t n, const struct bm_model *m, char **err)
{
	for (size_t i = 0; i < n; i++) {
		if (!paths[i])
			continue;
		struct bm_profile *p = profile_load_one(paths[i], m, err);
		if (!p || (*all && profile_merge(*all, p, m, err) < 0)) {
			profile_free(p);
			profile_free(*all);
			*all = NULL;
			return -1;
		}
		if (*all)
			profile_free(p);
		else
			*all = p;
	}
	return 0;
}

static void free_paths(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

int process_dumps_load(const char *dump, const struct bm_model *m, struct bm_profile **out, size_t *processes,
		       char **err)
{
	char **paths;
	size_t n = process_dumps(dump, &paths);
	int r = PROCESS_DUMPS_UNUSABLE;
	struct bm_profile *all = NULL;
	merge_files(&all, paths, 1, m, err);
	if (all && n > 1 && all->creator && strncmp(all->creator, "callgrind", 9) == 0) {
		bm_error(err, "it forked %zu process%s, whose work callgrind counts with their parent's up to the "
			      "fork (added up, it would count twice): measure with --engine bm, which counts each "
			      "process's own",
			 n - 1, n == 2 ? "" : "es");
		profile_free(all);
		all = NULL;
		r = PROCESS_DUMPS_FORKED_UNDER_CALLGRIND;
	}
	if (all)
		merge_files(&all, paths + 1, n - 1, m, err);
	free_paths(paths, n);
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
	*out = NULL;
	int r = merge_files(out, paths, processes, m, err) < 0 ? PROCESS_DUMPS_UNUSABLE : 0;
	free_paths(paths, processes);
	return r;
}
