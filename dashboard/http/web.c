/* SPDX-License-Identifier: MIT */
/* Serving the dashboard's files: see web.h. */
#include "config.h"

#include "web.h"

#include "xalloc.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest path of a served file, dir included. */
#define WEB_MAX_PATH 4096

static const struct {
	const char *ext, *type;
} types[] = {
	{".html", "text/html; charset=utf-8"},
	{".js", "text/javascript; charset=utf-8"},
	{".mjs", "text/javascript; charset=utf-8"},
	{".css", "text/css; charset=utf-8"},
	{".json", "application/json; charset=utf-8"},
	{".svg", "image/svg+xml"},
	{".png", "image/png"},
	{".ico", "image/x-icon"},
	{".woff2", "font/woff2"},
	{".map", "application/json; charset=utf-8"},
};

static const char *content_type(const char *path)
{
	const char *dot = strrchr(path, '.');
	for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
		if (!strcmp(dot, types[i].ext))
			return types[i].type;
	return NULL;
}

int web_path(char *const *segments, size_t n)
{
	return n == 0 || !strcmp(segments[0], "static") || !strcmp(segments[0], "projects");
}

int web_present(const char *dir)
{
	char *index = xasprintf("%s/index.html", dir);
	int ok = access(index, R_OK) == 0;
	free(index);
	return ok;
}

static void add_headers(struct MHD_Response *r, const char *type, const char *cache)
{
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", cache);
	MHD_add_response_header(r, "Content-Security-Policy", WEB_CSP);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Referrer-Policy", "same-origin");
}

/* A 404 with text, which it takes. */
static enum MHD_Result not_found(struct MHD_Connection *conn, char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
	add_headers(r, "text/plain; charset=utf-8", "no-store");
	enum MHD_Result ok = MHD_queue_response(conn, 404, r);
	MHD_destroy_response(r);
	return ok;
}

/* Copies s to p, returning the end (no terminator). */
static char *put(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* dir/segments..., or NULL when a segment could leave dir or the path
 * is too long. */
static char *file_path(const char *dir, char *const *segments, size_t n)
{
	size_t len = strlen(dir);
	for (size_t i = 0; i < n; i++) {
		if (!*segments[i] || segments[i][0] == '.' || strchr(segments[i], '/'))
			return NULL;
		len += strlen(segments[i]) + 1;
	}
	if (len >= WEB_MAX_PATH)
		return NULL;
	char *path = xmalloc(len + 1), *p = put(path, dir);
	for (size_t i = 0; i < n; i++)
		p = put(put(p, "/"), segments[i]);
	*p = '\0';
	return path;
}

/* The message of a 404 for /static/...: the request's own path, rebuilt
 * from its segments (never from a file path, which may be dir alone). */
static char *no_such_file(char *const *segments, size_t n)
{
	size_t len = sizeof "no such file: \n";
	for (size_t i = 0; i < n; i++)
		len += strlen(segments[i]) + 1;
	char *text = xmalloc(len), *p = put(text, "no such file: ");
	for (size_t i = 0; i < n; i++)
		p = put(put(p, "/"), segments[i]);
	memcpy(p, "\n", 2);
	return text;
}

enum MHD_Result web_serve(struct MHD_Connection *conn, const char *dir, char *const *segments, size_t n)
{
	int is_static = n > 0 && !strcmp(segments[0], "static");
	static char *const index[] = {"index.html"};
	char *path = is_static ? file_path(dir, segments + 1, n - 1) : file_path(dir, index, 1);
	const char *type = path ? content_type(path) : NULL;
	int fd = type ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		enum MHD_Result ok =
			not_found(conn, is_static ? no_such_file(segments, n)
						  : xasprintf("the dashboard's files are not in '%s': install bm (make "
							      "install) or start the server with --web DIR\n",
							      dir));
		free(path);
		return ok;
	}
	free(path);
	/* The response owns fd and closes it. */
	struct MHD_Response *r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
	int vendor = is_static && n > 1 && !strcmp(segments[1], "vendor");
	add_headers(r, type, vendor ? "public, max-age=86400" : "no-cache");
	enum MHD_Result ok = MHD_queue_response(conn, 200, r);
	MHD_destroy_response(r);
	return ok;
}
