/* SPDX-License-Identifier: MIT */
/* Building profiles from callgrind parts; the contract is in profile.h.
 *
 * The loader is a cg_sink: it maps the parser's name indices to the
 * profile's own strings once per name, caches the function of the last
 * cost line (consecutive lines nearly always share it), and accumulates
 * self costs per function and per (function, file, line), and inclusive
 * costs per call edge.  When a part ends, profile_finish derives inclusive
 * costs per function and cycles everywhere. */
#include "config.h"

#include "profile.h"

#include "callgrind.h"
#include "error.h"
#include "idmap.h"
#include "strpool.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static struct bm_profile *profile_new(const struct cg_part *part)
{
	struct bm_profile *p = xcalloc(1, sizeof *p);
	p->source = xstrdup(part->path);
	p->trigger = part->trigger ? xstrdup(part->trigger) : NULL;
	p->cmd = part->cmd ? xstrdup(part->cmd) : NULL;
	p->creator = part->creator ? xstrdup(part->creator) : NULL;
	p->nondeterministic = part->nondeterministic ? xstrdup(part->nondeterministic) : NULL;
	p->cpu_askers = part->cpu_askers ? xstrdup(part->cpu_askers) : NULL;
	p->pid = part->pid;
	p->part = part->part;
	p->thread = part->thread;
	p->i1 = part->i1;
	p->d1 = part->d1;
	p->ll = part->ll;
	p->heap_known = part->heap_known;
	p->heap_peak_bytes = part->heap_peak_bytes;
	p->heap_leaked_bytes = part->heap_leaked_bytes;
	p->heap_leaked_blocks = part->heap_leaked_blocks;
	p->heap_freed_bytes = part->heap_freed_bytes;
	p->heap_freed_blocks = part->heap_freed_blocks;
	p->heap_system_known = part->heap_system_known;
	p->heap_system_bytes = part->heap_system_bytes;
	p->nevents = part->nevents;
	p->events = xcalloc(part->nevents, sizeof *p->events);
	p->event_ids = xcalloc(part->nevents, sizeof *p->event_ids);
	for (size_t i = 0; i < part->nevents; i++) {
		p->events[i] = xstrdup(part->events[i]);
		p->event_ids[i] = events_lookup(part->events[i]);
	}
	p->totals = xcalloc(part->nevents, sizeof *p->totals);
	p->strings = strpool_new();
	p->fn_index = idmap_new();
	p->call_index = idmap_new();
	p->line_index = idmap_new();
	return p;
}

void profile_free(struct bm_profile *p)
{
	if (!p)
		return;
	free(p->source);
	free(p->trigger);
	free(p->cmd);
	free(p->creator);
	free(p->nondeterministic);
	free(p->cpu_askers);
	for (size_t i = 0; i < p->nevents; i++)
		free(p->events[i]);
	free(p->events);
	free(p->event_ids);
	free(p->totals);
	free(p->fns);
	free(p->fn_self);
	free(p->fn_inclusive);
	free(p->calls);
	free(p->call_cost);
	free(p->lines);
	free(p->line_cost);
	strpool_free(p->strings);
	idmap_free(p->fn_index);
	idmap_free(p->call_index);
	idmap_free(p->line_index);
	free(p);
}

const char *profile_str(const struct bm_profile *p, uint32_t idx)
{
	const char *s = strpool_get(p->strings, idx);
	return s ? s : "";
}

void profile_events(const struct bm_profile *p, const uint64_t *cost, struct bm_events *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < p->nevents; i++) {
		int ev = p->event_ids[i];
		if (ev >= 0) {
			out->v[ev] = cost[i];
			out->present |= 1u << ev;
		}
	}
}

int profile_column(const struct bm_profile *p, enum bm_event ev)
{
	for (size_t i = 0; i < p->nevents; i++)
		if (p->event_ids[i] == (int)ev)
			return (int)i;
	return -1;
}

/* dst += src over n columns; -1 on overflow. */
static int add_costs(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (__builtin_add_overflow(dst[i], src[i], &dst[i]))
			return -1;
	return 0;
}

/* Grows a table of records and its cost array (n columns each) to hold
 * one more entry, zeroing the new costs. */
