/* SPDX-License-Identifier: MIT */
/* From profiles to the report: one benchmark per callgrind dump. */
#ifndef BM_BENCHMARK_H
#define BM_BENCHMARK_H

#include "model.h"
#include "profile.h"
#include "report.h"

/* The benchmark name a dump stands for, newly allocated: the text of a
 * client-request trigger ("Client Request: bench_fib" gives "bench_fib",
 * as libbm names its dumps "suite::name[tag]"), the program's basename for
 * "Program termination", the text after "Kind: " for other triggers, and
 * the file's basename when the dump says nothing. */
char *benchmark_name_of(const struct bm_profile *p);

/* Fills b (status ok) with what p measured under m: events, cycles, time,
 * speed, system calls and, when with_profile, the profile itself.  The id
 * is left to the caller. */
void benchmark_fill(struct bm_result *b, const struct bm_profile *p, const struct bm_model *m,
		    int with_profile);

/* Records m in the report's model, with the cache geometry p was simulated
 * with (or m's own when p does not say). */
void benchmark_fill_model(struct bm_report_model *out, const struct bm_model *m,
			  const struct bm_profile *p);

/* 1 when p's simulated caches are the geometry m assumes (or p gives none). */
int benchmark_geometry_matches(const struct bm_model *m, const struct bm_profile *p);

#endif
