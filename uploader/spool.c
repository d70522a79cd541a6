/* The spool directory: see spool.h. */
#include "config.h"

#include "spool.h"

#include "atomic_file.h"
#include "error.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
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

/* mkdir -p */
static int make_dirs(const char *dir, char **err)
{
	char *path = xstrdup(dir);
	for (char *p = path + 1;; p++) {
		if (*p == '/' || !*p) {
			char c = *p;
			*p = '\0';
			if (mkdir(path, 0700) && errno != EEXIST) {
				bm_error(err, "cannot create '%s': %s", path, strerror(errno));
				free(path);
				return -1;
			}
			if (!(*p = c))
				break;
		}
	}
	free(path);
	return 0;
}

int spool_put(const char *dir, const char *server, const char *project, json_t *report, char **path, char **err)
{
	if (make_dirs(dir, err))
		return -1;
	/* The run id names the file, made safe for a file name. */
	const char *id = json_string_value(json_object_get(report, "run_id"));
	char *name = xstrdup(id && *id ? id : "report");
	for (char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '_';
	*path = xasprintf("%s/%s.json", dir, name);
	free(name);
	json_t *entry = json_pack("{s:s,s:s,s:O}", "server", server, "project", project, "report", report);
	struct atomic_file *af = entry ? atomic_file_open(*path, err) : NULL;
	int rc = -1;
	if (af) {
		if (json_dumpf(entry, atomic_file_stream(af), JSON_COMPACT) == 0) {
			rc = atomic_file_commit(af, err);
		} else {
			atomic_file_abort(af);
			bm_error(err, "cannot write '%s'", *path);
		}
	} else if (!entry) {
		bm_error(err, "cannot spool the report: the server or project is not valid UTF-8");
	}
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
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		xgrow(&list, &alloc, n + 2, sizeof *list);
		list[n++] = xasprintf("%s/%s", dir, e->d_name);
		list[n] = NULL;
	}
	closedir(d);
	qsort(list, n, sizeof *list, by_name);
	return list;
}

void spool_list_free(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

int spool_read(const char *path, json_t **entry, const char **server, const char **project, json_t **report,
	       char **err)
{
	json_error_t jerr;
	*entry = json_load_file(path, 0, &jerr);
	if (!*entry)
		return bm_error(err, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	*server = json_string_value(json_object_get(*entry, "server"));
	*project = json_string_value(json_object_get(*entry, "project"));
	*report = json_object_get(*entry, "report");
	if (!*server || !*project || !json_is_object(*report)) {
		json_decref(*entry);
		*entry = NULL;
		return bm_error(err, "%s: not a spooled report (no server, project or report)", path);
	}
	return 0;
}
