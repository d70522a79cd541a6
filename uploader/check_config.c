/* SPDX-License-Identifier: MIT */
/* bm-check's configuration file: see check_config.h. */
#include "config.h"

#include "check_config.h"

#include "error.h"
#include "json_fields.h"
#include "xalloc.h"

#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void check_config_release(struct check_config *cfg)
{
	for (size_t i = 0; i < cfg->nrules; i++)
		free(cfg->rules[i].pattern);
	free(cfg->rules);
	memset(cfg, 0, sizeof *cfg);
}

/* A threshold: a fraction from 0 to max. */
static int threshold_of(const json_t *o, const char *at, const char *key, double max, double *t, char **err)
{
	if (field_signed_number(o, at, key, t, err))
		return -1;
	if (*t < 0 || *t > max)
		return bm_error(err, "%s%s: expected a number from 0 to %g", at, key, max);
	return 0;
}

static int read_rule(struct check_config *cfg, const char *pattern, const json_t *v, char **err)
{
	const char *key;
	const json_t *x;
	struct check_config_rule *r = &cfg->rules[cfg->nrules];
	if (!*pattern)
		return bm_error(err, "benchmarks: an empty benchmark id");
	if (!json_is_object(v))
		return bm_error(err, "benchmarks.\"%s\": expected an object {\"threshold\": T}", pattern);
	json_object_foreach((json_t *)v, key, x)
		if (strcmp(key, "threshold"))
			return bm_error(err, "benchmarks.\"%s\": unknown key '%s' (known: threshold)", pattern, key);
	char *at = xasprintf("benchmarks.\"%s\".", pattern);
	int rc = threshold_of(v, at, "threshold", 1, &r->threshold, err);
	free(at);
	if (rc)
		return -1;
	r->pattern = xstrdup(pattern);
	cfg->nrules++;
	return 0;
}

static int read_root(struct check_config *cfg, const json_t *root, char **err)
{
	const char *key;
	const json_t *v;
	if (!json_is_object(root))
		return bm_error(err, "expected a JSON object");
	json_object_foreach((json_t *)root, key, v) {
		if (!strcmp(key, "threshold")) {
			if (threshold_of(root, "", "threshold", 0.5, &cfg->threshold, err))
				return -1;
			cfg->has_threshold = 1;
		} else if (!strcmp(key, "metric")) {
			if (!json_is_string(v) || gate_metric_lookup(json_string_value(v), &cfg->metric))
				return bm_error(err, "metric: expected one of %s", gate_metric_list);
			cfg->has_metric = 1;
		} else if (!strcmp(key, "benchmarks")) {
			if (!json_is_object(v))
				return bm_error(err, "benchmarks: expected an object of benchmark ids");
			const char *id;
			const json_t *rule;
			cfg->rules = xcalloc(json_object_size(v) + 1, sizeof *cfg->rules);
			json_object_foreach((json_t *)v, id, rule)
				if (read_rule(cfg, id, rule, err))
					return -1;
		} else {
			return bm_error(err, "unknown key '%s' (known: threshold, metric, benchmarks)", key);
		}
	}
	return 0;
}

int check_config_parse(struct check_config *cfg, const char *text, size_t size, const char *name, char **err)
{
	memset(cfg, 0, sizeof *cfg);
	if (size > CHECK_CONFIG_MAX_BYTES)
		return bm_error(err, "%s: larger than %u bytes", name, CHECK_CONFIG_MAX_BYTES);
	json_error_t je;
	json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je);
	int rc = -1;
	if (!root) {
		bm_error(err, "%s:%d:%d: %s", name, je.line, je.column, je.text);
	} else if ((rc = read_root(cfg, root, err))) {
		bm_error_prefix(err, name);
		check_config_release(cfg);
	}
	json_decref(root);
	bm_error_escape(rc ? err : NULL);
	return rc;
}

int check_config_load(struct check_config *cfg, const char *path, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return bm_error(err, "cannot open '%s': %s", path, strerror(errno));
	char *text = xmalloc(CHECK_CONFIG_MAX_BYTES + 2);
	size_t size = fread(text, 1, CHECK_CONFIG_MAX_BYTES + 1, f);
	int bad = ferror(f);
	fclose(f);
	int rc = bad ? bm_error(err, "cannot read '%s': %s", path, strerror(errno))
		     : check_config_parse(cfg, text, size, path, err);
	free(text);
	return rc;
}

int check_config_threshold(const struct check_config *cfg, const char *id, double *threshold)
{
	const struct check_config_rule *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < cfg->nrules; i++) {
		const struct check_config_rule *r = &cfg->rules[i];
		if (!strcmp(r->pattern, id)) {
			*threshold = r->threshold;
			return 1;
		}
		size_t len = strlen(r->pattern);
		if ((!best || len > best_len) && fnmatch(r->pattern, id, 0) == 0) {
			best = r;
			best_len = len;
		}
	}
	if (best)
		*threshold = best->threshold;
	return best != NULL;
}
