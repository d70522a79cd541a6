/* SPDX-License-Identifier: MIT */
/* bm-check: the pull-request check (SPEC 3.2).
 *
 *   bm-check --base BASE.json --head HEAD.json [options]     (offline)
 *   bm-check [--server URL --project NAME] [--commit SHA] [--pr N] [--run ID] [options]
 *
 * Offline it compares two reports with lib/compare.c, as the server
 * would; online it asks bm-server for the commit's report against its
 * baseline.  Either way it prints the verdict and a table, writes a
 * Markdown summary, judges Chromium-style expectations and can post a
 * GitHub commit status.  Exit: 0 no regression beyond the threshold; 1 a
 * regression or a failed benchmark; 2 a usage or environment error. */
#include "config.h"

#include "atomic_file.h"
#include "check.h"
#include "check_config.h"
#include "check_markdown.h"
#include "check_output.h"
#include "commit_view.h"
#include "context.h"
#include "expectations.h"
#include "github_status.h"
#include "review_comment.h"
#include "http_client.h"
#include "log.h"
#include "number.h"
#include "url.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"usage: bm-check --base BASE.json --head HEAD.json [OPTIONS]\n"
	"       bm-check [--server URL --project NAME] [--commit SHA] [--pr N] [--run ID] [OPTIONS]\n"
	"\n"
	"  --base FILE          offline: the baseline's report\n"
	"  --head FILE          offline: the commit's report\n"
	"  --server URL         bm-server's address (or BM_SERVER)\n"
	"  --project NAME       the project (or BM_PROJECT)\n"
	"  --commit SHA         the commit to check (default: the one bm-upload would\n"
	"                       name: GITHUB_SHA, CI_COMMIT_SHA or git's HEAD)\n"
	"  --pr N               the pull request the commit's run was uploaded for\n"
	"  --run ID             the report of this run's model and platform (a commit\n"
	"                       measured on several; default: the newest upload's)\n"
	"  --threshold T        the regression threshold, 0 to 0.5 (default: the\n"
	"                       config's, else the project's online, 0.10 offline)\n"
	"  --metric M           gate on cycles (speed, the default), instructions\n"
	"                       or syscalls (their count), or the heap's allocations,\n"
	"                       bytes_allocated or peak_bytes (bm engine)\n"
	"  --config FILE        per-benchmark thresholds and defaults (bm.json; see\n"
	"                       docs/bm-check.md)\n"
	"  --markdown FILE      write the Markdown summary to FILE (it is also\n"
	"                       appended to $GITHUB_STEP_SUMMARY when that is set)\n"
	"  --expectations FILE  judge Chromium-style expectations (see docs/bm-check.md)\n"
	"  --github-status      post a commit status to GitHub (GITHUB_TOKEN,\n"
	"                       GITHUB_REPOSITORY, GITHUB_API_URL)\n"
	"  --status-sha SHA     the commit the status goes on (default: the commit checked)\n"
	"  --comment[=WHEN]     keep one comment with the summary of every job of the\n"
	"                       commit on the pull request (GitHub: GITHUB_TOKEN,\n"
	"                       GITHUB_REPOSITORY) or the merge request (GitLab CI:\n"
	"                       BM_GITLAB_TOKEN): always (the default), on-change (create\n"
	"                       it only when a benchmark changed past its threshold; one\n"
	"                       there is always updated) or never\n"
	"  --comment-as LOGIN   the login the token comments as (or BM_COMMENT_AS; default:\n"
	"                       the host's answer to GET /user, github-actions[bot] for\n"
	"                       GitHub Actions' token)\n"
	"  --baseline RULE      auto (the default: a pull request's base branch head, a\n"
	"                       push's closest ancestor) or merge-base (a pull request's\n"
	"                       merge base with its base branch)\n"
	"  --tries N            tries to reach the server (default 3)\n"
	"  --timeout SECONDS    per try (default 60)\n"
	"  --insecure           do not verify the server's TLS certificate\n"
	"  -h, --help           this help; --version: the version\n";

/* When --comment writes the comment. */
enum comment_when { COMMENT_NEVER, COMMENT_ALWAYS, COMMENT_ON_CHANGE };

