/* SPDX-License-Identifier: MIT */
/* Commit statuses on GitHub: see github_status.h. */
#include "config.h"

#include "github_status.h"

#include "error.h"
#include "rest.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

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
	json_t *j = json_pack("{s:s,s:s,s:s}", "state", s->state, "context",
				 s->context ? s->context : "bm", "description", description);
	if (s->target_url)
		json_object_set_new(j, "target_url", json_string(s->target_url));
	char *body = json_dumps(j, JSON_COMPACT), *url = url_of(s), *auth = xasprintf("Authorization: Bearer %s", s->token);
	json_decref(j);
	free(description);
	const char *headers[] = {"Accept: application/vnd.github+json", "X-GitHub-Api-Version: 2022-11-28", auth, NULL};
	struct rest_answer ans = {0};
	int rc = body ? rest_request("POST", url, headers, body, &ans, err)
		      : bm_error(err, "cannot prepare the request to %s", url);
	if (!rc && ans.status != 201) {
		char *msg = rest_error_text(&ans);
		rc = bm_error(err, "GitHub answered %ld for %s: %s", ans.status, url, msg);
		free(msg);
	}
	free(ans.body);
	free(auth);
	free(url);
	free(body);
	return rc;
}
