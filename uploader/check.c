/* SPDX-License-Identifier: MIT */
/* The check's data from report files or from the server: see check.h. */
#include "config.h"

#include "check.h"

#include "error.h"
#include "json_fields.h"
#include "report.h"
#include "series_identity.h"
#include "xalloc.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int same(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

char *check_platform_key(const char *arch, const char *os, const char *compiler)
{
	const char *parts[] = {arch, os, compiler};
	size_t len = 0;
	for (size_t i = 0; i < 3; i++) /* a part may be written as "unknown" */
		len += (parts[i] && strlen(parts[i]) > 7 ? strlen(parts[i]) : 7) + 1;
	char *key = xmalloc(len + 1), *p = key;
	for (size_t i = 0; i < 3; i++) {
		if (i)
			*p++ = '-';
		char *start = p;
		for (const unsigned char *s = (const unsigned char *)(parts[i] ? parts[i] : "unknown"); *s; s++) {
			unsigned char ch = (unsigned char)tolower(*s);
			if (isalnum(ch) || strchr("._+", ch))
				*p++ = (char)ch;
			else if (p > start && p[-1] != '-')
				*p++ = '-';
		}
		while (p > start && p[-1] == '-')
			p--;
		if (p == start) {
			memcpy(p, "unknown", 7);
			p += 7;
		}
	}
	*p = '\0';
	return key;
}

int check_row_unchanged(const struct check_row *r)
{
	return r->has_impact && !strcmp(r->status, "ok") && fabs(r->impact) < CHECK_UNCHANGED;
}

int check_exit_code(const struct check *c)
{
	return c->verdict == VERDICT_FAILED || c->verdict == VERDICT_REGRESSION;
}

void check_release(struct check *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].id);
		free(c->rows[i].status);
		free(c->rows[i].reason);
		free(c->rows[i].unit);
		free(c->rows[i].ack_by);
		free(c->rows[i].ack_reason);
	}
	free(c->rows);
	free(c->commit);
	free(c->platform);
	free(c->arch);
	free(c->model);
	free(c->baseline);
	free(c->baseline_reason);
	free(c->report_url);
	memset(c, 0, sizeof *c);
}

static enum bm_status status_of(const char *name)
{
	return !strcmp(name, "ok")	  ? BM_STATUS_OK
	       : !strcmp(name, "failed")  ? BM_STATUS_FAILED
	       : !strcmp(name, "not-run") ? BM_STATUS_NOT_RUN
					  : BM_STATUS_SKIPPED;
}

/* The rows back into both sides' results, in the check's gate metric, so
 * that lib/compare.c decides exactly as it does on the server. */
static void compare_rows(const struct check *c, const unsigned char *keep, struct comparison *cmp)
{
	struct result *head = xcalloc(c->nrows + 1, sizeof *head), *base = xcalloc(c->nrows + 1, sizeof *base);
	size_t nhead = 0, nbase = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];
		double figure = 0, base_figure = 0;
		if (keep && !keep[i])
			continue;
		if (r->has_speed)
			gate_figure(c->metric, r->speed, &r->counts, &figure);
		if (strcmp(r->status, "missing"))
			head[nhead++] = (struct result){.id = r->id,
							.status = status_of(r->status),
							.speed = figure,
							.has_threshold = r->has_threshold,
							.threshold = r->threshold,
							.acknowledged = r->ack_covers};
		if (r->has_base && gate_figure(c->metric, r->base_speed, &r->base_counts, &base_figure))
			base[nbase++] = (struct result){.id = r->id, .status = BM_STATUS_OK, .speed = base_figure};
	}
	comparison_build(cmp, head, nhead, c->has_baseline ? base : NULL, nbase, c->threshold);
	free(head);
	free(base);
}

void check_verdict_of(const struct check *c, const unsigned char *keep, enum verdict *v, int *has_impact,
		      double *impact)
{
	struct comparison cmp;
	compare_rows(c, keep, &cmp);
	*v = cmp.verdict;
	*has_impact = cmp.has_commit_impact;
	*impact = cmp.commit_impact;
	comparison_release(&cmp);
}

