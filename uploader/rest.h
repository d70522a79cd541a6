/* SPDX-License-Identifier: MIT */
/* One request to a code host's REST API (GitHub's, GitLab's): a JSON body
 * or none, the headers given, 10 s timeouts, no retries (a CI step's own
 * result stands when the host is down; the step says why).  libcurl. */
#ifndef BM_REST_H
#define BM_REST_H

#include <stddef.h>

/* Largest answer kept; a longer one is an error (a page of comments is far
 * smaller). */
#define REST_MAX_ANSWER (8u << 20)

struct rest_answer {
	long status;
	char *body; /* NUL-terminated; the caller frees it */
	size_t size;
};

/* method ("GET", "POST", "PATCH", "PUT") url with headers (NULL-ended
 * "Name: value" strings) and body (JSON, or NULL).  Returns 0 with *ans
 * when an answer came, whatever its status, or -1 with *err. */
int rest_request(const char *method, const char *url, const char *const *headers, const char *body,
		 struct rest_answer *ans, char **err);

/* The host's message of an error answer ("message", else the text), cut
 * to 300 bytes, its control characters escaped (bm_escape_controls). */
char *rest_error_text(const struct rest_answer *ans);

#endif
