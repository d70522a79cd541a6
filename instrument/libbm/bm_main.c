/* SPDX-License-Identifier: MIT */
/* bm_main: the command line of every benchmark binary. */
#include "config.h"

#include "bm_internal.h"

#include "atomic_file.h"
#include "json_buf.h"
#include "number.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

struct options {
	char *filters[BM_MAX_FILTERS]; /* not malloc'ed: see registry.c's arena */
	size_t nfilters;
	int list;
	double min_time_s;
	const char *resume_after;
	int warm;
	const char *json; /* natively: where the report goes */
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [--list] [--filter GLOB]... [--min-time SECONDS] [--json FILE]\n"
		"\n"
		"Runs the benchmarks built into this program.  Natively, each is timed\n"
		"with a calibrated loop and its median and spread are printed.  Under\n"
		"bm-run (bm-run -- %s) each runs once under Valgrind and gets\n"
		"deterministic cycles, time and speed.\n"
		"\n"
		"  --list             print the benchmark ids and exit\n"
		"  --filter GLOB      run only ids matching GLOB (shell pattern; repeatable)\n"
		"  --min-time SECONDS natively, time each benchmark at least this long\n"
		"                     (default 0.2)\n"
		"  --json FILE        natively, also write the times as a bm-report/1\n"
		"                     (metric walltime) that bm-upload takes; - is stdout\n"
		"                     (the table then goes to stderr)\n"
		"  --resume-after ID  run only the benchmarks after ID (bm-run uses it\n"
		"                     to go on after a benchmark crashed)\n"
		"  --warm             under Valgrind, measure each run after an unmeasured\n"
		"                     first one, on warm simulated caches (bm-run --warm)\n"
		"  -h, --help         show this help\n",
		prog, prog);
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"list", no_argument, NULL, 'l'},
		{"filter", required_argument, NULL, 'f'},
		{"min-time", required_argument, NULL, 'm'},
		{"resume-after", required_argument, NULL, 'r'},
		{"warm", no_argument, NULL, 'w'},
		{"json", required_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	char *err = NULL;
	*o = (struct options){.min_time_s = 0.2};
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->list = 1;
			break;
		case 'f':
			if (o->nfilters == BM_MAX_FILTERS) {
				bm_complain("more than %d --filter options", BM_MAX_FILTERS);
				return -1;
			}
			o->filters[o->nfilters++] = optarg;
			break;
		case 'm':
			if (number_option_real("--min-time", "seconds", optarg, 0.001, 3600, &o->min_time_s, &err)) {
				bm_complain("%s", err);
				free(err);
				return -1;
			}
			break;
		case 'r':
			o->resume_after = optarg;
			break;
		case 'w':
			o->warm = 1;
			break;
		case 'j':
			if (!*optarg) {
				bm_complain("--json needs a file name ('-' for standard output)");
				return -1;
			}
			o->json = optarg;
			break;
		case 'h':
			usage(stdout, argv[0]);
			exit(0);
		default:
			fprintf(stderr, "Try '%s --help'.\n", argv[0]);
			return -1;
		}
	}
	if (optind < argc) {
		bm_complain("unexpected argument '%s'", argv[optind]);
		fprintf(stderr, "Try '%s --help'.\n", argv[0]);
		return -1;
	}
	return 0;
}

/* Index of the first entry to run: after resume_after, or 0. */
static int first_entry(const struct bm_plan *plan, const char *resume_after, size_t *first)
{
	*first = 0;
	if (!resume_after)
		return 0;
	for (size_t i = 0; i < plan->n; i++)
		if (strcmp(plan->entries[i].id, resume_after) == 0) {
			*first = i + 1;
			return 0;
		}
	bm_complain("--resume-after: no benchmark '%s'", resume_after);
	return -1;
}

/* Times the plan from first on, printing a table to out and, with
 * report, adding each benchmark to it. */