struct row_at {
	const char *id;
	size_t at;
};

static int by_pointer(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct row_at *)a)->id, y = (uintptr_t)((const struct row_at *)b)->id;
	return x < y ? -1 : x > y;
}

void check_judge(struct check *c, enum gate_metric m, double t, const struct check_config *cfg)
{
	c->metric = m;
	c->threshold = t;
	for (size_t i = 0; i < c->nrows; i++) {
		struct check_row *r = &c->rows[i];
		r->has_threshold = cfg && check_config_threshold(cfg, r->id, &r->threshold);
		if (!r->has_threshold)
			r->threshold = t;
	}
	struct comparison cmp;
	compare_rows(c, NULL, &cmp);
	/* The comparison's rows name the check's rows by their id pointers:
	 * take the order and the impacts from there. */
	struct row_at *index = xcalloc(c->nrows + 1, sizeof *index);
	for (size_t i = 0; i < c->nrows; i++)
		index[i] = (struct row_at){c->rows[i].id, i};
	qsort(index, c->nrows, sizeof *index, by_pointer);
	struct check_row *rows = xcalloc(c->nrows + 1, sizeof *rows);
	unsigned char *used = xcalloc(c->nrows + 1, 1);
	size_t n = 0;
	for (size_t i = 0; i < cmp.nrows; i++) {
		struct row_at key = {cmp.rows[i].id, 0}, *at = bsearch(&key, index, c->nrows, sizeof key, by_pointer);
		used[at->at] = 1;
		rows[n] = c->rows[at->at];
		rows[n].has_impact = cmp.rows[i].has_impact;
		rows[n++].impact = cmp.rows[i].impact;
	}
	/* A baseline-only row without the metric's figure, last. */
	for (size_t i = 0; i < c->nrows; i++)
		if (!used[i]) {
			rows[n] = c->rows[i];
			rows[n++].has_impact = 0;
		}
	free(used);
	free(c->rows);
	c->rows = rows;
	c->verdict = cmp.verdict;
	c->has_commit_impact = cmp.has_commit_impact;
	c->commit_impact = cmp.commit_impact;
	comparison_release(&cmp);
	free(index);
}

/* Offline ----------------------------------------------------------------- */

static struct result *as_results(const struct bm_report *r)
{
	struct result *x = xcalloc(r->nbenchmarks + 1, sizeof *x);
	for (size_t i = 0; i < r->nbenchmarks; i++)
		x[i] = (struct result){.id = r->benchmarks[i].id,
				       .status = r->benchmarks[i].status,
				       .speed = benchmark_speed(&r->benchmarks[i])};
	return x;
}

/* Why base and head cannot be compared, or NULL: their series (the cost
 * model, engine, virtual CPU and simulated caches, series_identity.h) or
 * their platforms differ.  The server never compares such runs either;
 * here the two files were chosen by hand, so it is an error, naming what
 * differs and what to rerun. */
static char *incomparable(const struct bm_report *base, const struct bm_report *head, const char *base_path,
			  const char *head_path)
{
	char *b = report_series_identity(base), *h = report_series_identity(head);
	char *bl = xasprintf("in '%s'", base_path), *hl = xasprintf("in '%s'", head_path);
	char *diff = series_identity_difference(b, h, bl, hl);
	const struct bm_context *x = &base->context, *y = &head->context;
	if (!diff && !(same(x->arch, y->arch) && same(x->os, y->os) && same(x->compiler, y->compiler))) {
		char *there = check_platform_key(x->arch, x->os, x->compiler);
		char *here = check_platform_key(y->arch, y->os, y->compiler);
		diff = xasprintf("platform: %s %s, %s %s (results of two platforms never compare: rerun one of them on "
				 "the other's compiler, OS and architecture)",
				 there, bl, here, hl);
		free(there);
		free(here);
	}
	char *why = diff ? xasprintf("'%s' and '%s' cannot be compared: %s", base_path, head_path, diff) : NULL;
	free(diff);
	free(b);
	free(h);
	free(bl);
	free(hl);
	return why;
}