static void grow_table(void *records, size_t record_size, uint64_t **costs, size_t count,
		       size_t *alloc, size_t ncols)
{
	if (count < *alloc)
		return;
	size_t old = *alloc;
	xgrow(records, alloc, count + 1, record_size);
	*costs = xreallocarray(*costs, *alloc, ncols * sizeof **costs);
	memset(*costs + old * ncols, 0, (*alloc - old) * ncols * sizeof **costs);
}

static uint32_t fn_find_or_add(struct bm_profile *p, uint32_t object, uint32_t file, uint32_t name)
{
	uint32_t idx;
	uint64_t key = (uint64_t)file << 32 | name;
	if (idmap_lookup(p->fn_index, object, key, &idx))
		return idx;
	grow_table(&p->fns, sizeof *p->fns, &p->fn_self, p->nfns, &p->fns_alloc, p->nevents);
	idx = (uint32_t)p->nfns++;
	p->fns[idx] = (struct profile_fn){.object = object, .file = file, .name = name};
	idmap_insert(p->fn_index, object, key, idx);
	return idx;
}

static uint64_t *call_cost_of(struct bm_profile *p, uint32_t caller, uint32_t callee, uint64_t **count)
{
	uint32_t idx;
	if (!idmap_lookup(p->call_index, caller, callee, &idx)) {
		grow_table(&p->calls, sizeof *p->calls, &p->call_cost, p->ncalls, &p->calls_alloc,
			   p->nevents);
		idx = (uint32_t)p->ncalls++;
		p->calls[idx] = (struct profile_call){.caller = caller, .callee = callee};
		idmap_insert(p->call_index, caller, callee, idx);
	}
	*count = &p->calls[idx].count;
	return p->call_cost + (size_t)idx * p->nevents;
}

static uint64_t *line_cost_of(struct bm_profile *p, uint32_t fn, uint32_t file, uint64_t line)
{
	uint32_t idx;
	uint64_t key = (uint64_t)fn << 32 | file;
	if (!idmap_lookup(p->line_index, key, line, &idx)) {
		grow_table(&p->lines, sizeof *p->lines, &p->line_cost, p->nlines, &p->lines_alloc,
			   p->nevents);
		idx = (uint32_t)p->nlines++;
		p->lines[idx] = (struct profile_line){.fn = fn, .file = file, .line = line};
		idmap_insert(p->line_index, key, line, idx);
	}
	return p->line_cost + (size_t)idx * p->nevents;
}

static int cycles_of(const struct bm_profile *p, const struct bm_model *m, const uint64_t *cost,
		     uint64_t *cycles, char **err)
{
	struct bm_events e;
	profile_events(p, cost, &e);
	return model_cycles(m, &e, cycles, err);
}

static int over(uint64_t v)
{
	return v > (uint64_t)INT64_MAX;
}

/* Reports carry counts as JSON integers, signed 64 bits: a profile with a
 * count of 2^63 or more is refused here, once, rather than written wrong.
 * Self and line costs are bounded by the totals or by inclusive costs. */
static int check_range(const struct bm_profile *p, char **err)
{
	int bad = over(p->cycles);
	for (size_t i = 0; i < p->nevents && !bad; i++)
		bad = over(p->totals[i]);
	for (size_t i = 0; i < p->nfns * p->nevents && !bad; i++)
		bad = over(p->fn_inclusive[i]);
	for (size_t i = 0; i < p->nfns && !bad; i++)
		bad = over(p->fns[i].inclusive_cycles) || over(p->fns[i].calls);
	for (size_t i = 0; i < p->ncalls * p->nevents && !bad; i++)
		bad = over(p->call_cost[i]);
	for (size_t i = 0; i < p->ncalls && !bad; i++)
		bad = over(p->calls[i].cycles) || over(p->calls[i].count);
	if (bad)
		return bm_error(err, "counts of 2^63 or more are not supported");
	return 0;
}

/* Derives inclusive costs, call counts and cycles from the accumulated
 * self and call costs.  A function's inclusive cost is its self cost plus
 * the cost of its calls to other functions: direct recursion (f calling f)
 * is already inside the self cost and is not added again. */
