/* Time series: a benchmark's history on a branch, and the BM ranking of
 * current changes over every benchmark of a branch (change.h). */
#include "config.h"

#include "api.h"

#include "change.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The branch and metric every series request names; 0, or an answer. */
static int series_args(struct request *req, struct response *res, const char **branch, const char **metric)
{
	*branch = http_query(req, "branch");
	*metric = http_query(req, "metric");
	if (!*metric)
		*metric = "speed";
	if (!*branch || !**branch) {
		http_error(res, 400, "branch: missing (add ?branch=NAME)");
		return -1;
	}
	if (!store_metric_known(*metric)) {
		http_error(res, 400, "metric: unknown metric '%s' (speed, cycles, time_s or an event such as Ir, D1mr, "
				     "sysTime)", *metric);
		return -1;
	}
	return 0;
}

/* The platform as JSON; consecutive points share one parsed object, since
 * a series rarely changes platform (cache: the last text and its JSON). */
static json_t *platform_json(const char *text, const char **last_text, json_t **last)
{
	if (!*last_text || strcmp(*last_text, text)) {
		json_decref(*last);
		*last = json_loads(text, 0, NULL);
		if (!*last)
			*last = json_object();
		*last_text = text;
	}
	return json_incref(*last);
}

static json_t *point_json(const struct store_point *p, const char **last_text, json_t **last)
{
	json_t *platform = platform_json(p->platform, last_text, last);
	return json_pack("{s:s,s:I,s:s,s:s,s:o,s:s,s:o}", "commit", p->sha, "timestamp", (json_int_t)p->commit_time,
			 "run_id", p->run_id, "status", report_status_name(p->status), "value",
			 p->has_value && isfinite(p->value) ? json_real(p->value) : json_null(), "model", p->model,
			 "platform", platform);
}

void api_history(struct request *req, struct response *res)
{
	const char *branch, *metric;
	if (series_args(req, res, &branch, &metric))
		return;
	struct store_point *points;
	size_t n;
	char *err = NULL;
	if (store_history(req->server->store, req->project.id, req->param[1], branch, metric, &points, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		return;
	}
	json_t *a = json_array(), *platform = NULL;
	const char *platform_text = NULL;
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, point_json(&points[i], &platform_text, &platform));
	json_decref(platform);
	store_points_free(points, n);
	http_json(res, 200, json_pack("{s:s,s:s,s:s,s:o}", "benchmark", req->param[1], "branch", branch, "metric",
				      metric, "points", a));
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

static int tolerance_args(struct request *req, struct response *res, struct ranking *rk)
{
	const char *dt = http_query(req, "dt"), *st = http_query(req, "st");
	char *end;
	if (dt) {
		rk->dt = strtod(dt, &end);
		if (*end || !isfinite(rk->dt) || rk->dt < 0 || rk->dt > 1) {
			http_error(res, 400, "dt: expected a fraction from 0 to 1, not '%s'", dt);
			return -1;
		}
	}
	if (st) {
		long v = strtol(st, &end, 10);
		if (*end || v < 0 || v > 100000) {
			http_error(res, 400, "st: expected a count from 0 to 100000, not '%s'", st);
			return -1;
		}
		rk->st = (unsigned)v;
	}
	return 0;
}

void api_changes(struct request *req, struct response *res)
{
	const char *branch, *metric;
	if (series_args(req, res, &branch, &metric))
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
