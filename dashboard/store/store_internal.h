/* SPDX-License-Identifier: MIT */
/* The store's own state, shared by its files (store.c: opening and the
 * calls a backend answers alone; store_write.c: adding runs;
 * store_series.c: histories).  Nothing outside the store includes it. */
#ifndef BM_STORE_INTERNAL_H
#define BM_STORE_INTERNAL_H

#include "store.h"
#include "store_backend.h"

#include <pthread.h>

struct idmap;
struct strpool;

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

#endif
