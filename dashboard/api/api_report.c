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
#include "json_buf.h"
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

/* The answer's text, built as it goes: a report of many benchmarks would
 * otherwise hold a whole tree of them (about ten times its text) per
 * request, and building and dumping that tree was a third of the
 * report's time (docs/performance.md).  The rows are written straight;
 * what is written with Jansson gives the bytes json_dumps gives. */
struct text {
	struct json_buf b;
	int failed;
};

/* Appends j's compact text (as send_response writes answers) and frees j. */
static void text_add_json(struct text *t, json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)
		    : NULL;
	if (s)
		json_buf_raw(&t->b, s);
	else
		t->failed = 1;
	free(s);
	json_decref(j);
}

static void real_or_null(struct json_buf *b, int has, double x)
{
	if (has && isfinite(x))
		json_buf_real(b, x);
	else
		json_buf_lit(b, "null");
}

/* ",KEY:" */
static void key(struct json_buf *b, const char *name)
{
	json_buf_lit(b, ",");
	json_buf_string(b, name);
	json_buf_lit(b, ":");
}

/* What the speed was computed from, for bm-check's other gate metrics and
 * for telling more instructions from more cache misses. */
static void add_counts(struct json_buf *b, const char *cycles_key, const char *events_key, const struct store_result *x)
{
	if (!x || x->status != BM_STATUS_OK || x->metric)
		return;
	if (x->has_cycles) {
		key(b, cycles_key);
		json_buf_int(b, (int64_t)x->cycles);
	}
	key(b, events_key);
	json_buf_lit(b, "{");
	int first = 1;
	for (int e = 0; e < BM_EV_STORED; e++) {
		if (!events_has(&x->events, e))
			continue;
		if (!first)
			json_buf_lit(b, ",");
		first = 0;
		json_buf_string(b, events_name(e));
		json_buf_lit(b, ":");
		json_buf_int(b, (int64_t)x->events.v[e]);
	}
	json_buf_lit(b, "}");
}

/* The result's heap counts (the bm engine's), for bm-check's heap
 * metrics: {"allocations", "bytes_allocated", "peak_bytes",
 * "leaked_bytes", "leaked_blocks"}, the last three null in symbol mode. */
static void add_heap(struct json_buf *b, const char *heap_key, const struct store_result *x)
{
	if (!x || x->status != BM_STATUS_OK || !x->heap.measured)
		return;
	const struct bm_heap *h = &x->heap;
	key(b, heap_key);
	json_buf_lit(b, "{\"allocations\":");
	json_buf_int(b, (int64_t)h->allocations);
	json_buf_lit(b, ",\"bytes_allocated\":");
	json_buf_int(b, (int64_t)h->bytes_allocated);
	static const char *const rest[] = {"peak_bytes", "leaked_bytes", "leaked_blocks", "frees", "bytes_freed"};
	const uint64_t v[] = {h->peak_bytes, h->leaked_bytes, h->leaked_blocks, h->frees, h->bytes_freed};
	for (int k = 0; k < 5; k++) {
		key(b, rest[k]);
		if (h->has_peak)
			json_buf_int(b, (int64_t)v[k]);
		else
			json_buf_lit(b, "null");
	}
	key(b, "system_bytes");
	if (h->has_system)
		json_buf_int(b, (int64_t)h->system_bytes);
	else
		json_buf_lit(b, "null");
	json_buf_lit(b, "}");
}

/* An imported result's own figure, for showing: "metric", "unit",
 * "value" and the baseline's "base_value" (its speed is derived from it). */
static void add_metric(struct json_buf *b, const struct store_result *h, const struct store_result *base)
{
	const struct store_result *x = h && h->status == BM_STATUS_OK && h->metric ? h : base && base->metric ? base : NULL;
	if (!x)
		return;
	key(b, "metric");
	json_buf_string(b, x->metric);
	key(b, "unit");
	json_buf_string(b, x->unit);
	if (x == h && isfinite(h->value)) {
		key(b, "value");
		json_buf_real(b, h->value);
	}
	if (base && base->metric && !strcmp(base->metric, x->metric) && !strcmp(base->unit, x->unit) &&
	    isfinite(base->value)) {
		key(b, "base_value");
		json_buf_real(b, base->value);
	}
}

static void add_benchmark_row(struct text *t, const struct commit_report *cr, const struct comparison_row *r)
{
	const struct store_result *h = r->in_head ? find(cr->hres, cr->nh, r->id) : NULL,
				  *base = r->has_base ? find(cr->bres, cr->nb, r->id) : NULL;
	struct json_buf *b = &t->b;
	json_buf_lit(b, "{\"id\":");
	json_buf_string(b, r->id);
	key(b, "speed");
	real_or_null(b, r->in_head && r->status == BM_STATUS_OK, r->speed);
	key(b, "base_speed");
	real_or_null(b, r->has_base, r->base_speed);
	key(b, "impact");
	real_or_null(b, r->has_impact, r->impact);
	key(b, "status");
	json_buf_string(b, r->in_head ? report_status_name(r->status) : "missing");
	key(b, "reason");
	json_buf_string(b, h ? h->reason : NULL);
	if (h) {
		key(b, "run_id");
		json_buf_string(b, h->run_id);
		key(b, "profile");
		json_buf_raw(b, h->has_profile ? "true" : "false");
	}
	add_counts(b, "cycles", "events", h);
	add_counts(b, "base_cycles", "base_events", base);
	add_heap(b, "heap", h);
	add_heap(b, "base_heap", base);
	add_metric(b, h, base);
	const struct store_ack *ack = h ? commit_report_ack(cr, r->id) : NULL;
	if (ack) {
		json_t *aj = ack_json(ack);
		json_object_set_new(aj, "covers", json_boolean(r->has_impact && ack_covers(ack, r->impact)));
		key(b, "acknowledgement");
		text_add_json(t, aj);
	}
	json_buf_lit(b, "}");
}

static void add_benchmark_rows(struct text *t, const struct commit_report *cr)
{
	json_buf_lit(&t->b, ",\"benchmarks\":[");
	for (size_t i = 0; i < cr->cmp.nrows && !t->failed; i++) {
		if (i)
			json_buf_lit(&t->b, ",");
		add_benchmark_row(t, cr, &cr->cmp.rows[i]);
	}
	json_buf_lit(&t->b, "]");
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
	json_buf_reserve(&t.b, 2048 + 600 * cmp->nrows); /* a row is about 530 bytes */
	text_add_json(&t, top);
	if (!t.failed) {
		dynbuf_drop(&t.b.text, 1); /* top's closing brace */
		add_benchmark_rows(&t, &cr);
	}
	if (!t.failed && head->pr) {
		json_buf_lit(&t.b, ",\"base_branch\":");
		text_add_json(&t, head->base_branch ? json_string(head->base_branch) : json_null());
	}
	if (!t.failed)
		json_buf_lit(&t.b, "}");
	size_t len;
	char *text = json_buf_detach(&t.b, &len);
	if (!t.failed) {
		http_json_text(res, 200, text, len);
	} else {
		free(text);
		http_error(res, 500, "cannot write the report as JSON");
	}
	commit_report_release(&cr);
}