static int profile_finish(struct bm_profile *p, const struct bm_model *m, char **err)
{
	size_t ne = p->nevents;
	free(p->fn_inclusive);
	p->fn_inclusive = xcalloc(p->nfns ? p->nfns * ne : 1, sizeof *p->fn_inclusive);
	if (p->nfns)
		memcpy(p->fn_inclusive, p->fn_self, p->nfns * ne * sizeof *p->fn_inclusive);
	for (size_t i = 0; i < p->nfns; i++)
		p->fns[i].calls = 0;
	for (size_t i = 0; i < p->ncalls; i++) {
		struct profile_call *c = &p->calls[i];
		if (c->caller == c->callee)
			continue;
		if (add_costs(p->fn_inclusive + (size_t)c->caller * ne, p->call_cost + i * ne, ne) < 0 ||
		    __builtin_add_overflow(p->fns[c->callee].calls, c->count, &p->fns[c->callee].calls))
			return bm_error(err, "inclusive cost of '%s' does not fit in 64 bits",
					profile_str(p, p->fns[c->caller].name));
	}

	char *why = NULL;
	const char *what = "the totals";
	const char *name = "";
	if (cycles_of(p, m, p->totals, &p->cycles, &why) < 0)
		goto fail;
	profile_events(p, p->totals, &p->total);
	what = "function";
	for (size_t i = 0; i < p->nfns; i++) {
		name = profile_str(p, p->fns[i].name);
		if (cycles_of(p, m, p->fn_self + i * ne, &p->fns[i].self_cycles, &why) < 0 ||
		    cycles_of(p, m, p->fn_inclusive + i * ne, &p->fns[i].inclusive_cycles, &why) < 0)
			goto fail;
	}
	what = "call from";
	for (size_t i = 0; i < p->ncalls; i++) {
		name = profile_str(p, p->fns[p->calls[i].caller].name);
		if (cycles_of(p, m, p->call_cost + i * ne, &p->calls[i].cycles, &why) < 0)
			goto fail;
	}
	what = "a line of";
	for (size_t i = 0; i < p->nlines; i++) {
		name = profile_str(p, p->fns[p->lines[i].fn].name);
		if (cycles_of(p, m, p->line_cost + i * ne, &p->lines[i].cycles, &why) < 0)
			goto fail;
	}
	return check_range(p, err);
fail:
	bm_error(err, "%s%s%s%s: %s", what, *name ? " '" : "", name, *name ? "'" : "", why);
	free(why);
	return -1;
}

/* ---- loading: the cg_sink ---- */

struct loader {
	const struct bm_model *model;
	struct bm_profile **parts;
	size_t nparts, parts_alloc;
	struct bm_profile *cur;
	const struct cg_parser *parser;
	uint32_t *map[CG_NAME_KINDS]; /* parser name index -> profile string, or CG_NO_NAME */
	size_t map_len[CG_NAME_KINDS];
	int systime_col;
	uint64_t systime_ns;
	int has_lines;
	uint64_t scratch[CG_MAX_EVENTS];
	struct cg_func last_fn;
	uint32_t last_idx;
	int have_last;
};

static uint32_t map_name(struct loader *l, enum cg_name_kind kind, uint32_t idx)
{
	if (idx == CG_NO_NAME)
		return strpool_intern(l->cur->strings, "", 0);
	if (idx >= l->map_len[kind]) {
		size_t old = l->map_len[kind];
		xgrow(&l->map[kind], &l->map_len[kind], (size_t)idx + 1, sizeof *l->map[kind]);
		memset(l->map[kind] + old, 0xff, (l->map_len[kind] - old) * sizeof *l->map[kind]);
	}
	if (l->map[kind][idx] == CG_NO_NAME) {
		const char *s = cg_parser_name(l->parser, kind, idx);
		l->map[kind][idx] = strpool_intern(l->cur->strings, s, strlen(s));
	}
	return l->map[kind][idx];
}

static uint32_t map_fn_uncached(struct loader *l, const struct cg_func *f)
{
	uint32_t o = map_name(l, CG_OBJECT, f->object), fl = map_name(l, CG_FILE, f->file),
		 n = map_name(l, CG_FUNCTION, f->name);
	return fn_find_or_add(l->cur, o, fl, n);
}

/* The function of a cost line: usually the same as the last line's. */
static uint32_t map_fn(struct loader *l, const struct cg_func *f)
{
	if (l->have_last && l->last_fn.object == f->object && l->last_fn.file == f->file &&
	    l->last_fn.name == f->name)
		return l->last_idx;
	l->last_fn = *f;
	l->last_idx = map_fn_uncached(l, f);
	l->have_last = 1;
	return l->last_idx;
}

