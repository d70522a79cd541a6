/* SPDX-License-Identifier: MIT */
/* The store: see store.h.  What every backend would otherwise repeat:
 *
 * - Group commit: uploads that arrive together share one transaction, so
 *   one durable commit (one fsync) serves many runs.
 * - Caches of what never changes once written, so that several servers on
 *   one database stay correct: benchmark ids, and what a history shows of
 *   each run.  Projects, settings, tokens and acknowledgements are read
 *   from the database every time.
 * - The rules a backend must not decide: what an imported benchmark is
 *   compared by, a run's comparison model, the compressed profile, the
 *   points a history keeps.
 *
 * Below it, a backend's table of SQL functions (store_backend.h). */
#include "config.h"

#include "store.h"

#include "error.h"
#include "hash.h"
#include "idmap.h"
#include "store_backend.h"
#include "strpool.h"
#include "token.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* A benchmark id an upload looked up in the database, for the cache once
 * the upload is committed. */
struct fresh_benchmark {
	char *key; /* "PROJECT/NAME" */
	int64_t id;
};

/* An upload waiting for its transaction (see store_run_add). */
struct run_job {
	int64_t project, commit_time;
	const struct bm_report *report;
	const char *platform;
	int created, rc, done;
	char *err;
	struct fresh_benchmark *fresh;
	size_t nfresh, fresh_alloc;
	struct run_job *next;
};

/* What a history shows of each point's run, cached by the run's key: a
 * run never changes once stored, and every benchmark's history on a
 * branch names the same runs, so after the first history the database is
 * asked for results alone (a third of the time: docs/performance.md).
 * Emptied when it reaches RUN_CACHE_MAX runs. */
struct run_entry {
	uint32_t text[4]; /* sha, run_id, model, platform in the pool */
	int pr;           /* a pull-request run (not in branch histories) */
};

struct run_cache {
	pthread_rwlock_t lock;
	struct idmap *index; /* run key -> entry */
	struct strpool *texts;
	struct run_entry *entries;
	size_t n, alloc;
};

#define RUN_CACHE_MAX 200000

struct store {
	const struct store_backend *be;
	struct store_db *db;
	pthread_mutex_t write_lock; /* one writer of this process at a time */
	pthread_mutex_t queue_lock; /* uploads waiting for a commit */
	struct run_job *queue, **queue_tail;
	struct run_cache runs; /* for histories */
	/* Committed benchmark ids by "PROJECT/NAME" (under write_lock): an
	 * upload of known benchmarks reads none from the database. */
	struct strpool *benchmark_keys;
	int64_t *benchmark_ids;
	size_t benchmark_alloc;
};

/* ---- opening ---- */

/* Whether db names a PostgreSQL database: a URI, or a libpq key=value
 * string ("host=... dbname=..."; a file name with '=' and a space in it
 * is given as sqlite:PATH). */
static int is_postgresql(const char *db)
{
	return !strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11) ||
	       (strchr(db, '=') && strchr(db, ' ') && !strchr(db, '/'));
}

const struct store_backend *store_backend_of(const char *db, const char **target, char **err)
{
	*target = db;
	if (is_postgresql(db)) {
#ifdef HAVE_POSTGRESQL
		return &store_pg;
#else
		bm_error(err, "this bm-server was built without PostgreSQL (configure --with-postgresql, with "
			      "Debian's libpq-dev)");
		return NULL;
#endif
	}
	(void)err;
	if (!strncmp(db, "sqlite:", 7))
		*target = db + 7;
	return &store_sqlite;
}

char *store_display(const char *db)
{
	const char *target;
	char *err = NULL;
	const struct store_backend *be = store_backend_of(db, &target, &err);
	free(err);
	return be ? be->display(target) : xstrdup("a PostgreSQL database");
}

struct store *store_open(const char *db, const struct store_options *o, char **err)
{
	struct store_options defaults = {.merge_rows = STORE_DEFAULT_MERGE_ROWS};
	const char *target;
	const struct store_backend *be = store_backend_of(db, &target, err);
	if (!be)
		return NULL;
	struct store_db *handle = be->open(target, o ? o : &defaults, err);
	if (!handle)
		return NULL;
	struct store *st = xcalloc(1, sizeof *st);
	st->be = be;
	st->db = handle;
	st->benchmark_keys = strpool_new();
	pthread_rwlock_init(&st->runs.lock, NULL);
	st->runs.index = idmap_new();
	st->runs.texts = strpool_new();
	pthread_mutex_init(&st->write_lock, NULL);
	pthread_mutex_init(&st->queue_lock, NULL);
	st->queue_tail = &st->queue;
	return st;
}

