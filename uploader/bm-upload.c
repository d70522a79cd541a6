/* SPDX-License-Identifier: MIT */
/* bm-upload: sends bm-report/1 files to bm-server with their context.
 *
 *   bm-upload [--server URL] [--project NAME] [--token T] [context flags] REPORT.json...
 *   bm-upload [same options] --from FORMAT FILE...
 *   bm-upload --flush [--spool DIR] [--token T]
 *
 * --from imports each FILE with bm-import's importers (import.h) first:
 * every file, before anything is sent, so that one that does not parse
 * stops the upload with nothing sent.
 * Each report gets its branch, commit and pull request (context.c), is
 * POSTed gzip-compressed (http_client.c: retries with backoff), and when
 * no try got through it is kept in the spool directory for --flush.
 * Exit: 0 every report stored; 1 some were spooled; 2 a usage or
 * environment error, a file that does not parse, or a report the server
 * refused. */
#include "config.h"

#include "context.h"
#include "error.h"
#include "http_client.h"
#include "import.h"
#include "json_load.h"
#include "log.h"
#include "number.h"
#include "spool.h"
#include "url.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static const char usage_text[] =
	"usage: bm-upload [OPTIONS] REPORT.json...\n"
	"       bm-upload [OPTIONS] --from FORMAT FILE...\n"
	"       bm-upload --flush [--spool DIR] [--token T]\n"
	"\n"
	"  --server URL        bm-server's address (or BM_SERVER)\n"
	"  --project NAME      the project (or BM_PROJECT)\n"
	"  --token T           the project's upload token (or BM_TOKEN)\n"
	"  --branch NAME       the branch (default: from CI variables or git)\n"
	"  --commit SHA        the commit (default: GITHUB_SHA, CI_COMMIT_SHA or HEAD)\n"
	"  --commit-time TIME  its committer time, RFC 3339 (default: from git)\n"
	"  --pr N              a pull request's number (default: from CI variables)\n"
	"  --base-branch NAME  the pull request's base branch\n"
	"  --merge-base SHA    the pull request's merge base with it (default: from\n"
	"                      CI_MERGE_REQUEST_DIFF_BASE_SHA, or git for a merge commit)\n"
	"  --from FORMAT       the FILEs are another suite's results: import each as\n"
	"                      bm-import FORMAT FILE does, then upload it (formats below)\n"
	"  --spool DIR         where unsent reports wait (default $XDG_STATE_HOME/bm/spool)\n"
	"  --flush             send the spooled reports\n"
	"  --tries N           tries per report before spooling it (default 5)\n"
	"  --timeout SECONDS   per try (default 60)\n"
	"  --insecure          do not verify the server's TLS certificate\n"
	"  -q, --quiet         no retry messages\n"
		"  -h, --help          this help; --version: the version\n";

struct options {
	const char *server, *project, *token, *spool; /* the token is also in http */
	const struct import_format *from;             /* --from, or NULL */
	struct context_flags context;
	struct http_client_options http;
	int flush;
};

enum outcome { STORED = 0, SPOOLED = 1, FAILED = 2 };

static void usage(FILE *to)
{
	fputs(usage_text, to);
	fputs("\nformats for --from:\n", to);
	for (size_t i = 0; import_formats[i]; i++)
		fprintf(to, "  %-10s %s\n", import_formats[i]->name, import_formats[i]->description);
}

static int usage_error(const char *msg)
{
	log_error("%s", msg);
	usage(stderr);
	return 2;
}

/* An option's whole number from min to max, or exit 2 after saying why. */
static long long number(const char *opt, const char *units, const char *arg, long long min, long long max)
{
	long long v;
	char *err = NULL;
	if (number_option(opt, units, arg, min, max, &v, &err)) {
		log_refusal(err);
		exit(2);
	}
	return v;
}

/* Says what a stored report's answer says: where it can be seen (the
 * server's words, escaped). */
static void say_stored(const struct http_answer *ans, json_t *report)
{
	json_t *j = json_loads(ans->body, 0, NULL);
	char *link = bm_escape_controls(json_string_value(json_object_get(j, "report_url")));
	char *run = bm_escape_controls(json_string_value(json_object_get(report, "run_id")));
	fprintf(stderr, "%s: %s run %s; see %s\n", log_progname(), ans->status == 201 ? "stored" : "already had",
		run ? run : "?", link ? link : "the server's dashboard");
	if (link)
		printf("%s\n", link);
	free(run);
	free(link);
	json_decref(j);
}

/* Sends report; on success prints where it can be seen.  A transient
 * failure (no answer, 5xx, 429 after the last try) or a redirect is
 * SPOOLED's business: the caller decides. */