/* The counts behind an "ok" simulated benchmark's speed (b may be NULL). */
static void counts_of(const struct bm_result *b, struct gate_counts *g)
{
	memset(g, 0, sizeof *g);
	if (!b || b->status != BM_STATUS_OK || b->nmetrics)
		return;
	g->has_cycles = 1;
	g->cycles = b->cycles;
	g->events = b->events;
	g->heap = b->heap;
}

/* An imported benchmark's own figures, shown instead of derived speeds:
 * the head's primary metric, and the baseline's in the same unit. */
static void imported_values(struct check_row *o, const struct bm_result *h, const struct bm_result *b)
{
	const struct bm_metric *hm = h && h->status == BM_STATUS_OK && h->nmetrics ? &h->metrics[0] : NULL;
	const struct bm_metric *bm = b && b->nmetrics ? &b->metrics[0] : NULL;
	const struct bm_metric *m = hm ? hm : bm;
	if (!m)
		return;
	o->unit = xstrdup(m->unit);
	if ((o->has_value = hm != NULL))
		o->value = hm->value;
	if ((o->has_base_value = bm && !strcmp(bm->name, m->name) && !strcmp(bm->unit, m->unit)))
		o->base_value = bm->value;
}

static const struct bm_result *find_benchmark(const struct bm_report *r, const char *id)
{
	for (size_t i = 0; i < r->nbenchmarks; i++)
		if (!strcmp(r->benchmarks[i].id, id))
			return &r->benchmarks[i];
	return NULL;
}

int check_from_files(struct check *c, const char *base_path, const char *head_path, double t, char **err)
{
	struct bm_report base, head;
	memset(c, 0, sizeof *c);
	if (report_read_file(head_path, &head, err))
		return -1;
	if (report_read_file(base_path, &base, err)) {
		report_release(&head);
		return -1;
	}
	char *why = incomparable(&base, &head, base_path, head_path);
	if (why) {
		bm_error(err, "%s", why);
		free(why);
		report_release(&head);
		report_release(&base);
		return -1;
	}
	struct result *h = as_results(&head), *b = as_results(&base);
	struct comparison cmp;
	comparison_build(&cmp, h, head.nbenchmarks, b, base.nbenchmarks, t);

	c->commit = dup_or_null(head.context.commit ? head.context.commit->sha : NULL);
	c->platform = check_platform_key(head.context.arch, head.context.os, head.context.compiler);
	c->arch = dup_or_null(head.context.arch);
	c->model = report_series_identity(&head);
	c->has_baseline = 1;
	const char *sha = base.context.commit ? base.context.commit->sha : NULL;
	c->baseline = xstrdup(sha ? sha : base_path);
	c->baseline_reason = sha ? xasprintf("the report '%s' given with --base", base_path)
				 : xasprintf("the report given with --base (it names no commit)");
	c->threshold = t;
	c->metric = GATE_CYCLES;
	c->has_commit_impact = cmp.has_commit_impact;
	c->commit_impact = cmp.commit_impact;
	c->verdict = cmp.verdict;
	c->rows = xcalloc(cmp.nrows + 1, sizeof *c->rows);
	for (size_t i = 0; i < cmp.nrows; i++) {
		const struct comparison_row *r = &cmp.rows[i];
		struct check_row *o = &c->rows[c->nrows++];
		const struct bm_result *hb = r->in_head ? find_benchmark(&head, r->id) : NULL;
		o->id = xstrdup(r->id);
		o->status = xstrdup(r->in_head ? report_status_name(r->status) : "missing");
		o->reason = dup_or_null(hb ? hb->reason : NULL);
		o->has_speed = r->in_head && r->status == BM_STATUS_OK;
		o->speed = r->speed;
		o->has_base = r->has_base;
		o->base_speed = r->base_speed;
		o->has_impact = r->has_impact;
		o->impact = r->impact;
		const struct bm_result *bb = r->has_base ? find_benchmark(&base, r->id) : NULL;
		counts_of(hb, &o->counts);
		counts_of(bb, &o->base_counts);
		imported_values(o, hb, bb);
	}
	comparison_release(&cmp);
	free(h);
	free(b);
	report_release(&head);
	report_release(&base);
	return 0;
}

