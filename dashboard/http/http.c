/* SPDX-License-Identifier: MIT */
/* The HTTP layer: see http.h. */
#include "config.h"

#include "http.h"

#include "dynbuf.h"
#include "error.h"
#include "http_request.h"
#include "http_watch.h"
#include "listen_drain.h"
#include "utf8.h"
#include "web.h"
#include "xalloc.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

struct http_daemon {
	struct MHD_Daemon *mhd;
	struct server *srv;
	struct http_watch *watch;
	int in_flight; /* requests begun and not completed (atomic) */
};

/* ---- answering ---- */

/* Set while the server drains at shutdown: every answer closes its
 * connection, so that a keep-alive client's next request finds the server
 * gone rather than a connection cut under it. */
static int draining;

/* A server error is the operator's to know of (a database that fails, a
 * disk that is full): one line on standard error, whatever the client
 * does with the answer. */
static void log_server_error(const char *method, const char *url, const struct response *res)
{
	const char *msg = json_string_value(json_object_get(res->body, "error"));
	char *m = bm_escape_controls(msg ? msg : "(no message)"), *u = bm_escape_controls(url);
	fprintf(stderr, "bm-server: %u %s %s: %s\n", res->status, method, u, m);
	free(m);
	free(u);
}

static enum MHD_Result send_response(struct MHD_Connection *conn, const char *method, const char *url,
				     struct response *res)
{
	if (!res->body && !res->text)
		http_error(res, 500, "the server produced no answer");
	if (res->status >= 500)
		log_server_error(method, url, res);
	char *text;
	size_t len;
	if (res->text) {
		text = res->text;
		len = res->text_len;
		res->text = NULL;
	} else {
		text = json_dumps(res->body, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(15));
		if (!text)
			text = xstrdup("{\"error\":\"the answer could not be written as JSON\"}");
		len = strlen(text);
	}
	text = xreallocarray(text, len + 2, 1);
	text[len++] = '\n';
	struct MHD_Response *r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(r, "Content-Type", "application/json; charset=utf-8");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (res->status == 401)
		MHD_add_response_header(r, "WWW-Authenticate", "Bearer");
	if (__atomic_load_n(&draining, __ATOMIC_SEQ_CST))
		MHD_add_response_header(r, "Connection", "close");
	enum MHD_Result ok = MHD_queue_response(conn, res->status, r);
	MHD_destroy_response(r);
	http_response_clear(res);
	return ok;
}

/* ---- routing ---- */

static int split_path(struct call *c, const char *url)
{
	const char *p = url;
	while (*p == '/')
		p++;
	size_t alloc = 0;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *raw = xstrndup(p, n), *seg = http_decode(raw, 0);
		free(raw);
		if (!seg)
			return -1;
		xgrow(&c->req.segments, &alloc, c->req.nsegments + 1, sizeof *c->req.segments);
		c->req.segments[c->req.nsegments++] = seg;
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}

/* Whether the route's path matches the request's segments; fills param. */
static int path_matches(const char *path, struct request *req)
{
	size_t i = 0, nparam = 0;
	const char *p = path;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (i >= req->nsegments)
			return 0;
		if (n == 1 && *p == '*') {
			if (nparam < sizeof req->param / sizeof req->param[0])
				req->param[nparam++] = req->segments[i];
		} else if (strlen(req->segments[i]) != n || memcmp(req->segments[i], p, n)) {
			return 0;
		}
		i++;
		p += n;
		if (*p == '/')
			p++;
	}
	return i == req->nsegments;
}

static const char projects_prefix[] = "api/v1/projects/*";

struct query_check {
	struct call *c;
	struct response *res;
};

/* Every query parameter of an API request, decoded and checked here once
 * so that handlers can trust http_query: escapes that decode, no NUL, and
 * valid UTF-8 (a parameter may be quoted back in JSON, which holds nothing
 * else).  The first mistake answers res with a 400 naming the parameter. */
static enum MHD_Result check_query_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct query_check *q = cls;
	struct response *res = q->res;
	char *k = http_decode(key, 1), *v = value ? http_decode(value, 1) : NULL;
	(void)kind;
	if (!k || !utf8_valid(k, strlen(k)))
		http_error(res, 400, "a query parameter's name has a bad percent-escape, an encoded NUL or invalid UTF-8");
	else if (value && !v)
		http_error(res, 400, "%s: the query parameter has a bad percent-escape or an encoded NUL", k);
	else if (v && !utf8_valid(v, strlen(v)))
		http_error(res, 400, "%s: the query parameter is not valid UTF-8", k);
	if (res->body) {
		free(k);
		free(v);
		return MHD_NO;
	}
	struct call *c = q->c;
	if (!*k && !v) { /* an empty segment (?a=1&&b=2): no parameter */
		free(k);
		return MHD_YES;
	}
	xgrow(&c->query, &c->query_alloc, c->nquery + 1, sizeof *c->query);
	c->query[c->nquery++] = (struct query_param){http_call_own(c, k), v ? http_call_own(c, v) : NULL};
	return MHD_YES;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct query_param *const *)a)->name, (*(const struct query_param *const *)b)->name);
}

