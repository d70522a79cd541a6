/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "catch2_results.h"

#include "error.h"
#include "read_all.h"
#include "xalloc.h"
#include "xml.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The most bytes of a report read. */
#define MAX_REPORT ((size_t)64 << 20)

struct bench {
	char *id;
	char *failed;      /* the message, or NULL */
	uint64_t iterations;
	double mean_ns;    /* per iteration; < 0 until read */
};

struct reader {
	char *testcase;
	struct bench *v;
	size_t n, alloc;
	int in_bench;
};

/* A non-negative integer attribute (0 when absent: a benchmark that
 * failed has none), or -1 after failing. */
static int count_attr(struct xml *x, const char *name, uint64_t *out)
{
	const char *s = xml_attr(x, name);
	char *end;
	errno = 0;
	*out = 0;
	if (!s)
		return 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-')
		return xml_fail_tag(x, "<%s> %s: expected a count", xml_name(x, xml_depth(x)), name);
	*out = v;
	return 0;
}

static int start(struct xml *x, void *ctx)
{
	struct reader *rd = ctx;
	const char *el = xml_name(x, xml_depth(x));
	if (strcmp(el, "TestCase") == 0) {
		const char *name = xml_attr(x, "name");
		free(rd->testcase);
		rd->testcase = xstrdup(name ? name : "");
	} else if (strcmp(el, "BenchmarkResults") == 0) {
		const char *name = xml_attr(x, "name");
		uint64_t samples, iterations;
		if (!rd->testcase || rd->in_bench)
			return xml_fail_tag(x, "<BenchmarkResults> outside a <TestCase>");
		if (!name || !*name)
			return xml_fail_tag(x, "<BenchmarkResults> without a name");
		if (count_attr(x, "samples", &samples) || count_attr(x, "iterations", &iterations))
			return -1;
		xgrow(&rd->v, &rd->alloc, rd->n + 1, sizeof *rd->v);
		rd->v[rd->n++] = (struct bench){.id = xasprintf("%s::%s", rd->testcase, name),
						.iterations = samples * iterations,
						.mean_ns = -1};
		rd->in_bench = 1;
	} else if (rd->in_bench && xml_is(x, xml_depth(x), "mean", "BenchmarkResults")) {
		const char *v = xml_attr(x, "value");
		char *end;
		double d = v ? strtod(v, &end) : -1;
		if (!v || !*v || *end || !isfinite(d) || d < 0)
			return xml_fail_tag(x, "<mean> value: expected a non-negative number");
		rd->v[rd->n - 1].mean_ns = d;
	} else if (rd->in_bench && xml_is(x, xml_depth(x), "failed", "BenchmarkResults")) {
		const char *msg = xml_attr(x, "message");
		free(rd->v[rd->n - 1].failed);
		rd->v[rd->n - 1].failed = xstrdup(msg && *msg ? msg : "failed");
	}
	return 0;
}

static int end(struct xml *x, void *ctx)
{
	struct reader *rd = ctx;
	if (strcmp(xml_name(x, xml_depth(x)), "BenchmarkResults") == 0)
		rd->in_bench = 0;
	return 0;
}

/* The file at path, whole, or NULL with *err set. */
static char *read_report(const char *path, size_t *size, char **err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *data = NULL;
	if (fd < 0) {
		bm_error(err, "it wrote no Catch2 report (its main must be Catch2's, which reads -r and -o)");
		return NULL;
	}
	if (read_all(fd, MAX_REPORT, &data, size) && errno == EFBIG)
		bm_error(err, "its Catch2 report is larger than 64 MiB");
	else if (!data)
		bm_error(err, "cannot read its Catch2 report: %s", strerror(errno));
	close(fd);
	return data;
}

int catch2_parse(struct bm_report *r, const char *data, size_t size, const struct bm_model *m, catch2_add_fn *add,
		 char **err)
{
	static const struct xml_handler handler = {start, end, NULL};
	struct reader rd = {0};
	char *why = NULL;
	int rc = -1;
	if (xml_parse(data, size, "its Catch2 report", &handler, &rd, &why))
		bm_error(err, "%s", why);
	else if (!rd.n)
		bm_error(err, "it ran no benchmark (a test spec that matches none, or benchmarks not enabled: "
			      "CATCH_CONFIG_ENABLE_BENCHMARKING)");
	else
		rc = 0;
	for (size_t i = 0; i < rd.n; i++) {
		struct bench *w = &rd.v[i];
		if (rc == 0) {
			struct bm_result *b = add(r, w->id);
			if (w->failed || w->mean_ns < 0 || !w->iterations) {
				b->status = BM_STATUS_FAILED;
				b->reason = xstrdup(w->failed ? w->failed : "no mean time in its report");
			} else {
				b->status = BM_STATUS_OK;
				b->iterations = w->iterations;
				b->cycles = (uint64_t)llround(fmin(w->mean_ns * m->frequency_hz / 1e9, 9e18));
				b->time_s = model_time_s(m, b->cycles);
				b->speed = model_speed(m, b->cycles);
			}
		}
		free(w->id);
		free(w->failed);
	}
	free(rd.v);
	free(rd.testcase);
	free(why);
	return rc;
}

int catch2_collect(struct bm_report *r, const char *path, const struct bm_model *m, catch2_add_fn *add,
		   char **err)
{
	size_t size = 0;
	char *data = read_report(path, &size, err);
	int rc = data ? catch2_parse(r, data, size, m, add, err) : -1;
	free(data);
	return rc;
}
