/* SPDX-License-Identifier: MIT */
/* bm-server: stores uploaded reports, answers the JSON API and serves the
 * web dashboard.
 *
 *   bm-server [--db DB] serve [--listen HOST:PORT] [--threads N] [--max-body BYTES] [--public-url URL]
 *                             [--merge-rows N] [--web DIR]
 *   bm-server [--db DB] project create NAME
 *   bm-server [--db DB] token create PROJECT [--admin]
 *   bm-server migrate --from DB --to DB
 *
 * Sub-commands are one table; each is a function taking its arguments. */
#include "config.h"

#include "api.h"
#include "error.h"
#include "http.h"
#include "number.h"
#include "web.h"
#include "store.h"
#include "utf8.h"
#include "xalloc.h"

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_DB "bm.db"
#define DEFAULT_LISTEN "127.0.0.1:8080"
#define DEFAULT_MAX_BODY (32u << 20)
#define DEFAULT_MAX_BENCHMARKS 20000
#define DEFAULT_PER_ADDRESS 64
#define DEFAULT_REQUEST_SECONDS 120

static const char usage_text[] =
	"usage: bm-server [--db DB] COMMAND\n"
	"\n"
	"  serve [--listen HOST:PORT] [--threads N] [--max-body BYTES] [--max-benchmarks N]\n"
	"        [--per-address N] [--request-timeout SECONDS] [--public-url URL] [--merge-rows N] [--web DIR]\n"
	"                              serve the API and the dashboard (default " DEFAULT_LISTEN "; port 0: any\n"
	"                              free port; the dashboard's files from DIR, default " BM_WEB_DIR ")\n"
	"  project create NAME         create a project; prints its upload token\n"
	"  token create PROJECT [--admin]\n"
	"                              another upload (or admin) token for PROJECT\n"
	"  migrate --from DB --to DB   copy a SQLite database into a new, empty PostgreSQL one\n"
	"\n"
	"  --db DB     the database: a SQLite file (PATH or sqlite:PATH, created when missing;\n"
	"              default $BM_DB, else " DEFAULT_DB ") or a PostgreSQL one (postgresql://USER@HOST/NAME\n"
	"              or any libpq connection string; passwords from PGPASSWORD, ~/.pgpass or a\n"
	"              service file)\n"
	"Tokens are shown once; the server keeps only their hash.\n";

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("bm-server: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "bm-server: %s\n%s", msg, usage_text);
	return 2;
}

/* An option getopt refused: unknown, or missing its value. */
static int bad_option(const char *command, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof msg, "%s: unknown option, or one missing its value: '%s'", command, arg);
	return usage_error(msg);
}

static struct store *open_store(const char *db, const struct store_options *o)
{
	char *err = NULL;
	struct store *st = store_open(db, o, &err);
	if (!st) {
		fail("%s", err);
		free(err);
	}
	return st;
}

/* ---- serve ---- */

static int parse_listen(const char *spec, char **host, unsigned *port)
{
	const char *colon = strrchr(spec, ':');
	if (!colon || colon == spec)
		return -1;
	long long p;
	if (number_whole(colon + 1, 0, 65535, &p))
		return -1;
	size_t n = (size_t)(colon - spec);
	if (spec[0] == '[' && n >= 2 && spec[n - 1] == ']') /* [::1]:8080 */
		*host = xstrndup(spec + 1, n - 2);
	else
		*host = xstrndup(spec, n);
	*port = (unsigned)p;
	return 0;
}

/* An option's whole number from min to max: 0 and *out, or -1 after
 * saying why. */
static int option_number(const char *opt, const char *units, const char *arg, long long min, long long max,
			 long long *out)
{
	char *err = NULL;
	if (!number_option(opt, units, arg, min, max, out, &err))
		return 0;
	fail("%s", err);
	free(err);
	return -1;
}