void store_free(struct store *st)
{
	if (!st)
		return;
	st->be->close(st->db);
	pthread_mutex_destroy(&st->write_lock);
	pthread_mutex_destroy(&st->queue_lock);
	strpool_free(st->benchmark_keys);
	pthread_rwlock_destroy(&st->runs.lock);
	idmap_free(st->runs.index);
	strpool_free(st->runs.texts);
	free(st->runs.entries);
	free(st->benchmark_ids);
	free(st);
}

const char *store_backend_name(const struct store *st)
{
	return st->be->name;
}

/* ---- projects, settings, tokens, acknowledgements ---- */

int store_project_create(struct store *st, const char *name, char **err)
{
	pthread_mutex_lock(&st->write_lock);
	int rc = st->be->project_create(st->db, name, (int64_t)time(NULL), err);
	pthread_mutex_unlock(&st->write_lock);
	return rc;
}

int store_project_get(struct store *st, const char *name, struct project *p, char **err)
{
	return st->be->project_get(st->db, name, p, err);
}

int store_project_put_settings(struct store *st, const struct project *p, char **err)
{
	pthread_mutex_lock(&st->write_lock);
	int rc = st->be->project_put_settings(st->db, p, err);
	pthread_mutex_unlock(&st->write_lock);
	return rc;
}

int store_token_create(struct store *st, int64_t project, int admin, char **token, char **err)
{
	int64_t id;
	return store_token_create_id(st, project, admin, token, &id, err);
}

int store_token_create_id(struct store *st, int64_t project, int admin, char **token, int64_t *id, char **err)
{
	char *t = token_new(err);
	if (!t)
		return -1;
	unsigned char hash[TOKEN_HASH_SIZE];
	token_hash(t, hash);
	pthread_mutex_lock(&st->write_lock);
	int rc = st->be->token_add(st->db, project, hash, sizeof hash, admin != 0, (int64_t)time(NULL), id, err);
	pthread_mutex_unlock(&st->write_lock);
	if (rc)
		free(t);
	else
		*token = t;
	return rc;
}

int store_token_access(struct store *st, int64_t project, const char *token, char **err)
{
	unsigned char hash[TOKEN_HASH_SIZE];
	token_hash(token, hash);
	return st->be->token_access(st->db, project, hash, sizeof hash, err);
}

int store_token_list(struct store *st, int64_t project, struct store_token **tokens, size_t *n, char **err)
{
	return st->be->token_list(st->db, project, tokens, n, err);
}

int store_token_delete(struct store *st, int64_t project, int64_t id, char **err)
{
	pthread_mutex_lock(&st->write_lock);
	int rc = st->be->token_delete(st->db, project, id, err);
	pthread_mutex_unlock(&st->write_lock);
	return rc;
}

int store_ack_add(struct store *st, int64_t project, const struct store_ack *a, int64_t *id, char **err)
{
	pthread_mutex_lock(&st->write_lock);
	int rc = st->be->ack_add(st->db, project, a, id, err);
	pthread_mutex_unlock(&st->write_lock);
	return rc;
}

int store_acks_of(struct store *st, int64_t project, const char *sha, long pr, struct store_ack **acks, size_t *n,
		  char **err)
{
	return st->be->acks(st->db, project, sha, pr, 0, acks, n, err);
}

int store_ack_list(struct store *st, int64_t project, struct store_ack **acks, size_t *n, char **err)
{
	return st->be->acks(st->db, project, NULL, 0, 1, acks, n, err);
}

int store_ack_delete(struct store *st, int64_t project, int64_t id, char **err)
{
	pthread_mutex_lock(&st->write_lock);
	int rc = st->be->ack_delete(st->db, project, id, err);
	pthread_mutex_unlock(&st->write_lock);
	return rc;
}

void store_acks_free(struct store_ack *acks, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(acks[i].benchmark);
		free(acks[i].sha);
		free(acks[i].by);
		free(acks[i].reason);
	}
	free(acks);
}

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
static int profile_blob(const struct bm_benchmark *b, unsigned char **data, size_t *size, size_t *raw)
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

/* The row b is stored as (the rules are here, not in a backend).  *blob
 * is the compressed profile the row points to (the caller frees it). */