/* No parameter twice (?limit=1&limit=5): which one counts would be a
 * guess, and a proxy or cache in front may guess otherwise. */
static int check_once(struct call *c, struct response *res)
{
	const struct query_param **sorted = xcalloc(c->nquery + 1, sizeof *sorted);
	for (size_t i = 0; i < c->nquery; i++)
		sorted[i] = &c->query[i];
	qsort(sorted, c->nquery, sizeof *sorted, by_name);
	for (size_t i = 0, n; i < c->nquery && !res->body; i += n) {
		for (n = 1; i + n < c->nquery && !strcmp(sorted[i]->name, sorted[i + n]->name); n++)
			;
		if (n > 1)
			http_error(res, 400, "%s: the query parameter is given %zu times (give it once)",
				   sorted[i]->name, n);
	}
	free(sorted);
	return res->body != NULL;
}

static int check_query(struct call *c, struct response *res)
{
	struct query_check q = {c, res};
	MHD_get_connection_values(c->conn, MHD_GET_ARGUMENT_KIND, check_query_arg, &q);
	return res->body != NULL || check_once(c, res);
}

static enum MHD_Result count_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind, (void)value;
	*(int *)cls += !strcasecmp(key, "Content-Length");
	return MHD_YES;
}

/* How long the body is must be beyond doubt: a proxy in front of us and
 * we could otherwise split one stream into different requests (request
 * smuggling, RFC 9112 6.3).  Any second Content-Length, even an equal
 * one, and a Content-Length beside a Transfer-Encoding are a 400; then
 * the announced size against the limit. */
static int check_length(struct call *c, struct response *res)
{
	int n = 0;
	MHD_get_connection_values(c->conn, MHD_HEADER_KIND, count_length, &n);
	const char *length = http_header(&c->req, "Content-Length");
	if (n > 1)
		http_error(res, 400, "Content-Length: given %d times (send it once)", n);
	else if (length && http_header(&c->req, "Transfer-Encoding"))
		http_error(res, 400, "Content-Length: not allowed with Transfer-Encoding (send one of them)");
	else if (length && strtoull(length, NULL, 10) > c->req.server->max_body)
		http_error(res, 413, "the body is over the limit of %zu bytes", c->req.server->max_body);
	return res->body != NULL;
}

/* Routing, the project, the token and the announced size: everything
 * decided before the body arrives.  Returns 1 with res filled when the
 * request is answered already. */
static int begin(struct call *c, const char *url, const char *method, struct response *res)
{
	struct request *req = &c->req;
	char *err = NULL;
	req->method = method;
	if (split_path(c, url)) {
		http_error(res, 400, "the path has a bad percent-escape or an encoded NUL");
		return 1;
	}
	if (web_path(req->segments, req->nsegments)) {
		if (strcmp(method, "GET") && strcmp(method, "HEAD"))
			http_error(res, 405, "%s is not allowed on the dashboard's pages", method);
		else
			c->web = 1;
		return 1;
	}
	const struct route *any = NULL;
	for (const struct route *r = c->req.server->routes; r->method; r++) {
		if (!path_matches(r->path, req))
			continue;
		any = r;
		if (!strcmp(r->method, method)) {
			c->route = r;
			break;
		}
	}
	if (!c->route) {
		if (any)
			http_error(res, 405, "%s is not allowed on this path", method);
		else
			http_error(res, 404, "no such API path");
		return 1;
	}
	if (check_length(c, res) || check_query(c, res))
		return 1;
	if (!strncmp(c->route->path, projects_prefix, sizeof projects_prefix - 1)) {
		req->project_name = req->param[0];
		int found = store_project_get(req->server->store, req->project_name, &req->project, &err);
		if (found <= 0) {
			if (found < 0)
				http_error(res, 500, "%s", err);
			else
				http_error(res, 404, "no project '%s' (create it with: bm-server project create NAME)",
					   req->project_name);
			free(err);
			return 1;
		}
		const char *auth = http_header(req, "Authorization");
		if (auth && !strncmp(auth, "Bearer ", 7)) {
			req->access = store_token_access(req->server->store, req->project.id, auth + 7, &err);
			if (req->access < 0) {
				http_error(res, 500, "%s", err);
				free(err);
				return 1;
			}
		}
	}
	if (c->route->needs > ACCESS_NONE && req->access == ACCESS_NONE) {
		http_error(res, 401, "%s: send the project's token as 'Authorization: Bearer TOKEN'",
			   http_header(req, "Authorization") ? "the token is not valid for this project" : "no token");
		return 1;
	}
	if (c->route->needs > req->access) {
		http_error(res, 403, "this needs an admin token (bm-server token create PROJECT --admin)");
		return 1;
	}
	return 0;
}