static int cmd_serve(const char *db, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"listen", required_argument, NULL, 'l'},
		{"threads", required_argument, NULL, 't'},
		{"max-body", required_argument, NULL, 'm'},
		{"max-benchmarks", required_argument, NULL, 'b'},
		{"per-address", required_argument, NULL, 'a'},
		{"request-timeout", required_argument, NULL, 'T'},
		{"public-url", required_argument, NULL, 'u'},
		{"merge-rows", required_argument, NULL, 'r'},
		{"web", required_argument, NULL, 'w'},
		{NULL, 0, NULL, 0},
	};
	const char *listen = DEFAULT_LISTEN;
	/* Uploads wait on the disk more than on the CPU: more of them in
	 * flight share each commit (bench/server.sh: 4 threads per core beat 2). */
	long long threads = sysconf(_SC_NPROCESSORS_ONLN) * 4;
	struct server srv = {.routes = api_routes, .max_body = DEFAULT_MAX_BODY,
			     .max_benchmarks = DEFAULT_MAX_BENCHMARKS, .per_address = DEFAULT_PER_ADDRESS,
			     .request_seconds = DEFAULT_REQUEST_SECONDS, .web_dir = BM_WEB_DIR};
	long long merge_rows = STORE_DEFAULT_MERGE_ROWS;
	int opt;
	long long v;
	optind = 1;
	opterr = 0; /* (bad_option says it, as bm-server) */
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			listen = optarg;
			break;
		case 't':
			if (option_number("--threads", "a number", optarg, 1, 1024, &threads))
				return 2;
			break;
		case 'm':
			if (option_number("--max-body", "bytes", optarg, 1024, 1ll << 32, &v))
				return 2;
			srv.max_body = (size_t)v;
			break;
		case 'b':
			if (option_number("--max-benchmarks", "a number", optarg, 1, 1000000, &v))
				return 2;
			srv.max_benchmarks = (size_t)v;
			break;
		case 'a':
			if (option_number("--per-address", "a number", optarg, 0, 4096, &v))
				return 2;
			srv.per_address = (unsigned)v;
			break;
		case 'T':
			if (option_number("--request-timeout", "seconds", optarg, 1, 3600, &v))
				return 2;
			srv.request_seconds = (unsigned)v;
			break;
		case 'u':
			srv.public_url = optarg;
			break;
		case 'w':
			srv.web_dir = optarg;
			break;
		case 'r':
			if (option_number("--merge-rows", "a number", optarg, 0, 1000000, &merge_rows))
				return 2;
			break;
		default:
			return bad_option("serve", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return usage_error("serve takes no arguments besides its options");
	char *host;
	unsigned port, bound;
	if (parse_listen(listen, &host, &port))
		return fail("--listen needs HOST:PORT (such as 127.0.0.1:8080), not '%s'", listen);
	if (threads < 2)
		threads = 2;

	/* Signals are taken by sigwait below, in this thread only: block them
	 * before any other thread starts so that every thread inherits it. */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct store_options so = {.merge_rows = (size_t)merge_rows};
	if (!(srv.store = open_store(db, &so))) {
		free(host);
		return 2;
	}
	char *err = NULL;
	struct http_daemon *d = http_start(&srv, host, port, (unsigned)threads, &bound, &err);
	if (!d) {
		fail("%s", err);
		free(err);
		store_free(srv.store);
		free(host);
		return 2;
	}
	char *where = store_display(db);
	printf("bm-server: serving http://%s%s%s:%u/ (%s)\n", strchr(host, ':') ? "[" : "", host,
	       strchr(host, ':') ? "]" : "", bound, where);
	free(where);
	if (!web_present(srv.web_dir))
		fprintf(stderr, "bm-server: warning: no dashboard in '%s' (no index.html): serving the API only; "
				"give --web DIR or install bm\n", srv.web_dir);
	fflush(stdout);
	int sig;
	sigwait(&stop, &sig);
	fprintf(stderr, "bm-server: %s: finishing the requests in flight\n", sig == SIGINT ? "interrupted" : "terminated");
	http_stop(d);
	store_free(srv.store);
	free(host);
	return 0;
}

/* ---- project and token ---- */

/* 0 when name can be a project's; else says why and returns 2.  A name
 * is one path segment of every URL of the project (percent-encoded),
 * shown on pages and in terminals: UTF-8 text of 1 to 255 bytes, no
 * control or invisible character (error.h: bm_find_control), and not
 * '.' or '..', which clients and browsers take out of a path, so that
 * such a project could be made and never used. */
static int check_name(const char *name)
{
	char *shown = bm_escape_controls(name);
	int rc = 2;
	if (!*name || strlen(name) > 255 || !utf8_valid(name, strlen(name)))
		fail("project names are 1 to 255 bytes of UTF-8, not '%s'", shown);
	else if (bm_find_control(name))
		fail("project names have no control or invisible characters (a tab, a newline, an escape, a "
		     "bidirectional override...), not '%s'", shown);
	else if (!strcmp(name, ".") || !strcmp(name, ".."))
		fail("'%s' cannot be a project name: clients and browsers take '.' and '..' out of a URL's path "
		     "(/projects/./runs is /projects/runs)", shown);
	else
		rc = 0;
	free(shown);
	return rc;
}

