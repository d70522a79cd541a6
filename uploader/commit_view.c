/* SPDX-License-Identifier: MIT */
/* A commit's reports on bm-server: see commit_view.h. */
#include "config.h"

#include "commit_view.h"

#include "error.h"
#include "url.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* GitHub's limit on a status context. */
#define CONTEXT_MAX 255

/* GETs url; 0 with the answer, or -1 with *why.  A 404 with the
 * server's own words ("no run of commit ...") is said as they are. */
static int get(const char *url, const struct http_client_options *http, struct http_answer *ans, char **why)
{
	char *err = NULL;
	if (http_client_get(url, http, ans, &err)) {
		*why = err;
		return -1;
	}
	if (http_status_redirect(ans->status)) {
		*why = http_redirect_text(ans);
		http_answer_release(ans);
		return -1;
	}
	if (ans->status == 200)
		return 0;
	json_t *j = json_loads(ans->body, 0, NULL);
	int worded = ans->status == 404 && json_is_string(json_object_get(j, "error"));
	char *msg = http_answer_error(ans);
	*why = worded ? xstrdup(msg) : xasprintf("the server answered %ld for %s: %s", ans->status, url, msg);
	free(msg);
	json_decref(j);
	return -1;
}

/* url with "baseline=RULE" added (url is freed), or url itself when the
 * server's default rule is asked for. */
static char *with_baseline(char *url, const char *rule)
{
	if (!rule)
		return url;
	char *more = xasprintf("%s%cbaseline=%s", url, strchr(url, '?') ? '&' : '?', rule);
	free(url);
	return more;
}

/* The API's URL of the commit's what ("/report", "/runs"), of run. */
static char *commit_url(const struct commit_where *w, const char *run, const char *what)
{
	char *rest = url_commit_query(w->sha, w->pr, run, what);
	char *url = url_project(w->server, 1, w->project, rest);
	free(rest);
	return url;
}

int commit_view_report(const struct commit_where *w, const char *run, struct check *c, char **why)
{
	char *url = with_baseline(commit_url(w, run, "/report"), w->baseline), *err = NULL;
	struct http_answer ans = {0};
	int rc = -1;
	memset(c, 0, sizeof *c);
	if (get(url, w->http, &ans, why)) {
		/* said */
	} else if (check_from_answer(c, ans.body, ans.size, &err)) {
		*why = xasprintf("%s: %s", url, err);
		free(err);
	} else {
		/* The page compares as the check did. */
		c->report_url = with_baseline(url_commit_page(w->server, w->project, w->sha, w->pr, run), w->baseline);
		rc = 0;
	}
	if (ans.status)
		http_answer_release(&ans);
	free(url);
	return rc;
}

int commit_view_list(struct commit_view *v, const struct commit_where *w, char **why)
{
	char *url = commit_url(w, NULL, "/runs");
	struct http_answer ans = {0};
	memset(v, 0, sizeof *v);
	int rc = get(url, w->http, &ans, why);
	if (rc && ans.status == 404 && strstr(ans.body ? ans.body : "", "no such API path")) {
		/* A bm-server older than this route: the caller shows its own
		 * report alone. */
		free(*why);
		*why = NULL;
		http_answer_release(&ans);
		free(url);
		return 0;
	}
	struct commit_runs runs;
	if (!rc && !(rc = commit_runs_parse(&runs, ans.body, ans.size, why))) {
		v->groups = xcalloc(runs.ngroups + 1, sizeof *v->groups);
		for (size_t i = 0; i < runs.ngroups; i++)
			v->groups[v->n++].run_id = xstrdup(runs.groups[i]);
		v->runs = runs;
	}
	if (ans.status)
		http_answer_release(&ans);
	free(url);
	if (rc) {
		commit_view_release(v);
		return -1;
	}
	return 1;
}

int commit_view_fetch(struct commit_view *v, const struct commit_where *w, char **why)
{
	for (size_t i = 0; i < v->n; i++) {
		struct commit_group *g = &v->groups[i];
		if (commit_view_report(w, g->run_id, &g->check, why))
			return -1;
		g->label = commit_view_label(&g->check);
		g->context = commit_view_context(g->label);
	}
	return 0;
}

int commit_view_same_runs(const struct commit_view *a, const struct commit_view *b)
{
	return commit_runs_same(&a->runs, &b->runs);
}

void commit_view_release(struct commit_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->groups[i].run_id);
		check_release(&v->groups[i].check);
		free(v->groups[i].label);
		free(v->groups[i].context);
	}
	free(v->groups);
	commit_runs_release(&v->runs);
	memset(v, 0, sizeof *v);
}

char *commit_view_label(const struct check *c)
{
	return xasprintf("%s, %s", c->arch ? c->arch : "unknown arch", c->model ? c->model : "unknown model");
}

char *commit_view_context(const char *label)
{
	char *context = xasprintf("bm (%s)", label);
	if (strlen(context) > CONTEXT_MAX) {
		size_t n = CONTEXT_MAX - 4; /* room for "...)" */
		while (n > 0 && ((unsigned char)context[n] & 0xc0) == 0x80)
			n--;
		memcpy(context + n, "...)", sizeof "...)");
	}
	return context;
}