/* Gunzips the body when it says Content-Encoding: gzip; 0, or an answer. */
static int decode_body(struct call *c, struct response *res)
{
	const char *enc = http_header(&c->req, "Content-Encoding");
	if (!enc || !strcmp(enc, "identity"))
		return 0;
	if (strcmp(enc, "gzip")) {
		http_error(res, 415, "Content-Encoding '%s' is not supported (send gzip or nothing)", enc);
		return -1;
	}
	z_stream z = {0};
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		http_error(res, 500, "cannot start gzip decoding");
		return -1;
	}
	size_t limit = c->req.server->max_body, alloc = c->body.len * 4 + 1024, n = 0;
	char *out = xmalloc(alloc + 1);
	z.next_in = (Bytef *)c->body.data;
	z.avail_in = (uInt)c->body.len;
	int rc;
	do {
		if (n == alloc) {
			if (alloc >= limit + 1)
				break;
			alloc = alloc * 2 > limit + 1 ? limit + 1 : alloc * 2;
			out = xreallocarray(out, alloc + 1, 1);
		}
		z.next_out = (Bytef *)out + n;
		z.avail_out = (uInt)(alloc - n);
		rc = inflate(&z, Z_NO_FLUSH);
		n = alloc - z.avail_out;
	} while (rc == Z_OK);
	inflateEnd(&z);
	if (n > limit) {
		free(out);
		http_error(res, 413, "the body is over the limit of %zu bytes once decompressed", limit);
		return -1;
	}
	if (rc != Z_STREAM_END || z.avail_in) {
		free(out);
		http_error(res, 400, "the body is not valid gzip");
		return -1;
	}
	dynbuf_reset(&c->body);
	dynbuf_add(&c->body, out, n); /* n <= limit: it fits */
	free(out);
	return 0;
}

/* A chunked body announces no size, and libmicrohttpd (0.9) lets us
 * answer only before a body or after all of it: the moment a body passes
 * the limit, the 413 is written to the socket here and the connection
 * dropped, the rest unread (a client could otherwise make us read
 * gigabytes for nothing).  libmicrohttpd logs the drop as "Application
 * reported internal error". */
