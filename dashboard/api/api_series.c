/* SPDX-License-Identifier: MIT */
/* Time series: a benchmark's history on a branch, and the BM ranking of
 * current changes over every benchmark of a branch (change.h). */
#include "config.h"

#include "api.h"

#include "change.h"
#include "json_buf.h"
#include "report.h"
#include "series_reduce.h"
#include "upload_check.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The branch and metric every series request names; 0, or an answer.
 * With imported, any name an upload could have given an imported metric
 * (1 to UPLOAD_MAX_NAME bytes) is a metric too: a history of a name no
 * result carries is empty rather than an error, like that of a benchmark
 * with no results.  Without, only the built-in ones (store_metric_known). */
static int series_args(struct request *req, struct response *res, int imported, const char **branch,
		       const char **metric)
{
	*branch = http_query(req, "branch");
	*metric = http_query(req, "metric");
	if (!*metric)
		*metric = "speed";
	if (!*branch || !**branch) {
		http_error(res, 400, "branch: missing (add ?branch=NAME)");
		return -1;
	}
	if (store_metric_known(*metric) || (imported && **metric && strlen(*metric) <= UPLOAD_MAX_NAME))
		return 0;
	if (imported)
		http_error(res, 400, "metric: expected a name of 1 to %d bytes", UPLOAD_MAX_NAME);
	else
		http_error(res, 400, "metric: unknown metric '%s' (speed, cycles, time_s, an event such as Ir, D1mr, "
				     "sysTime, or a heap count such as allocations, peak_bytes; imported metrics have a "
				     "history but no ranking)", *metric);
	return -1;
}

/* One point: {"commit", "timestamp", "run_id", "status", "value",
 * "model", "platform"}.  The platform is stored as the compact JSON the
 * upload made of it (platform_key) and goes out as it is. */
static void point_write(struct json_buf *b, const struct store_point *p)
{
	json_buf_lit(b, "{\"commit\":");
	json_buf_string(b, p->sha);
	json_buf_lit(b, ",\"timestamp\":");
	json_buf_int(b, p->commit_time);
	json_buf_lit(b, ",\"run_id\":");
	json_buf_string(b, p->run_id);
	json_buf_lit(b, ",\"status\":");
	json_buf_string(b, report_status_name(p->status));
	json_buf_lit(b, ",\"value\":");
	if (p->has_value)
		json_buf_real(b, p->value);
	else
		json_buf_lit(b, "null");
	json_buf_lit(b, ",\"model\":");
	json_buf_string(b, p->model);
	json_buf_lit(b, ",\"platform\":");
	json_buf_raw(b, p->platform);
	json_buf_lit(b, "}");
}

/* What a history answers unless asked: the newest results, and points
 * for a chart (docs/bm-server.md "History and changes"). */
#define HISTORY_LIMIT 2000
#define HISTORY_POINTS 600
#define HISTORY_TIME_MAX 4000000000000LL /* seconds: beyond any commit */

/* ?from=, ?to=, ?limit= and ?points= into w and *max_points (0: every
 * point); 0, or -1 with res answered. */
static int window_args(struct request *req, struct response *res, struct store_window *w, size_t *max_points)
{
	long long from = INT64_MIN, to = INT64_MAX, limit = HISTORY_LIMIT, points = HISTORY_POINTS;
	if (http_query_int(req, res, "from", -HISTORY_TIME_MAX, HISTORY_TIME_MAX, &from) < 0 ||
	    http_query_int(req, res, "to", -HISTORY_TIME_MAX, HISTORY_TIME_MAX, &to) < 0 ||
	    http_query_int(req, res, "limit", 0, 100000000, &limit) < 0 ||
	    http_query_int(req, res, "points", 0, 1000000, &points) < 0)
		return -1;
	if (points && points < 8) {
		http_error(res, 400, "points: expected 0 (every point) or at least 8");
		return -1;
	}
	*w = (struct store_window){from, to, (size_t)limit};
	*max_points = (size_t)points;
	return 0;
}

static void time_or_null(struct json_buf *b, int64_t t, int64_t none)
{
	if (t == none)
		json_buf_lit(b, "null");
	else
		json_buf_int(b, t);
}

/* Written straight as text: with 10,000 points a Jansson tree cost ten
 * times the writing (docs/performance.md). */