static enum outcome send_report(const struct options *o, const char *server, const char *project, json_t *report,
				const char *what)
{
	char *text = json_dumps(report, JSON_COMPACT);
	if (!text) {
		log_error("%s: the report cannot be written as JSON", what);
		return FAILED;
	}
	char *url = url_project(server, 1, project, "runs"), *err = NULL;
	struct http_answer ans;
	enum outcome out;
	if (http_client_post_json(url, text, strlen(text), &o->http, &ans, &err)) {
		log_error("%s: %s", what, err);
		free(err);
		out = SPOOLED;
	} else if (ans.status == 200 || ans.status == 201) {
		say_stored(&ans, report);
		out = STORED;
	} else if (http_status_redirect(ans.status)) {
		char *where = http_redirect_text(&ans);
		log_error("%s: %s", what, where);
		free(where);
		out = SPOOLED;
	} else {
		char *msg = http_answer_error(&ans);
		log_error("%s: the server answered %ld: %s", what, ans.status, msg);
		free(msg);
		out = http_status_transient(ans.status) ? SPOOLED : FAILED;
	}
	http_answer_release(&ans);
	free(url);
	free(text);
	return out;
}

static json_t *load_report(const char *path)
{
	char *err = NULL;
	json_t *r = json_load_path(path, JSON_REJECT_DUPLICATES, &err);
	if (!r) {
		bm_error_escape(&err);
		log_refusal(err);
		return NULL;
	}
	const char *schema = json_string_value(json_object_get(r, "schema"));
	if (!json_is_object(r) || !schema || strcmp(schema, "bm-report/1") ||
	    !json_is_string(json_object_get(r, "run_id"))) {
		log_error("%s: not a bm-report/1 report (make it with bm-run -o)", path);
		json_decref(r);
		return NULL;
	}
	return r;
}

/* The reports of files imported with format f, in order; NULL when one
 * does not parse (after saying where). */
static json_t **import_all(const struct import_format *f, char *const *files, size_t n)
{
	json_t **reports = xcalloc(n, sizeof *reports);
	for (size_t i = 0; i < n; i++) {
		struct bm_report r;
		char *err = NULL;
		if (import_file(f, files[i], &r, &err)) {
			log_error("%s", err);
			free(err);
			while (i > 0)
				json_decref(reports[--i]);
			free(reports);
			return NULL;
		}
		reports[i] = report_to_json(&r);
		report_release(&r);
	}
	return reports;
}

/* Fills report r's context and sends it; spools it when no try got
 * through.  path names it in messages. */
static enum outcome upload_report(const struct options *o, const struct bm_context *ctx, json_t *r,
				  const char *path)
{
	context_apply(ctx, r);
	enum outcome out = send_report(o, o->server, o->project, r, path);
	if (out == SPOOLED) {
		char *dir = spool_dir(o->spool), *where = NULL, *err = NULL;
		if (spool_put(dir, o->server, o->project, r, &where, &err)) {
			log_error("%s: not sent, and cannot be spooled either: %s", path, err);
			free(err);
			out = FAILED;
		} else {
			log_error("%s: not sent; kept as '%s' (send it later with: bm-upload --flush)", path, where);
			free(where);
		}
		free(dir);
	}
	return out;
}

static int flush(const struct options *o)
{
	char *dir = spool_dir(o->spool), *err = NULL;
	char **list = spool_list(dir, &err);
	if (!list) {
		log_error("%s", err);
		free(err);
		free(dir);
		return 2;
	}
	int worst = STORED;
	size_t sent = 0, total = 0;
	for (char **p = list; *p; p++) {
		json_t *entry, *report;
		const char *server, *project;
		if (spool_partial(*p)) {
			log_warn("'%s' is a report still being spooled (or left half-written by a bm-upload that was "
				 "killed): not sent; delete it if no bm-upload is running",
				 *p);
			continue;
		}
		total++;
		if (spool_read(*p, &entry, &server, &project, &report, &err)) {
			log_error("%s: not sent: %s", *p, err);
			free(err);
			err = NULL;
			worst = FAILED;
			continue;
		}
		enum outcome out = send_report(o, server, project, report, *p);
		if (out == STORED) {
			sent++;
			if (unlink(*p))
				log_warn("sent, but cannot remove '%s': %s", *p, strerror(errno));
		} else if (out == FAILED) {
			log_error("%s: the server refused it; it stays in the spool (fix the cause, or delete it)", *p);
		}
		if ((int)out > worst)
			worst = out;
		json_decref(entry);
	}
	fprintf(stderr, "%s: sent %zu of %zu spooled reports from '%s'\n", log_progname(), sent, total, dir);
	spool_list_free(list);
	free(dir);
	return worst;
}