static enum MHD_Result refuse_rest(struct MHD_Connection *conn, size_t limit)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	char *body = xasprintf("{\"error\":\"the body is over the limit of %zu bytes\"}\n", limit);
	char *text = xasprintf("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json; charset=utf-8\r\n"
			       "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n"
			       "Content-Length: %zu\r\n\r\n%s",
			       strlen(body), body);
	/* A few hundred bytes on a socket that has sent nothing yet: the
	 * send buffer takes them whole. */
	if (ci && send(ci->connect_fd, text, strlen(text), MSG_NOSIGNAL) >= 0)
		shutdown(ci->connect_fd, SHUT_WR);
	free(body);
	free(text);
	return MHD_NO;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *data, size_t *data_size, void **con_cls)
{
	struct http_daemon *d = cls;
	struct call *c = *con_cls;
	struct response res = {0};
	(void)version;
	if (!c) {
		c = xcalloc(1, sizeof *c);
		__atomic_add_fetch(&d->in_flight, 1, __ATOMIC_SEQ_CST);
		c->conn = conn;
		c->req.server = d->srv;
		c->req.internal = c;
		c->body = (struct dynbuf)DYNBUF_INIT(d->srv->max_body);
		*con_cls = c;
		if (begin(c, url, method, &res))
			return c->web ? web_serve(conn, d->srv->web_dir, c->req.segments, c->req.nsegments)
				      : send_response(conn, method, url, &res);
		return MHD_YES;
	}
	if (*data_size) {
		if (dynbuf_add(&c->body, data, *data_size))
			return refuse_rest(conn, d->srv->max_body);
		*data_size = 0;
		return MHD_YES;
	}
	if (decode_body(c, &res))
		return send_response(conn, method, url, &res);
	dynbuf_add(&c->body, "", 0); /* an empty body is "" too */
	c->req.body = c->body.data;
	c->req.body_size = c->body.len;
	c->route->fn(&c->req, &res);
	return send_response(conn, method, url, &res);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct http_daemon *d = cls;
	struct call *c = *con_cls;
	(void)toe;
	http_watch_answered(d->watch, conn);
	if (!c)
		return;
	__atomic_sub_fetch(&d->in_flight, 1, __ATOMIC_SEQ_CST);
	for (size_t i = 0; i < c->req.nsegments; i++)
		free(c->req.segments[i]);
	free(c->req.segments);
	for (size_t i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	free(c->query);
	dynbuf_free(&c->body);
	free(c);
	*con_cls = NULL;
}

/* The path reaches the handler raw: segments are decoded one by one, so
 * that a name may hold an encoded '/'. */
static size_t unescape_none(void *cls, struct MHD_Connection *conn, char *s)
{
	(void)cls, (void)conn;
	return strlen(s);
}

static void log_mhd(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void log_mhd(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fputs("bm-server: ", stderr);
	vfprintf(stderr, fmt, ap);
}

struct http_daemon *http_start(struct server *srv, const char *host, unsigned port, unsigned threads,
			       unsigned *port_out, char **err)
{
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	/* (MHD_USE_ITC: so that http_stop can stop accepting first.) */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		flags |= MHD_USE_IPv6;
	} else {
		bm_error(err, "cannot listen on '%s': not an IPv4 or IPv6 address", host);
		return NULL;
	}
	struct http_daemon *d = xcalloc(1, sizeof *d);
	d->srv = srv;
	d->watch = http_watch_start(srv->request_seconds);
	if (!d->watch) {
		bm_error(err, "cannot start the thread that watches connections");
		free(d);
		return NULL;
	}
	/* Idle connections close after HTTP_IDLE_SECONDS; one address holds
	 * at most srv->per_address (0: no limit, behind a proxy); every
	 * request is answered or cut within srv->request_seconds. */
	d->mhd = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, d, MHD_OPTION_EXTERNAL_LOGGER, log_mhd, d,
				  MHD_OPTION_SOCK_ADDR, &ss, MHD_OPTION_THREAD_POOL_SIZE, threads,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_SECONDS,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_MAX_CONNECTIONS,
				  MHD_OPTION_PER_IP_CONNECTION_LIMIT, srv->per_address, MHD_OPTION_LISTEN_BACKLOG_SIZE,
				  1024u, MHD_OPTION_NOTIFY_COMPLETED, on_completed, d, MHD_OPTION_NOTIFY_CONNECTION,
				  http_watch_notify, d->watch, MHD_OPTION_UNESCAPE_CALLBACK, unescape_none, d,
				  MHD_OPTION_END);
	if (!d->mhd) {
		bm_error(err, "cannot listen on %s port %u (in use, or not an address of this machine?)", host, port);
		http_watch_stop(d->watch);
		free(d);
		return NULL;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d->mhd, MHD_DAEMON_INFO_BIND_PORT);
	*port_out = info ? info->port : port;
	return d;
}

void http_stop(struct http_daemon *d)
{
	if (!d)
		return;
	/* Drain: no new connection; the requests in flight (an upload being
	 * committed) finish and are answered, and so do those of connections
	 * accepted in the last HTTP_DRAIN_GRACE seconds (or answered then:
	 * keep-alive), whose request may still be on its way, for at most
	 * HTTP_DRAIN_SECONDS.  Connections idle for longer are not waited for. */
	__atomic_store_n(&draining, 1, __ATOMIC_SEQ_CST);
	MHD_socket listen = MHD_quiesce_daemon(d->mhd);
	if (listen != MHD_INVALID_SOCKET)
		listen_drain(d->mhd, listen);
	struct timespec tick = {0, 10 * 1000 * 1000};
	for (int i = 0; i < HTTP_DRAIN_SECONDS * 100; i++) {
		double youngest = http_watch_youngest(d->watch);
		if (__atomic_load_n(&d->in_flight, __ATOMIC_SEQ_CST) == 0 &&
		    (youngest < 0 || youngest >= HTTP_DRAIN_GRACE))
			break;
		nanosleep(&tick, NULL);
	}
	MHD_stop_daemon(d->mhd);
	http_watch_stop(d->watch);
	free(d);
}