struct options {
	const char *base, *head, *server, *project, *commit, *run, *status_sha, *markdown, *expectations, *config;
	const char *comment_as, *baseline;
	long pr;
	int has_threshold, has_metric, github_status;
	enum comment_when comment;
	double threshold;
	enum gate_metric metric;
	struct http_client_options http;
};

enum { OPT_BASE = 256, OPT_HEAD, OPT_SERVER, OPT_PROJECT, OPT_COMMIT, OPT_PR, OPT_THRESHOLD, OPT_MARKDOWN,
       OPT_EXPECTATIONS, OPT_GITHUB_STATUS, OPT_STATUS_SHA, OPT_TRIES, OPT_INSECURE, OPT_METRIC, OPT_CONFIG,
       OPT_COMMENT, OPT_TIMEOUT, OPT_RUN, OPT_COMMENT_AS, OPT_BASELINE };

static const struct option long_options[] = {
	{"base", required_argument, NULL, OPT_BASE},
	{"head", required_argument, NULL, OPT_HEAD},
	{"server", required_argument, NULL, OPT_SERVER},
	{"project", required_argument, NULL, OPT_PROJECT},
	{"commit", required_argument, NULL, OPT_COMMIT},
	{"pr", required_argument, NULL, OPT_PR},
	{"run", required_argument, NULL, OPT_RUN},
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{"markdown", required_argument, NULL, OPT_MARKDOWN},
	{"expectations", required_argument, NULL, OPT_EXPECTATIONS},
	{"github-status", no_argument, NULL, OPT_GITHUB_STATUS},
	{"comment", optional_argument, NULL, OPT_COMMENT},
	{"comment-as", required_argument, NULL, OPT_COMMENT_AS},
	{"baseline", required_argument, NULL, OPT_BASELINE},
	{"status-sha", required_argument, NULL, OPT_STATUS_SHA},
	{"tries", required_argument, NULL, OPT_TRIES},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"insecure", no_argument, NULL, OPT_INSECURE},
	{"metric", required_argument, NULL, OPT_METRIC},
	{"config", required_argument, NULL, OPT_CONFIG},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static int usage_error(const char *msg)
{
	log_error("%s", msg);
	fputs(usage_text, stderr);
	return 2;
}

/* A usage error's exit code, after saying err. */
static int refused(char *err)
{
	log_refusal(err);
	return 2;
}

/* Fills o from argv and the environment; returns 0, or the exit code. */
static int parse(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->http.tries = 3;
	o->http.quiet = 0;
	int c;
	long long x;
	char *err = NULL;
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_BASE: o->base = optarg; break;
		case OPT_HEAD: o->head = optarg; break;
		case OPT_SERVER: o->server = optarg; break;
		case OPT_PROJECT: o->project = optarg; break;
		case OPT_COMMIT: o->commit = optarg; break;
		case OPT_RUN:
			if (!*optarg)
				return usage_error("--run needs a run id (the report's run_id), not ''");
			o->run = optarg;
			break;
		case OPT_STATUS_SHA: o->status_sha = optarg; break;
		case OPT_MARKDOWN: o->markdown = optarg; break;
		case OPT_EXPECTATIONS: o->expectations = optarg; break;
		case OPT_GITHUB_STATUS: o->github_status = 1; break;
		case OPT_COMMENT:
			if (!optarg || !strcmp(optarg, "always"))
				o->comment = COMMENT_ALWAYS;
			else if (!strcmp(optarg, "on-change"))
				o->comment = COMMENT_ON_CHANGE;
			else if (!strcmp(optarg, "never"))
				o->comment = COMMENT_NEVER;
			else {
				log_error("--comment takes always, on-change or never, not '%s'", optarg);
				return 2;
			}
			break;
		case OPT_COMMENT_AS: o->comment_as = optarg; break;
		case OPT_BASELINE:
			if (strcmp(optarg, "auto") && strcmp(optarg, "merge-base")) {
				log_error("--baseline takes auto or merge-base, not '%s'", optarg);
				return 2;
			}
			o->baseline = strcmp(optarg, "auto") ? optarg : NULL;
			break;
		case OPT_INSECURE: o->http.insecure = 1; break;
		case OPT_CONFIG: o->config = optarg; break;
		case OPT_METRIC:
			if (gate_metric_lookup(optarg, &o->metric)) {
				log_error("--metric needs %s, not '%s'", gate_metric_list, optarg);
				return 2;
			}
			o->has_metric = 1;
			break;
		case OPT_PR:
			if (number_option("--pr", "a number", optarg, 1, 2147483647, &x, &err))
				return refused(err);
			o->pr = (long)x;
			break;
		case OPT_TRIES:
			if (number_option("--tries", "a number", optarg, 1, 100, &x, &err))
				return refused(err);
			o->http.tries = (unsigned)x;
			break;
		case OPT_TIMEOUT:
			if (number_option("--timeout", "seconds", optarg, 1, 3600, &x, &err))
				return refused(err);
			o->http.timeout_s = (long)x;
			break;
		case OPT_THRESHOLD:
			if (number_option_real("--threshold", "a number", optarg, 0, 0.5, &o->threshold, &err))
				return refused(err);
			o->has_threshold = 1;
			break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case 'V': printf("bm-check %s\n", PACKAGE_VERSION); exit(0);
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (!o->comment_as && getenv("BM_COMMENT_AS") && *getenv("BM_COMMENT_AS"))
		o->comment_as = getenv("BM_COMMENT_AS");
	if (optind < argc)
		return usage_error("unexpected arguments (reports are given with --base and --head)");
	if (o->base || o->head) {
		if (!o->base || !o->head)
			return usage_error(o->base ? "--base needs --head" : "--head needs --base");
		if (o->server || o->project || o->pr || o->run || o->baseline)
			return usage_error("--base and --head compare two files: --server, --project, --pr, --run and "
					   "--baseline do not apply");
		return 0;
	}

	if (!o->server && !(o->server = getenv("BM_SERVER")))
		return usage_error("no server: give --server URL or set BM_SERVER (or compare files with --base and --head)");
	if (!o->project && !(o->project = getenv("BM_PROJECT")))
		return usage_error("no project: give --project NAME or set BM_PROJECT");
	return 0;
}

