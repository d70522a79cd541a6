/* SPDX-License-Identifier: MIT */
/* GET /api/v1/projects/NAME/summary: the projects page's rows, one per
 * branch, cost model and platform that has pushes, latest upload first:
 *
 *   {"project", "threshold", "rows": [{"branch", "model", "platform", "runs",
 *     "latest": {"sha", "run_id", "timestamp"}, "benchmarks", "failed",
 *     "regressions", "improvements", "baseline": SHA or null,
 *     "commit_impact", "verdict"}]}
 *
 * A row's latest run is compared with its baseline exactly as the commit
 * report does (baseline.c, lib/compare.c); "regressions" and
 * "improvements" count the benchmarks beyond the project's threshold. */
#include "config.h"

#include "api.h"

#include "commit_report.h"

#include <math.h>
#include <stdlib.h>

/* The row of one series; NULL with *err on a storage error. */
static json_t *series_row(struct request *req, const struct store_series_head *h, char **err)
{
	struct store *st = req->server->store;
	struct store_run head;
	struct commit_report cr;
	double t = req->project.threshold;
	if (store_branch_head_run(st, req->project.id, h->branch, h->model, h->platform, &head, err) <= 0 ||
	    commit_report_build(&cr, st, req->project.id, &head, BASELINE_AUTO, t, err))
		return NULL;
	const struct comparison *cmp = &cr.cmp;
	long failed = 0, regressions = 0, improvements = 0;
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct comparison_row *r = &cmp->rows[i];
		failed += r->in_head && r->status == BM_STATUS_FAILED;
		regressions += r->has_impact && r->impact < -t;
		improvements += r->has_impact && r->impact > t;
	}
	json_t *platform = json_loads(h->platform, 0, NULL);
	json_t *row = json_pack(
		"{s:s,s:s,s:o,s:I,s:{s:s,s:s,s:I},s:I,s:i,s:i,s:i,s:o,s:o,s:s}", "branch", h->branch, "model", h->model,
		"platform", platform ? platform : json_object(), "runs", (json_int_t)h->runs, "latest", "sha", cr.head.sha,
		"run_id", cr.head.run_id, "timestamp", (json_int_t)cr.head.commit_time, "benchmarks", (json_int_t)cr.nh,
		"failed", (int)failed, "regressions", (int)regressions, "improvements", (int)improvements, "baseline",
		cr.base.found ? json_string(cr.base.run.sha) : json_null(), "commit_impact",
		cmp->has_commit_impact && isfinite(cmp->commit_impact) ? json_real(cmp->commit_impact) : json_null(),
		"verdict", verdict_name(cmp->verdict));
	commit_report_release(&cr);
	return row;
}

void api_summary(struct request *req, struct response *res)
{
	struct store_series_head *heads;
	size_t n;
	char *err = NULL;
	if (store_series_heads(req->server->store, req->project.id, &heads, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *rows = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *row = series_row(req, &heads[i], &err);
		if (!row && err) {
			http_error(res, 500, "%s", err);
			free(err);
			json_decref(rows);
			store_series_heads_free(heads, n);
			return;
		}
		if (row)
			json_array_append_new(rows, row);
	}
	store_series_heads_free(heads, n);
	http_json(res, 200, json_pack("{s:s,s:f,s:o}", "project", req->project_name, "threshold", req->project.threshold,
				      "rows", rows));
}
