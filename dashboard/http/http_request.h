/* SPDX-License-Identifier: MIT */
/* Inside the HTTP layer: what one request holds between libmicrohttpd's
 * calls (http.c gathers and routes it, http_request.c answers a handler's
 * questions about it), and what both use. */
#ifndef BM_HTTP_REQUEST_H
#define BM_HTTP_REQUEST_H

#include "dynbuf.h"
#include "http.h"

#include <microhttpd.h>

/* What one request holds between libmicrohttpd's calls. */
struct call {
	struct request req;
	struct MHD_Connection *conn;
	const struct route *route;
	struct dynbuf body; /* at most the server's max_body */
	int web; /* a page or a file of the dashboard, not the API */
	char **owned; /* strings handed out by http_query and friends */
	size_t nowned, owned_alloc;
	/* The query, decoded once (http.c checks it): each parameter's name
	 * and value (NULL when it has none), strings in owned. */
	struct query_param {
		const char *name, *value;
	} *query;
	size_t nquery, query_alloc;
};

/* Keeps s (allocated) until the request is freed, and returns it. */
char *http_call_own(struct call *c, char *s);
/* Percent-decodes s (with '+' as a space when plus is set) into a new
 * string, or returns NULL for a bad escape or an encoded NUL. */
char *http_decode(const char *s, int plus);
/* Empties res of any answer set before. */
void http_response_clear(struct response *res);

#endif