/* The costs with sysTime converted to nanoseconds. */
static const uint64_t *normalise(struct loader *l, const uint64_t *costs, char **err)
{
	if (l->systime_col < 0 || l->systime_ns == 1)
		return costs;
	memcpy(l->scratch, costs, l->cur->nevents * sizeof *costs);
	if (__builtin_mul_overflow(costs[l->systime_col], l->systime_ns, &l->scratch[l->systime_col])) {
		bm_error(err, "sysTime %llu does not fit in 64 bits as nanoseconds",
			 (unsigned long long)costs[l->systime_col]);
		return NULL;
	}
	return l->scratch;
}

static int overflow(char **err)
{
	return bm_error(err, "costs add up to more than 64 bits");
}

static int on_part_begin(void *ctx, const struct cg_part *part, char **err)
{
	struct loader *l = ctx;
	(void)err;
	l->cur = profile_new(part);
	l->parser = part->parser;
	for (int k = 0; k < CG_NAME_KINDS; k++)
		if (l->map_len[k])
			memset(l->map[k], 0xff, l->map_len[k] * sizeof *l->map[k]);
	l->systime_col = profile_column(l->cur, BM_EV_SYSTIME);
	l->systime_ns = part->systime_ns;
	l->has_lines = (part->positions & CG_POS_LINE) != 0;
	l->have_last = 0;
	return 0;
}

static int on_cost(void *ctx, const struct cg_site *at, const uint64_t *costs, char **err)
{
	struct loader *l = ctx;
	struct bm_profile *p = l->cur;
	if (!(costs = normalise(l, costs, err)))
		return -1;
	uint32_t fn = map_fn(l, &at->fn);
	if (add_costs(p->fn_self + (size_t)fn * p->nevents, costs, p->nevents) < 0)
		return overflow(err);
	if (l->has_lines && at->line) {
		uint64_t *lc = line_cost_of(p, fn, map_name(l, CG_FILE, at->file), at->line);
		if (add_costs(lc, costs, p->nevents) < 0)
			return overflow(err);
	}
	return 0;
}

static int on_call(void *ctx, const struct cg_site *at, const struct cg_func *callee, uint64_t count,
		   const uint64_t *costs, char **err)
{
	struct loader *l = ctx;
	struct bm_profile *p = l->cur;
	if (!(costs = normalise(l, costs, err)))
		return -1;
	uint32_t from = map_fn(l, &at->fn);
	uint32_t to = map_fn_uncached(l, callee);
	uint64_t *n;
	uint64_t *cc = call_cost_of(p, from, to, &n);
	if (add_costs(cc, costs, p->nevents) < 0 || __builtin_add_overflow(*n, count, n))
		return overflow(err);
	return 0;
}

static int on_part_end(void *ctx, const struct cg_part *part, const uint64_t *totals, char **err)
{
	struct loader *l = ctx;
	(void)part;
	if (!(totals = normalise(l, totals, err)))
		return -1;
	memcpy(l->cur->totals, totals, l->cur->nevents * sizeof *totals);
	if (profile_finish(l->cur, l->model, err) < 0)
		return -1;
	xgrow(&l->parts, &l->parts_alloc, l->nparts + 1, sizeof *l->parts);
	l->parts[l->nparts++] = l->cur;
	l->cur = NULL;
	return 0;
}

static const struct cg_sink loader_sink = {on_part_begin, on_cost, on_call, on_part_end};

static int loaded(struct loader *l, int r, struct bm_profile ***out, size_t *n)
{
	for (int k = 0; k < CG_NAME_KINDS; k++)
		free(l->map[k]);
	profile_free(l->cur);
	if (r < 0) {
		for (size_t i = 0; i < l->nparts; i++)
			profile_free(l->parts[i]);
		free(l->parts);
		return -1;
	}
	*out = l->parts;
	*n = l->nparts;
	return 0;
}

int profile_load(const char *path, const struct bm_model *m, struct bm_profile ***out, size_t *n,
		 char **err)
{
	struct loader l = {.model = m};
	int r = cg_parse_file(path, &loader_sink, &l, err);
	return loaded(&l, r, out, n);
}

struct bm_profile *profile_load_one(const char *path, const struct bm_model *m, char **err)
{
	struct bm_profile **parts = NULL, *p = NULL;
	size_t n = 0;
	if (profile_load(path, m, &parts, &n, err) < 0)
		return NULL;
	if (n == 1)
		p = parts[0];
	else
		bm_error(err, "not exactly one dump in it");
	for (size_t i = 0; !p && i < n; i++)
		profile_free(parts[i]);
	free(parts);
	return p;
}