/* Makes a token and prints it; -1 with *err set when it cannot. */
static int print_token(struct store *st, int64_t project, int admin, const char *name, const char *what,
		       char **err)
{
	char *token;
	if (store_token_create(st, project, admin, &token, err))
		return -1;
	fprintf(stderr, "bm-server: %s for project '%s' (shown once, keep it secret):\n", what, name);
	printf("%s\n", token);
	free(token);
	return 0;
}

static int cmd_project(const char *db, int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], "create"))
		return usage_error("usage: project create NAME");
	const char *name = argv[2];
	if (check_name(name))
		return 2;
	struct store *st = open_store(db, NULL);
	if (!st)
		return 2;
	char *err = NULL;
	struct project p;
	int rc = store_project_create(st, name, &err);
	if (rc == 0) {
		fail("project '%s' exists already (bm-server token create PROJECT gives another token)", name);
		rc = 1;
	} else if (rc < 0) {
		fail("%s", err);
		rc = 2;
	} else if (store_project_get(st, name, &p, &err) != 1 ||
		   print_token(st, p.id, 0, name, "project created; its upload token", &err)) {
		/* Two writes, not one: the project stays, and says how to
		 * get what the second did not make. */
		fail("project '%s' was created, but not its token (%s): bm-server token create %s makes one", name,
		     err ? err : "the new project cannot be read back", name);
		rc = 2;
	} else {
		rc = 0;
	}
	free(err);
	store_free(st);
	return rc;
}

static int cmd_token(const char *db, int argc, char **argv)
{
	int admin = argc == 4 && !strcmp(argv[3], "--admin");
	if ((argc != 3 && !admin) || strcmp(argv[1], "create"))
		return usage_error("usage: token create PROJECT [--admin]");
	struct store *st = open_store(db, NULL);
	if (!st)
		return 2;
	char *err = NULL;
	struct project p;
	int rc = store_project_get(st, argv[2], &p, &err);
	if (rc <= 0) {
		if (rc < 0)
			fail("%s", err);
		else
			fail("no project '%s' (create it with: bm-server project create NAME)", argv[2]);
		rc = 2;
	} else {
		rc = print_token(st, p.id, admin, argv[2], admin ? "admin token" : "upload token", &err) ? 2 : 0;
		if (rc)
			fail("%s", err);
	}
	free(err);
	store_free(st);
	return rc;
}

/* ---- migrate ---- */

static int cmd_migrate(const char *db, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"from", required_argument, NULL, 'f'},
		{"to", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	const char *from = NULL, *to = NULL;
	int opt;
	(void)db;
	optind = 1;
	opterr = 0; /* (bad_option says it, as bm-server) */
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'f')
			from = optarg;
		else if (opt == 't')
			to = optarg;
		else
			return bad_option("migrate", argv[optind - 1]);
	}
	if (!from || !to || optind != argc)
		return usage_error("usage: migrate --from sqlite:FILE --to postgresql://...");
	char *err = NULL, *src = store_display(from), *dst = store_display(to);
	int rc = 0;
	if (store_migrate(from, to, isatty(STDERR_FILENO), &err)) {
		fail("%s", err);
		rc = 2;
	} else {
		printf("bm-server: copied %s into %s\n", src, dst);
	}
	free(err);
	free(src);
	free(dst);
	return rc;
}

static const struct command {
	const char *name;
	int (*run)(const char *db, int argc, char **argv);
} commands[] = {
	{"serve", cmd_serve},
	{"project", cmd_project},
	{"token", cmd_token},
	{"migrate", cmd_migrate},
};

int main(int argc, char **argv)
{
	const char *db = getenv("BM_DB") && *getenv("BM_DB") ? getenv("BM_DB") : DEFAULT_DB;
	int i = 1;
	/* Past a file size limit (ulimit -f) a write fails with EFBIG, which
	 * the database reports like a full disk, instead of killing the
	 * server with every request in flight. */
	signal(SIGXFSZ, SIG_IGN);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			db = argv[++i];
		} else if (!strncmp(argv[i], "--db=", 5)) {
			db = argv[i] + 5;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("bm-server %s\n", PACKAGE_VERSION);
			return 0;
		} else {
			return fail("unknown option '%s' (see bm-server --help)", argv[i]);
		}
	}
	if (i == argc)
		return usage_error("no command");
	for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
		if (!strcmp(argv[i], commands[k].name))
			return commands[k].run(db, argc - i, argv + i);
	return fail("unknown command '%s' (see bm-server --help)", argv[i]);
}