void api_history(struct request *req, struct response *res)
{
	const char *branch, *metric;
	struct store_window w;
	size_t max_points;
	if (series_args(req, res, 1, &branch, &metric) || window_args(req, res, &w, &max_points))
		return;
	struct store_point *points;
	size_t n;
	int64_t older;
	char *err = NULL;
	if (store_history(req->server->store, req->project.id, req->param[1], branch, metric, &w, &points, &n, &older,
			  &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	size_t *keep = xcalloc(n + 1, sizeof *keep), buckets = 0;
	size_t nkeep = series_reduce(points, n, max_points ? max_points : n, keep, &buckets);
	struct json_buf b = {0};
	json_buf_reserve(&b, 256 * (nkeep + 1)); /* a point is about 220 bytes */
	json_buf_lit(&b, "{\"benchmark\":");
	json_buf_string(&b, req->param[1]);
	json_buf_lit(&b, ",\"branch\":");
	json_buf_string(&b, branch);
	json_buf_lit(&b, ",\"metric\":");
	json_buf_string(&b, metric);
	json_buf_lit(&b, ",\"window\":{\"from\":");
	time_or_null(&b, w.from, INT64_MIN);
	json_buf_lit(&b, ",\"to\":");
	time_or_null(&b, w.to, INT64_MAX);
	json_buf_lit(&b, ",\"limit\":");
	json_buf_int(&b, (int64_t)w.limit);
	json_buf_lit(&b, ",\"older\":");
	time_or_null(&b, older, INT64_MIN);
	json_buf_lit(&b, "},\"reduced\":");
	if (buckets) {
		json_buf_lit(&b, "{\"points\":");
		json_buf_int(&b, (int64_t)n);
		json_buf_lit(&b, ",\"buckets\":");
		json_buf_int(&b, (int64_t)buckets);
		json_buf_lit(&b, "}");
	} else {
		json_buf_lit(&b, "null");
	}
	json_buf_lit(&b, ",\"points\":[");
	for (size_t i = 0; i < nkeep; i++) {
		if (i)
			json_buf_lit(&b, ",");
		point_write(&b, &points[keep[i]]);
	}
	json_buf_lit(&b, "]}");
	free(keep);
	store_points_free(points, n);
	size_t len;
	char *text = json_buf_detach(&b, &len);
	http_json_text(res, 200, text, len);
}

/* ---- changes ---- */

struct ranked {
	char *id;
	struct change ch;
	double goodness; /* the change, signed so that negative is worse */
	json_t *json;
};

struct ranking {
	double dt;
	unsigned st;
	int higher_is_better;
	struct ranked *items;
	size_t n, alloc;
	json_t *unchanged;
};

static int rank_series(void *ctx, const char *id, const struct store_point *points, size_t n)
{
	struct ranking *rk = ctx;
	/* Only the points comparable with the newest: same model and platform. */
	const struct store_point *last = &points[n - 1];
	double *v = xcalloc(n, sizeof *v);
	size_t *at = xcalloc(n, sizeof *at), k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!points[i].has_value || strcmp(points[i].model, last->model) ||
		    strcmp(points[i].platform, last->platform))
			continue;
		at[k] = i;
		v[k++] = points[i].value;
	}
	struct change ch;
	change_find(v, k, rk->dt, rk->st, &ch);
	if (!ch.found) {
		json_array_append_new(rk->unchanged, json_string(id));
	} else {
		xgrow(&rk->items, &rk->alloc, rk->n + 1, sizeof *rk->items);
		struct ranked *r = &rk->items[rk->n++];
		r->id = xstrdup(id);
		r->ch = ch;
		r->goodness = rk->higher_is_better ? ch.fraction : -ch.fraction;
		const struct store_point *from = &points[at[ch.from]], *to = &points[at[ch.to]];
		r->json = json_pack("{s:s,s:s,s:s,s:f,s:f,s:o,s:b,s:b,s:b,s:b,s:I}", "id", id, "commit", to->sha,
				    "from_commit", from->sha, "from_value", ch.from_value, "value", ch.last_value,
				    "change", isfinite(ch.fraction) ? json_real(ch.fraction) : json_null(), "regression",
				    r->goodness < 0, "from_stable", ch.from_stable, "last_stable", ch.last_stable,
				    "stable", ch.stable, "points", (json_int_t)k);
	}
	free(v);
	free(at);
	return 0;
}

/* Stable changes first (they are the credible ones), then by change,
 * worst first. */
static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->ch.stable != y->ch.stable)
		return y->ch.stable - x->ch.stable;
	if (x->goodness != y->goodness)
		return x->goodness < y->goodness ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* ?dt= and ?st=, when given, instead of the project's settings. */
static int tolerance_args(struct request *req, struct response *res, struct ranking *rk)
{
	long long st = rk->st;
	if (http_query_real(req, res, "dt", 0, 1, &rk->dt) < 0 || http_query_int(req, res, "st", 0, 100000, &st) < 0)
		return -1;
	rk->st = (unsigned)st;
	return 0;
}

void api_changes(struct request *req, struct response *res)
{
	const char *branch, *metric;
	if (series_args(req, res, 0, &branch, &metric))
		return;
	struct ranking rk = {.dt = req->project.dt, .st = req->project.st, .unchanged = json_array()};
	rk.higher_is_better = !strcmp(metric, "speed");
	char *err = NULL;
	if (tolerance_args(req, res, &rk))
		goto out;
	if (store_branch_series(req->server->store, req->project.id, branch, metric, rank_series, &rk, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		goto out;
	}
	if (rk.n)
		qsort(rk.items, rk.n, sizeof *rk.items, by_rank);
	json_t *a = json_array();
	for (size_t i = 0; i < rk.n; i++) {
		json_object_set_new(rk.items[i].json, "rank", json_integer((json_int_t)i + 1));
		json_array_append(a, rk.items[i].json);
	}
	http_json(res, 200, json_pack("{s:s,s:s,s:f,s:i,s:o,s:O}", "branch", branch, "metric", metric, "dt", rk.dt,
				      "st", (int)rk.st, "changes", a, "unchanged", rk.unchanged));
out:
	for (size_t i = 0; i < rk.n; i++) {
		free(rk.items[i].id);
		json_decref(rk.items[i].json);
	}
	free(rk.items);
	json_decref(rk.unchanged);
}
