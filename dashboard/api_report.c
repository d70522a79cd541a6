/* GET /api/v1/projects/NAME/commits/SHA/report[?pr=N]: the commit's
 * results against its baseline, with the commit impact and the verdict.
 *
 * The commit's run is its newest upload (for pull request N with ?pr=N);
 * its results are those of every run of the commit with the same model
 * and platform, so that a suite split over several CI jobs reads as one. */
#include "config.h"

#include "api.h"

#include "baseline.h"
#include "compare.h"
#include "xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *number_or_null(int has, double x)
{
	return has && isfinite(x) ? json_real(x) : json_null();
}

static int by_id(const void *key, const void *x)
{
	return strcmp(key, ((const struct store_result *)x)->id);
}

/* id's result among n sorted by id (the store's order), or NULL. */
static const struct store_result *find(const struct store_result *x, size_t n, const char *id)
{
	return n ? bsearch(id, x, n, sizeof *x, by_id) : NULL;
}

/* What the speed was computed from, for bm-check's other gate metrics and
 * for telling more instructions from more cache misses. */
static void add_counts(json_t *row, const char *cycles_key, const char *events_key, const struct store_result *x)
{
	if (!x || x->status != BM_STATUS_OK || x->metric)
		return;
	if (x->has_cycles)
		json_object_set_new(row, cycles_key, json_integer((json_int_t)x->cycles));
	json_t *ev = json_object();
	for (int e = 0; e < BM_EV_COUNT; e++)
		if (events_has(&x->events, e))
			json_object_set_new(ev, events_name(e), json_integer((json_int_t)x->events.v[e]));
	json_object_set_new(row, events_key, ev);
}

/* An imported result's own figure, for showing: "metric", "unit",
 * "value" and the baseline's "base_value" (its speed is derived from it). */
static void add_metric(json_t *row, const struct store_result *h, const struct store_result *b)
{
	const struct store_result *x = h && h->status == BM_STATUS_OK && h->metric ? h : b && b->metric ? b : NULL;
	if (!x)
		return;
	json_object_set_new(row, "metric", json_string(x->metric));
	json_object_set_new(row, "unit", json_string(x->unit));
	if (x == h)
		json_object_set_new(row, "value", json_real(h->value));
	if (b && b->metric && !strcmp(b->metric, x->metric) && !strcmp(b->unit, x->unit))
		json_object_set_new(row, "base_value", json_real(b->value));
}

static json_t *benchmark_rows(const struct comparison *cmp, const struct store_result *head, size_t nhead,
			      const struct store_result *base, size_t nbase)
{
	json_t *a = json_array();
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct comparison_row *r = &cmp->rows[i];
		const struct store_result *h = r->in_head ? find(head, nhead, r->id) : NULL,
					  *b = r->has_base ? find(base, nbase, r->id) : NULL;
		json_t *row = json_pack("{s:s,s:o,s:o,s:o,s:s,s:s?}", "id", r->id, "speed",
					number_or_null(r->in_head && r->status == BM_STATUS_OK, r->speed), "base_speed",
					number_or_null(r->has_base, r->base_speed), "impact",
					number_or_null(r->has_impact, r->impact), "status",
					r->in_head ? report_status_name(r->status) : "missing", "reason", h ? h->reason : NULL);
		if (h) {
			json_object_set_new(row, "run_id", json_string(h->run_id));
			json_object_set_new(row, "profile", json_boolean(h->has_profile));
		}
		add_counts(row, "cycles", "events", h);
		add_counts(row, "base_cycles", "base_events", b);
		add_metric(row, h, b);
		json_array_append_new(a, row);
	}
	return a;
}

static json_t *run_json(const struct store_run *run)
{
	return json_pack("{s:s,s:s,s:s}", "sha", run->sha, "run_id", run->run_id, "branch", run->branch);
}

static struct result *as_results(const struct store_result *x, size_t n)
{
	struct result *r = xcalloc(n + 1, sizeof *r);
	for (size_t i = 0; i < n; i++)
		r[i] = (struct result){.id = x[i].id, .status = x[i].status, .speed = x[i].speed};
	return r;
}

void api_commit_report(struct request *req, struct response *res)
{
	struct store *st = req->server->store;
	const char *sha_in = req->param[1], *pr_text = http_query(req, "pr");
	long pr = 0;
	if (pr_text) {
		char *end;
		pr = strtol(pr_text, &end, 10);
		if (*end || pr <= 0) {
			http_error(res, 400, "pr: expected a pull-request number, not '%s'", pr_text);
			return;
		}
	}
	char *sha = xstrdup(sha_in), *err = NULL;
	for (char *p = sha; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	struct store_run head;
	struct baseline base = {0};
	struct store_result *hres = NULL, *bres = NULL;
	size_t nh = 0, nb = 0;
	int rc = store_commit_run(st, req->project.id, sha, pr, &head, &err);
	if (rc <= 0) {
		if (rc < 0)
			http_error(res, 500, "%s", err);
		else if (pr)
			http_error(res, 404, "no run of commit '%s' for pull request #%ld", sha_in, pr);
		else
			http_error(res, 404, "no run of commit '%s' in project '%s'", sha_in, req->project_name);
		free(err);
		free(sha);
		return;
	}
	if (store_commit_results(st, req->project.id, &head, &hres, &nh, &err) ||
	    baseline_find(st, req->project.id, &head, &base, &err) ||
	    (base.found && store_commit_results(st, req->project.id, &base.run, &bres, &nb, &err))) {
		http_error(res, 500, "%s", err);
		goto out;
	}
	struct result *h = as_results(hres, nh), *b = base.found ? as_results(bres, nb) : NULL;
	struct comparison cmp;
	double t = req->project.threshold;
	comparison_build(&cmp, h, nh, b, nb, t);
	json_t *baseline = json_null();
	if (base.found) {
		baseline = run_json(&base.run);
		json_object_set_new(baseline, "reason", json_string(base.reason));
	}
	json_t *platform = json_loads(head.platform, 0, NULL);
	json_t *body = json_pack("{s:s,s:s,s:s,s:o,s:s,s:o,s:o,s:s,s:f,s:o,s:s,s:o}", "commit", head.sha, "run_id",
				 head.run_id, "branch", head.branch, "pr", head.pr ? json_integer(head.pr) : json_null(),
				 "model", head.model, "platform", platform ? platform : json_object(), "baseline",
				 baseline, "baseline_reason", base.reason, "threshold", t, "commit_impact",
				 number_or_null(cmp.has_commit_impact, cmp.commit_impact), "verdict",
				 verdict_name(cmp.verdict), "benchmarks", benchmark_rows(&cmp, hres, nh, bres, nb));
	if (body && head.pr)
		json_object_set_new(body, "base_branch", head.base_branch ? json_string(head.base_branch) : json_null());
	if (body)
		http_json(res, 200, body);
	else
		http_error(res, 500, "cannot write the report as JSON");
	comparison_release(&cmp);
	free(h);
	free(b);
out:
	store_results_free(hres, nh);
	store_results_free(bres, nb);
	baseline_release(&base);
	store_run_release(&head);
	free(err);
	free(sha);
}
