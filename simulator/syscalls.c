/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "syscalls.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct columns {
	int count, wall, cpu;
};

static uint64_t col(const uint64_t *cost, int c)
{
	return c >= 0 ? cost[c] : 0;
}

static int by_wall_then_count(const void *a, const void *b)
{
	const struct bm_syscall_function *x = a, *y = b;
	if (x->wall_ns != y->wall_ns)
		return x->wall_ns < y->wall_ns ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->function, y->function);
}

static int by_count_then_calls(const void *a, const void *b)
{
	const struct bm_syscall_caller *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->function, y->function);
}

static void add_callers(const struct bm_profile *p, const struct columns *c, uint32_t fn,
			struct bm_syscall_function *out)
{
	size_t ne = p->nevents;
	for (size_t i = 0; i < p->ncalls; i++) {
		const struct profile_call *call = &p->calls[i];
		if (call->callee != fn || call->caller == fn)
			continue;
		const uint64_t *cost = p->call_cost + i * ne;
		out->callers = xreallocarray(out->callers, out->ncallers + 1, sizeof *out->callers);
		out->callers[out->ncallers++] = (struct bm_syscall_caller){
			.function = xstrdup(profile_str(p, p->fns[call->caller].name)),
			.calls = call->count,
			.count = col(cost, c->count),
			.wall_ns = col(cost, c->wall),
			.cpu_ns = col(cost, c->cpu),
		};
	}
	if (out->ncallers > 1)
		qsort(out->callers, out->ncallers, sizeof *out->callers, by_count_then_calls);
}

void syscalls_from_profile(const struct bm_profile *p, struct bm_syscalls *out)
{
	struct columns c = {
		profile_column(p, BM_EV_SYSCOUNT),
		profile_column(p, BM_EV_SYSTIME),
		profile_column(p, BM_EV_SYSCPUTIME),
	};
	memset(out, 0, sizeof *out);
	out->count = col(p->totals, c.count);
	out->wall_ns = col(p->totals, c.wall);
	out->cpu_ns = col(p->totals, c.cpu);
	if (c.count < 0 && c.wall < 0)
		return;
	size_t ne = p->nevents;
	for (uint32_t i = 0; i < p->nfns; i++) {
		const uint64_t *self = p->fn_self + (size_t)i * ne;
		if (!col(self, c.count) && !col(self, c.wall))
			continue;
		out->by_function = xreallocarray(out->by_function, out->nby_function + 1,
						 sizeof *out->by_function);
		struct bm_syscall_function *f = &out->by_function[out->nby_function++];
		*f = (struct bm_syscall_function){
			.function = xstrdup(profile_str(p, p->fns[i].name)),
			.count = col(self, c.count),
			.wall_ns = col(self, c.wall),
			.cpu_ns = col(self, c.cpu),
		};
		add_callers(p, &c, i, f);
	}
	if (out->nby_function > 1)
		qsort(out->by_function, out->nby_function, sizeof *out->by_function, by_wall_then_count);
}
