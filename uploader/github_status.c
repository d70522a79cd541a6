/* Commit statuses on GitHub: see github_status.h. */
#include "config.h"

#include "github_status.h"

#include "error.h"
#include "xalloc.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The part of GitHub's answer kept for an error message. */
#define MAX_ANSWER 4096

struct answer {
	char text[MAX_ANSWER + 1];
	size_t size;
};

static size_t on_body(char *data, size_t size, size_t n, void *cls)
{
	struct answer *a = cls;
	size_t len = size * n, room = MAX_ANSWER - a->size;
	memcpy(a->text + a->size, data, len < room ? len : room);
	a->size += len < room ? len : room;
	a->text[a->size] = '\0';
	return len;
}

/* s cut to at most max bytes without splitting a UTF-8 sequence. */
static char *cut_utf8(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max)
		return xstrdup(s);
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return xstrndup(s, n);
}

static char *url_of(const struct github_status *s)
{
	const char *api = s->api_url;
	size_t n = strlen(api);
	while (n && api[n - 1] == '/')
		n--;
	return xasprintf("%.*s/repos/%s/statuses/%s", (int)n, api, s->repository, s->sha);
}

int github_status_post(const struct github_status *s, char **err)
{
	char *description = cut_utf8(s->description, GITHUB_STATUS_MAX_DESCRIPTION);
	json_t *j = json_pack("{s:s,s:s,s:s}", "state", s->state, "context", "bm", "description", description);
	if (s->target_url)
		json_object_set_new(j, "target_url", json_string(s->target_url));
	char *body = json_dumps(j, JSON_COMPACT), *url = url_of(s), *auth = xasprintf("Authorization: Bearer %s", s->token);
	json_decref(j);
	free(description);
	int rc = -1;
	CURL *curl = curl_easy_init();
	if (!curl || !body) {
		rc = bm_error(err, "cannot prepare the request to %s", url);
		goto out;
	}
	struct curl_slist *h = curl_slist_append(NULL, "Accept: application/vnd.github+json");
	h = curl_slist_append(h, "Content-Type: application/json");
	h = curl_slist_append(h, "X-GitHub-Api-Version: 2022-11-28");
	h = curl_slist_append(h, auth);
	struct answer a = {.size = 0};
	char curl_err[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "bm-check/" PACKAGE_VERSION); /* GitHub requires one */
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a);
	CURLcode cc = curl_easy_perform(curl);
	long status = 0;
	if (cc != CURLE_OK) {
		rc = bm_error(err, "no answer from %s: %s", url, curl_err[0] ? curl_err : curl_easy_strerror(cc));
	} else if (curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status), status != 201) {
		json_t *ans = json_loads(a.text, 0, NULL);
		const char *msg = json_string_value(json_object_get(ans, "message"));
		rc = bm_error(err, "GitHub answered %ld for %s: %s", status, url, msg ? msg : a.text);
		json_decref(ans);
	} else {
		rc = 0;
	}
	curl_slist_free_all(h);
out:
	curl_easy_cleanup(curl);
	free(auth);
	free(url);
	free(body);
	return rc;
}
