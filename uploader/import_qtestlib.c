/* SPDX-License-Identifier: MIT */
/* QTestLib's XML (a Qt test run with -o FILE,xml), docs/bm-import.md:
 *
 *   <TestCase name="tst_Bench">
 *     <TestFunction name="sort">
 *       <BenchmarkResult metric="WalltimeMilliseconds" tag="1000" value="12.5" iterations="64"/>
 *       <Incident type="fail" file="tst_bench.cpp" line="42">
 *         <DataTag><![CDATA[1000]]></DataTag>
 *         <Description><![CDATA['a == b' returned FALSE. ()]]></Description>
 *       </Incident>
 *
 * Notes
 * -----
 * - lib/xml.c reads the XML (the subset QTestLib writes, strictly: its
 *   limits and errors are there); input is at most IMPORT_MAX_INPUT bytes
 *   and a collected text at most XML_MAX_TEXT bytes.
 * - The id is "TestCase::TestFunction[tag]", without "[tag]" for an empty
 *   tag.  QTestLib's value is the total over all iterations, so the
 *   benchmark's value is value / iterations, as its plain-text output
 *   prints it; walltime is converted to seconds.
 * - A second BenchmarkResult for the same tag with another metric (Qt 6
 *   can measure several) becomes an extra metric; the same metric twice is
 *   an error.
 * - An Incident of type "fail" or "xpass" fails the benchmark of its
 *   DataTag (created, as failed, when the failure stopped it before its
 *   result), or every benchmark of its function when it has no DataTag.
 *   Failures in a function without any BenchmarkResult are an ordinary
 *   test's, not a benchmark's, and are not imported.
 */
#include "config.h"

#include "import.h"

#include "dynbuf.h"
#include "error.h"
#include "xalloc.h"
#include "xml.h"

#include <stdlib.h>
#include <string.h>

struct failure {
	char *tag; /* or NULL: the whole function */
	char *reason;
};

/* What the QTestLib handler keeps while the tokenizer walks the file. */
struct qt {
	struct bm_report *r;
	struct import_ids *ids;
	char *testcase, *function;
	size_t first; /* the index of the function's first benchmark */
	char *incident_type, *incident_where;
	struct dynbuf datatag, description;
	struct failure *failures;
	size_t nfailures, failures_alloc;
};


/* The QTestLib handler --------------------------------------------------- */

/* QTestLib's metric names and what bm calls them; others keep their name
 * and count things. */
static const struct {
	const char *qt, *metric, *unit;
	double scale;
} metrics[] = {
	{"WalltimeMilliseconds", "walltime", "s", 1e-3},
	{"WalltimeNanoseconds", "walltime", "s", 1e-9},
	{"CPUTicks", "CPUTicks", "ticks", 1},
	{"InstructionReads", "InstructionReads", "instructions", 1},
	{"BytesAllocated", "BytesAllocated", "bytes", 1},
	{"Events", "Events", "events", 1},
};

static const char *required(struct xml *x, const char *name)
{
	const char *v = xml_attr(x, name);
	if (!v)
		xml_fail_tag(x, "<%s> without a '%s' attribute", xml_name(x, xml_depth(x)), name);
	return v;
}

static char *benchmark_id(const struct qt *q, const char *tag)
{
	return *tag ? xasprintf("%s::%s[%s]", q->testcase, q->function, tag)
		    : xasprintf("%s::%s", q->testcase, q->function);
}

static int add_result(struct xml *x, struct qt *q)
{
	const char *metric, *value, *iterations, *tag = xml_attr(x, "tag") ? xml_attr(x, "tag") : "";
	double v, n;
	if (!(metric = required(x, "metric")) || !(value = required(x, "value")) ||
	    !(iterations = required(x, "iterations")))
		return -1;
	if (import_number(value, strlen(value), &v))
		return xml_fail_tag(x, "value: expected a number");
	/* Bounded before the cast: a double beyond 2^53 is no iteration count. */
	if (import_number(iterations, strlen(iterations), &n) || !(n >= 1 && n <= 9007199254740992.0) ||
	    n != (double)(long long)n)
		return xml_fail_tag(x, "iterations: expected a positive integer");
	const char *name = metric, *unit = "count";
	double scale = 1;
	for (size_t i = 0; i < sizeof metrics / sizeof *metrics; i++) {
		if (strcmp(metrics[i].qt, metric) == 0) {
			name = metrics[i].metric;
			unit = metrics[i].unit;
			scale = metrics[i].scale;
		}
	}
	if (!*name)
		return xml_fail_tag(x, "metric: expected a name");
	char *id = benchmark_id(q, tag), *why = NULL;
	long k = import_lookup(q->ids, id, strlen(id));
	struct bm_result *b = NULL;
	if (k >= (long)q->first) { /* another metric of the same benchmark */
		b = &q->r->benchmarks[k];
		int seen = 0;
		for (size_t i = 0; i < b->nmetrics; i++)
			seen |= strcmp(b->metrics[i].name, name) == 0;
		if (seen)
			b = NULL;
		if (!b)
			bm_error(&why, "duplicate metric in one benchmark");
	} else {
		b = import_add(q->r, q->ids, id, strlen(id), &why);
	}
	if (b)
		benchmark_add_metric(b, name, unit, v / n * scale);
	else
		xml_fail_tag(x, "%s", why);
	free(why);
	free(id);
	return b ? 0 : -1;
}

