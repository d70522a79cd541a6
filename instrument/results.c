#include "config.h"

#include "results.h"

#include "benchmark.h"
#include "log.h"
#include "path.h"
#include "profile.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int id_taken(const struct bm_report *r, const char *id)
{
	for (size_t i = 0; i < r->nbenchmarks; i++)
		if (strcmp(r->benchmarks[i].id, id) == 0)
			return 1;
	return 0;
}

static struct bm_benchmark *add(struct bm_report *r, const char *id)
{
	char *unique = xstrdup(id);
	for (int k = 2; id_taken(r, unique); k++) {
		free(unique);
		unique = xasprintf("%s#%d", id, k);
	}
	struct bm_benchmark *b = report_add_benchmark(r);
	benchmark_set_id(b, unique);
	free(unique);
	return b;
}

static void fail(struct bm_benchmark *b, enum bm_status status, const char *reason)
{
	b->status = status;
	b->reason = xstrdup(reason);
}

/* Copies a callgrind file to DIR/ID.callgrind (with '/' in ids made '_'). */
static void keep(const char *dump, const char *dir, const char *id)
{
	char *name = xasprintf("%s/%s.callgrind", dir, id);
	for (char *c = name + strlen(dir) + 1; *c; c++)
		if (*c == '/')
			*c = '_';
	FILE *in = fopen(dump, "rb"), *out = in ? fopen(name, "wb") : NULL;
	char buf[65536];
	size_t n;
	while (out && (n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	if (!in || !out || ferror(out))
		log_warn("cannot keep the callgrind file of '%s' as '%s': %s", id, name, strerror(errno));
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	free(name);
}

static void measured(struct bm_benchmark *b, const struct job *job, const struct entry *e,
		     const struct bm_model *m, int with_profile)
{
	struct bm_profile **parts = NULL;
	size_t n = 0;
	char *err = NULL;
	if (profile_load(e->dump, m, &parts, &n, &err) < 0 || n != 1) {
		char *why = xasprintf("its callgrind file is unusable: %s",
				      err ? err : "not exactly one dump in it");
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	} else if (job->mode == MODE_SYMBOL && parts[0]->nfns == 0) {
		char *why = xasprintf("'%s' was never called", job->symbol);
		fail(b, BM_STATUS_FAILED, why);
		free(why);
	} else {
		benchmark_fill(b, parts[0], m, with_profile);
	}
	for (size_t i = 0; i < n; i++)
		profile_free(parts[i]);
	free(parts);
	free(err);
}

size_t results_collect(struct bm_report *r, const struct job *jobs, size_t njobs,
		       const struct bm_model *m, int with_profile, const char *keep_dir)
{
	size_t failed = 0;
	for (size_t j = 0; j < njobs; j++) {
		const struct job *job = &jobs[j];
		if (job->mode == MODE_HARNESS && job->nentries == 0) {
			struct bm_benchmark *b = add(r, path_basename(job->program));
			fail(b, BM_STATUS_FAILED,
			     "the program ran no benchmark (does its main call bm_main, e.g. with BM_MAIN()?)");
		}
		for (size_t i = 0; i < job->nentries; i++) {
			const struct entry *e = &job->entries[i];
			struct bm_benchmark *b = add(r, e->id);
			if (e->state == ENTRY_DONE) {
				measured(b, job, e, m, with_profile);
				if (keep_dir && b->status == BM_STATUS_OK)
					keep(e->dump, keep_dir, b->id);
			} else if (e->state == ENTRY_SKIPPED) {
				fail(b, BM_STATUS_SKIPPED, e->reason ? e->reason : "skipped");
			} else {
				fail(b, BM_STATUS_FAILED, e->reason ? e->reason : "not run");
			}
		}
	}
	for (size_t i = 0; i < r->nbenchmarks; i++)
		failed += r->benchmarks[i].status == BM_STATUS_FAILED;
	return failed;
}
