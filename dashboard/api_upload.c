/* POST /api/v1/projects/NAME/runs: store one bm-report/1.
 *
 * The report is checked whole before anything is written (report.c checks
 * the schema; this file what the server needs on top: where the run sits
 * in the project's history).  A run_id seen before answers 200 with the
 * same body and writes nothing, so clients may retry freely. */
#include "config.h"

#include "api.h"

#include "report.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ANCESTORS 1000
#define MAX_NAME 1024

char *platform_key(const struct bm_report *r)
{
	const struct bm_context *c = &r->context;
	json_t *j = json_pack("{s:s?,s:s?,s:s?}", "arch", c->arch, "compiler", c->compiler, "os", c->os);
	char *key = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(j);
	return key ? key : xstrdup("{}");
}

/* Seconds since the epoch of an RFC 3339 time ("2026-11-22T10:00:00Z",
 * "2026-11-22T11:00:00.5+01:00"); -1 when it is not one. */
static int parse_rfc3339(const char *s, int64_t *out)
{
	struct tm tm = {0};
	int n = 0;
	if (sscanf(s, "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
		   &tm.tm_sec, &n) != 6 || n != 19)
		return -1;
	const char *p = s + n;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	long offset = 0;
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int hh, mm, k = 0;
		if (sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &k) != 2 || k != 5 || hh > 23 || mm > 59)
			return -1;
		offset = (*p == '-' ? -1 : 1) * (hh * 3600L + mm * 60L);
		p += 6;
	} else {
		return -1;
	}
	if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = (int64_t)timegm(&tm) - offset;
	return 0;
}

static int is_sha(const char *s)
{
	size_t n = strlen(s);
	if (n < 4 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static int by_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What the server needs beyond the schema; 0, or -1 with res set to 400. */
static int check_placement(struct bm_report *r, int64_t *commit_time, struct response *res)
{
	struct bm_context *c = &r->context;
	if (strlen(r->run_id) == 0 || strlen(r->run_id) > 128)
		return http_error(res, 400, "run_id: expected 1 to 128 characters"), -1;
	if (!r->model.id || !*r->model.id)
		return http_error(res, 400, "model.id: missing"), -1;
	if (!c->branch || !*c->branch)
		return http_error(res, 400, "context.branch: missing (bm-upload fills it from git or CI; or pass --branch)"),
		       -1;
	if (strlen(c->branch) > MAX_NAME)
		return http_error(res, 400, "context.branch: longer than %d bytes", MAX_NAME), -1;
	if (!c->commit || !c->commit->sha)
		return http_error(res, 400, "context.commit: missing (bm-upload fills it from git or CI; or pass --commit)"),
		       -1;
	if (!is_sha(c->commit->sha))
		return http_error(res, 400, "context.commit.sha: expected a hexadecimal commit id"), -1;
	lower(c->commit->sha);
	if (!c->commit->timestamp)
		return http_error(res, 400, "context.commit.timestamp: missing (the committer time, RFC 3339)"), -1;
	if (parse_rfc3339(c->commit->timestamp, commit_time))
		return http_error(res, 400, "context.commit.timestamp: expected an RFC 3339 time, not '%s'",
				  c->commit->timestamp),
		       -1;
	if (c->commit->nancestors > MAX_ANCESTORS)
		return http_error(res, 400, "context.commit.ancestors: more than %d", MAX_ANCESTORS), -1;
	for (size_t i = 0; i < c->commit->nancestors; i++) {
		if (!is_sha(c->commit->ancestors[i]))
			return http_error(res, 400, "context.commit.ancestors[%zu]: expected a hexadecimal commit id", i),
			       -1;
		lower(c->commit->ancestors[i]);
	}
	if (c->pr && c->pr->number <= 0)
		return http_error(res, 400, "context.pr.number: expected a positive integer"), -1;
	if (c->pr && (!c->pr->base_branch || !*c->pr->base_branch))
		return http_error(res, 400, "context.pr.base_branch: missing (the branch the pull request merges into)"),
		       -1;
	if (r->nbenchmarks == 0)
		return http_error(res, 400, "benchmarks: empty"), -1;
	char **ids = xcalloc(r->nbenchmarks, sizeof *ids);
	for (size_t i = 0; i < r->nbenchmarks; i++)
		ids[i] = r->benchmarks[i].id;
	qsort(ids, r->nbenchmarks, sizeof *ids, by_id);
	for (size_t i = 1; i < r->nbenchmarks; i++) {
		if (!strcmp(ids[i - 1], ids[i])) {
			http_error(res, 400, "benchmarks: '%s' appears twice", ids[i]);
			free(ids);
			return -1;
		}
	}
	free(ids);
	return 0;
}

void api_upload(struct request *req, struct response *res)
{
	json_error_t jerr;
	json_t *j = json_loadb(req->body, req->body_size, JSON_REJECT_DUPLICATES, &jerr);
	if (!j) {
		http_error(res, 400, "malformed JSON at line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
		return;
	}
	struct bm_report r;
	char *err = NULL;
	int rc = report_from_json(j, &r, &err);
	json_decref(j);
	if (rc) {
		http_error(res, 400, "%s", err);
		free(err);
		return;
	}
	int64_t commit_time;
	if (check_placement(&r, &commit_time, res)) {
		report_release(&r);
		return;
	}
	char *platform = platform_key(&r);
	int created = 0;
	if (store_run_add(req->server->store, req->project.id, &r, platform, commit_time, &created, &err)) {
		http_error(res, 500, "the run was not stored: %s", err);
		free(err);
	} else {
		char *name = http_escape(req->project_name);
		char *url = xasprintf("%s/projects/%s/commits/%s", http_base_url(req), name, r.context.commit->sha);
		if (r.context.pr) {
			char *with_pr = xasprintf("%s?pr=%ld", url, r.context.pr->number);
			free(url);
			url = with_pr;
		}
		http_json(res, created ? 201 : 200, json_pack("{s:s,s:s,s:b}", "run_id", r.run_id, "report_url", url,
							      "created", created));
		free(url);
		free(name);
	}
	free(platform);
	report_release(&r);
}
