/* SPDX-License-Identifier: MIT */
/* Pull-request comments and merge-request notes: see review_comment.h.
 * GitHub and GitLab differ in URLs, the header that carries the token and
 * the method of an update: one table entry each. */
#include "config.h"

#include "review_comment.h"

#include "error.h"
#include "http_client.h"
#include "rest.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct review_site {
	const char *name, *request;
	/* The URLs (newly allocated): page p of the request's comments (100 a
	 * page), where a new one is posted, and comment id (updated with
	 * update_method, deleted with DELETE). */
	char *(*list)(const struct review_target *t, int page);
	char *(*create)(const struct review_target *t);
	char *(*update)(const struct review_target *t, long long id);
	const char *update_method;
	const char *extra_header;
	/* Where a comment (and GET /user's answer) names its writer: the
	 * object's key, and the login's key in it. */
	const char *author, *login;
};

static char *github_list(const struct review_target *t, int page)
{
	return xasprintf("%s/repos/%s/issues/%ld/comments?per_page=100&page=%d", t->api, t->where, t->number, page);
}

static char *github_create(const struct review_target *t)
{
	return xasprintf("%s/repos/%s/issues/%ld/comments", t->api, t->where, t->number);
}

static char *github_update(const struct review_target *t, long long id)
{
	return xasprintf("%s/repos/%s/issues/comments/%lld", t->api, t->where, id);
}

static char *gitlab_list(const struct review_target *t, int page)
{
	return xasprintf("%s/projects/%s/merge_requests/%ld/notes?per_page=100&page=%d&sort=asc", t->api, t->where,
			 t->number, page);
}

static char *gitlab_create(const struct review_target *t)
{
	return xasprintf("%s/projects/%s/merge_requests/%ld/notes", t->api, t->where, t->number);
}

static char *gitlab_update(const struct review_target *t, long long id)
{
	return xasprintf("%s/projects/%s/merge_requests/%ld/notes/%lld", t->api, t->where, t->number, id);
}

static const struct review_site github = {
	"GitHub", "pull request", github_list, github_create, github_update, "PATCH",
	"Accept: application/vnd.github+json", "user", "login",
};

static const struct review_site gitlab = {
	"GitLab", "merge request", gitlab_list, gitlab_create, gitlab_update, "PUT", "Accept: application/json",
	"author", "username",
};

/* The login GitHub Actions' GITHUB_TOKEN writes as. */
#define GITHUB_ACTIONS_BOT "github-actions[bot]"

/* Pages of comments looked through at most (10,000 comments). */
#define MAX_PAGES 100

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static char *trimmed(const char *url)
{
	size_t n = strlen(url);
	while (n && url[n - 1] == '/')
		n--;
	return xstrndup(url, n);
}

/* N of GITHUB_REF's refs/pull/N/merge (or .../head), or 0. */
static long pull_of_ref(const char *ref)
{
	long n = 0;
	int len = 0;
	if (ref && sscanf(ref, "refs/pull/%ld/%n", &n, &len) == 1 && len > 0 && n > 0)
		return n;
	return 0;
}

int review_target_from_env(struct review_target *t, long pr, const char *as, char **err)
{
	memset(t, 0, sizeof *t);
	if (as && *as)
		t->login = xstrdup(as);
	int on_github = env("GITHUB_ACTIONS") || (env("GITHUB_REPOSITORY") && !env("GITLAB_CI"));
	int on_gitlab = !on_github && (env("GITLAB_CI") || env("CI_MERGE_REQUEST_IID"));
	if (on_github) {
		const char *repo = env("GITHUB_REPOSITORY"), *token = env("GITHUB_TOKEN");
		long n = pr > 0 ? pr : pull_of_ref(env("GITHUB_REF"));
		if (!repo || !strchr(repo, '/') || !token)
			return bm_error(err, "--comment on GitHub needs GITHUB_REPOSITORY (OWNER/REPO) and GITHUB_TOKEN (with "
					     "permission to write pull requests)");
		if (n <= 0)
			return bm_error(err, "--comment: not a pull request (give --pr N, or run on a pull_request event, "
					     "whose GITHUB_REF is refs/pull/N/merge)");
		if (http_token_check(token, "GITHUB_TOKEN", err)) {
			bm_error_prefix(err, "--comment");
			return -1;
		}
		t->site = &github;
		t->api = trimmed(env("GITHUB_API_URL") ? env("GITHUB_API_URL") : "https://api.github.com");
		t->where = xstrdup(repo);
		t->number = n;
		t->auth = xasprintf("Authorization: Bearer %s", token);
		return 0;
	}
	if (on_gitlab) {
		const char *api = env("CI_API_V4_URL"), *project = env("CI_PROJECT_ID"),
			   *token = env("BM_GITLAB_TOKEN") ? env("BM_GITLAB_TOKEN") : env("GITLAB_TOKEN"),
			   *iid = env("CI_MERGE_REQUEST_IID");
		long n = pr > 0 ? pr : iid ? strtol(iid, NULL, 10) : 0;
		if (!api || !project || !token)
			return bm_error(err, "--comment on GitLab needs CI_API_V4_URL, CI_PROJECT_ID and a token with the api "
					     "scope in BM_GITLAB_TOKEN (a CI/CD variable)");
		if (n <= 0)
			return bm_error(err, "--comment: not a merge request (give --pr IID, or run in a merge request "
					     "pipeline, which sets CI_MERGE_REQUEST_IID)");
		if (http_token_check(token, env("BM_GITLAB_TOKEN") ? "BM_GITLAB_TOKEN" : "GITLAB_TOKEN", err)) {
			bm_error_prefix(err, "--comment");
			return -1;
		}
		t->site = &gitlab;
		t->api = trimmed(api);
		t->where = xstrdup(project);
		t->number = n;
		t->auth = xasprintf("PRIVATE-TOKEN: %s", token);
		return 0;
	}
	return bm_error(err, "--comment works in GitHub Actions (GITHUB_REPOSITORY, GITHUB_TOKEN) or GitLab CI "
			     "(CI_API_V4_URL, CI_PROJECT_ID, BM_GITLAB_TOKEN): neither is set");
}

