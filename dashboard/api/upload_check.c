/* SPDX-License-Identifier: MIT */
/* Upload checks: see upload_check.h. */
#include "config.h"

#include "upload_check.h"

#include "error.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ANCESTORS 1000
#define MAX_NAME UPLOAD_MAX_NAME

/* Whether day d exists in month m (1 to 12) of year y: timegm would
 * read 2026-02-30 as March 2 without a word. */
static int day_exists(int y, int m, int d)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return d >= 1 && d <= days[m - 1] + (m == 2 && leap);
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
	if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || !day_exists(tm.tm_year, tm.tm_mon, tm.tm_mday) ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
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

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A first-parent ancestry is a path back through history: the commit is
 * not on it and no commit is on it twice.  Either would let a commit be
 * its own baseline (impact 0 whatever it changed).  SHAs lower-cased. */
static int check_ancestry(const struct bm_commit *c, char **err)
{
	for (size_t i = 0; i < c->nancestors; i++)
		if (!strcmp(c->ancestors[i], c->sha))
			return bm_error(err, "context.commit.ancestors[%zu]: the commit itself (%s): the ancestry is "
					     "its first parents, nearest first, without it", i, c->sha);
	if (c->nancestors < 2)
		return 0;
	char **sorted = xcalloc(c->nancestors, sizeof *sorted);
	memcpy(sorted, c->ancestors, c->nancestors * sizeof *sorted);
	qsort(sorted, c->nancestors, sizeof *sorted, by_text);
	int rc = 0;
	for (size_t i = 1; !rc && i < c->nancestors; i++)
		if (!strcmp(sorted[i - 1], sorted[i]))
			rc = bm_error(err, "context.commit.ancestors: '%s' appears twice (a first-parent ancestry "
					   "names each commit once)", sorted[i]);
	free(sorted);
	return rc;
}

/* Imported benchmark i's metrics (they become keys of the server's
 * result_metrics): names and units of at most MAX_NAME bytes, no name
 * twice. */
static int check_metrics(const struct bm_result *b, size_t i, char **err)
{
	for (size_t k = 0; k < b->nmetrics; k++) {
		const struct bm_metric *m = &b->metrics[k];
		if (strlen(m->name) <= MAX_NAME && strlen(m->unit) <= MAX_NAME)
			continue;
		if (k == 0)
			return bm_error(err, "benchmarks[%zu].metric: name or unit longer than %d bytes", i, MAX_NAME);
		return bm_error(err, "benchmarks[%zu].extra_metrics[%zu]: name or unit longer than %d bytes", i, k - 1,
				MAX_NAME);
	}
	if (b->nmetrics < 2)
		return 0;
	char **names = xcalloc(b->nmetrics, sizeof *names);
	for (size_t k = 0; k < b->nmetrics; k++)
		names[k] = b->metrics[k].name;
	qsort(names, b->nmetrics, sizeof *names, by_text);
	int rc = 0;
	for (size_t k = 1; !rc && k < b->nmetrics; k++)
		if (!strcmp(names[k - 1], names[k]))
			rc = bm_error(err, "benchmarks[%zu]: metric '%s' appears twice", i, names[k]);
	free(names);
	return rc;
}

int upload_check(struct bm_report *r, int64_t *commit_time, char **err)
{
	struct bm_context *c = &r->context;
	if (strlen(r->run_id) == 0 || strlen(r->run_id) > 128)
		return bm_error(err, "run_id: expected 1 to 128 characters");
	if (!r->model.id || !*r->model.id)
		return bm_error(err, "model.id: missing");
	/* They make up the runs' series identity (series_identity.h). */
	if (strlen(r->model.id) > MAX_NAME)
		return bm_error(err, "model.id: longer than %d bytes", MAX_NAME);
	if (r->engine && strlen(r->engine) > MAX_NAME)
		return bm_error(err, "tool.engine: longer than %d bytes", MAX_NAME);
	if (r->model.cpu && strlen(r->model.cpu) > MAX_NAME)
		return bm_error(err, "model.cpu: longer than %d bytes", MAX_NAME);
	if (!c->branch || !*c->branch)
		return bm_error(err, "context.branch: missing (bm-upload fills it from git or CI; or pass --branch)");
	if (strlen(c->branch) > MAX_NAME)
		return bm_error(err, "context.branch: longer than %d bytes", MAX_NAME);
	if (!c->commit || !c->commit->sha)
		return bm_error(err, "context.commit: missing (bm-upload fills it from git or CI; or pass --commit)");
	if (!is_sha(c->commit->sha))
		return bm_error(err, "context.commit.sha: expected a hexadecimal commit id");
	lower(c->commit->sha);
	if (!c->commit->timestamp)
		return bm_error(err, "context.commit.timestamp: missing (the committer time, RFC 3339)");
	if (parse_rfc3339(c->commit->timestamp, commit_time))
		return bm_error(err, "context.commit.timestamp: expected an RFC 3339 time, not '%s'",
				  c->commit->timestamp);
	if (c->commit->nancestors > MAX_ANCESTORS)
		return bm_error(err, "context.commit.ancestors: more than %d", MAX_ANCESTORS);
	for (size_t i = 0; i < c->commit->nancestors; i++) {
		if (!is_sha(c->commit->ancestors[i]))
			return bm_error(err, "context.commit.ancestors[%zu]: expected a hexadecimal commit id", i);
		lower(c->commit->ancestors[i]);
	}
	if (check_ancestry(c->commit, err))
		return -1;
	if (c->pr && c->pr->number <= 0)
		return bm_error(err, "context.pr.number: expected a positive integer");
	if (c->pr && (!c->pr->base_branch || !*c->pr->base_branch))
		return bm_error(err, "context.pr.base_branch: missing (the branch the pull request merges into)");
	if (c->pr && c->pr->merge_base) {
		if (!is_sha(c->pr->merge_base))
			return bm_error(err, "context.pr.merge_base: expected a hexadecimal commit id");
		lower(c->pr->merge_base);
		if (!strcmp(c->pr->merge_base, c->commit->sha))
			return bm_error(err, "context.pr.merge_base: the commit itself (%s): a merge base is where "
					     "the pull request left its base branch, an ancestor of the commit",
					c->commit->sha);
	}
	if (r->nbenchmarks == 0)
		return bm_error(err, "benchmarks: empty");
	for (size_t i = 0; i < r->nbenchmarks; i++) {
		if (strlen(r->benchmarks[i].id) > UPLOAD_MAX_ID)
			return bm_error(err, "benchmarks[%zu].id: longer than %d bytes", i, UPLOAD_MAX_ID);
		if (check_metrics(&r->benchmarks[i], i, err))
			return -1;
	}
	/* (A benchmark id twice is the reader's to refuse: report_from_json.) */
	return 0;
}