static int result_row(const struct bm_benchmark *b, int64_t bench, struct store_row *row, unsigned char **blob,
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
	/* Warm and cold results are told apart as two models are. */
	char *model = report_comparison_model(&r->model), *ancestors = ancestors_text(r->context.commit);
	struct store_run_row row = {
		.run_id = r->run_id,
		.branch = r->context.branch,
		.sha = r->context.commit->sha,
		.base_branch = r->context.pr ? r->context.pr->base_branch : NULL,
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
		const struct bm_benchmark *b = &r->benchmarks[i];
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

/* ---- reading runs and results ---- */

void store_run_release(struct store_run *run)
{
	free(run->run_id);
	free(run->branch);
	free(run->sha);
	free(run->model);
	free(run->platform);
	free(run->base_branch);
	for (size_t i = 0; i < run->nancestors; i++)
		free(run->ancestors[i]);
	free(run->ancestors);
	memset(run, 0, sizeof *run);
}

int store_commit_run(struct store *st, int64_t project, const char *sha, long pr, struct store_run *run,
		     char **err)
{
	return st->be->run_find(st->db, RUNQ_COMMIT, project, sha, NULL, NULL, pr > 0 ? pr : 0, run, err);
}

int store_commit_run_like(struct store *st, int64_t project, const char *sha, const char *model,
			  const char *platform, struct store_run *run, char **err)
{
	return st->be->run_find(st->db, RUNQ_COMMIT_LIKE, project, sha, model, platform, 0, run, err);
}

int store_branch_head_run(struct store *st, int64_t project, const char *branch, const char *model,
			  const char *platform, struct store_run *run, char **err)
{
	return st->be->run_find(st->db, RUNQ_BRANCH_HEAD, project, branch, model, platform, 0, run, err);
}

int store_branch_head_any(struct store *st, int64_t project, const char *branch, struct store_run *run,
			  char **err)
{
	return st->be->run_find(st->db, RUNQ_BRANCH_ANY, project, branch, NULL, NULL, 0, run, err);
}

int store_run_get(struct store *st, int64_t project, const char *run_id, struct store_run *run, char **err)
{
	return st->be->run_find(st->db, RUNQ_RUN_ID, project, run_id, NULL, NULL, 0, run, err);
}

int store_benchmark_ids(struct store *st, int64_t project, const char *branch, char ***ids, size_t *n,
			char **err)
{
	return st->be->benchmark_names(st->db, project, branch, ids, n, err);
}

void store_strings_free(char **strings, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(strings[i]);
	free(strings);
}

int store_series_heads(struct store *st, int64_t project, struct store_series_head **heads, size_t *n,
		       char **err)
{
	return st->be->series_heads(st->db, project, heads, n, err);
}

void store_series_heads_free(struct store_series_head *heads, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(heads[i].branch);
		free(heads[i].model);
		free(heads[i].platform);
	}
	free(heads);
}

int store_commit_results(struct store *st, int64_t project, const struct store_run *run,
			 struct store_result **results, size_t *n, char **err)
{
	return st->be->commit_results(st->db, project, run, results, n, err);
}

void store_results_free(struct store_result *results, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(results[i].id);
		free(results[i].reason);
		free(results[i].metric);
		free(results[i].unit);
		free(results[i].run_id);
	}
	free(results);
}

/* ---- series ---- */

/* The column of a metric, from a fixed list: never text from a request.
 * Both backends name their columns so. */
static const char *metric_column(const char *metric)
{
	static const char *const columns[][2] = {
		{"speed", "speed"},   {"cycles", "cycles"},   {"time_s", "time_s"},
		{"Ir", "ev_Ir"},      {"Dr", "ev_Dr"},         {"Dw", "ev_Dw"},
		{"I1mr", "ev_I1mr"},  {"D1mr", "ev_D1mr"},     {"D1mw", "ev_D1mw"},
		{"ILmr", "ev_ILmr"},  {"DLmr", "ev_DLmr"},     {"DLmw", "ev_DLmw"},
		{"Bc", "ev_Bc"},      {"Bcm", "ev_Bcm"},       {"Bi", "ev_Bi"},
		{"Bim", "ev_Bim"},    {"sysCount", "ev_sysCount"}, {"sysTime", "ev_sysTime"},
		{"sysCpuTime", "ev_sysCpuTime"},
	};
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (!strcmp(metric, columns[i][0]))
			return columns[i][1];
	return NULL;
}

int store_metric_known(const char *metric)
{
	return metric_column(metric) != NULL;
}

/* A point's four strings share one allocation, which starts at sha. */
static void point_release(struct store_point *p)
{
	free(p->sha);
}

void store_points_free(struct store_point *points, size_t n)
{
	for (size_t i = 0; i < n; i++)
		point_release(&points[i]);
	free(points);
}

