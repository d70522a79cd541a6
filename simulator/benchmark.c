/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "benchmark.h"

#include "path.h"
#include "profile_json.h"
#include "syscalls.h"
#include "xalloc.h"

#include <string.h>

char *benchmark_name_of(const struct bm_profile *p)
{
	const char *t = p->trigger;
	static const char request[] = "Client Request:";
	if (t && strncmp(t, request, sizeof request - 1) == 0) {
		t += sizeof request - 1;
		while (*t == ' ')
			t++;
		if (*t)
			return xstrdup(t);
	}
	if (t && strcmp(t, "Program termination") == 0 && p->cmd && *p->cmd) {
		/* The program is the first word of the command line. */
		const char *cmd = p->cmd;
		while (*cmd == ' ')
			cmd++;
		size_t len = strcspn(cmd, " ");
		char *prog = xstrndup(cmd, len);
		char *name = xstrdup(path_basename(prog));
		free(prog);
		return name;
	}
	const char *colon = t ? strstr(t, ": ") : NULL;
	if (colon && colon[2])
		return xstrdup(colon + 2);
	return xstrdup(path_basename(p->source));
}

void benchmark_fill(struct bm_result *b, const struct bm_profile *p, const struct bm_model *m,
		    int with_profile)
{
	b->status = BM_STATUS_OK;
	b->events = p->total;
	b->cycles = p->cycles;
	b->time_s = model_time_s(m, p->cycles);
	b->speed = model_speed(m, p->cycles);
	syscalls_from_profile(p, &b->syscalls);
	if (events_has(&p->total, BM_EV_ALLOC_COUNT)) {
		b->heap = (struct bm_heap){.measured = 1,
					   .has_peak = p->heap_known,
					   .allocations = p->total.v[BM_EV_ALLOC_COUNT],
					   .bytes_allocated = p->total.v[BM_EV_ALLOC_BYTES],
					   .peak_bytes = p->heap_peak_bytes,
					   .leaked_bytes = p->heap_leaked_bytes,
					   .leaked_blocks = p->heap_leaked_blocks,
					   .frees = p->heap_freed_blocks,
					   .bytes_freed = p->heap_freed_bytes,
					   .has_system = p->heap_system_known,
					   .system_bytes = p->heap_system_bytes};
	}
	if (p->nondeterministic)
		b->nondeterministic = xstrdup(p->nondeterministic);
	if (with_profile)
		b->profile = profile_to_json(p);
}

static int known(const struct bm_cache_geometry *c)
{
	return c->size != 0;
}

void benchmark_fill_model(struct bm_report_model *out, const struct bm_model *m,
			  const struct bm_profile *p)
{
	out->id = xstrdup(m->id);
	out->frequency_hz = m->frequency_hz;
	out->l1_hit = m->l1_hit;
	out->ll_hit = m->ll_hit;
	out->ram = m->ram;
	out->i1 = p && known(&p->i1) ? p->i1 : m->i1;
	out->d1 = p && known(&p->d1) ? p->d1 : m->d1;
	out->ll = p && known(&p->ll) ? p->ll : m->ll;
	if (m->version == 2) {
		out->l2 = m->l2;
		out->costs = model_costs_json(&m->costs);
	}
}

static int same(const struct bm_cache_geometry *a, const struct bm_cache_geometry *b)
{
	return !known(a) || (a->size == b->size && a->assoc == b->assoc && a->line == b->line);
}

int benchmark_geometry_matches(const struct bm_model *m, const struct bm_profile *p)
{
	return same(&p->i1, &m->i1) && same(&p->d1, &m->d1) && same(&p->ll, &m->ll);
}