/* Online ------------------------------------------------------------------ */

static int verdict_of_name(const char *name, enum verdict *v)
{
	for (int i = VERDICT_REGRESSION; i < VERDICT_COUNT; i++)
		if (!strcmp(verdict_name((enum verdict)i), name)) {
			*v = (enum verdict)i;
			return 0;
		}
	return -1;
}

/* The optional cycles and events of one side of a row (bm-server adds
 * them to "ok" results); an unknown event name is skipped, for a newer
 * server. */
static int read_counts(const json_t *b, const char *at, const char *cycles_key, const char *events_key,
		       const char *heap_key, struct gate_counts *g, char **err)
{
	json_t *events, *v, *heap;
	const char *name;
	char in[FIELD_MAX];
	memset(g, 0, sizeof *g);
	int has = field_optional_count(b, at, cycles_key, &g->cycles, err);
	if (has < 0 || field_object(b, at, events_key, FIELD_OPTIONAL, &events, err))
		return -1;
	g->has_cycles = has;
	if (field_object(b, at, heap_key, FIELD_OPTIONAL, &heap, err))
		return -1;
	field_path(in, "%s%s.", at, heap_key);
	if (heap && report_heap_from_json(heap, in, &g->heap, err))
		return -1;
	field_path(in, "%s%s.", at, events_key);
	json_object_foreach(events, name, v) {
		int e = events_lookup(name);
		if (e < 0)
			continue;
		if (!field_is_count(v))
			return field_wrong(err, in, name, "a non-negative integer");
		g->events.v[e] = (uint64_t)json_integer_value(v);
		g->events.present |= 1u << e;
	}
	return 0;
}

/* A row's "acknowledgement": null, absent or {"by", "reason", "covers",
 * "impact"}. */
static int read_ack(const json_t *b, const char *at, struct check_row *o, char **err)
{
	json_t *a;
	const char *by, *reason;
	char in[FIELD_MAX];
	if (field_object(b, at, "acknowledgement", FIELD_OPTIONAL, &a, err))
		return -1;
	if (!a)
		return 0;
	field_path(in, "%sacknowledgement.", at);
	int hi;
	if (field_string(a, in, "by", FIELD_REQUIRED, &by, err) ||
	    field_string(a, in, "reason", FIELD_REQUIRED, &reason, err) ||
	    field_bool(a, in, "covers", &o->ack_covers, err) ||
	    (hi = field_optional_number(a, in, "impact", &o->ack_impact, err)) < 0)
		return -1;
	o->ack_by = bm_escape_controls(by);
	o->ack_reason = bm_escape_controls(reason);
	o->has_ack_impact = hi;
	return 0;
}

static int is_status(const char *s)
{
	static const char *const known[] = {"ok", "failed", "skipped", "not-run", "missing"};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcmp(s, known[i]))
			return 1;
	return 0;
}

static int read_row(const json_t *benchmarks, size_t i, struct check_row *o, char **err)
{
	json_t *b;
	const char *id, *status, *reason, *unit;
	char at[FIELD_MAX];
	if (field_element(benchmarks, i, "", "benchmarks", &b, err))
		return -1;
	field_element_path(at, "", "benchmarks", i);
	if (field_string(b, at, "id", FIELD_REQUIRED, &id, err) ||
	    field_string(b, at, "status", FIELD_REQUIRED, &status, err) ||
	    field_string(b, at, "reason", FIELD_OPTIONAL, &reason, err) ||
	    field_string(b, at, "unit", FIELD_OPTIONAL, &unit, err))
		return -1;
	if (!is_status(status))
		return field_wrong(err, at, "status", "\"ok\", \"failed\", \"skipped\", \"not-run\" or \"missing\"");
	int hs, hb, hi, hv, hbv;
	if ((hs = field_optional_number(b, at, "speed", &o->speed, err)) < 0 ||
	    (hb = field_optional_number(b, at, "base_speed", &o->base_speed, err)) < 0 ||
	    (hi = field_optional_number(b, at, "impact", &o->impact, err)) < 0 ||
	    (hv = field_optional_number(b, at, "value", &o->value, err)) < 0 ||
	    (hbv = field_optional_number(b, at, "base_value", &o->base_value, err)) < 0)
		return -1;
	if (read_counts(b, at, "cycles", "events", "heap", &o->counts, err) ||
	    read_counts(b, at, "base_cycles", "base_events", "base_heap", &o->base_counts, err) || read_ack(b, at, o, err))
		return -1;
	o->unit = unit && (hv || hbv) ? bm_escape_controls(unit) : NULL;
	o->has_value = o->unit && hv;
	o->has_base_value = o->unit && hbv;
	o->id = bm_escape_controls(id);
	o->status = xstrdup(status);
	o->reason = bm_escape_controls(reason);
	o->has_speed = hs;
	o->has_base = hb;
	o->has_impact = hi;
	return 0;
}

