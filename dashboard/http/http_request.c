/* SPDX-License-Identifier: MIT */
/* What a handler reads of its request (body, query, headers, path ids)
 * and how it answers (http.h). */
#include "config.h"

#include "http_request.h"

#include "number.h"
#include "xalloc.h"

#include <limits.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *http_call_own(struct call *c, char *s)
{
	xgrow(&c->owned, &c->owned_alloc, c->nowned + 1, sizeof *c->owned);
	c->owned[c->nowned++] = s;
	return s;
}

/* Empties res of any answer set before. */
void http_response_clear(struct response *res)
{
	json_decref(res->body);
	res->body = NULL;
	free(res->text);
	res->text = NULL;
}

void http_error(struct response *res, unsigned status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	http_response_clear(res);
	res->status = status;
	/* A message quoting a name with invalid UTF-8 cannot be a JSON string. */
	json_t *text = msg ? json_string(msg) : NULL;
	res->body = json_pack("{s:o}", "error", text ? text : json_string("the error message is not valid UTF-8"));
	free(msg);
}

void http_json(struct response *res, unsigned status, json_t *body)
{
	http_response_clear(res);
	res->status = status;
	res->body = body;
}

void http_json_text(struct response *res, unsigned status, char *text, size_t len)
{
	http_response_clear(res);
	res->status = status;
	res->text = text;
	res->text_len = len;
}

static int hex(int ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* Percent-decodes s (with '+' as a space when plus is set) into a new
 * string, or returns NULL for a bad escape or an encoded NUL. */
char *http_decode(const char *s, int plus)
{
	size_t n = strlen(s), k = 0;
	char *out = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%') {
			int hi = i + 2 < n ? hex((unsigned char)s[i + 1]) : -1;
			int lo = hi >= 0 ? hex((unsigned char)s[i + 2]) : -1;
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
				free(out);
				return NULL;
			}
			out[k++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			out[k++] = plus && s[i] == '+' ? ' ' : s[i];
		}
	}
	out[k] = '\0';
	return out;
}

json_t *http_body_json(struct request *req, struct response *res)
{
	json_error_t jerr;
	json_t *j = json_loadb(req->body, req->body_size, JSON_REJECT_DUPLICATES, &jerr);
	if (!j)
		http_error(res, 400, "malformed JSON at line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
	return j;
}

const char *http_query(struct request *req, const char *key)
{
	struct call *c = req->internal;
	for (size_t i = 0; i < c->nquery; i++)
		if (!strcmp(c->query[i].name, key))
			return c->query[i].value;
	return NULL;
}

int http_query_int(struct request *req, struct response *res, const char *key, long long min, long long max,
		   long long *out)
{
	const char *v = http_query(req, key);
	if (!v)
		return 0;
	/* Never clamped: out of range is refused. */
	if (number_whole(v, min, max, out)) {
		http_error(res, 400, "%s: expected an integer from %lld to %lld, not '%s'", key, min, max, v);
		return -1;
	}
	return 1;
}

int http_query_real(struct request *req, struct response *res, const char *key, double min, double max,
		    double *out)
{
	const char *v = http_query(req, key);
	if (!v)
		return 0;
	if (number_real(v, min, max, out)) {
		http_error(res, 400, "%s: expected a number from %g to %g, not '%s'", key, min, max, v);
		return -1;
	}
	return 1;
}

const char *http_header(struct request *req, const char *name)
{
	struct call *c = req->internal;
	return MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND, name);
}

const char *http_base_url(struct request *req)
{
	if (req->server->public_url)
		return req->server->public_url;
	const char *host = http_header(req, "Host");
	return http_call_own(req->internal, xasprintf("http://%s", host ? host : "localhost"));
}

int http_param_id(struct request *req, struct response *res, int i, const char *what, long long *id)
{
	/* Never clamped: 99999999999999999999 is no id. */
	if (number_whole(req->param[i], 1, LLONG_MAX, id)) {
		http_error(res, 400, "expected %s id, not '%s'", what, req->param[i]);
		return -1;
	}
	return 0;
}
