/* SPDX-License-Identifier: MIT */
/* GET /api/v1/projects/NAME/commits/SHA/report[?pr=N][&run=ID]
 * [&baseline=auto|merge-base]: the commit's results against its baseline
 * (baseline.h's rules; merge-base: a pull request's merge base), with the
 * commit impact and the verdict.
 *
 * The commit's run is its newest upload (for pull request N with ?pr=N),
 * or run ID of the commit: a commit measured on several platforms (a CI
 * matrix) or with several models (bm-run and an import) has a report for
 * each, and ?run= picks one.  Its results are those of every run of the
 * commit with the same model and platform, so that a suite split over
 * several CI jobs reads as one.
 * A benchmark with an acknowledgement carries it ("acknowledgement",
 * with "covers": whether it still covers the benchmark's impact). */
#include "config.h"

#include "api.h"

#include "ack_json.h"

#include "commit_report.h"
#include "dynbuf.h"
#include "xalloc.h"

#include <ctype.h>
#include <limits.h>
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
	for (int e = 0; e < BM_EV_STORED; e++)
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

static json_t *benchmark_row(const struct commit_report *cr, const struct comparison_row *r)
{
	const struct store_result *h = r->in_head ? find(cr->hres, cr->nh, r->id) : NULL,
				  *b = r->has_base ? find(cr->bres, cr->nb, r->id) : NULL;
	json_t *row = json_pack("{s:s,s:o,s:o,s:o,s:s,s:s?}", "id", r->id, "speed",
				number_or_null(r->in_head && r->status == BM_STATUS_OK, r->speed), "base_speed",
				number_or_null(r->has_base, r->base_speed), "impact",
				number_or_null(r->has_impact, r->impact), "status",
				r->in_head ? report_status_name(r->status) : "missing", "reason", h ? h->reason : NULL);
	if (!row)
		return NULL;
	if (h) {
		json_object_set_new(row, "run_id", json_string(h->run_id));
		json_object_set_new(row, "profile", json_boolean(h->has_profile));
	}
	add_counts(row, "cycles", "events", h);
	add_counts(row, "base_cycles", "base_events", b);
	add_metric(row, h, b);
	const struct store_ack *ack = h ? commit_report_ack(cr, r->id) : NULL;
	if (ack) {
		json_t *aj = ack_json(ack);
		json_object_set_new(aj, "covers", json_boolean(r->has_impact && ack_covers(ack, r->impact)));
		json_object_set_new(row, "acknowledgement", aj);
	}
	return row;
}

/* The answer's text, built as it goes: a report of many benchmarks would
 * otherwise hold a whole tree of them (about ten times its text) per
 * request.  The bytes are what one json_dumps of the whole would give. */
struct text {
	struct dynbuf b; /* what bm writes: no maximum */
	int failed;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	dynbuf_add(&t->b, s, n);
}

/* Appends j's compact text (as send_response writes answers) and frees j. */
static void text_add_json(struct text *t, json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)
		    : NULL;
	if (s)
		text_add(t, s, strlen(s));
	else
		t->failed = 1;
	free(s);
	json_decref(j);
}

static void add_benchmark_rows(struct text *t, const struct commit_report *cr)
{
	text_add(t, ",\"benchmarks\":[", 15);
	for (size_t i = 0; i < cr->cmp.nrows && !t->failed; i++) {
		if (i)
			text_add(t, ",", 1);
		text_add_json(t, benchmark_row(cr, &cr->cmp.rows[i]));
	}
	text_add(t, "]", 1);
}

static json_t *run_json(const struct store_run *run)
{
	return json_pack("{s:s,s:s,s:s}", "sha", run->sha, "run_id", run->run_id, "branch", run->branch);
}

int commit_report_open(struct request *req, struct response *res, struct commit_report *cr)
{
	const char *sha_in = req->param[1];
	long long pr_in = 0;
	if (http_query_int(req, res, "pr", 1, LONG_MAX, &pr_in) < 0)
		return -1;
	long pr = (long)pr_in;
	enum baseline_rule rule = BASELINE_AUTO;
	const char *rule_name = http_query(req, "baseline");
	if (rule_name && baseline_rule_lookup(rule_name, &rule)) {
		http_error(res, 400, "baseline: expected auto or merge-base, not '%s'", rule_name);
		return -1;
	}
	char *sha = xstrdup(sha_in), *err = NULL;
	for (char *p = sha; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	struct store_run head;
	const char *run = http_query(req, "run");
	int rc = run ? store_run_get(req->server->store, req->project.id, run, &head, &err)
		     : store_commit_run(req->server->store, req->project.id, sha, pr, &head, &err);
	if (rc > 0 && run && (strcmp(head.sha, sha) != 0 || (pr && head.pr != pr))) {
		store_run_release(&head);
		rc = 0;
	}
	if (rc == 0 && run && pr)
		http_error(res, 404, "no run '%s' of commit '%s' for pull request #%ld", run, sha_in, pr);
	else if (rc == 0 && run)
		http_error(res, 404, "no run '%s' of commit '%s' in project '%s'", run, sha_in, req->project_name);
	else if (rc == 0 && pr)
		http_error(res, 404, "no run of commit '%s' for pull request #%ld", sha_in, pr);
	else if (rc == 0)
		http_error(res, 404, "no run of commit '%s' in project '%s'", sha_in, req->project_name);
	else if (rc < 0 || commit_report_build(cr, req->server->store, req->project.id, &head, rule,
					       req->project.threshold, &err)) {
		http_error(res, 500, "%s", err);
		rc = -1;
	}
	free(err);
	free(sha);
	return rc > 0 ? 0 : -1;
}

void api_commit_report(struct request *req, struct response *res)
{
	struct commit_report cr;
	if (commit_report_open(req, res, &cr))
		return;
	const struct store_run *head = &cr.head;
	const struct comparison *cmp = &cr.cmp;
	json_t *baseline = json_null();
	if (cr.base.found) {
		baseline = run_json(&cr.base.run);
		json_object_set_new(baseline, "reason", json_string(cr.base.reason));
	}
	json_t *platform = json_loads(head->platform, 0, NULL);
	json_t *top = json_pack("{s:s,s:s,s:s,s:o,s:s,s:o,s:o,s:s,s:f,s:o,s:s}", "commit", head->sha, "run_id",
				head->run_id, "branch", head->branch, "pr", head->pr ? json_integer(head->pr) : json_null(),
				"model", head->model, "platform", platform ? platform : json_object(), "baseline",
				baseline, "baseline_reason", cr.base.reason, "threshold", req->project.threshold,
				"commit_impact", number_or_null(cmp->has_commit_impact, cmp->commit_impact), "verdict",
				verdict_name(cmp->verdict));
	/* {top's members,"benchmarks":[rows],"base_branch":...} */
	struct text t = {0};
	text_add_json(&t, top);
	if (!t.failed) {
		dynbuf_drop(&t.b, 1); /* top's closing brace */
		add_benchmark_rows(&t, &cr);
	}
	if (!t.failed && head->pr) {
		text_add(&t, ",\"base_branch\":", 15);
		text_add_json(&t, head->base_branch ? json_string(head->base_branch) : json_null());
	}
	if (!t.failed) {
		text_add(&t, "}", 1);
		size_t len;
		char *text = dynbuf_detach(&t.b, &len);
		http_json_text(res, 200, text, len);
	} else {
		dynbuf_free(&t.b);
		http_error(res, 500, "cannot write the report as JSON");
	}
	commit_report_release(&cr);
}
