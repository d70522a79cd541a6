/* SPDX-License-Identifier: MIT */
/* HTTP on libcurl with retries: see http_client.h. */
#include "config.h"

#include "http_client.h"

#include "dynbuf.h"
#include "error.h"
#include "log.h"
#include "xalloc.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* A server may ask for a long pause (Retry-After), but not for ever. */
#define MAX_RETRY_AFTER_S 300

void http_client_global_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

int http_status_transient(long status)
{
	return status == 429 || (status >= 500 && status <= 599);
}

int http_status_redirect(long status)
{
	return status >= 300 && status <= 399;
}

int http_token_check(const char *token, const char *what, char **err)
{
	const char *bad = token ? bm_find_control(token) : NULL;
	if (!bad)
		return 0;
	return bm_error(err, "the token (%s) holds a control character (\\x%02x at byte %zu): a token is one line of "
			     "printable text; nothing was sent",
			what, (unsigned char)*bad, (size_t)(bad - token) + 1);
}

char *http_answer_error(const struct http_answer *ans)
{
	json_t *j = json_loads(ans->body ? ans->body : "", 0, NULL);
	const char *msg = json_string_value(json_object_get(j, "error"));
	char *text = bm_escape_controls(msg ? msg : ans->body ? ans->body : "");
	json_decref(j);
	return text;
}

char *http_redirect_text(const struct http_answer *ans)
{
	char *to = bm_escape_controls(ans->location);
	char *text = to ? xasprintf("the server answered %ld, a redirect to '%s', which is not followed (the token goes "
				    "to the server given, nowhere else): give the new address if it is the server's",
				    ans->status, to)
			: xasprintf("the server answered %ld, a redirect without a Location", ans->status);
	free(to);
	return text;
}

void http_answer_release(struct http_answer *ans)
{
	free(ans->body);
	free(ans->location);
	memset(ans, 0, sizeof *ans);
}

/* What one try collects. */
struct exchange {
	struct dynbuf body; /* at most HTTP_CLIENT_MAX_ANSWER */
	int too_large;
	long retry_after_s; /* -1: none given */
};

static size_t on_body(char *data, size_t size, size_t n, void *cls)
{
	struct exchange *x = cls;
	size_t len = size * n;
	if (dynbuf_add(&x->body, data, len)) {
		x->too_large = 1;
		return 0; /* curl stops with a write error */
	}
	return len;
}

static size_t on_header(char *data, size_t size, size_t n, void *cls)
{
	struct exchange *x = cls;
	size_t len = size * n;
	static const char name[] = "retry-after:";
	if (len > sizeof name && !strncasecmp(data, name, sizeof name - 1)) {
		char *end;
		long s = strtol(data + sizeof name - 1, &end, 10);
		/* Seconds only; an HTTP date falls back to our own backoff. */
		if (end != data + sizeof name - 1 && s >= 0)
			x->retry_after_s = s > MAX_RETRY_AFTER_S ? MAX_RETRY_AFTER_S : s;
	}
	return len;
}

/* size bytes at data, gzip-compressed into a new buffer. */
static int gzip(const char *data, size_t size, unsigned char **out, size_t *out_size)
{
	z_stream z = {0};
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	size_t alloc = deflateBound(&z, size) + 32;
	*out = xmalloc(alloc);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)size;
	z.next_out = *out;
	z.avail_out = (uInt)alloc;
	int rc = deflate(&z, Z_FINISH);
	*out_size = alloc - z.avail_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		return -1;
	}
	return 0;
}

/* The delay before try number next (2, 3, ...): exponential with +-50%
 * jitter, so that clients that failed together do not retry together. */
static unsigned delay_ms(const struct http_client_options *o, unsigned next)
{
	static unsigned seed;
	if (!seed)
		seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	unsigned base = o->backoff_ms ? o->backoff_ms : 500, max = o->max_backoff_ms ? o->max_backoff_ms : 30000;
	double d = base;
	for (unsigned i = 2; i < next && d < max; i++)
		d *= 2;
	if (d > max)
		d = max;
	return (unsigned)(d * (0.5 + (double)rand_r(&seed) / RAND_MAX));
}

static void pause_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) == -1)
		;
}

