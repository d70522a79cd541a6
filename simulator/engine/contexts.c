/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "contexts.h"

#include "callgraph.h"
#include "settings.h"

#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

static VgHashTable *cxts, *within;

/* --collect-in's names, sorted, each with its index. */
struct named {
	const HChar *name;
	Int index;
};
static struct named *names;

static Int by_name(const void *a, const void *b)
{
	return VG_(strcmp)(((const struct named *)a)->name, ((const struct named *)b)->name);
}

void contexts_init(void)
{
	cxts = VG_(HT_construct)("bm.cxts");
	within = VG_(HT_construct)("bm.within");
	if (!clo.ncollect_in)
		return;
	names = VG_(malloc)("bm.collect", clo.ncollect_in * sizeof *names);
	for (Int k = 0; k < clo.ncollect_in; k++)
		names[k] = (struct named){clo.collect_in[k], k};
	VG_(ssort)(names, clo.ncollect_in, sizeof *names, by_name);
}

Int contexts_index(const HChar *name)
{
	Int lo = 0, hi = clo.ncollect_in;
	while (lo < hi) {
		Int mid = lo + (hi - lo) / 2, c = VG_(strcmp)(name, names[mid].name);
		if (c == 0) {
			/* The first given, of a name given twice. */
			while (mid > 0 && VG_(strcmp)(name, names[mid - 1].name) == 0)
				mid--;
			return names[mid].index;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static UWord key_of(const void *a, const void *b)
{
	return (UWord)a * 31 + (UWord)b;
}

static Word same_cxt(const void *a, const void *b)
{
	const struct cxt *x = a, *y = b;
	return x->up != y->up || x->in != y->in;
}

static const struct cxt *cxt_with(const struct cxt *up, const struct fn *in)
{
	struct cxt key = {.key = key_of(up, in), .up = up, .in = in};
	struct cxt *c = VG_(HT_gen_lookup)(cxts, &key, same_cxt);
	if (c)
		return c;
	c = VG_(malloc)("bm.cxt", sizeof *c);
	*c = key;
	VG_(HT_add_node)(cxts, c);
	return c;
}

static Word same_within(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;
	return x->base != y->base || x->cxt != y->cxt;
}

static Bool holds_fn(const struct cxt *c, const struct fn *fn)
{
	for (; c; c = c->up)
		if (c->in == fn)
			return True;
	return False;
}

const struct fn *contexts_callee(const struct fn *callee, const struct cxt *c)
{
	if (callee->collect >= 0 && !holds_fn(c, callee))
		c = cxt_with(c, callee);
	if (!c)
		return callee;
	struct fn key = {.hash = key_of(callee, c), .base = callee, .cxt = c};
	struct fn *fn = VG_(HT_gen_lookup)(within, &key, same_within);
	if (fn)
		return fn;
	fn = VG_(malloc)("bm.fn", sizeof *fn);
	*fn = *callee;
	fn->hash = key.hash;
	fn->cxt = c;
	VG_(HT_add_node)(within, fn);
	return fn;
}
