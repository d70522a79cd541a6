/* SPDX-License-Identifier: MIT */
/* The store: see store.h.  What every backend would otherwise repeat,
 * in three files:
 *
 * - here: choosing and opening the backend, and the calls a backend
 *   answers alone (projects, settings, tokens and acknowledgements are
 *   read from the database every time, so that several servers on one
 *   database stay correct), and the stored profile's decompression;
 * - store_write.c: group commit (uploads that arrive together share one
 *   transaction, one fsync for many runs), the benchmark-id cache, the
 *   rules of what a result row holds (an imported benchmark's speed, a
 *   run's comparison model, the compressed profile);
 * - store_series.c: histories, with the cache of what a history shows of
 *   each run and the points it keeps.
 *
 * Below it, a backend's table of SQL functions (store_backend.h). */
#include "config.h"

#include "store_internal.h"

#include "error.h"
#include "idmap.h"
#include "strpool.h"
#include "token.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

/* ---- reading runs and results ---- */

void store_run_set_ancestors(struct store_run *run, const char *json)
{
	json_t *a = json_loads(json ? json : "[]", 0, NULL);
	size_t n = json_array_size(a);
	run->ancestors = xcalloc(n + 1, sizeof *run->ancestors);
	run->nancestors = 0;
	for (size_t i = 0; i < n; i++)
		if (json_is_string(json_array_get(a, i)))
			run->ancestors[run->nancestors++] = xstrdup(json_string_value(json_array_get(a, i)));
	json_decref(a);
}

void store_run_release(struct store_run *run)
{
	free(run->run_id);
	free(run->branch);
	free(run->sha);
	free(run->model);
	free(run->platform);
	free(run->base_branch);
	free(run->merge_base);
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

int store_commit_push_run(struct store *st, int64_t project, const char *sha, struct store_run *run, char **err)
{
	return st->be->run_find(st->db, RUNQ_COMMIT_PUSH, project, sha, NULL, NULL, 0, run, err);
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

int store_commit_runs(struct store *st, int64_t project, const char *sha, long pr, struct store_run **runs,
		      size_t *n, char **err)
{
	*runs = NULL;
	*n = 0;
	return st->be->commit_runs(st->db, project, sha, pr > 0 ? pr : 0, runs, n, err);
}

void store_runs_free(struct store_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
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

const struct store_heap_metric store_heap_metrics[STORE_HEAP_METRICS] = {
	{"allocations", "blocks"},  {"bytes_allocated", "bytes"}, {"peak_bytes", "bytes"}, {"leaked_bytes", "bytes"},
	{"leaked_blocks", "blocks"}, {"frees", "blocks"},          {"bytes_freed", "bytes"}, {"system_bytes", "bytes"},
};

void store_result_set_heap(struct store_result *x, const int has[STORE_HEAP_METRICS],
			   const double v[STORE_HEAP_METRICS])
{
	if (!has[0] || !has[1])
		return;
	x->heap = (struct bm_heap){.measured = 1,
				   .has_peak = has[2] && has[3] && has[4],
				   .allocations = (uint64_t)v[0],
				   .bytes_allocated = (uint64_t)v[1]};
	if (x->heap.has_peak) {
		x->heap.peak_bytes = (uint64_t)v[2];
		x->heap.leaked_bytes = (uint64_t)v[3];
		x->heap.leaked_blocks = (uint64_t)v[4];
		x->heap.frees = has[5] ? (uint64_t)v[5] : 0;
		x->heap.bytes_freed = has[6] ? (uint64_t)v[6] : 0;
	}
	if ((x->heap.has_system = has[7]))
		x->heap.system_bytes = (uint64_t)v[7];
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
