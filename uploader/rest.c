/* SPDX-License-Identifier: MIT */
/* Requests to code hosts' REST APIs: see rest.h. */
#include "config.h"

#include "rest.h"

#include "dynbuf.h"
#include "error.h"
#include "xalloc.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct sink {
	struct dynbuf body; /* at most REST_MAX_ANSWER */
	int too_long;
};

static size_t on_body(char *data, size_t size, size_t n, void *cls)
{
	struct sink *s = cls;
	size_t len = size * n;
	if (dynbuf_add(&s->body, data, len)) {
		s->too_long = 1;
		return 0;
	}
	return len;
}

int rest_request(const char *method, const char *url, const char *const *headers, const char *body,
		 struct rest_answer *ans, char **err)
{
	*ans = (struct rest_answer){0};
	for (size_t i = 0; headers && headers[i]; i++)
		if (bm_find_control(headers[i])) /* a CR or LF would add a header of its own */
			return bm_error(err, "a header for %s holds a control character; nothing was sent", url);
	CURL *curl = curl_easy_init();
	if (!curl)
		return bm_error(err, "cannot prepare the request to %s", url);
	struct curl_slist *h = NULL;
	for (size_t i = 0; headers && headers[i]; i++)
		h = curl_slist_append(h, headers[i]);
	if (body)
		h = curl_slist_append(h, "Content-Type: application/json");
	struct sink s = {.body = DYNBUF_INIT(REST_MAX_ANSWER)};
	char curl_err[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "bm-check/" PACKAGE_VERSION); /* GitHub requires one */
	if (body) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	}
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &s);
	CURLcode cc = curl_easy_perform(curl);
	int rc = 0;
	if (s.too_long) {
		rc = bm_error(err, "the answer of %s is over %u bytes", url, REST_MAX_ANSWER);
	} else if (cc != CURLE_OK) {
		rc = bm_error(err, "no answer from %s: %s", url, curl_err[0] ? curl_err : curl_easy_strerror(cc));
	} else {
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &ans->status);
		ans->body = dynbuf_detach(&s.body, &ans->size);
		if (!ans->body)
			ans->body = xstrdup("");
	}
	if (rc) {
		dynbuf_free(&s.body);
		*ans = (struct rest_answer){0};
	}
	curl_slist_free_all(h);
	curl_easy_cleanup(curl);
	return rc;
}

char *rest_error_text(const struct rest_answer *ans)
{
	json_t *j = json_loads(ans->body ? ans->body : "", 0, NULL);
	const char *m = json_string_value(json_object_get(j, "message"));
	char *cut = xstrndup(m ? m : ans->body ? ans->body : "", 300), *text = bm_escape_controls(cut);
	free(cut);
	json_decref(j);
	return text;
}
