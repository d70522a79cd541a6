/* SPDX-License-Identifier: MIT */
/* Projects, branches, settings and the stored profile of one result. */
#include "config.h"

#include "api.h"

#include "baseline.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* {"projects": [{"name", "runs", "benchmarks", "latest_upload"}]} */
void api_projects(struct request *req, struct response *res)
{
	struct store_project_row *rows;
	size_t n;
	char *err = NULL;
	if (store_projects(req->server->store, &rows, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s,s:I,s:I,s:o}", "name", rows[i].name, "runs",
						   (json_int_t)rows[i].runs, "benchmarks", (json_int_t)rows[i].benchmarks,
						   "latest_upload",
						   rows[i].has_latest ? json_integer(rows[i].latest_upload) : json_null()));
	store_project_rows_free(rows, n);
	http_json(res, 200, json_pack("{s:o}", "projects", a));
}

/* {"project", "branches": [{"name", "runs", "latest": {"sha", "timestamp", "run_id"}}]} */
void api_branches(struct request *req, struct response *res)
{
	struct store_branch_row *rows;
	size_t n;
	char *err = NULL;
	if (store_branches(req->server->store, req->project.id, &rows, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s,s:I,s:{s:s,s:I,s:s}}", "name", rows[i].name, "runs",
						   (json_int_t)rows[i].runs, "latest", "sha", rows[i].sha, "timestamp",
						   (json_int_t)rows[i].timestamp, "run_id", rows[i].run_id));
	store_branch_rows_free(rows, n);
	http_json(res, 200, json_pack("{s:s,s:o}", "project", req->project_name, "branches", a));
}

void api_benchmarks(struct request *req, struct response *res)
{
	const char *branch = http_query(req, "branch");
	char **ids, *err = NULL;
	size_t n;
	if (!branch || !*branch) {
		http_error(res, 400, "branch: give ?branch=NAME");
		return;
	}
	if (store_benchmark_ids(req->server->store, req->project.id, branch, &ids, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(ids[i]));
	store_strings_free(ids, n);
	http_json(res, 200, json_pack("{s:s,s:o}", "branch", branch, "benchmarks", a));
}

static json_t *settings_json(const struct project *p)
{
	return json_pack("{s:f,s:f,s:i}", "threshold", p->threshold, "dt", p->dt, "st", (int)p->st);
}

void api_settings_get(struct request *req, struct response *res)
{
	http_json(res, 200, settings_json(&req->project));
}

/* A partial body changes only the settings it names; every value is
 * checked before any is written. */
void api_settings_put(struct request *req, struct response *res)
{
	json_t *j = http_body_json(req, res);
	if (!j)
		return;
	struct project p = req->project;
	const char *key;
	json_t *v;
	if (!json_is_object(j)) {
		http_error(res, 400, "expected an object such as {\"threshold\": 0.05}");
		goto out;
	}
	json_object_foreach(j, key, v)
	{
		double x = json_is_number(v) ? json_number_value(v) : NAN;
		if (!strcmp(key, "threshold")) {
			if (!(x >= 0 && x <= 0.5)) {
				http_error(res, 400, "threshold: expected a number from 0 to 0.50");
				goto out;
			}
			p.threshold = x;
		} else if (!strcmp(key, "dt")) {
			if (!(x >= 0 && x <= 1)) {
				http_error(res, 400, "dt: expected a number from 0 to 1");
				goto out;
			}
			p.dt = x;
		} else if (!strcmp(key, "st")) {
			if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 100000) {
				http_error(res, 400, "st: expected an integer from 0 to 100000");
				goto out;
			}
			p.st = (unsigned)json_integer_value(v);
		} else {
			http_error(res, 400, "unknown setting '%s' (threshold, dt, st)", key);
			goto out;
		}
	}
	char *err = NULL;
	if (store_project_put_settings(req->server->store, &p, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
	} else {
		http_json(res, 200, settings_json(&p));
	}
out:
	json_decref(j);
}

/* The run's commit and branch, and the run it is compared with
 * (baseline.c), for the differential flame graph: "baseline" is
 * {"run_id", "sha", "reason"} or null. */
static int add_baseline(struct request *req, json_t *j, char **err)
{
	struct store_run run;
	struct baseline base = {0};
	int rc = store_run_get(req->server->store, req->project.id, req->param[1], &run, err);
	if (rc <= 0)
		return rc;
	if (baseline_find(req->server->store, req->project.id, &run, BASELINE_AUTO, &base, err)) {
		store_run_release(&run);
		return -1;
	}
	json_object_set_new(j, "commit", json_string(run.sha));
	json_object_set_new(j, "branch", json_string(run.branch));
	json_object_set_new(j, "baseline", base.found ? json_pack("{s:s,s:s,s:s}", "run_id", base.run.run_id, "sha",
								  base.run.sha, "reason", base.reason)
						      : json_null());
	baseline_release(&base);
	store_run_release(&run);
	return 0;
}

void api_profile(struct request *req, struct response *res)
{
	json_t *j = NULL;
	char *err = NULL, *text;
	size_t len;
	int rc = store_profile(req->server->store, req->project.id, req->param[1], req->param[2], &text, &len, &err);
	if (rc > 0) {
		j = json_loadb(text, len, 0, NULL);
		free(text);
		if (!j)
			rc = bm_error(&err, "database: a stored profile is not JSON");
	}
	if (rc < 0) {
		http_error(res, 500, "%s", err);
		free(err);
	} else if (rc == 0) {
		http_error(res, 404, "no profile of '%s' in run '%s'", req->param[2], req->param[1]);
	} else if (add_baseline(req, j, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		json_decref(j);
	} else {
		json_object_set_new(j, "run_id", json_string(req->param[1]));
		json_object_set_new(j, "benchmark", json_string(req->param[2]));
		http_json(res, 200, j);
	}
}
