/* SPDX-License-Identifier: MIT */
/* A commit compared with its baseline, acknowledgements applied: see
 * commit_report.h. */
#include "config.h"

#include "commit_report.h"

#include "xalloc.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* At most this many commit reports are built at once; the others wait.
 * A report of the most benchmarks an upload may hold takes a few tens of
 * MB while it is built and written, so this is what bounds the memory of
 * many parallel reads of large reports (docs/bm-server.md). */
#define REPORTS_AT_ONCE 4
/* After a report this large, freed memory goes back to the system. */
#define LARGE_REPORT_ROWS 5000

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_free = PTHREAD_COND_INITIALIZER;
static int building;

static void gate_enter(void)
{
	pthread_mutex_lock(&gate_lock);
	while (building >= REPORTS_AT_ONCE)
		pthread_cond_wait(&gate_free, &gate_lock);
	building++;
	pthread_mutex_unlock(&gate_lock);
}

static void gate_leave(void)
{
	pthread_mutex_lock(&gate_lock);
	building--;
	pthread_cond_signal(&gate_free);
	pthread_mutex_unlock(&gate_lock);
}

/* Impacts are deterministic, but a baseline that moved may give the same
 * regression a last-bit difference. */
#define ACK_TOLERANCE 1e-9

int ack_covers(const struct store_ack *a, double impact)
{
	return impact >= a->impact - ACK_TOLERANCE;
}

const struct store_ack *commit_report_ack(const struct commit_report *r, const char *id)
{
	for (size_t i = 0; i < r->nacks; i++)
		if (!strcmp(r->acks[i].benchmark, id))
			return &r->acks[i];
	return NULL;
}

static struct result *as_results(const struct store_result *x, size_t n)
{
	struct result *r = xcalloc(n + 1, sizeof *r);
	for (size_t i = 0; i < n; i++)
		r[i] = (struct result){.id = x[i].id, .status = x[i].status, .speed = x[i].speed};
	return r;
}

/* Marks the head results whose regression an acknowledgement covers;
 * returns how many. */
static size_t mark_acknowledged(struct commit_report *r)
{
	size_t marked = 0;
	for (size_t i = 0; i < r->cmp.nrows; i++) {
		const struct comparison_row *row = &r->cmp.rows[i];
		const struct store_ack *a = row->has_impact ? commit_report_ack(r, row->id) : NULL;
		if (!a || !ack_covers(a, row->impact))
			continue;
		/* r->h is sorted by id, as the store gives them. */
		size_t lo = 0, hi = r->nh;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (strcmp(r->h[mid].id, row->id) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo; j < r->nh && !strcmp(r->h[j].id, row->id); j++) {
			r->h[j].acknowledged = 1;
			marked++;
		}
	}
	return marked;
}

int commit_report_build(struct commit_report *r, struct store *st, int64_t project, struct store_run *head,
			enum baseline_rule rule, double t, char **err)
{
	gate_enter();
	memset(r, 0, sizeof *r);
	r->gated = 1;
	r->head = *head;
	memset(head, 0, sizeof *head);
	if (store_commit_results(st, project, &r->head, &r->hres, &r->nh, err) ||
	    baseline_find(st, project, &r->head, rule, &r->base, err) ||
	    (r->base.found && store_commit_results(st, project, &r->base.run, &r->bres, &r->nb, err)) ||
	    store_acks_of(st, project, r->head.sha, r->head.pr, &r->acks, &r->nacks, err)) {
		commit_report_release(r);
		return -1;
	}
	r->h = as_results(r->hres, r->nh);
	r->b = r->base.found ? as_results(r->bres, r->nb) : NULL;
	comparison_build(&r->cmp, r->h, r->nh, r->b, r->nb, t);
	/* The impacts come from the comparison; a second one with the
	 * covered regressions marked gives the verdict. */
	if (r->nacks && mark_acknowledged(r)) {
		comparison_release(&r->cmp);
		comparison_build(&r->cmp, r->h, r->nh, r->b, r->nb, t);
	}
	return 0;
}

void commit_report_release(struct commit_report *r)
{
	int gated = r->gated, large = r->nh + r->nb > LARGE_REPORT_ROWS;
	comparison_release(&r->cmp);
	free(r->h);
	free(r->b);
	store_results_free(r->hres, r->nh);
	store_results_free(r->bres, r->nb);
	store_acks_free(r->acks, r->nacks);
	baseline_release(&r->base);
	store_run_release(&r->head);
	memset(r, 0, sizeof *r);
	if (large)
		malloc_trim(0);
	if (gated)
		gate_leave();
}
