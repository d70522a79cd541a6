/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "folded.h"

#include "strpool.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct folded {
	struct strpool *stacks;
	double *exact; /* per stack, before rounding */
	size_t exact_alloc;
	uint64_t *cycles;
	size_t *order; /* stacks with cycles > 0 */
	size_t n;
};

struct walk {
	const struct bm_profile *p;
	struct folded *out;
	double *share_base; /* per function: what its cost is shared over */
	size_t *first_call, *call_list; /* outgoing non-recursive calls, CSR */
	unsigned char *on_stack;
	char *path;
	size_t path_len, path_alloc;
	size_t visits;
};

static void emit(struct walk *w, double value)
{
	if (value <= 0)
		return;
	uint32_t idx = strpool_intern(w->out->stacks, w->path, w->path_len);
	if (idx >= w->out->exact_alloc) {
		size_t old = w->out->exact_alloc;
		xgrow(&w->out->exact, &w->out->exact_alloc, (size_t)idx + 1, sizeof *w->out->exact);
		memset(w->out->exact + old, 0, (w->out->exact_alloc - old) * sizeof *w->out->exact);
	}
	w->out->exact[idx] += value;
}

/* Appends ";name" (or "name" at the root); ';' inside names would split
 * the frame, so it becomes ':'. */
static void push_frame(struct walk *w, const char *name)
{
	size_t n = strlen(name);
	xgrow(&w->path, &w->path_alloc, w->path_len + n + 2, 1);
	if (w->path_len)
		w->path[w->path_len++] = ';';
	for (size_t i = 0; i < n; i++)
		w->path[w->path_len++] = name[i] == ';' ? ':' : name[i];
}

/* Walks fn reached with `weight` cycles of its inclusive cost. */
static void walk(struct walk *w, uint32_t fn, double weight, unsigned depth)
{
	const struct bm_profile *p = w->p;
	double base = w->share_base[fn];
	if (base <= 0)
		return;
	double share = weight / base, here = (double)p->fns[fn].self_cycles * share;
	size_t saved = w->path_len;
	push_frame(w, profile_str(p, p->fns[fn].name));
	w->on_stack[fn]++;
	w->visits++;
	int stop = depth >= FOLDED_MAX_DEPTH || w->visits >= FOLDED_MAX_VISITS;
	for (size_t k = w->first_call[fn]; k < w->first_call[fn + 1]; k++) {
		const struct profile_call *c = &p->calls[w->call_list[k]];
		double child = (double)c->cycles * share;
		if (w->on_stack[c->callee])
			continue; /* a call cycle: already counted further up */
		if (stop || child < 1.0)
			here += child;
		else
			walk(w, c->callee, child, depth + 1);
	}
	emit(w, here);
	w->on_stack[fn]--;
	w->path_len = saved;
}

static void index_calls(struct walk *w)
{
	const struct bm_profile *p = w->p;
	w->first_call = xcalloc(p->nfns + 1, sizeof *w->first_call);
	w->call_list = xcalloc(p->ncalls ? p->ncalls : 1, sizeof *w->call_list);
	for (size_t i = 0; i < p->ncalls; i++)
		if (p->calls[i].caller != p->calls[i].callee)
			w->first_call[p->calls[i].caller + 1]++;
	for (size_t f = 0; f < p->nfns; f++)
		w->first_call[f + 1] += w->first_call[f];
	size_t *fill = xcalloc(p->nfns + 1, sizeof *fill);
	for (size_t i = 0; i < p->ncalls; i++) {
		uint32_t from = p->calls[i].caller;
		if (from != p->calls[i].callee)
			w->call_list[w->first_call[from] + fill[from]++] = i;
	}
	free(fill);
}

struct folded *folded_build(const struct bm_profile *p)
{
	struct folded *out = xcalloc(1, sizeof *out);
	out->stacks = strpool_new();
	struct walk w = {.p = p, .out = out};
	size_t nf = p->nfns ? p->nfns : 1;
	double *incoming = xcalloc(nf, sizeof *incoming);
	w.share_base = xcalloc(nf, sizeof *w.share_base);
	w.on_stack = xcalloc(nf, 1);
	index_calls(&w);
	for (size_t i = 0; i < p->ncalls; i++)
		if (p->calls[i].caller != p->calls[i].callee)
			incoming[p->calls[i].callee] += (double)p->calls[i].cycles;
	/* A function's cost is shared over the calls into it plus, when it
	 * costs more than those, its activity entered from outside the
	 * profile (main in a region dump): that part makes it a root. */
	for (size_t f = 0; f < p->nfns; f++) {
		double incl = (double)p->fns[f].inclusive_cycles;
		w.share_base[f] = incl > incoming[f] ? incl : incoming[f];
	}
	for (uint32_t f = 0; f < p->nfns; f++) {
		double root = (double)p->fns[f].inclusive_cycles - incoming[f];
		if (root > 0)
			walk(&w, f, root, 0);
	}
	/* Round so that the integers add up to the rounded exact total. */
	out->n = strpool_count(out->stacks);
	out->cycles = xcalloc(out->n ? out->n : 1, sizeof *out->cycles);
	out->order = xcalloc(out->n ? out->n : 1, sizeof *out->order);
	double sum = 0;
	uint64_t given = 0;
	size_t kept = 0;
	for (size_t i = 0; i < out->n; i++) {
		sum += out->exact[i];
		uint64_t upto = (uint64_t)llround(sum);
		out->cycles[i] = upto > given ? upto - given : 0;
		given += out->cycles[i];
		if (out->cycles[i])
			out->order[kept++] = i;
	}
	out->n = kept;
	free(incoming);
	free(w.share_base);
	free(w.on_stack);
	free(w.first_call);
	free(w.call_list);
	free(w.path);
	return out;
}

void folded_free(struct folded *f)
{
	if (!f)
		return;
	strpool_free(f->stacks);
	free(f->exact);
	free(f->cycles);
	free(f->order);
	free(f);
}

size_t folded_count(const struct folded *f)
{
	return f->n;
}

const char *folded_stack(const struct folded *f, size_t i)
{
	return strpool_get(f->stacks, (uint32_t)f->order[i]);
}

uint64_t folded_cycles(const struct folded *f, size_t i)
{
	return f->cycles[f->order[i]];
}

int folded_find(const struct folded *f, const char *stack, uint64_t *cycles)
{
	uint32_t idx;
	if (!strpool_find(f->stacks, stack, strlen(stack), &idx) || !f->cycles[idx])
		return 0;
	*cycles = f->cycles[idx];
	return 1;
}
