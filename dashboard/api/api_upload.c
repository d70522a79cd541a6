/* SPDX-License-Identifier: MIT */
/* POST /api/v1/projects/NAME/runs: store one bm-report/1.
 *
 * The report is checked whole before anything is written (report.c checks
 * the schema; this file what the server needs on top: where the run sits
 * in the project's history).  A run_id seen before answers 200 with the
 * same body and writes nothing, so clients may retry freely. */
#include "config.h"

#include "api.h"

#include "report.h"
#include "upload_check.h"
#include "url.h"
#include "xalloc.h"

#include <stdlib.h>

char *platform_key(const struct bm_report *r)
{
	const struct bm_context *c = &r->context;
	json_t *j = json_pack("{s:s?,s:s?,s:s?}", "arch", c->arch, "compiler", c->compiler, "os", c->os);
	char *key = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(j);
	return key ? key : xstrdup("{}");
}

void api_upload(struct request *req, struct response *res)
{
	json_t *j = http_body_json(req, res);
	if (!j)
		return;
	struct bm_report r;
	char *err = NULL;
	int rc = report_from_json(j, &r, &err);
	json_decref(j);
	if (rc) {
		http_error(res, 400, "%s", err);
		free(err);
		return;
	}
	if (r.nbenchmarks > req->server->max_benchmarks) {
		http_error(res, 413,
			   "the report holds %zu benchmarks; this server takes at most %zu per report "
			   "(bm-server serve --max-benchmarks): upload the suite in parts, one report per part "
			   "of the same commit",
			   r.nbenchmarks, req->server->max_benchmarks);
		report_release(&r);
		return;
	}
	int64_t commit_time;
	if (upload_check(&r, &commit_time, &err)) {
		http_error(res, 400, "%s", err);
		free(err);
		report_release(&r);
		return;
	}
	char *platform = platform_key(&r);
	int created = 0;
	if (store_run_add(req->server->store, req->project.id, &r, platform, commit_time, &created, &err)) {
		http_error(res, 500, "the run was not stored: %s", err);
		free(err);
	} else {
		char *url = url_commit_page(http_base_url(req), req->project_name, r.context.commit->sha,
					    r.context.pr ? r.context.pr->number : 0, NULL);
		http_json(res, created ? 201 : 200, json_pack("{s:s,s:s,s:b}", "run_id", r.run_id, "report_url", url,
							      "created", created));
		free(url);
	}
	free(platform);
	report_release(&r);
}
