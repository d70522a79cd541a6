/* SPDX-License-Identifier: MIT */
/* bm-server's HTTP layer on libmicrohttpd: a thread pool, request bodies
 * gathered under a size limit (and gunzipped), the path split into
 * percent-decoded segments, routing through one table, the project and
 * its token checked before a handler runs, JSON answers.
 *
 * A handler fills a struct response: a status and a JSON body (errors are
 * {"error": "..."}).  Everything a request holds is freed after the
 * answer is sent. */
#ifndef BM_HTTP_H
#define BM_HTTP_H

#include "store.h"

#include <jansson.h>
#include <stddef.h>

struct route;

struct server {
	struct store *store;
	const struct route *routes; /* the API's table (api/routes.c), ended by a NULL method */
	size_t max_body;  /* bytes, after decompression too */
	size_t max_benchmarks; /* per uploaded report */
	unsigned per_address;  /* connections one client address may hold; 0: no limit */
	unsigned request_seconds; /* the longest a request may take, read and answered */
	char *public_url; /* base of report_url, or NULL: from the Host header */
	const char *web_dir; /* the dashboard's files (web.h) */
};

struct request {
	struct server *server;
	const char *method;
	char **segments; /* the path, split at '/' and percent-decoded */
	size_t nsegments;
	const char *param[4]; /* the segments that matched "*" in the route */
	struct project project; /* when the route is under /api/v1/projects/NAME */
	const char *project_name;
	int access;               /* what the request's token may do (enum access) */
	const char *body;         /* the request body (decompressed), NUL-terminated */
	size_t body_size;
	void *internal;
};

struct response {
	unsigned status;
	json_t *body; /* owned; sent as JSON */
	char *text;   /* owned; JSON text sent as it is, instead of body */
	size_t text_len;
};

typedef void (*handler_fn)(struct request *req, struct response *res);

struct route {
	const char *method;
	const char *path; /* such as "api/v1/projects/NAME/runs" with NAME as a star: a star matches one segment */
	int needs;        /* enum access the token must grant */
	handler_fn fn;
};

/* Sets res to status with {"error": message}. */
void http_error(struct response *res, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Sets res to status with body (a reference the response takes). */
void http_json(struct response *res, unsigned status, json_t *body);
/* Sets res to status with text, JSON written by the handler (the
 * response takes it). */
void http_json_text(struct response *res, unsigned status, char *text, size_t len);

/* The request body as JSON (a new reference), or NULL with res set to a
 * 400 that gives the position of the mistake. */
json_t *http_body_json(struct request *req, struct response *res);

/* The positive integer in path parameter i (such as a token's id) in
 * *id: decimal digits of a value up to 2^63 - 1; or -1 with res
 * answered 400 "expected WHAT id, not '...'" (never clamped). */
int http_param_id(struct request *req, struct response *res, int i, const char *what, long long *id);

/* The query parameter key, percent-decoded (owned by the request), or NULL.
 * Every parameter was checked before the handler ran (escapes, no NUL,
 * valid UTF-8; a 400 naming it otherwise), so a value is valid text. */
const char *http_query(struct request *req, const char *key);
/* The query parameter key as an integer from min to max in *out (decimal
 * digits only), or as a number from min to max: 1; 0 when it is absent
 * (*out unchanged); -1 with res answered 400 "KEY: expected ..." when it
 * is empty, not a number or out of range (never clamped). */
int http_query_int(struct request *req, struct response *res, const char *key, long long min, long long max,
		   long long *out);
int http_query_real(struct request *req, struct response *res, const char *key, double min, double max,
		    double *out);
/* The request header name, or NULL. */
const char *http_header(struct request *req, const char *name);
/* The base URL the client reached us at ("http://host:port"), for links;
 * owned by the request. */
const char *http_base_url(struct request *req);

struct http_daemon;
/* Starts serving on host:port (port 0: any free port) with threads
 * threads; *port_out is the port bound. */
struct http_daemon *http_start(struct server *srv, const char *host, unsigned port, unsigned threads,
			       unsigned *port_out, char **err);
/* Stops accepting, finishes the requests in flight (waiting at most
 * HTTP_DRAIN_SECONDS for them), frees d. */
#define HTTP_DRAIN_SECONDS 30
#define HTTP_DRAIN_GRACE 1.0
/* A connection with nothing sent or received for this long is closed. */
#define HTTP_IDLE_SECONDS 30
/* Connections at once, all clients together. */
#define HTTP_MAX_CONNECTIONS 4096
void http_stop(struct http_daemon *d);

#endif