void store_point_set_texts(struct store_point *p, const char *const text[4])
{
	size_t len[4], total = 0;
	for (int i = 0; i < 4; i++) {
		len[i] = text[i] ? strlen(text[i]) : 0;
		total += len[i] + 1;
	}
	char *at = xmalloc(total);
	char **field[4] = {&p->sha, &p->run_id, &p->model, &p->platform};
	for (int i = 0; i < 4; i++) {
		memcpy(at, text[i] ? text[i] : "", len[i]);
		at[len[i]] = '\0';
		*field[i] = at;
		at += len[i] + 1;
	}
}

/* Keeps one point per commit, its newest run's, in place; the order of
 * what stays is kept.  (A commit's runs normally share one commit time
 * and sit side by side; the hash table finds them wherever they are.) */
static void points_one_per_commit(struct store_point *points, size_t *n)
{
	/* Open addressing over point indexes, keyed by SHA, at most half full.
	 * group[i]: the first point of i's commit; newest[g]: that commit's
	 * newest point, for each first point g. */
	const size_t none = (size_t)-1;
	size_t size = 16;
	while (size < 2 * *n)
		size *= 2;
	size_t *slot = xmalloc(size * sizeof *slot), *group = xcalloc(*n + 1, sizeof *group),
	       *newest = xcalloc(*n + 1, sizeof *newest);
	for (size_t i = 0; i < size; i++)
		slot[i] = none;
	for (size_t i = 0; i < *n; i++) {
		size_t at = (size_t)hash_bytes(points[i].sha, strlen(points[i].sha)) & (size - 1);
		while (slot[at] != none && strcmp(points[slot[at]].sha, points[i].sha))
			at = (at + 1) & (size - 1);
		if (slot[at] == none)
			slot[at] = newest[i] = i;
		group[i] = slot[at];
		if (points[i].run_pk > points[newest[group[i]]].run_pk)
			newest[group[i]] = i;
	}
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		if (newest[group[i]] == i)
			points[out++] = points[i];
		else
			point_release(&points[i]);
	}
	*n = out;
	free(slot);
	free(group);
	free(newest);
}

/* Gives point p its run's texts from the cache: 1 (p filled), 2 (a
 * pull-request run: not part of a history), 0 (not cached).  The caller
 * holds the cache's lock. */
static int run_cache_fill(struct run_cache *rc, struct store_point *p)
{
	uint32_t at;
	if (!idmap_lookup(rc->index, (uint64_t)p->run_pk, 0, &at))
		return 0;
	const struct run_entry *e = &rc->entries[at];
	if (e->pr)
		return 2;
	const char *text[4];
	for (int i = 0; i < 4; i++)
		text[i] = strpool_get(rc->texts, e->text[i]);
	store_point_set_texts(p, text);
	return 1;
}

static void run_cache_add(struct run_cache *rc, int64_t pk, char *const text[4], int pr)
{
	pthread_rwlock_wrlock(&rc->lock);
	uint32_t at;
	if (!idmap_lookup(rc->index, (uint64_t)pk, 0, &at)) {
		if (rc->n >= RUN_CACHE_MAX) {
			idmap_free(rc->index);
			strpool_free(rc->texts);
			rc->index = idmap_new();
			rc->texts = strpool_new();
			rc->n = 0;
		}
		xgrow(&rc->entries, &rc->alloc, rc->n + 1, sizeof *rc->entries);
		struct run_entry *e = &rc->entries[rc->n];
		for (int i = 0; i < 4; i++)
			e->text[i] = strpool_intern(rc->texts, text[i] ? text[i] : "", text[i] ? strlen(text[i]) : 0);
		e->pr = pr;
		idmap_insert(rc->index, (uint64_t)pk, 0, (uint32_t)rc->n++);
	}
	pthread_rwlock_unlock(&rc->lock);
}

/* Reads run pk into the cache from the database (a run that is not there
 * any more is left out). */
static int run_cache_load(struct store *st, int64_t pk, char **err)
{
	char *text[4] = {0};
	int pr = 0;
	int rc = st->be->run_facts(st->db, pk, text, &pr, err);
	if (rc == 1)
		run_cache_add(&st->runs, pk, text, pr);
	for (int i = 0; i < 4; i++)
		free(text[i]);
	return rc < 0 ? -1 : rc;
}

/* Gives the points their runs' texts, from the cache, loading what it
 * lacks, and leaves out the points of pull requests' runs (at most twice:
 * a run loaded can be emptied out again by a full cache). */
