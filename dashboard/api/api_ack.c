/* SPDX-License-Identifier: MIT */
/* Acknowledged regressions (SPEC 4.1): someone says a regression is
 * expected, and why; the check then passes and shows the note.
 *
 *   POST   /api/v1/projects/NAME/commits/SHA/acknowledgements[?pr=N][&run=ID]
 *          {"benchmark": ID, "by": WHO, "reason": WHY}  (any project token)
 *          -> 201 {"id", "benchmark", "commit", "pr", "impact", "by", "reason", "at"}
 *   GET    /api/v1/projects/NAME/acknowledgements    {"acknowledgements": [...]} newest first
 *   DELETE /api/v1/projects/NAME/acknowledgements/ID (admin) {"withdrawn": ID}
 *
 * With ?pr=N the acknowledgement holds for every report of that pull
 * request (each push makes a new merge commit); without, for the commit's
 * own report.  The benchmark is looked up in the report that GET .../report
 * with the same parameters answers (?run= picks one of several platforms'
 * or models' reports).  Only a benchmark slower than its baseline can be
 * acknowledged, and the impact it had then is kept: commit_report.h. */
#include "config.h"

#include "api.h"

#include "ack_json.h"

#include "commit_report.h"
#include "fmt.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ACK_BY_MAX 200
#define ACK_REASON_MAX 4000

/* text as a field of at most max bytes with something in it; or NULL
 * with res answered. */
static const char *text_field(const json_t *j, const char *key, size_t max, struct response *res)
{
	const json_t *v = json_object_get(j, key);
	const char *s = json_string_value(v);
	if (!s || !*s || json_string_length(v) > max || strlen(s) != json_string_length(v)) {
		http_error(res, 400, "%s: expected a non-empty string of at most %zu bytes", key, max);
		return NULL;
	}
	return s;
}

/* The benchmark's row in the report, or NULL. */
static const struct comparison_row *row_of(const struct commit_report *cr, const char *id)
{
	for (size_t i = 0; i < cr->cmp.nrows; i++)
		if (cr->cmp.rows[i].in_head && !strcmp(cr->cmp.rows[i].id, id))
			return &cr->cmp.rows[i];
	return NULL;
}

static void add(struct request *req, struct response *res, const json_t *j, struct commit_report *cr)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)j, key, v)
	{
		if (strcmp(key, "benchmark") && strcmp(key, "by") && strcmp(key, "reason")) {
			http_error(res, 400, "unknown field '%s' (benchmark, by, reason)", key);
			return;
		}
	}
	const char *id = json_string_value(json_object_get(j, "benchmark")), *by, *reason;
	if (!id) {
		http_error(res, 400, "benchmark: expected the id of a benchmark of this commit");
		return;
	}
	if (!(by = text_field(j, "by", ACK_BY_MAX, res)) || !(reason = text_field(j, "reason", ACK_REASON_MAX, res)))
		return;
	const struct comparison_row *r = row_of(cr, id);
	if (!r) {
		http_error(res, 404, "commit '%s' has no benchmark '%s'", cr->head.sha, id);
		return;
	}
	if (!r->has_impact) {
		http_error(res, 409, "'%s' has no impact to acknowledge (%s)", id,
			   r->status == BM_STATUS_FAILED ? "it failed: a crash cannot be acknowledged, only fixed"
			   : !cr->base.found	       ? "there is no baseline"
							: "its baseline has no result for it");
		return;
	}
	if (r->impact >= 0) {
		char pct[FMT_SIZE];
		http_error(res, 409, "'%s' is not slower than its baseline (impact %s): nothing to acknowledge", id,
			   fmt_percent(pct, r->impact));
		return;
	}
	struct store_ack a = {.benchmark = (char *)id,
			      .sha = cr->head.sha,
			      .pr = cr->head.pr,
			      .impact = r->impact,
			      .by = (char *)by,
			      .reason = (char *)reason,
			      .created_at = (int64_t)time(NULL)};
	char *err = NULL;
	if (store_ack_add(req->server->store, req->project.id, &a, &a.id, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	http_json(res, 201, ack_json(&a));
}

void api_ack_create(struct request *req, struct response *res)
{
	json_t *j = http_body_json(req, res);
	if (!j)
		return;
	if (!json_is_object(j)) {
		http_error(res, 400, "expected {\"benchmark\": ID, \"by\": WHO, \"reason\": WHY}");
		json_decref(j);
		return;
	}
	struct commit_report cr;
	if (!commit_report_open(req, res, &cr)) {
		add(req, res, j, &cr);
		commit_report_release(&cr);
	}
	json_decref(j);
}

void api_ack_list(struct request *req, struct response *res)
{
	struct store_ack *acks;
	size_t n;
	char *err = NULL;
	if (store_ack_list(req->server->store, req->project.id, &acks, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, ack_json(&acks[i]));
	store_acks_free(acks, n);
	http_json(res, 200, json_pack("{s:o}", "acknowledgements", a));
}

void api_ack_delete(struct request *req, struct response *res)
{
	char *err = NULL;
	long long id;
	if (http_param_id(req, res, 1, "an acknowledgement", &id))
		return;
	int rc = store_ack_delete(req->server->store, req->project.id, id, &err);
	if (rc < 0)
		http_error(res, 500, "%s", err);
	else if (rc == 0)
		http_error(res, 404, "no acknowledgement %lld in project '%s'", id, req->project_name);
	else
		http_json(res, 200, json_pack("{s:I}", "withdrawn", (json_int_t)id));
	free(err);
}