/* The commit (and pull request) bm-upload would have named: flags, then
 * GitHub Actions' or GitLab CI's variables, then git.  Returns 0, or 2
 * (said why). */
static int which_commit(struct options *o, char **sha)
{
	struct context_flags flags = {.commit = o->commit, .pr = o->pr};
	char *err = NULL;
	if (context_commit(&flags, sha, &o->pr, &err)) {
		log_error("cannot tell which commit to check: %s", err);
		free(err);
		return 2;
	}
	return 0;
}

/* The Markdown summary to $GITHUB_STEP_SUMMARY (appended) and --markdown
 * (replaced atomically); returns 0 or 2 (said why). */
static int write_markdown(const struct options *o, const struct check *c, const struct check_expected *x)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	if (summary && *summary) {
		FILE *f = fopen(summary, "a");
		if (!f) {
			log_error("cannot open '%s' (GITHUB_STEP_SUMMARY): %s", summary, strerror(errno));
			return 2;
		}
		check_print_markdown(f, c, x);
		if (ferror(f) | fclose(f)) {
			log_error("cannot write '%s' (GITHUB_STEP_SUMMARY): %s", summary, strerror(errno));
			return 2;
		}
	}
	if (o->markdown) {
		char *err = NULL;
		struct atomic_file *af = atomic_file_open(o->markdown, &err);
		if (af) {
			check_print_markdown(atomic_file_stream(af), c, x);
			if (!atomic_file_commit(af, &err))
				return 0;
		}
		log_error("%s", err);
		free(err);
		return 2;
	}
	return 0;
}

/* Checks that a status can be posted before anything else is done. */
static int github_ready(const struct options *o)
{
	if (!o->github_status)
		return 0;
	const char *token = getenv("GITHUB_TOKEN"), *repo = getenv("GITHUB_REPOSITORY");
	char *err = NULL;
	if (http_token_check(token, "GITHUB_TOKEN", &err)) {
		log_error("--github-status: %s", err);
		free(err);
		return 2;
	}
	if (token && *token && repo && strchr(repo, '/'))
		return 0;
	log_error("--github-status needs %s%s%s", !(token && *token) ? "GITHUB_TOKEN (a token that may write statuses)" : "",
		  !(token && *token) && !(repo && strchr(repo, '/')) ? " and " : "",
		  !(repo && strchr(repo, '/')) ? "GITHUB_REPOSITORY (OWNER/REPO)" : "");
	return 2;
}

