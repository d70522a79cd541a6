/* bm_main: the command line of every benchmark binary. */
#include "bm_internal.h"

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
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [--list] [--filter GLOB]... [--min-time SECONDS]\n"
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
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	char *end;
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
			o->min_time_s = strtod(optarg, &end);
			if (*end || end == optarg || !(o->min_time_s > 0 && o->min_time_s < 3600)) {
				bm_complain("--min-time needs seconds between 0 and 3600, not '%s'", optarg);
				return -1;
			}
			break;
		case 'r':
			o->resume_after = optarg;
			break;
		case 'w':
			o->warm = 1;
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

static void run_natively(struct bm_plan *plan, size_t first, double min_time_s)
{
	size_t width = 9;
	for (size_t i = first; i < plan->n; i++)
		if (strlen(plan->entries[i].id) > width)
			width = strlen(plan->entries[i].id);
	printf("%-*s %12s %9s %12s\n", (int)width, "benchmark", "median", "spread", "runs");
	for (size_t i = first; i < plan->n; i++) {
		struct bm_entry *e = &plan->entries[i];
		if (e->skipped[0]) {
			printf("%-*s %12s   skipped: %s\n", (int)width, e->id, "-", e->skipped);
			continue;
		}
		double median, spread;
		unsigned long runs;
		measure_natively(e, min_time_s, &median, &spread, &runs);
		const char *unit = "s";
		double v = median;
		if (median < 1e-6)
			v = median * 1e9, unit = "ns";
		else if (median < 1e-3)
			v = median * 1e6, unit = "us";
		else if (median < 1)
			v = median * 1e3, unit = "ms";
		printf("%-*s %9.3g %-2s %8.1f%% %12lu\n", (int)width, e->id, v, unit, spread * 100, runs);
		fflush(stdout);
		plan_skip_after(plan, i, median);
	}
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
	} else if (plan.n == 0) {
		bm_complain(o.nfilters ? "no benchmark matches the filter" : "no benchmarks registered");
		status = 1;
	} else if (RUNNING_ON_VALGRIND) {
		run_under_valgrind(&plan, first, o.warm);
	} else {
		run_natively(&plan, first, o.min_time_s);
	}
	plan_release(&plan);
	return status;
}
