/* SPDX-License-Identifier: MIT */
/* HTTP for bm-upload and bm-check, on libcurl: TLS verification on unless
 * asked otherwise, connect and total timeouts, and retries with
 * exponential backoff and jitter on what may pass (no answer, 5xx, 429,
 * whose Retry-After is honoured).  A 4xx other than 429 is final at once;
 * so is a 3xx, which is never followed (the token would go with it).
 *
 * Call http_client_global_init() once in main() before any thread
 * starts. */
#ifndef BM_HTTP_CLIENT_H
#define BM_HTTP_CLIENT_H

#include <stddef.h>

struct http_client_options {
	const char *token;        /* sent as "Authorization: Bearer TOKEN", or NULL */
	int insecure;             /* 1: no TLS certificate or host verification */
	long connect_timeout_s;   /* 0: 10 */
	long timeout_s;           /* the whole request; 0: 60 */
	unsigned tries;           /* 0: 5 */
	unsigned backoff_ms;      /* the first retry's delay; 0: 500; doubled each try, +-50% jitter */
	unsigned max_backoff_ms;  /* 0: 30000 */
	int quiet;                /* 1: no "retrying" lines on stderr */
};

struct http_answer {
	long status;    /* the HTTP status */
	char *body;     /* NUL-terminated (the caller frees it with http_answer_release) */
	size_t size;
	char *location; /* a 3xx's Location, absolute, or NULL; never followed */
};

/* Largest answer body read; a longer one is an error. */
#define HTTP_CLIENT_MAX_ANSWER (64u << 20)

void http_client_global_init(void);

/* GETs url.  Returns 0 with *ans filled when an answer came (whatever its
 * status: after the last try it may still be a 5xx or 429), or -1 with
 * *err when none came (connection refused, timeout, TLS failure...). */
int http_client_get(const char *url, const struct http_client_options *o, struct http_answer *ans, char **err);

/* POSTs size bytes of JSON at body, gzip-compressed, to url; returns as
 * http_client_get. */
int http_client_post_json(const char *url, const char *body, size_t size, const struct http_client_options *o,
			  struct http_answer *ans, char **err);

/* 0 when token may be sent in a header; else -1 with *err naming it by
 * what ("--token or BM_TOKEN"): a control character (a CR or LF ends the
 * header and starts one of the sender's choosing) is refused before any
 * request is made. */
int http_token_check(const char *token, const char *what, char **err);

/* Whether an answer is a redirect (3xx).  Redirects are never followed:
 * the token would go wherever the Location says. */
int http_status_redirect(long status);

/* The server's message in an error answer: its JSON "error" string, else
 * the whole body, with control characters escaped (bm_escape_controls)
 * so that it prints as it came but cannot drive a terminal.  The caller
 * owns it. */
char *http_answer_error(const struct http_answer *ans);

/* What a redirect answer means, for a message: "the server answered 307,
 * a redirect to 'URL', which is not followed: ...".  The caller owns it. */
char *http_redirect_text(const struct http_answer *ans);

/* Whether an answer's status is worth another try later (5xx, 429). */
int http_status_transient(long status);

void http_answer_release(struct http_answer *ans);

#endif