void review_target_release(struct review_target *t)
{
	free(t->api);
	free(t->where);
	free(t->auth);
	free(t->login);
	memset(t, 0, sizeof *t);
}

const char *review_site_name(const struct review_target *t)
{
	return t->site->name;
}

const char *review_request_name(const struct review_target *t)
{
	return t->site->request;
}

char *review_marker(const char *project)
{
	size_t n = strlen(project);
	char *name = xmalloc(3 * n + 1), *o = name;
	for (const unsigned char *p = (const unsigned char *)project; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		    *p == '_')
			*o++ = (char)*p;
		else
			o += snprintf(o, 4, "%%%02X", *p);
	*o = '\0';
	char *m = xasprintf("<!-- bm-check: %s -->", name);
	free(name);
	return m;
}

/* One request; the answer's body (the caller frees it) when its status
 * is want, else -1 with *err (and *status, when not NULL, the status). */
static int call(const struct review_target *t, const char *method, const char *url, const char *body, long want,
		char **answer, long *status, char **err)
{
	const char *headers[] = {t->auth, t->site->extra_header, "X-GitHub-Api-Version: 2022-11-28", NULL};
	struct rest_answer ans;
	if (status)
		*status = 0;
	if (rest_request(method, url, headers, body, &ans, err))
		return -1;
	if (ans.status != want) {
		char *text = rest_error_text(&ans);
		bm_error(err, "%s answered %ld for %s %s: %s", t->site->name, ans.status, method, url, text);
		bm_error_escape(err);
		if (status)
			*status = ans.status;
		free(text);
		free(ans.body);
		return -1;
	}
	*answer = ans.body;
	return 0;
}

int review_whoami(struct review_target *t, char **err)
{
	if (t->login)
		return 0;
	char *url = xasprintf("%s/user", t->api), *body = NULL;
	long status;
	int rc = call(t, "GET", url, NULL, 200, &body, &status, err);
	free(url);
	if (rc) {
		/* An installation token has no user: GitHub answers 403
		 * "Resource not accessible by integration". */
		if (t->site == &github && status == 403 && env("GITHUB_ACTIONS")) {
			free(*err);
			*err = NULL;
			t->login = xstrdup(GITHUB_ACTIONS_BOT);
			return 0;
		}
		bm_error_prefix(err, "cannot tell who the token is (give the login bm-check posts as with --comment-as)");
		return -1;
	}
	json_t *me = json_loads(body, 0, NULL);
	free(body);
	const char *login = json_string_value(json_object_get(me, t->site->login));
	json_t *id = json_object_get(me, "id");
	if (!login || !*login) {
		json_decref(me);
		return bm_error(err, "%s's answer to GET /user names no %s", t->site->name, t->site->login);
	}
	t->login = xstrdup(login);
	t->user_id = json_is_integer(id) ? (long long)json_integer_value(id) : 0;
	json_decref(me);
	return 0;
}

/* Whether comment c was written by t's identity. */
static int written_by_us(const struct review_target *t, const json_t *c)
{
	const json_t *who = json_object_get(c, t->site->author);
	const json_t *id = json_object_get(who, "id");
	const char *login = json_string_value(json_object_get(who, t->site->login));
	if (json_is_true(json_object_get(c, "system"))) /* GitLab's own notes */
		return 0;
	if (t->user_id && json_is_integer(id))
		return json_integer_value(id) == t->user_id;
	return login && !strcasecmp(login, t->login);
}

/* Whether body's first line is marker, or (as bm wrote it before
 * version 0.2) its last non-empty line. */
static int marked(const char *body, const char *marker)
{
	size_t m = strlen(marker), n = strlen(body);
	if (!strncmp(body, marker, m) && (body[m] == '\0' || body[m] == '\n' || body[m] == '\r'))
		return 1;
	while (n && (body[n - 1] == '\n' || body[n - 1] == '\r'))
		n--;
	return n >= m && !strncmp(body + n - m, marker, m) && (n == m || body[n - m - 1] == '\n');
}

/* bm's comments with the marker: their ids, the oldest first (both hosts
 * number comments in the order they are created). */
