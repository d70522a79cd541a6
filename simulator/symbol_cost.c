/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "symbol_cost.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* name, or name'N (a recursion level callgrind separated). */
static int same_function(const char *fn, const char *name)
{
	size_t len = strlen(name);
	if (strncmp(fn, name, len) != 0)
		return 0;
	if (!fn[len])
		return 1;
	if (fn[len] != '\'' || !fn[len + 1])
		return 0;
	return fn[len + 1 + strspn(fn + len + 1, "0123456789")] == '\0';
}

/* Whether a function of the set is reachable from the set's callees
 * outside it: then the set runs inside its own callees' costs. */
static int reenters(const struct bm_profile *p, const char *in_set)
{
	size_t n = p->nfns ? p->nfns : 1;
	/* Call edges by caller: first[f] .. first[f + 1] in by_caller. */
	size_t *first = xcalloc(n + 1, sizeof *first);
	uint32_t *by_caller = xcalloc(p->ncalls ? p->ncalls : 1, sizeof *by_caller);
	for (size_t i = 0; i < p->ncalls; i++)
		first[p->calls[i].caller + 1]++;
	for (size_t f = 0; f < n; f++)
		first[f + 1] += first[f];
	size_t *fill = xcalloc(n, sizeof *fill);
	for (size_t i = 0; i < p->ncalls; i++) {
		uint32_t f = p->calls[i].caller;
		by_caller[first[f] + fill[f]++] = p->calls[i].callee;
	}
	char *seen = xcalloc(n, 1);
	uint32_t *stack = xcalloc(n, sizeof *stack);
	size_t top = 0;
	int found = 0;
	for (size_t f = 0; f < p->nfns; f++)
		for (size_t k = first[f]; in_set[f] && k < first[f + 1]; k++) {
			uint32_t to = by_caller[k];
			if (!in_set[to] && !seen[to]) {
				seen[to] = 1;
				stack[top++] = to;
			}
		}
	while (top && !found) {
		uint32_t f = stack[--top];
		for (size_t k = first[f]; k < first[f + 1] && !found; k++) {
			uint32_t to = by_caller[k];
			found = in_set[to];
			if (!seen[to]) {
				seen[to] = 1;
				stack[top++] = to;
			}
		}
	}
	free(first);
	free(by_caller);
	free(fill);
	free(seen);
	free(stack);
	return found;
}

int symbol_cost(const struct bm_profile *p, const char *name, struct symbol_cost *out)
{
	size_t ne = p->nevents;
	char *in_set = xcalloc(p->nfns ? p->nfns : 1, 1);
	uint64_t *cost = xcalloc(ne ? ne : 1, sizeof *cost);
	int any = 0;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < p->nfns; i++)
		if (same_function(profile_str(p, p->fns[i].name), name)) {
			in_set[i] = 1;
			for (size_t e = 0; e < ne; e++)
				cost[e] += p->fn_self[i * ne + e];
			any = 1;
		}
	for (size_t i = 0; i < p->ncalls; i++) {
		const struct profile_call *c = &p->calls[i];
		if (in_set[c->caller] && !in_set[c->callee])
			for (size_t e = 0; e < ne; e++)
				cost[e] += p->call_cost[i * ne + e];
		if (in_set[c->callee] && !in_set[c->caller])
			out->calls += c->count;
	}
	int ran = 0;
	for (size_t e = 0; e < ne; e++)
		ran |= cost[e] != 0;
	if (any && ran) {
		profile_events(p, cost, &out->events);
		out->recursive = reenters(p, in_set);
	}
	free(in_set);
	free(cost);
	return any && ran ? 0 : 1;
}