/* How every report is judged: as the options and --config say, the same
 * for this job's report and for every other job's of the commit. */
struct judging {
	enum gate_metric metric;
	int has_threshold; /* else each report's own (the project's online) */
	double threshold;
	const struct check_config *cfg;
	const struct expectations *e; /* or NULL */
	const char *e_path;
};

static void judge(const struct judging *j, struct check *c)
{
	check_judge(c, j->metric, j->has_threshold ? j->threshold : c->threshold, j->cfg);
}

/* A heap metric where no benchmark of the head has heap counts would
 * pass every benchmark without looking at one: refused, saying why. */
static int heap_counts_missing(const struct check *c, enum gate_metric m, int online)
{
	if (m != GATE_ALLOCATIONS && m != GATE_BYTES_ALLOCATED && m != GATE_PEAK_BYTES)
		return 0;
	uint64_t n;
	for (size_t i = 0; i < c->nrows; i++)
		if (gate_count(m, &c->rows[i].counts, &n))
			return 0;
	log_error("--metric %s: no benchmark of %s has %s (the bm engine counts the heap unless bm-run --no-heap; "
		  "callgrind does not)",
		  gate_metric_name(m), online ? "the server's report" : "the head report",
		  m == GATE_PEAK_BYTES ? "a heap peak (symbol mode has none)" : "heap counts");
	return 1;
}

/* Posts a status under context; returns 0 or 2 (said why). */
static int post_status(const struct options *o, const char *sha, const char *context, const char *state,
		       const char *description, const char *target_url)
{
	const char *api = getenv("GITHUB_API_URL");
	struct github_status s = {
		.api_url = api && *api ? api : "https://api.github.com",
		.repository = getenv("GITHUB_REPOSITORY"),
		.token = getenv("GITHUB_TOKEN"),
		.sha = o->status_sha ? o->status_sha : sha,
		.context = context,
		.state = state,
		.description = description,
		.target_url = target_url,
	};
	char *err = NULL;
	if (!s.sha) {
		log_error("--github-status: no commit to post the status on (give --commit or --status-sha)");
		return 2;
	}
	if (github_status_post(&s, &err)) {
		log_error("cannot post the commit status: %s", err);
		free(err);
		return 2;
	}
	fprintf(stderr, "%s: posted status '%s' (%s) on %s to %s\n", log_progname(), state, context, s.sha,
		s.repository);
	return 0;
}

/* Where the comment goes and who writes it, checked before anything
 * else is done; returns 0 or 2 (said why). */
static int comment_ready(const struct options *o, struct review_target *t)
{
	char *err = NULL;
	if (o->comment == COMMENT_NEVER)
		return 0;
	if (!review_target_from_env(t, o->pr, o->comment_as, &err) && !review_whoami(t, &err))
		return 0;
	log_error("%s", err);
	free(err);
	return 2;
}

/* Whether a benchmark failed or changed past its threshold. */
static int changed(const struct check *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		if (!strcmp(r->status, "failed") || (r->has_impact && fabs(r->impact) > r->threshold))
			return 1;
	}
	return 0;
}

/* The commit status of this job's platform and model: a failure when any
 * report under its context fails (two platforms may share one: an
 * architecture's OSes), described by the worst of them.  Returns 0 or 2. */
static int post_own_status(const struct options *o, const char *sha, const struct check *own,
			   const struct check_section *s, size_t n)
{
	char *label = commit_view_label(own), *context = commit_view_context(label), *other;
	const struct check_section *worst = NULL;
	int failure = 0;
	for (size_t i = 0; i < n; i++) {
		int same = !strcmp(other = commit_view_context(s[i].label), context);
		free(other);
		if (!same)
			continue;
		failure |= check_expected_exit_code(s[i].c, s[i].x);
		if (!worst || check_verdict_rank(s[i].c->verdict) < check_verdict_rank(worst->c->verdict))
			worst = &s[i];
	}
	char d[GITHUB_STATUS_MAX_DESCRIPTION + 1];
	check_format_summary(d, GITHUB_STATUS_MAX_DESCRIPTION, worst ? worst->c : own);
	int rc = post_status(o, own->commit ? own->commit : sha, context,
			     (worst ? failure : check_exit_code(own)) ? "failure" : "success", d, own->report_url);
	free(label);
	free(context);
	return rc;
}