struct ours {
	long long *id;
	size_t n, alloc;
};

static int by_id(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* Lists bm's comments with marker into *o (the caller frees o->id).
 * Returns 0, or -1 with *err. */
static int find(const struct review_target *t, const char *marker, struct ours *o, char **err)
{
	*o = (struct ours){0};
	for (int page = 1; page <= MAX_PAGES; page++) {
		char *url = t->site->list(t, page), *body;
		int rc = call(t, "GET", url, NULL, 200, &body, NULL, err);
		free(url);
		if (rc)
			return -1;
		json_t *list = json_loads(body, 0, NULL);
		free(body);
		if (!json_is_array(list)) {
			json_decref(list);
			return bm_error(err, "%s's list of comments is not a JSON array", t->site->name);
		}
		size_t n = json_array_size(list);
		for (size_t i = 0; i < n; i++) {
			json_t *c = json_array_get(list, i);
			const char *text = json_string_value(json_object_get(c, "body"));
			if (text && json_is_integer(json_object_get(c, "id")) && written_by_us(t, c) && marked(text, marker)) {
				xgrow(&o->id, &o->alloc, o->n + 1, sizeof *o->id);
				o->id[o->n++] = (long long)json_integer_value(json_object_get(c, "id"));
			}
		}
		json_decref(list);
		if (n < 100)
			break;
	}
	if (o->n)
		qsort(o->id, o->n, sizeof *o->id, by_id);
	return 0;
}

/* Makes bm's oldest comment of o hold payload (unless it is mine, which
 * does already) and deletes the others: what jobs running at the same
 * time created, or an older bm left.  Returns 0, or -1 when the oldest
 * refused the update (*note says why; nothing is deleted).  A refused
 * deletion is a *note too: a later run tries again. */
static int keep_oldest(const struct review_target *t, const struct ours *o, const char *payload, long long mine,
		       size_t *removed, char **note)
{
	char *answer = NULL, *url;
	if (o->id[0] != mine) {
		url = t->site->update(t, o->id[0]);
		int rc = call(t, t->site->update_method, url, payload, 200, &answer, NULL, note);
		free(url);
		free(answer);
		if (rc)
			return -1;
	}
	for (size_t i = 1; i < o->n; i++) {
		char *why = NULL;
		long status;
		url = t->site->update(t, o->id[i]);
		if (!call(t, "DELETE", url, NULL, 204, &answer, &status, &why)) {
			free(answer);
			(*removed)++;
		} else if (status != 404 && !*note) { /* 404: another job deleted it first */
			*note = why;
			why = NULL;
		}
		free(why);
		free(url);
	}
	return 0;
}

/* Creates a comment with payload; its id in *id (0 when the host said
 * none).  Returns 0, or -1 with *err. */
static int create_one(const struct review_target *t, const char *payload, long long *id, char **err)
{
	char *url = t->site->create(t), *answer = NULL;
	int rc = call(t, "POST", url, payload, 201, &answer, NULL, err);
	free(url);
	*id = 0;
	if (!rc) {
		json_t *c = json_loads(answer, 0, NULL);
		json_t *j = json_object_get(c, "id");
		*id = json_is_integer(j) ? (long long)json_integer_value(j) : 0;
		json_decref(c);
	}
	free(answer);
	return rc;
}

/* After this run created comment mine: another job may have found none
 * either and created its own meanwhile.  Looks again and keeps the oldest,
 * with payload.  The comment is there: what fails now is only a *note. */
static void settle(const struct review_target *t, const char *marker, const char *payload, long long mine,
		   enum review_outcome *outcome, size_t *removed, char **note)
{
	struct ours o;
	char *why = NULL;
	if (find(t, marker, &o, &why))
		*note = why;
	else if (o.n && !keep_oldest(t, &o, payload, mine, removed, note) && o.id[0] != mine)
		*outcome = REVIEW_UPDATED; /* the other job's, now with this run's text */
	free(o.id);
}

int review_comment_put(const struct review_target *t, const char *marker, const char *body, int create,
		       enum review_outcome *outcome, size_t *removed, char **note, char **err)
{
	struct ours o;
	*note = NULL;
	*removed = 0;
	if (find(t, marker, &o, err)) {
		free(o.id);
		return -1;
	}
	if (!o.n && !create) {
		*outcome = REVIEW_SKIPPED;
		return 0;
	}
	json_t *j = json_pack("{s:s}", "body", body);
	if (!j) {
		free(o.id);
		return bm_error(err, "the comment is not valid UTF-8");
	}
	char *payload = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	int rc = -1;
	if (o.n) {
		rc = keep_oldest(t, &o, payload, 0, removed, note);
		*outcome = REVIEW_UPDATED;
	}
	if (rc) {
		/* Not found, or the update was refused (a comment locked, or
		 * made read-only): a new one, never a failed check. */
		long long mine;
		rc = create_one(t, payload, &mine, err);
		*outcome = o.n ? REVIEW_REPLACED : REVIEW_CREATED;
		if (!rc && !o.n)
			settle(t, marker, payload, mine, outcome, removed, note);
	}
	free(o.id);
	free(payload);
	return rc;
}
