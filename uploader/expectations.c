/* Chromium-style expectations: see expectations.h. */
#include "config.h"

#include "expectations.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct expectations {
	json_t *root; /* validated: every key but "load" names {improve, regress} */
};

const char *expectation_name(enum expectation e)
{
	static const char *const names[] = {"unlisted", "SUCCESS", "WARNING", "FAILURE"};
	return names[e];
}

static int bound(const json_t *entry, const char *key, const char *name, double *x, char **why)
{
	const json_t *v = json_object_get(entry, name);
	if (!json_is_number(v))
		return bm_error(why, "key '%s': '%s' must be a number (an impact fraction)", key, name);
	*x = json_number_value(v);
	return 0;
}

/* Checks one "PLATFORM/SUITE/BENCHMARK/METRIC" entry. */
static int check_entry(const char *key, const json_t *v, char **why)
{
	const char *first = strchr(key, '/'), *last = strrchr(key, '/');
	size_t slashes = 0;
	for (const char *p = key; *p; p++)
		slashes += *p == '/';
	if (slashes < 3 || first == key)
		return bm_error(why, "key '%s': expected PLATFORM/SUITE/BENCHMARK/METRIC", key);
	if (strcmp(last + 1, "speed"))
		return bm_error(why, "key '%s': metric '%s' is not one bm-check gates on (only 'speed')", key, last + 1);
	if (!json_is_object(v))
		return bm_error(why, "key '%s': expected an object {\"improve\": X, \"regress\": Y}", key);
	double improve = 0, regress = 0;
	if (bound(v, key, "improve", &improve, why) || bound(v, key, "regress", &regress, why))
		return -1;
	if (regress > improve)
		return bm_error(why, "key '%s': 'regress' (%g) must not be above 'improve' (%g)", key, regress, improve);
	return 0;
}

struct expectations *expectations_load(const char *path, char **why)
{
	struct stat st;
	if (stat(path, &st))
		return bm_error(why, "cannot open '%s': %s", path, strerror(errno)), NULL;
	if (st.st_size > (off_t)EXPECTATIONS_MAX_BYTES)
		return bm_error(why, "'%s' is larger than %u bytes", path, EXPECTATIONS_MAX_BYTES), NULL;
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return bm_error(why, "%s:%d:%d: %s", path, je.line, je.column, je.text), NULL;
	const char *key;
	json_t *v;
	int rc = 0;
	if (!json_is_object(root)) {
		rc = bm_error(why, "%s: expected a JSON object", path);
	} else if (!json_is_true(json_object_get(root, "load"))) {
		rc = bm_error(why, "%s: no \"load\": true, so the expectations are not loaded", path);
	} else {
		json_object_foreach(root, key, v)
		{
			if (strcmp(key, "load") && check_entry(key, v, why)) {
				bm_error_prefix(why, path);
				rc = -1;
				break;
			}
		}
	}
	if (rc) {
		json_decref(root);
		return NULL;
	}
	struct expectations *e = xcalloc(1, sizeof *e);
	e->root = root;
	return e;
}

/* The entry for r on platform (or on "*"); *key is its key. */
static const json_t *lookup(const struct expectations *e, const char *platform, const char *id, const char **key)
{
	const char *sep = strstr(id, "::");
	int suite_len = sep ? (int)(sep - id) : 0;
	const char *rest = sep ? sep + 2 : id;
	const char *platforms[] = {platform ? platform : "unknown", "*"};
	for (size_t i = 0; i < 2; i++) {
		char *k = xasprintf("%s/%.*s/%s/speed", platforms[i], suite_len, id, rest);
		void *iter = json_object_iter_at(e->root, k);
		free(k);
		if (iter) {
			*key = json_object_iter_key(iter);
			return json_object_iter_value(iter);
		}
	}
	return NULL;
}

enum expectation expectations_judge(const struct expectations *e, const char *platform, const struct check_row *r,
				    const char **key, char **note)
{
	*key = NULL;
	*note = NULL;
	const json_t *entry = lookup(e, platform, r->id, key);
	if (!strcmp(r->status, "failed")) {
		*note = xasprintf("failed: %s", r->reason ? r->reason : "no reason given");
		return EXPECT_FAILURE;
	}
	if (!entry)
		return EXPECT_UNLISTED;
	double improve = json_number_value(json_object_get(entry, "improve"));
	double regress = json_number_value(json_object_get(entry, "regress"));
	if (!strcmp(r->status, "missing")) {
		*note = xasprintf("listed, but this commit did not run it");
		return EXPECT_WARNING;
	}
	if (!r->has_impact) {
		*note = xasprintf("not compared (%s)", r->has_base ? r->status : "no baseline speed");
		return EXPECT_SUCCESS;
	}
	if (r->impact < regress) {
		*note = xasprintf("impact %+.2f%% is beyond regress %+.2f%%", 100 * r->impact, 100 * regress);
		return EXPECT_FAILURE;
	}
	if (r->impact > improve) {
		*note = xasprintf("impact %+.2f%% is better than improve %+.2f%%: update your expectations", 100 * r->impact,
				  100 * improve);
		return EXPECT_WARNING;
	}
	*note = xasprintf("impact %+.2f%% is within [%+.2f%%, %+.2f%%]", 100 * r->impact, 100 * regress, 100 * improve);
	return EXPECT_SUCCESS;
}

void expectations_free(struct expectations *e)
{
	if (!e)
		return;
	json_decref(e->root);
	free(e);
}