static int points_fill_runs(struct store *st, struct store_point *points, size_t *n, char **err)
{
	size_t out = 0;
	int rc = 0;
	for (size_t i = 0; !rc && i < *n; i++) {
		struct store_point *p = &points[i];
		int found = 0;
		for (int tries = 0; !rc && !found && tries < 3; tries++) {
			pthread_rwlock_rdlock(&st->runs.lock);
			found = run_cache_fill(&st->runs, p);
			pthread_rwlock_unlock(&st->runs.lock);
			if (!found && (rc = run_cache_load(st, p->run_pk, err)) == 0)
				break; /* gone */
			rc = rc < 0 ? -1 : 0;
		}
		if (found == 1)
			points[out++] = *p;
	}
	if (rc) {
		for (size_t i = 0; i < out; i++)
			point_release(&points[i]);
		out = 0;
	}
	*n = out;
	return rc;
}

/* Leaves out, in place, the ok points without a value: in an imported
 * metric's series, the commits whose result does not carry it. */
static void points_drop_unmeasured(struct store_point *points, size_t *n)
{
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		if (points[i].status == BM_STATUS_OK && !points[i].has_value)
			point_release(&points[i]);
		else
			points[out++] = points[i];
	}
	*n = out;
}

int store_history(struct store *st, int64_t project, const char *id, const char *branch, const char *metric,
		  struct store_point **points, size_t *n, char **err)
{
	const char *column = metric_column(metric), *imported = column ? NULL : metric;
	if (st->be->history(st->db, project, id, branch, column, imported, points, n, err))
		return -1;
	if (points_fill_runs(st, *points, n, err)) {
		free(*points);
		*points = NULL;
		*n = 0;
		return -1;
	}
	points_one_per_commit(*points, n);
	if (imported)
		points_drop_unmeasured(*points, n);
	return 0;
}

/* Gathers one benchmark's points at a time for store_branch_series. */
struct series_walk {
	store_series_fn fn;
	void *ctx;
	char *current;
	struct store_point *points;
	size_t n, alloc;
};

static int series_flush(struct series_walk *w)
{
	int rc = 0;
	if (w->current) {
		points_one_per_commit(w->points, &w->n);
		rc = w->fn(w->ctx, w->current, w->points, w->n);
	}
	store_points_free(w->points, w->n);
	w->points = NULL;
	w->n = w->alloc = 0;
	free(w->current);
	w->current = NULL;
	return rc;
}

static int series_row(void *ctx, const char *benchmark, const struct store_point *p)
{
	struct series_walk *w = ctx;
	if (w->current && strcmp(w->current, benchmark) && series_flush(w)) {
		free(p->sha); /* the point's texts, which were handed over */
		return -1;
	}
	if (!w->current)
		w->current = xstrdup(benchmark);
	xgrow(&w->points, &w->alloc, w->n + 1, sizeof *w->points);
	w->points[w->n++] = *p;
	return 0;
}

int store_branch_series(struct store *st, int64_t project, const char *branch, const char *metric,
			store_series_fn fn, void *ctx, char **err)
{
	const char *column = metric_column(metric);
	if (!column)
		return bm_error(err, "unknown metric '%s'", metric);
	struct series_walk w = {.fn = fn, .ctx = ctx};
	int rc = st->be->branch_series(st->db, project, branch, column, series_row, &w, err);
	if (!rc)
		return series_flush(&w);
	store_points_free(w.points, w.n);
	free(w.current);
	return rc;
}

/* ---- what the pages list ---- */

int store_projects(struct store *st, struct store_project_row **rows, size_t *n, char **err)
{
	return st->be->projects(st->db, rows, n, err);
}

void store_project_rows_free(struct store_project_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].name);
	free(rows);
}

int store_branches(struct store *st, int64_t project, struct store_branch_row **rows, size_t *n, char **err)
{
	return st->be->branches(st->db, project, rows, n, err);
}

void store_branch_rows_free(struct store_branch_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].name);
		free(rows[i].sha);
		free(rows[i].run_id);
	}
	free(rows);
}

int store_profile(struct store *st, int64_t project, const char *run_id, const char *id, char **json, size_t *len,
		  char **err)
{
	unsigned char *data;
	size_t size, raw;
	int rc = st->be->profile(st->db, project, run_id, id, &data, &size, &raw, err);
	if (rc <= 0)
		return rc;
	uLongf out = raw;
	*json = xmalloc(raw + 1);
	if (uncompress((Bytef *)*json, &out, data, (uLong)size) != Z_OK) {
		free(data);
		free(*json);
		*json = NULL;
		return bm_error(err, "database: a stored profile does not decompress");
	}
	free(data);
	(*json)[out] = '\0';
	*len = out;
	return 1;
}