int profile_load_buffer(const char *name, const char *data, size_t size, const struct bm_model *m,
			struct bm_profile ***out, size_t *n, char **err)
{
	struct loader l = {.model = m};
	int r = cg_parse_buffer(name, data, size, &loader_sink, &l, err);
	return loaded(&l, r, out, n);
}

/* ---- merging ---- */

static uint32_t copy_str(struct bm_profile *dst, const struct bm_profile *src, uint32_t idx)
{
	const char *s = profile_str(src, idx);
	return strpool_intern(dst->strings, s, strlen(s));
}

/* src's cost array in dst's column order. */
static void remap(const uint64_t *src, const int *cols, size_t n, uint64_t *out, size_t dst_n)
{
	memset(out, 0, dst_n * sizeof *out);
	for (size_t i = 0; i < n; i++)
		out[cols[i]] = src[i];
}

/* Each of src's columns' index in dst, by event name, into cols: -1
 * when all are there, else the first of src's that dst lacks. */
static int map_columns(const struct bm_profile *dst, const struct bm_profile *src, int *cols)
{
	for (size_t i = 0; i < src->nevents; i++) {
		cols[i] = -1;
		for (size_t j = 0; j < dst->nevents; j++)
			if (strcmp(src->events[i], dst->events[j]) == 0)
				cols[i] = (int)j;
		if (cols[i] < 0)
			return (int)i;
	}
	return -1;
}

int profile_merge(struct bm_profile *dst, const struct bm_profile *src, const struct bm_model *m,
		  char **err)
{
	int cols[CG_MAX_EVENTS];
	uint64_t buf[CG_MAX_EVENTS];
	int missing = map_columns(dst, src, cols);
	if (missing >= 0)
		return bm_error(err, "cannot merge '%s' into '%s': it counts %s, which the other does not",
				src->source, dst->source, src->events[missing]);
	uint32_t *fn_map = xcalloc(src->nfns ? src->nfns : 1, sizeof *fn_map);
	size_t ne = dst->nevents;
	int r = 0;
	for (size_t i = 0; i < src->nfns && r == 0; i++) {
		const struct profile_fn *f = &src->fns[i];
		fn_map[i] = fn_find_or_add(dst, copy_str(dst, src, f->object), copy_str(dst, src, f->file),
					   copy_str(dst, src, f->name));
		remap(src->fn_self + i * src->nevents, cols, src->nevents, buf, ne);
		r = add_costs(dst->fn_self + (size_t)fn_map[i] * ne, buf, ne);
	}
	for (size_t i = 0; i < src->ncalls && r == 0; i++) {
		uint64_t *n;
		uint64_t *cc = call_cost_of(dst, fn_map[src->calls[i].caller], fn_map[src->calls[i].callee], &n);
		remap(src->call_cost + i * src->nevents, cols, src->nevents, buf, ne);
		r = add_costs(cc, buf, ne) < 0 || __builtin_add_overflow(*n, src->calls[i].count, n) ? -1 : 0;
	}
	for (size_t i = 0; i < src->nlines && r == 0; i++) {
		const struct profile_line *ln = &src->lines[i];
		uint64_t *lc = line_cost_of(dst, fn_map[ln->fn], copy_str(dst, src, ln->file), ln->line);
		remap(src->line_cost + i * src->nevents, cols, src->nevents, buf, ne);
		r = add_costs(lc, buf, ne);
	}
	free(fn_map);
	if (src->nondeterministic && !dst->nondeterministic)
		dst->nondeterministic = xstrdup(src->nondeterministic);
	if (src->cpu_askers && !dst->cpu_askers)
		dst->cpu_askers = xstrdup(src->cpu_askers);
	if (src->heap_known) {
		dst->heap_known = 1;
		dst->heap_peak_bytes += src->heap_peak_bytes;
		dst->heap_leaked_bytes += src->heap_leaked_bytes;
		dst->heap_leaked_blocks += src->heap_leaked_blocks;
		dst->heap_freed_bytes += src->heap_freed_bytes;
		dst->heap_freed_blocks += src->heap_freed_blocks;
	}
	if (src->heap_system_known) {
		dst->heap_system_known = 1;
		dst->heap_system_bytes += src->heap_system_bytes;
	}
	remap(src->totals, cols, src->nevents, buf, ne);
	if (r < 0 || add_costs(dst->totals, buf, ne) < 0)
		r = overflow(err);
	if (r == 0)
		r = profile_finish(dst, m, err);
	if (r < 0)
		bm_error_prefix(err, src->source);
	return r;
}