/* Creates or updates the comment with sections s; returns 0 or 2. */
static int put_comment(const struct options *o, const struct review_target *t, struct check_section *s, size_t n)
{
	char *text = NULL, *err = NULL, *note = NULL, *marker = review_marker(o->project ? o->project : "offline");
	size_t len = 0;
	int create = o->comment == COMMENT_ALWAYS, rc = 2;
	for (size_t i = 0; i < n && !create; i++)
		create = changed(s[i].c);
	enum review_outcome did;
	size_t removed;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		check_print_comment(f, marker, s, n);
		if (fclose(f) == 0 && !review_comment_put(t, marker, text, create, &did, &removed, &note, &err))
			rc = 0;
	}
	const char *site = review_site_name(t), *request = review_request_name(t);
	if (rc)
		log_error("cannot put the comment: %s", err ? err : "out of memory");
	else if (did == REVIEW_SKIPPED)
		fprintf(stderr, "%s: no benchmark changed past its threshold: no comment on %s %s #%ld (--comment=on-change)\n",
			log_progname(), site, request, t->number);
	else if (did == REVIEW_REPLACED)
		fprintf(stderr, "%s: %s refused to update bm's comment (%s): created a new one on %s #%ld\n",
			log_progname(), site, note, request, t->number);
	else
		fprintf(stderr, "%s: %s the comment on %s %s #%ld\n", log_progname(),
			did == REVIEW_UPDATED ? "updated" : "created", site, request, t->number);
	if (!rc && removed)
		fprintf(stderr,
			"%s: deleted %zu more comment%s of bm's (of jobs that ran at the same time, or an older bm)\n",
			log_progname(), removed, removed == 1 ? "" : "s");
	if (!rc && note && did != REVIEW_REPLACED)
		fprintf(stderr, "%s: warning: cannot delete bm's other comments (%s): the next run tries again\n",
			log_progname(), note);
	free(note);
	free(err);
	free(text);
	free(marker);
	return rc;
}

/* The status and the comment from one view of the commit: every platform
 * and model the server has (listed), or this job's report alone. */
static int publish_view(const struct options *o, const struct judging *j, const char *sha, const struct check *own,
			const struct check_expected *own_x, struct commit_view *v, int listed,
			const struct review_target *t)
{
	size_t n = listed ? v->n : 1;
	struct check_section *s = xcalloc(n + 1, sizeof *s);
	struct check_expected *xs = xcalloc(n + 1, sizeof *xs);
	char *own_label = listed ? NULL : commit_view_label(own);
	if (!listed)
		s[0] = (struct check_section){own, own_x, own_label, own->report_url};
	for (size_t i = 0; listed && i < n; i++) {
		struct commit_group *g = &v->groups[i];
		judge(j, &g->check);
		if (j->e)
			check_expected_init(&xs[i], j->e, j->e_path, &g->check);
		s[i] = (struct check_section){&g->check, j->e ? &xs[i] : NULL, g->label, g->check.report_url};
	}
	int rc = 0;
	if (o->github_status)
		rc = post_own_status(o, sha, own, s, n);
	if (!rc && o->comment != COMMENT_NEVER)
		rc = put_comment(o, t, s, n);
	for (size_t i = 0; listed && j->e && i < n; i++)
		check_expected_release(&xs[i]);
	free(xs);
	free(s);
	free(own_label);
	return rc;
}

/* Rounds of publishing at most: one more each time another job uploaded
 * a run of the commit while this one published. */
#define PUBLISH_ROUNDS 5

/* Posts the status and the comment (w: the commit on the server, NULL
 * offline).  Each job of a CI matrix publishes every job's reports as the
 * server has them; a job that uploaded while this one published did so
 * before it read the server, so whichever job publishes last shows them
 * all: after publishing, the commit's runs are listed again and, when
 * more came, published again.  Returns 0 or 2 (said why). */
