/* SPDX-License-Identifier: MIT */
/* The store: adding a run (store_run_add).  Uploads that arrive together
 * share one transaction (group commit: one durable commit for many runs),
 * each run in a savepoint of its own; benchmark ids once committed are
 * cached; and the rules of what a result row holds are here, not in a
 * backend. */
#include "config.h"

#include "store_internal.h"

#include "error.h"
#include "series_identity.h"
#include "strpool.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* ---- adding a run ---- */

/* The id of benchmark name in the job's project, made when new: from the
 * cache, or from the database (then noted in the job, for the cache). */
static int benchmark_id(struct store *st, struct store_tx *tx, struct run_job *j, const char *name, int64_t *id,
			char **err)
{
	char *key = xasprintf("%lld/%s", (long long)j->project, name);
	uint32_t at;
	if (strpool_find(st->benchmark_keys, key, strlen(key), &at)) {
		*id = st->benchmark_ids[at];
		free(key);
		return 0;
	}
	xgrow(&j->fresh, &j->fresh_alloc, j->nfresh + 1, sizeof *j->fresh);
	j->fresh[j->nfresh].key = key;
	j->fresh[j->nfresh].id = -1;
	int rc = st->be->benchmark_id(tx, j->project, name, &j->fresh[j->nfresh].id, err);
	*id = j->fresh[j->nfresh++].id;
	return rc;
}

/* Caches the benchmark ids a committed upload looked up; frees the
 * job's list either way. */
static void benchmarks_remember(struct store *st, struct run_job *j, int committed)
{
	for (size_t i = 0; i < j->nfresh; i++) {
		struct fresh_benchmark *f = &j->fresh[i];
		uint32_t at;
		if (committed && f->id >= 0 && !strpool_find(st->benchmark_keys, f->key, strlen(f->key), &at)) {
			at = strpool_intern(st->benchmark_keys, f->key, strlen(f->key));
			xgrow(&st->benchmark_ids, &st->benchmark_alloc, (size_t)at + 1, sizeof *st->benchmark_ids);
			st->benchmark_ids[at] = f->id;
		}
		free(f->key);
	}
	free(j->fresh);
	j->fresh = NULL;
	j->nfresh = j->fresh_alloc = 0;
}

/* The profile and syscalls of b, compact JSON compressed with zlib. */
static int profile_blob(const struct bm_result *b, unsigned char **data, size_t *size, size_t *raw)
{
	json_t *j = json_object();
	json_object_set(j, "profile", b->profile ? b->profile : json_null());
	json_object_set_new(j, "syscalls", syscalls_to_json(&b->syscalls));
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (!text)
		return -1;
	*raw = strlen(text);
	uLongf out = compressBound(*raw);
	*data = xmalloc(out);
	int rc = compress2(*data, &out, (const Bytef *)text, *raw, 1) == Z_OK ? 0 : -1;
	*size = out;
	free(text);
	if (rc) {
		free(*data);
		*data = NULL;
	}
	return rc;
}

/* A simulated result's heap counts as metrics (STORE_HEAP_POSITION on):
 * the peak and leaks only where the report has them (not symbol mode). */
static void heap_metrics(const struct bm_heap *h, struct store_row *row)
{
	if (!h->measured)
		return;
	const uint64_t v[STORE_HEAP_METRICS] = {h->allocations, h->bytes_allocated, h->peak_bytes, h->leaked_bytes,
						h->leaked_blocks, h->frees,           h->bytes_freed, h->system_bytes};
	row->nmetrics = !h->has_peak ? 2 : h->has_system ? STORE_HEAP_METRICS : STORE_HEAP_METRICS - 1;
	/* (The row's metrics are only read: the names stay the table's.) */
	for (size_t k = 0; k < row->nmetrics; k++)
		row->heap[k] = (struct bm_metric){(char *)store_heap_metrics[k].name, (char *)store_heap_metrics[k].unit,
						  (double)v[k]};
	row->metrics = row->heap;
	row->metric_position = STORE_HEAP_POSITION;
}

/* The row b is stored as (the rules are here, not in a backend).  *blob
 * is the compressed profile the row points to (the caller frees it). */
static int result_row(const struct bm_result *b, int64_t bench, struct store_row *row, unsigned char **blob,
		      char **err)
{
	*row = (struct store_row){.benchmark = bench, .status = b->status, .reason = b->reason};
	*blob = NULL;
	if (b->status != BM_STATUS_OK)
		return 0;
	if (b->nmetrics) {
		/* Imported: the speed its primary metric compares by (none when
		 * there is nothing to compare), and a time in seconds as time_s;
		 * every metric is kept. */
		double speed = benchmark_speed(b);
		row->has_speed = speed > 0;
		row->speed = speed;
		if ((row->has_time = !strcmp(b->metrics[0].unit, "s")))
			row->time_s = b->metrics[0].value;
		row->metrics = b->metrics;
		row->nmetrics = b->nmetrics;
	} else {
		row->has_speed = row->has_cycles = row->has_time = 1;
		row->speed = b->speed;
		row->cycles = b->cycles;
		row->time_s = b->time_s;
		row->events = b->events;
		heap_metrics(&b->heap, row);
	}
	/* Nothing to show in the profile view: no profile (its API answers
	 * 404). */
	if (!b->profile && b->syscalls.nby_function == 0)
		return 0;
	if (profile_blob(b, blob, &row->profile_size, &row->profile_raw))
		return bm_error(err, "cannot compress the profile of '%s'", b->id);
	row->profile = *blob;
	return 0;
}

static char *ancestors_text(const struct bm_commit *commit)
{
	json_t *a = json_array();
	for (size_t i = 0; i < commit->nancestors; i++)
		json_array_append_new(a, json_string(commit->ancestors[i]));
	char *text = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return text;
}

