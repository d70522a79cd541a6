/* SPDX-License-Identifier: MIT */
/* A project's tokens, for the settings page (admin only):
 *
 *   GET    /api/v1/projects/NAME/tokens       {"tokens": [{"id", "admin", "created_at"}]}
 *   POST   /api/v1/projects/NAME/tokens       {"admin": bool} -> 201 {"id", "admin", "token"}
 *   DELETE /api/v1/projects/NAME/tokens/ID    {"revoked": ID}
 *
 * A token is shown once, when it is made; only its hash is stored, so the
 * list names tokens by id and age. */
#include "config.h"

#include "api.h"

#include <stdlib.h>
#include <string.h>

void api_tokens_list(struct request *req, struct response *res)
{
	struct store_token *t;
	size_t n;
	char *err = NULL;
	if (store_token_list(req->server->store, req->project.id, &t, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		char when[REPORT_TIME_SIZE];
		json_array_append_new(a, json_pack("{s:I,s:b,s:s}", "id", (json_int_t)t[i].id, "admin", t[i].admin,
						   "created_at", report_format_rfc3339(when, (time_t)t[i].created_at)));
	}
	free(t);
	http_json(res, 200, json_pack("{s:o}", "tokens", a));
}

void api_tokens_create(struct request *req, struct response *res)
{
	json_t *j = req->body_size ? http_body_json(req, res) : json_object();
	if (!j)
		return;
	const json_t *admin = json_object_get(j, "admin");
	const char *key;
	json_t *v;
	int bad = !json_is_object(j) || (admin && !json_is_boolean(admin));
	json_object_foreach(j, key, v)
		bad |= strcmp(key, "admin") != 0;
	if (bad) {
		http_error(res, 400, "expected {\"admin\": true or false} (or no body: an upload token)");
		json_decref(j);
		return;
	}
	char *token, *err = NULL;
	int64_t id;
	if (store_token_create_id(req->server->store, req->project.id, json_is_true(admin), &token, &id, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
	} else {
		http_json(res, 201, json_pack("{s:I,s:b,s:s}", "id", (json_int_t)id, "admin", json_is_true(admin), "token",
					      token));
		free(token);
	}
	json_decref(j);
}

void api_tokens_delete(struct request *req, struct response *res)
{
	char *err = NULL;
	long long id;
	if (http_param_id(req, res, 1, "a token", &id))
		return;
	int rc = store_token_delete(req->server->store, req->project.id, id, &err);
	if (rc < 0)
		http_error(res, 500, "%s", err);
	else if (rc == 0)
		http_error(res, 404, "no token %lld in project '%s'", id, req->project_name);
	else
		http_json(res, 200, json_pack("{s:I}", "revoked", (json_int_t)id));
	free(err);
}