/* dst -= src over n columns, none below 0. */
static void sub_costs(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = dst[i] > src[i] ? dst[i] - src[i] : 0;
}

/* dst's function of the name src's function i has, or UINT32_MAX. */
static uint32_t fn_in(struct bm_profile *dst, const struct bm_profile *src, uint32_t i)
{
	const struct profile_fn *f = &src->fns[i];
	uint32_t idx;
	uint64_t key = (uint64_t)copy_str(dst, src, f->file) << 32 | copy_str(dst, src, f->name);
	return idmap_lookup(dst->fn_index, copy_str(dst, src, f->object), key, &idx) ? idx : UINT32_MAX;
}

/* Where src's stand-in function (i) goes in dst: the one function that
 * its caller, by name, calls in dst; else UINT32_MAX. */
static uint32_t stand_in_target(struct bm_profile *dst, const struct bm_profile *src, uint32_t i)
{
	uint32_t caller = UINT32_MAX, target = UINT32_MAX;
	for (size_t c = 0; c < src->ncalls && caller == UINT32_MAX; c++)
		if (src->calls[c].callee == i)
			caller = fn_in(dst, src, src->calls[c].caller);
	for (size_t c = 0; caller != UINT32_MAX && c < dst->ncalls; c++)
		if (dst->calls[c].caller == caller) {
			if (target != UINT32_MAX && target != dst->calls[c].callee)
				return UINT32_MAX;
			target = dst->calls[c].callee;
		}
	return target;
}

int profile_subtract(struct bm_profile *dst, const struct bm_profile *src, const char *stand_in,
		     const struct bm_model *m, char **err)
{
	int cols[CG_MAX_EVENTS];
	uint64_t buf[CG_MAX_EVENTS];
	int missing = map_columns(dst, src, cols);
	if (missing >= 0)
		return bm_error(err, "cannot take '%s' out of '%s': it counts %s, which the other does not",
				src->source, dst->source, src->events[missing]);
	size_t ne = dst->nevents;
	uint32_t *fn_map = xcalloc(src->nfns ? src->nfns : 1, sizeof *fn_map);
	for (uint32_t i = 0; i < src->nfns; i++) {
		fn_map[i] = strcmp(profile_str(src, src->fns[i].name), stand_in) == 0 ? stand_in_target(dst, src, i)
										     : fn_in(dst, src, i);
		if (fn_map[i] == UINT32_MAX)
			continue;
		remap(src->fn_self + (size_t)i * src->nevents, cols, src->nevents, buf, ne);
		sub_costs(dst->fn_self + (size_t)fn_map[i] * ne, buf, ne);
	}
	for (size_t c = 0; c < src->ncalls; c++) {
		uint32_t a = fn_map[src->calls[c].caller], b = fn_map[src->calls[c].callee], idx;
		if (a == UINT32_MAX || b == UINT32_MAX || !idmap_lookup(dst->call_index, a, b, &idx))
			continue;
		remap(src->call_cost + c * src->nevents, cols, src->nevents, buf, ne);
		sub_costs(dst->call_cost + (size_t)idx * ne, buf, ne);
	}
	for (size_t i = 0; i < src->nlines; i++) {
		const struct profile_line *ln = &src->lines[i];
		uint32_t fn = fn_map[ln->fn], idx;
		uint64_t key = (uint64_t)fn << 32 | copy_str(dst, src, ln->file);
		if (fn == UINT32_MAX || !idmap_lookup(dst->line_index, key, ln->line, &idx))
			continue;
		remap(src->line_cost + i * src->nevents, cols, src->nevents, buf, ne);
		sub_costs(dst->line_cost + (size_t)idx * ne, buf, ne);
	}
	free(fn_map);
	remap(src->totals, cols, src->nevents, buf, ne);
	sub_costs(dst->totals, buf, ne);
	int r = profile_finish(dst, m, err);
	if (r < 0)
		bm_error_prefix(err, src->source);
	return r;
}