static int publish(const struct options *o, const struct judging *j, const struct commit_where *w,
		   const char *sha, const struct check *own, const struct check_expected *own_x,
		   const struct review_target *t)
{
	for (int round = 1;; round++) {
		struct commit_view v = {0}, again = {0};
		char *why = NULL;
		int listed = w ? commit_view_list(&v, w, &why) : 0;
		if (listed > 0 && commit_view_fetch(&v, w, &why))
			listed = -1;
		if (listed < 0) {
			log_error("cannot read the reports of the commit's other jobs: %s", why);
			free(why);
			commit_view_release(&v);
			return 2;
		}
		int rc = publish_view(o, j, sha, own, own_x, &v, listed, t);
		int done = rc || !listed || round == PUBLISH_ROUNDS;
		if (!done) {
			done = commit_view_list(&again, w, &why) <= 0 || commit_view_same_runs(&v, &again);
			if (!done)
				fprintf(stderr, "%s: another job uploaded a run of this commit meanwhile: publishing again\n",
					log_progname());
		}
		free(why);
		commit_view_release(&v);
		commit_view_release(&again);
		if (done)
			return rc;
	}
}

int main(int argc, char **argv)
{
	struct options o;
	struct check c = {0};
	char *sha = NULL, *why = NULL;
	int rc = 2;
	log_take_progname(argv);
	struct check_config cfg = {0};
	struct review_target where = {0};
	if ((rc = parse(argc, argv, &o)) || (rc = github_ready(&o)))
		return rc;
	if (o.config && check_config_load(&cfg, o.config, &why)) {
		log_error("%s", why);
		free(why);
		return 2;
	}
	http_client_global_init();

	if (o.base) {
		if (check_from_files(&c, o.base, o.head, 0.10, &why)) {
			log_error("%s", why);
			free(why);
			check_config_release(&cfg);
			return 2;
		}
		if (o.commit) {
			free(c.commit);
			c.commit = xstrdup(o.commit);
		}
	} else {
		if ((rc = which_commit(&o, &sha))) {
			check_config_release(&cfg);
			return rc;
		}
	}
	/* (Online, which_commit found the pull request.) */
	if ((rc = comment_ready(&o, &where))) {
		review_target_release(&where);
		free(sha);
		check_release(&c);
		check_config_release(&cfg);
		return rc;
	}
	struct commit_where w = {o.server, o.project, sha, o.pr, o.baseline, &o.http};
	if (!o.base && commit_view_report(&w, o.run, &c, &why)) {
		log_error("%s", why);
		if (o.github_status) {
			/* Which platform and model is not known: under "bm". */
			char *d = xasprintf("bm-check could not get the report: %s", why);
			post_status(&o, sha, "bm", "error", d, NULL);
			free(d);
		}
		free(why);
		free(sha);
		review_target_release(&where);
		check_config_release(&cfg);
		return 2;
	}
	struct judging j = {
		.metric = o.has_metric ? o.metric : cfg.has_metric ? cfg.metric : GATE_CYCLES,
		.has_threshold = o.has_threshold || cfg.has_threshold,
		.threshold = o.has_threshold ? o.threshold : cfg.threshold,
		.cfg = &cfg,
		.e_path = o.expectations,
	};
	judge(&j, &c);
	if (heap_counts_missing(&c, j.metric, !o.base)) {
		free(sha);
		review_target_release(&where);
		check_release(&c);
		check_config_release(&cfg);
		return 2;
	}

	struct expectations *e = NULL;
	struct check_expected x, *xp = NULL;
	if (o.expectations) {
		if (!(e = expectations_load(o.expectations, &why))) {
			log_warn("%s; going on without expectations", why);
			free(why);
		} else {
			check_expected_init(&x, e, o.expectations, &c);
			xp = &x;
			j.e = e;
		}
	}
	if (!c.has_baseline) {
		const char *r = c.baseline_reason;
		log_warn("%s%s \xe2\x80\x94 nothing was compared", strncmp(r, "no baseline: ", 13) ? "no baseline: " : "", r);
	}
	check_print_text(stdout, &c, xp);
	fflush(stdout);
	rc = check_expected_exit_code(&c, xp);
	if (write_markdown(&o, &c, xp))
		rc = 2;
	if (rc != 2 && (o.github_status || o.comment != COMMENT_NEVER) &&
	    publish(&o, &j, o.base ? NULL : &w, sha, &c, xp, &where))
		rc = 2;
	review_target_release(&where);
	if (xp)
		check_expected_release(xp);
	expectations_free(e);
	check_release(&c);
	check_config_release(&cfg);
	free(sha);
	return rc;
}
