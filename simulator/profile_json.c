/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "profile_json.h"

#include "json_text.h"

static json_t *costs(const uint64_t *c, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)c[i]));
	return a;
}

static json_t *functions(const struct bm_profile *p)
{
	json_t *a = json_array();
	for (size_t i = 0; i < p->nfns; i++) {
		const struct profile_fn *f = &p->fns[i];
		json_t *o = json_object();
		json_object_set_new(o, "name", json_text(profile_str(p, f->name)));
		json_object_set_new(o, "file", json_text(profile_str(p, f->file)));
		json_object_set_new(o, "object", json_text(profile_str(p, f->object)));
		json_object_set_new(o, "calls", json_integer((json_int_t)f->calls));
		json_object_set_new(o, "self", costs(p->fn_self + i * p->nevents, p->nevents));
		json_object_set_new(o, "inclusive", costs(p->fn_inclusive + i * p->nevents, p->nevents));
		json_object_set_new(o, "self_cycles", json_integer((json_int_t)f->self_cycles));
		json_object_set_new(o, "inclusive_cycles", json_integer((json_int_t)f->inclusive_cycles));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *calls(const struct bm_profile *p)
{
	json_t *a = json_array();
	for (size_t i = 0; i < p->ncalls; i++) {
		const struct profile_call *c = &p->calls[i];
		json_t *o = json_object();
		json_object_set_new(o, "caller", json_integer(c->caller));
		json_object_set_new(o, "callee", json_integer(c->callee));
		json_object_set_new(o, "count", json_integer((json_int_t)c->count));
		json_object_set_new(o, "inclusive", costs(p->call_cost + i * p->nevents, p->nevents));
		json_object_set_new(o, "cycles", json_integer((json_int_t)c->cycles));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *lines(const struct bm_profile *p)
{
	json_t *a = json_array();
	for (size_t i = 0; i < p->nlines; i++) {
		const struct profile_line *l = &p->lines[i];
		json_t *o = json_object();
		json_object_set_new(o, "function", json_integer(l->fn));
		json_object_set_new(o, "file", json_text(profile_str(p, l->file)));
		json_object_set_new(o, "line", json_integer((json_int_t)l->line));
		json_object_set_new(o, "self", costs(p->line_cost + i * p->nevents, p->nevents));
		json_object_set_new(o, "cycles", json_integer((json_int_t)l->cycles));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *profile_to_json(const struct bm_profile *p)
{
	json_t *o = json_object();
	json_t *ev = json_array();
	for (size_t i = 0; i < p->nevents; i++)
		json_array_append_new(ev, json_text(p->events[i]));
	json_object_set_new(o, "events", ev);
	json_object_set_new(o, "totals", costs(p->totals, p->nevents));
	json_object_set_new(o, "cycles", json_integer((json_int_t)p->cycles));
	json_object_set_new(o, "functions", functions(p));
	json_object_set_new(o, "calls", calls(p));
	json_object_set_new(o, "lines", lines(p));
	return o;
}