int main(int argc, char **argv)
{
	log_take_progname(argv);
	static const struct option longopts[] = {
		{"server", required_argument, NULL, 's'},      {"project", required_argument, NULL, 'p'},
		{"token", required_argument, NULL, 't'},       {"branch", required_argument, NULL, 'b'},
		{"commit", required_argument, NULL, 'c'},      {"commit-time", required_argument, NULL, 'T'},
		{"pr", required_argument, NULL, 'r'},          {"base-branch", required_argument, NULL, 'B'},
		{"spool", required_argument, NULL, 'S'},       {"flush", no_argument, NULL, 'f'},
		{"tries", required_argument, NULL, 'n'},       {"timeout", required_argument, NULL, 'o'},
		{"insecure", no_argument, NULL, 'k'},          {"quiet", no_argument, NULL, 'q'},
		{"from", required_argument, NULL, 'F'},        {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},          {"merge-base", required_argument, NULL, 'M'},
		{NULL, 0, NULL, 0},
	};
	struct options o = {.server = getenv("BM_SERVER"), .project = getenv("BM_PROJECT"), .token = getenv("BM_TOKEN")};
	int opt;
	while ((opt = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': o.server = optarg; break;
		case 'p': o.project = optarg; break;
		case 't': o.token = optarg; break;
		case 'b': o.context.branch = optarg; break;
		case 'c': o.context.commit = optarg; break;
		case 'T': o.context.commit_time = optarg; break;
		case 'r': o.context.pr = number("--pr", "a number", optarg, 1, 1LL << 40); break;
		case 'B': o.context.base_branch = optarg; break;
		case 'M': o.context.merge_base = optarg; break;
		case 'S': o.spool = optarg; break;
		case 'f': o.flush = 1; break;
		case 'n': o.http.tries = (unsigned)number("--tries", "a number", optarg, 1, 100); break;
		case 'o': o.http.timeout_s = number("--timeout", "seconds", optarg, 1, 3600); break;
		case 'k': o.http.insecure = 1; break;
		case 'q': o.http.quiet = 1; break;
		case 'F':
			if (!(o.from = import_find(optarg))) {
				log_error("unknown format '%s'", optarg);
				usage(stderr);
				return 2;
			}
			break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("bm-upload %s\n", PACKAGE_VERSION); return 0;
		default: return usage_error("bad option");
		}
	}
	char *bad = NULL;
	if (http_token_check(o.token, "--token or BM_TOKEN", &bad)) {
		log_error("%s", bad);
		free(bad);
		return 2;
	}
	if (o.http.insecure)
		log_warn("--insecure: the server's TLS certificate is NOT verified; anyone between here and it can read "
			 "the token and change the answers");
	o.http.token = o.token;
	http_client_global_init();
	if (o.flush) {
		if (optind != argc || o.from)
			return usage_error("--flush takes no report files (nor --from)");
		return flush(&o);
	}
	if (optind == argc)
		return usage_error("no report to upload");
	if (!o.server || !*o.server)
		return usage_error("no server: give --server URL or set BM_SERVER");
	if (!o.project || !*o.project)
		return usage_error("no project: give --project NAME or set BM_PROJECT");
	if (!o.token || !*o.token)
		return usage_error("no token: give --token T or set BM_TOKEN (bm-server project create prints one)");
	for (int i = optind; i < argc; i++)
		if ((!o.from || strcmp(argv[i], "-")) && access(argv[i], R_OK)) {
			log_error("cannot open '%s': %s", argv[i], strerror(errno));
			return 2;
		}
	json_t **imported = NULL;
	if (o.from && !(imported = import_all(o.from, argv + optind, (size_t)(argc - optind))))
		return 2;
	struct bm_context ctx;
	char *err = NULL;
	if (context_detect(&o.context, &ctx, &err)) {
		log_error("%s", err);
		free(err);
		for (int i = optind; imported && i < argc; i++)
			json_decref(imported[i - optind]);
		free(imported);
		return 2;
	}
	int worst = STORED;
	for (int i = optind; i < argc; i++) {
		json_t *r = imported ? imported[i - optind] : load_report(argv[i]);
		enum outcome out = r ? upload_report(&o, &ctx, r, argv[i]) : FAILED;
		json_decref(r);
		if ((int)out > worst)
			worst = out;
	}
	free(imported);
	report_context_release(&ctx);
	return worst;
}
