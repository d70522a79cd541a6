/* SPDX-License-Identifier: MIT */
/* The spool directory: see spool.h. */
#include "config.h"

#include "spool.h"

#include "atomic_file.h"
#include "dirs.h"
#include "error.h"
#include "hash.h"
#include "json_load.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *spool_dir(const char *dir)
{
	if (dir)
		return xstrdup(dir);
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state && *state == '/')
		return xasprintf("%s/bm/spool", state);
	return xasprintf("%s/.local/state/bm/spool", home && *home ? home : ".");
}

/* Longest name before ".json": room for atomic_file's ".tmp.XXXXXX" within
 * NAME_MAX (255). */
#define MAX_NAME 200

/* The file name of run id (the caller owns it): every byte outside
 * [A-Za-z0-9-] as %XX, so that no two run ids share a name ("col/1" is
 * col%2F1, "col_1" col%5F1) and none is hidden ('.' is %2E).  A name that
 * would be too long keeps its first bytes and ends in "%~" and a hash of
 * the whole id: no plain encoding has a '%' without two hex digits. */
static char *file_name(const char *id)
{
	size_t n = strlen(id), at = 0, cut = 0;
	char *name = xmalloc(3 * n + 1);
	for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
		if (at <= MAX_NAME - 20)
			cut = at; /* the last escape boundary that leaves room for the hash */
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-')
			name[at++] = (char)*p;
		else
			at += (size_t)snprintf(name + at, 4, "%%%02X", *p);
	}
	name[at] = '\0';
	if (at <= MAX_NAME)
		return name;
	char *longer = xasprintf("%.*s%%~%016llx", (int)cut, name, (unsigned long long)hash_bytes(id, n));
	free(name);
	return longer;
}

/* -1 with *err when path is there and holds another run than id (only a
 * hash of two long ids could make that so): nothing is overwritten. */
static int check_free(const char *path, const char *id, char **err)
{
	char *ignored = NULL;
	json_t *old = json_load_path(path, 0, &ignored);
	free(ignored);
	const char *was = json_string_value(json_object_get(json_object_get(old, "report"), "run_id"));
	int rc = was && strcmp(was, id) ? bm_error(err, "'%s' holds run '%s' already", path, was) : 0;
	json_decref(old);
	return rc;
}

static int write_entry(const char *path, json_t *entry, char **err)
{
	struct atomic_file *af = atomic_file_open(path, err);
	if (!af)
		return -1;
	if (json_dumpf(entry, atomic_file_stream(af), JSON_COMPACT) == 0)
		return atomic_file_commit(af, err);
	atomic_file_abort(af);
	return bm_error(err, "cannot write '%s'", path);
}

int spool_put(const char *dir, const char *server, const char *project, json_t *report, char **path, char **err)
{
	const char *id = json_string_value(json_object_get(report, "run_id"));
	*path = NULL;
	if (!id || !*id)
		return bm_error(err, "the report has no run_id");
	if (dirs_make(dir, 0700, err))
		return -1;
	char *name = file_name(id);
	*path = xasprintf("%s/%s.json", dir, name);
	free(name);
	json_t *entry = json_pack("{s:s,s:s,s:O}", "server", server, "project", project, "report", report);
	int rc = !entry ? bm_error(err, "cannot spool the report: the server or project is not valid UTF-8")
			: check_free(*path, id, err) ? -1 : write_entry(*path, entry, err);
	json_decref(entry);
	if (rc) {
		free(*path);
		*path = NULL;
	}
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **spool_list(const char *dir, char **err)
{
	size_t n = 0, alloc = 1;
	char **list = xcalloc(1, sizeof *list);
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return list;
		bm_error(err, "cannot read '%s': %s", dir, strerror(errno));
		free(list);
		return NULL;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		xgrow(&list, &alloc, n + 2, sizeof *list);
		list[n++] = xasprintf("%s/%s", dir, e->d_name);
		list[n] = NULL;
	}
	closedir(d);
	qsort(list, n, sizeof *list, by_name);
	return list;
}

int spool_partial(const char *path)
{
	const char *tmp = strstr(path, ".json.tmp.");
	return tmp && strlen(tmp) == strlen(".json.tmp.XXXXXX");
}

void spool_list_free(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

/* The JSON document of a spool file; NULL with *err (what is wrong with
 * it, without its name). */
static json_t *load_entry(const char *path, char **err)
{
	struct stat st;
	FILE *f = NULL;
	if (stat(path, &st) || (S_ISREG(st.st_mode) && !(f = fopen(path, "r")))) {
		bm_error(err, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	if (!f) {
		bm_error(err, "not a spooled report (not a regular file)");
		return NULL;
	}
	struct json_load_error e;
	json_t *j = json_load_fd(fileno(f), 0, &e);
	fclose(f);
	if (!j && e.too_big)
		bm_error(err, "not a spooled report (larger than " JSON_LOAD_MAX_TEXT ")");
	else if (!j && e.errnum)
		bm_error(err, "cannot read it: %s", strerror(e.errnum));
	else if (!j) {
		bm_error(err, "not a spooled report (not JSON: line %d: %s)", e.json.line, e.json.text);
		bm_error_escape(err);
	}
	return j;
}

int spool_read(const char *path, json_t **entry, const char **server, const char **project, json_t **report,
	       char **err)
{
	if (!(*entry = load_entry(path, err)))
		return -1;
	*server = json_string_value(json_object_get(*entry, "server"));
	*project = json_string_value(json_object_get(*entry, "project"));
	*report = json_object_get(*entry, "report");
	if (!*server || !**server || !*project || !**project || !json_is_object(*report)) {
		json_decref(*entry);
		*entry = NULL;
		return bm_error(err, "not a spooled report (no server, project or report)");
	}
	return 0;
}