/* Where a redirect answer points (the caller owns it), or NULL. */
static char *redirect_of(CURL *curl, long status)
{
	char *to = NULL;
	if (!http_status_redirect(status) || curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &to) != CURLE_OK || !to)
		return NULL;
	return xstrdup(to);
}

/* One request with retries; body NULL for a GET. */
static int request(const char *url, const unsigned char *body, size_t size, int gzipped,
		   const struct http_client_options *o, struct http_answer *ans, char **err)
{
	memset(ans, 0, sizeof *ans);
	if (http_token_check(o->token, "Authorization", err))
		return -1;
	CURL *curl = curl_easy_init();
	if (!curl)
		return bm_error(err, "cannot start libcurl");
	struct curl_slist *headers = curl_slist_append(NULL, "Accept: application/json");
	char *auth = o->token ? xasprintf("Authorization: Bearer %s", o->token) : NULL;
	if (auth)
		headers = curl_slist_append(headers, auth);
	if (body) {
		headers = curl_slist_append(headers, "Content-Type: application/json");
		if (gzipped)
			headers = curl_slist_append(headers, "Content-Encoding: gzip");
		curl_easy_setopt(curl, CURLOPT_POST, 1L);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
	}
	char curl_err[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "bm/" PACKAGE_VERSION);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s > 0 ? o->connect_timeout_s : 10L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, o->timeout_s > 0 ? o->timeout_s : 60L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, o->insecure ? 0L : 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, o->insecure ? 0L : 2L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);

	unsigned tries = o->tries ? o->tries : 5;
	int rc = -1;
	for (unsigned t = 1; t <= tries; t++) {
		struct exchange x = {.body = DYNBUF_INIT(HTTP_CLIENT_MAX_ANSWER), .retry_after_s = -1};
		curl_easy_setopt(curl, CURLOPT_WRITEDATA, &x);
		curl_easy_setopt(curl, CURLOPT_HEADERDATA, &x);
		curl_err[0] = '\0';
		CURLcode cc = curl_easy_perform(curl);
		long status = 0;
		if (cc == CURLE_OK)
			curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
		if (x.too_large) {
			dynbuf_free(&x.body);
			rc = bm_error(err, "%s: the answer is over %u bytes", url, HTTP_CLIENT_MAX_ANSWER);
			break;
		}
		char *why = cc == CURLE_OK ? xasprintf("HTTP %ld", status)
					   : xasprintf("%s", curl_err[0] ? curl_err : curl_easy_strerror(cc));
		int again = t < tries && (cc != CURLE_OK ? cc != CURLE_SSL_CACERT && cc != CURLE_PEER_FAILED_VERIFICATION &&
								   cc != CURLE_UNSUPPORTED_PROTOCOL && cc != CURLE_URL_MALFORMAT
							 : http_status_transient(status));
		if (!again) {
			if (cc == CURLE_OK) {
				ans->status = status;
				char *answer = dynbuf_detach(&x.body, &ans->size);
				ans->body = answer ? answer : xstrdup("");
				ans->location = redirect_of(curl, status);
				rc = 0;
			} else {
				dynbuf_free(&x.body);
				rc = bm_error(err, "no answer from %s: %s", url, why);
			}
			free(why);
			break;
		}
		unsigned ms = x.retry_after_s >= 0 ? (unsigned)x.retry_after_s * 1000 : delay_ms(o, t + 1);
		if (!o->quiet)
			log_warn("%s from %s; retrying in %.1f s (try %u of %u)", why, url, ms / 1000.0, t + 1, tries);
		free(why);
		dynbuf_free(&x.body);
		pause_ms(ms);
	}
	curl_slist_free_all(headers);
	free(auth);
	curl_easy_cleanup(curl);
	return rc;
}

int http_client_get(const char *url, const struct http_client_options *o, struct http_answer *ans, char **err)
{
	return request(url, NULL, 0, 0, o, ans, err);
}

int http_client_post_json(const char *url, const char *body, size_t size, const struct http_client_options *o,
			  struct http_answer *ans, char **err)
{
	unsigned char *packed;
	size_t packed_size;
	if (gzip(body, size, &packed, &packed_size)) {
		memset(ans, 0, sizeof *ans);
		return bm_error(err, "cannot gzip the request body");
	}
	int rc = request(url, packed, packed_size, 1, o, ans, err);
	free(packed);
	return rc;
}