static int handle_start(struct xml *x, void *ctx)
{
	struct qt *q = ctx;
	const char *name;
	if (xml_depth(x) == 1) {
		if (strcmp(xml_name(x, 1), "TestCase") != 0)
			return xml_fail_tag(x, "expected <TestCase> as the root element, not <%s>",
					    xml_name(x, 1));
		if (!(name = required(x, "name")))
			return -1;
		q->testcase = xstrdup(name);
	} else if (xml_is(x, 2, "TestFunction", "TestCase")) {
		if (!(name = required(x, "name")))
			return -1;
		if (!*name)
			return xml_fail_tag(x, "<TestFunction> with an empty name");
		q->function = xstrdup(name);
		q->first = q->r->nbenchmarks;
	} else if (xml_is(x, 3, "BenchmarkResult", "TestFunction")) {
		return add_result(x, q);
	} else if (xml_is(x, 3, "Incident", "TestFunction")) {
		const char *file = xml_attr(x, "file"), *line = xml_attr(x, "line");
		if (!(name = required(x, "type")))
			return -1;
		q->incident_type = xstrdup(name);
		q->incident_where = file && *file ? xasprintf("%s:%s: ", file, line ? line : "0") : xstrdup("");
		dynbuf_reset(&q->datatag);
		dynbuf_reset(&q->description);
	}
	return 0;
}

static int handle_text(struct xml *x, const char *s, size_t n, void *ctx)
{
	struct qt *q = ctx;
	struct dynbuf *to = xml_is(x, 4, "DataTag", "Incident")       ? &q->datatag
			 : xml_is(x, 4, "Description", "Incident") ? &q->description
								   : NULL;
	if (to && dynbuf_add(to, s, n))
		return xml_fail(x, "text longer than %d bytes", XML_MAX_TEXT);
	return 0;
}

static void fail_benchmark(struct bm_result *b, const char *reason)
{
	if (b->status == BM_STATUS_FAILED)
		return; /* the first failure is the reason */
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
	}
	free(b->metrics);
	b->metrics = NULL;
	b->nmetrics = 0;
	b->status = BM_STATUS_FAILED;
	b->reason = xstrdup(reason);
}

/* Applies the function's failures to its benchmarks (QTestLib's Notes). */
static int end_function(struct xml *x, struct qt *q)
{
	int rc = 0;
	for (size_t i = 0; i < q->nfailures; i++) {
		struct failure *f = &q->failures[i];
		size_t n = q->r->nbenchmarks;
		if (n == q->first)
			break; /* not a benchmark */
		if (!f->tag) {
			for (size_t k = q->first; k < n; k++)
				fail_benchmark(&q->r->benchmarks[k], f->reason);
			continue;
		}
		char *id = benchmark_id(q, f->tag), *why = NULL;
		long k = import_lookup(q->ids, id, strlen(id));
		struct bm_result *b = k >= (long)q->first ? &q->r->benchmarks[k]
				       : k < 0 ? import_add(q->r, q->ids, id, strlen(id), &why)
					       : NULL;
		if (b)
			fail_benchmark(b, f->reason);
		else if (rc == 0)
			rc = xml_fail_tag(x, "%s", why ? why : "duplicate benchmark");
		free(why);
		free(id);
	}
	for (size_t i = 0; i < q->nfailures; i++) {
		free(q->failures[i].tag);
		free(q->failures[i].reason);
	}
	q->nfailures = 0;
	free(q->function);
	q->function = NULL;
	return rc;
}

static void end_incident(struct qt *q)
{
	if (strcmp(q->incident_type, "fail") == 0 || strcmp(q->incident_type, "xpass") == 0) {
		const char *d = q->description.len ? dynbuf_str(&q->description) : q->incident_type;
		xgrow(&q->failures, &q->failures_alloc, q->nfailures + 1, sizeof *q->failures);
		q->failures[q->nfailures++] = (struct failure){
			.tag = q->datatag.len ? xstrdup(dynbuf_str(&q->datatag)) : NULL,
			.reason = xasprintf("%s%s", q->incident_where, d),
		};
	}
	free(q->incident_type);
	free(q->incident_where);
	q->incident_type = q->incident_where = NULL;
}

static int handle_end(struct xml *x, void *ctx)
{
	if (xml_is(x, 2, "TestFunction", "TestCase"))
		return end_function(x, ctx);
	if (xml_is(x, 3, "Incident", "TestFunction"))
		end_incident(ctx);
	return 0;
}

static int parse(const char *data, size_t size, const char *name, struct bm_report *r, char **err)
{
	static const struct xml_handler handler = {handle_start, handle_end, handle_text};
	struct qt q = {.r = r, .ids = import_ids_new()};
	q.datatag = q.description = (struct dynbuf)DYNBUF_INIT(XML_MAX_TEXT);
	report_init(r);
	int rc = xml_parse(data, size, name, &handler, &q, err);
	if (rc == 0 && r->nbenchmarks == 0)
		rc = bm_error(err, "%s: no <BenchmarkResult> elements", name);
	for (size_t i = 0; i < q.nfailures; i++) {
		free(q.failures[i].tag);
		free(q.failures[i].reason);
	}
	free(q.failures);
	free(q.testcase);
	free(q.function);
	free(q.incident_type);
	free(q.incident_where);
	dynbuf_free(&q.datatag);
	dynbuf_free(&q.description);
	import_ids_free(q.ids);
	if (rc)
		report_release(r);
	return rc;
}

const struct import_format import_qtestlib = {
	.name = "qtestlib",
	.description = "QTestLib XML (a Qt test run with -o FILE,xml)",
	.parse = parse,
};