static void run_natively(struct bm_plan *plan, size_t first, double min_time_s, FILE *out,
			 struct json_buf *report)
{
	size_t width = 9;
	for (size_t i = first; i < plan->n; i++)
		if (strlen(plan->entries[i].id) > width)
			width = strlen(plan->entries[i].id);
	fprintf(out, "%-*s %12s %9s %12s\n", (int)width, "benchmark", "median", "spread", "runs");
	for (size_t i = first; i < plan->n; i++) {
		struct bm_entry *e = &plan->entries[i];
		if (e->skipped_after) {
			char why[BM_REASON_MAX];
			plan_skip_reason(e, why);
			fprintf(out, "%-*s %12s   skipped: %s\n", (int)width, e->id, "-", why);
			if (report)
				native_report_add(report, i - first, e, NULL);
			continue;
		}
		struct native_result r;
		measure_natively(e, min_time_s, &r);
		const char *unit = "s";
		double v = r.median_s;
		if (r.median_s < 1e-6)
			v = r.median_s * 1e9, unit = "ns";
		else if (r.median_s < 1e-3)
			v = r.median_s * 1e6, unit = "us";
		else if (r.median_s < 1)
			v = r.median_s * 1e3, unit = "ms";
		fprintf(out, "%-*s %9.3g %-2s %8.1f%% %12lu\n", (int)width, e->id, v, unit,
			r.spread * 100, r.runs);
		fflush(out);
		if (report)
			native_report_add(report, i - first, e, &r);
		plan_skip_after(plan, i, r.median_s);
	}
}

/* Runs natively; with a report path, the report is opened first (a path
 * that cannot be written fails before any timing) and written whole at
 * the end, or not at all.  Returns the exit status. */
static int run_natively_to(struct bm_plan *plan, size_t first, const struct options *o)
{
	char *err = NULL;
	struct atomic_file *af = NULL;
	struct json_buf report = {0};
	FILE *table = stdout;
	if (o->json) {
		if (!(af = atomic_file_open(o->json, &err))) {
			bm_complain("--json: %s", err);
			free(err);
			return 2;
		}
		if (atomic_file_is_stdout(o->json))
			table = stderr;
		native_report_begin(&report);
	}
	run_natively(plan, first, o->min_time_s, table, o->json ? &report : NULL);
	if (!af)
		return 0;
	native_report_end(&report);
	/* A failed write shows in the stream's error flag, which commit checks. */
	size_t len;
	char *text = json_buf_detach(&report, &len);
	fwrite(text, 1, len, atomic_file_stream(af));
	free(text);
	if (atomic_file_commit(af, &err) < 0) {
		bm_complain("--json: %s", err);
		free(err);
		return 1;
	}
	return 0;
}

int bm_main(int argc, char **argv)
{
	struct options o;
	struct bm_plan plan;
	size_t first;
	if (parse(argc, argv, &o) < 0)
		return 2;
	int status = 0;
	if (plan_build(&plan, o.filters, o.nfilters) < 0 || first_entry(&plan, o.resume_after, &first) < 0) {
		status = 2;
	} else if (o.list) {
		for (size_t i = first; i < plan.n; i++)
			printf("%s\n", plan.entries[i].id);
	} else if (plan.n == 0 && o.nfilters) {
		/* A usage error (bm-run says so and exits 2 as well). */
		bm_complain("no benchmark matches --filter '%s'%s; --list shows them all", o.filters[0],
			    o.nfilters > 1 ? " or the other filters" : "");
		status = 2;
	} else if (plan.n == 0) {
		bm_complain("no benchmarks registered");
		status = 1;
	} else if (RUNNING_ON_VALGRIND && o.json) {
		/* Under bm-run, bm-run writes the report (bm-run -o FILE). */
		bm_complain("--json is for native runs; under Valgrind, bm-run -o FILE writes the report");
		status = 2;
	} else if (RUNNING_ON_VALGRIND) {
		run_under_valgrind(&plan, first, o.warm);
	} else {
		status = run_natively_to(&plan, first, &o);
	}
	plan_release(&plan);
	return status;
}