/* Writes one upload's run and results; j->created says whether it was new. */
static int write_run(struct store *st, struct store_tx *tx, struct run_job *j, char **err)
{
	const struct bm_report *r = j->report;
	/* The runs' model column holds the series identity: the model and
	 * all else that must be equal for results to be compared. */
	char *model = report_series_identity(r), *ancestors = ancestors_text(r->context.commit);
	struct store_run_row row = {
		.run_id = r->run_id,
		.branch = r->context.branch,
		.sha = r->context.commit->sha,
		.base_branch = r->context.pr ? r->context.pr->base_branch : NULL,
		.merge_base = r->context.pr ? r->context.pr->merge_base : NULL,
		.model = model,
		.platform = j->platform,
		.host = r->context.host,
		.ancestors = ancestors,
		.commit_time = j->commit_time,
		.created_at = (int64_t)time(NULL),
		.pr = r->context.pr ? r->context.pr->number : 0,
	};
	int64_t pk;
	int rc = st->be->run_insert(tx, j->project, &row, &pk, err);
	free(model);
	free(ancestors);
	if (rc <= 0) {
		j->created = 0;
		return rc;
	}
	for (size_t i = 0; i < r->nbenchmarks; i++) {
		const struct bm_result *b = &r->benchmarks[i];
		int64_t bench;
		struct store_row result;
		unsigned char *blob;
		if (benchmark_id(st, tx, j, b->id, &bench, err) || result_row(b, bench, &result, &blob, err))
			return -1;
		rc = st->be->result_insert(tx, pk, r->context.branch, j->commit_time, &result, err);
		free(blob);
		if (rc)
			return -1;
	}
	j->created = 1;
	return 0;
}

static int by_run_id(const void *a, const void *b)
{
	const struct run_job *x = *(struct run_job *const *)a, *y = *(struct run_job *const *)b;
	if (x->project != y->project)
		return x->project < y->project ? -1 : 1;
	return strcmp(x->report->run_id, y->report->run_id);
}

/* Writes a batch of uploads in one transaction, each inside a savepoint
 * so that one bad run does not take the others with it, and sets each
 * job's outcome.  Runs are written in run_id order: two servers writing
 * batches that share runs then take their locks in one order, and never
 * wait for each other in a circle. */
static void commit_batch(struct store *st, struct run_job *batch)
{
	size_t n = 0;
	for (struct run_job *j = batch; j; j = j->next)
		n++;
	struct run_job **order = xcalloc(n, sizeof *order);
	n = 0;
	for (struct run_job *j = batch; j; j = j->next)
		order[n++] = j;
	qsort(order, n, sizeof *order, by_run_id);
	char *err = NULL;
	struct store_tx *tx = st->be->tx_begin(st->db, &err);
	/* (A batch of one needs no savepoint: its failure is the batch's.) */
	int isolate = n > 1;
	int lost = 0;
	for (size_t k = 0; tx && !lost && k < n; k++) {
		struct run_job *j = order[k];
		if (isolate && st->be->savepoint(tx, &j->err)) {
			j->rc = -1;
			lost = 1;
			continue;
		}
		j->rc = write_run(st, tx, j, &j->err);
		int end = isolate ? st->be->savepoint_end(tx, !j->rc, j->rc ? NULL : &j->err) : 0;
		if (end == STORE_TX_LOST)
			lost = 1;
		else if (end)
			j->rc = -1;
	}
	free(order);
	if (tx && (lost || (!isolate && batch->rc))) {
		/* The one run failed, or a failed run's writes are still in the
		 * transaction: nothing of it is kept. */
		st->be->tx_end(tx, 0, NULL);
		tx = NULL;
		if (lost)
			err = xstrdup("database: a run of the batch could not be undone, so the batch was not stored");
	}
	int rc = tx ? st->be->tx_end(tx, 1, &err) : -1;
	size_t rows = 0;
	pthread_mutex_lock(&st->queue_lock);
	for (struct run_job *j = batch; j; j = j->next) {
		if (rc && !j->rc) {
			j->rc = -1;
			j->err = xstrdup(err ? err : "database: the transaction failed");
		}
		if (!j->rc && j->created)
			rows += j->report->nbenchmarks;
		benchmarks_remember(st, j, !j->rc);
		j->done = 1;
	}
	pthread_mutex_unlock(&st->queue_lock);
	free(err);
	if (!rc && rows && st->be->after_commit)
		st->be->after_commit(st->db, rows);
}

/* Group commit: every upload queues itself, then waits for the write
 * lock; whoever holds it commits everything queued so far in one
 * transaction (one fsync for many runs).  A leader marks its jobs done
 * before it lets the lock go, so a job is either done or still queued
 * when its thread gets the lock. */
int store_run_add(struct store *st, int64_t project, const struct bm_report *r, const char *platform,
		  int64_t commit_time, int *created, char **err)
{
	struct run_job job = {.project = project, .commit_time = commit_time, .report = r, .platform = platform};
	pthread_mutex_lock(&st->queue_lock);
	*st->queue_tail = &job;
	st->queue_tail = &job.next;
	pthread_mutex_unlock(&st->queue_lock);

	pthread_mutex_lock(&st->write_lock);
	pthread_mutex_lock(&st->queue_lock);
	struct run_job *batch = job.done ? NULL : st->queue;
	if (batch) {
		st->queue = NULL;
		st->queue_tail = &st->queue;
	}
	pthread_mutex_unlock(&st->queue_lock);
	if (batch)
		commit_batch(st, batch);
	pthread_mutex_unlock(&st->write_lock);

	*created = job.created;
	if (job.rc) {
		if (err)
			*err = job.err;
		else
			free(job.err);
		return -1;
	}
	return 0;
}
