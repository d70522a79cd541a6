/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "table.h"

#include "fmt.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BOLD "\033[1m"
#define RED "\033[31m"
#define YELLOW "\033[33m"
#define DIM "\033[2m"
#define RESET "\033[0m"

int table_use_color(FILE *stream)
{
	const char *term = getenv("TERM");
	const char *no = getenv("NO_COLOR");
	return isatty(fileno(stream)) && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

void table_print(FILE *out, const struct bm_report *r, int whole_process, int color)
{
	size_t w = strlen("benchmark");
	int per_call = 0, heap = 0;
	for (size_t i = 0; i < r->nbenchmarks; i++) {
		const struct bm_result *x = &r->benchmarks[i];
		if (strlen(x->id) > w)
			w = strlen(x->id);
		per_call |= x->calls > 0;
		/* The heap's columns where something allocated: most
		 * benchmarks do not, and their table stays as it was. */
		heap |= x->status == BM_STATUS_OK && x->heap.measured && x->heap.allocations > 0;
	}
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE], e[FMT_SIZE], f[FMT_SIZE], g[FMT_SIZE];
	fprintf(out, "%s%-*s %15s %11s %12s %9s %11s", color ? BOLD : "", (int)w, "benchmark", "cycles",
		"time", "speed", "syscalls", "sys time");
	if (per_call)
		fprintf(out, " %12s %13s", "calls", "cycles/call");
	if (heap)
		fprintf(out, " %9s %15s %15s", "allocs", "bytes", "peak bytes");
	fprintf(out, "%s\n", color ? RESET : "");
	for (size_t i = 0; i < r->nbenchmarks; i++) {
		const struct bm_result *x = &r->benchmarks[i];
		if (x->status != BM_STATUS_OK) {
			int failed = x->status == BM_STATUS_FAILED;
			fprintf(out, "%-*s %s%s%s: %s\n", (int)w, x->id, color ? (failed ? RED : YELLOW) : "",
				failed ? "FAILED" : report_status_name(x->status), color ? RESET : "",
				x->reason ? x->reason : "");
			continue;
		}
		fprintf(out, "%-*s %15s %11s %12s %9s %11s", (int)w, x->id, fmt_count(a, x->cycles),
			fmt_seconds(b, x->time_s), fmt_rate(c, x->speed), fmt_count(d, x->syscalls.count),
			fmt_ns(e, x->syscalls.wall_ns));
		if (x->calls)
			fprintf(out, " %12s %13s", fmt_count(f, x->calls),
				fmt_count(g, (x->cycles + x->calls / 2) / x->calls));
		else if (per_call && heap) /* (the heap's columns stay in line) */
			fprintf(out, " %12s %13s", "", "");
		if (heap && x->heap.measured)
			fprintf(out, " %9s %15s %15s", fmt_count(f, x->heap.allocations),
				fmt_count(g, x->heap.bytes_allocated), x->heap.has_peak ? fmt_count(a, x->heap.peak_bytes) : "-");
		else if (heap)
			fprintf(out, " %9s %15s %15s", "-", "-", "-");
		fputc('\n', out);
	}
	fprintf(out, "%s(%s at %.1f GHz: speed = executions per second; system calls are not part of it)%s\n",
		color ? DIM : "", r->model.id, r->model.frequency_hz / 1e9, color ? RESET : "");
	if (per_call)
		fprintf(out, "%s(a function's numbers are over all its calls; cycles/call is their mean)%s\n",
			color ? DIM : "", color ? RESET : "");
	if (heap)
		fprintf(out, "%s(allocs: the blocks it allocated, bytes: theirs, peak bytes: the most it held at once; "
			     "'-' where not counted)%s\n",
			color ? DIM : "", color ? RESET : "");
	if (whole_process)
		fprintf(out, "%s(a whole process's sys time includes Valgrind's own work in its system calls, "
			     "mostly reading debug information while the program maps its libraries)%s\n",
			color ? DIM : "", color ? RESET : "");
}