/* The server's answer; its texts (reasons, names, acknowledgements) are
 * kept with control characters escaped (bm_escape_controls): they are
 * printed as they came, but cannot drive a terminal. */
static int from_json(struct check *c, const json_t *j, char **err)
{
	const char *commit, *verdict, *reason, *sha = NULL, *model, *arch = NULL, *os = NULL, *compiler = NULL;
	json_t *baseline, *benchmarks, *platform;
	if (!json_is_object(j))
		return bm_error(err, "expected a JSON object");
	if (field_string(j, "", "commit", FIELD_REQUIRED, &commit, err) ||
	    field_string(j, "", "verdict", FIELD_REQUIRED, &verdict, err) ||
	    field_string(j, "", "baseline_reason", FIELD_REQUIRED, &reason, err) ||
	    field_string(j, "", "model", FIELD_OPTIONAL, &model, err) ||
	    field_object(j, "", "baseline", FIELD_OPTIONAL, &baseline, err) ||
	    (baseline && field_string(baseline, "baseline.", "sha", FIELD_REQUIRED, &sha, err)) ||
	    field_object(j, "", "platform", FIELD_OPTIONAL, &platform, err) ||
	    (platform && (field_string(platform, "platform.", "arch", FIELD_OPTIONAL, &arch, err) ||
			  field_string(platform, "platform.", "os", FIELD_OPTIONAL, &os, err) ||
			  field_string(platform, "platform.", "compiler", FIELD_OPTIONAL, &compiler, err))) ||
	    field_signed_number(j, "", "threshold", &c->threshold, err) ||
	    (c->has_commit_impact = field_optional_number(j, "", "commit_impact", &c->commit_impact, err)) < 0 ||
	    field_array(j, "", "benchmarks", FIELD_REQUIRED, &benchmarks, err))
		return -1;
	if (verdict_of_name(verdict, &c->verdict))
		return field_wrong(err, "", "verdict",
				   "one of regression, improvement, neutral, no-baseline, failed, acknowledged");
	c->commit = bm_escape_controls(commit);
	c->has_baseline = baseline != NULL;
	c->baseline = bm_escape_controls(sha);
	c->baseline_reason = bm_escape_controls(reason);
	c->model = bm_escape_controls(model);
	c->arch = bm_escape_controls(arch);
	if (platform)
		c->platform = check_platform_key(arch, os, compiler);
	size_t n = json_array_size(benchmarks);
	c->rows = xcalloc(n + 1, sizeof *c->rows);
	for (size_t i = 0; i < n; i++) {
		if (read_row(benchmarks, i, &c->rows[c->nrows], err))
			return -1;
		c->nrows++;
	}
	return 0;
}

int check_from_answer(struct check *c, const char *text, size_t size, char **err)
{
	json_error_t je;
	memset(c, 0, sizeof *c);
	json_t *j = json_loadb(text, size, 0, &je);
	if (!j) {
		bm_error(err, "the server's answer is not JSON (line %d: %s)", je.line, je.text);
		bm_error_escape(err);
		return -1;
	}
	int rc = from_json(c, j, err);
	json_decref(j);
	if (rc) {
		bm_error_prefix(err, "the server's answer");
		bm_error_escape(err);
		check_release(c);
	}
	return rc;
}
