/* SPDX-License-Identifier: MIT */
/* Fuzzes bm-check's readers of bm-server's answers to GET
 * /api/v1/projects/NAME/commits/SHA/report (check_from_answer) and
 * .../runs (commit_runs_parse): any input either fails with one line
 * about the answer, or gives what bm-check uses as it does: a check to
 * judge with expectations (and without the benchmarks they list), print
 * as text, Markdown and a comment of several jobs, and sum up for a
 * commit status; a list of runs whose groups are among its runs. */
#include "config.h"

#include "check.h"
#include "check_config.h"
#include "commit_runs.h"
#include "check_markdown.h"
#include "check_output.h"
#include "expectations.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expectations that match the seed corpus's benchmarks. */
static const char expectations_text[] =
	"{\"x86_64-debian-12-gcc-12.2.0/suite/b1/speed\": {\"improve\": 0.05, \"regress\": -0.05},"
	" \"*/suite/b2/speed\": {\"improve\": 0.10, \"regress\": -0.10},"
	" \"*/suite/b3/speed\": {\"improve\": 0.50, \"regress\": -0.50},"
	" \"*//plain/speed\": {\"improve\": 0, \"regress\": 0}, \"load\": true}";

static const char config_text[] = "{\"benchmarks\": {\"suite::*\": {\"threshold\": 0.5}, \"a\": {\"threshold\": 0}}}";

/* The check's output is thrown away: only its making is tested. */
static FILE *sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	FUZZ_ASSERT(f != NULL);
	return f;
}

static void use(const struct check *c, const struct expectations *e)
{
	struct check_expected x;
	check_expected_init(&x, e, "expectations.json", c);
	int rc = check_expected_exit_code(c, &x);
	FUZZ_ASSERT(rc == 0 || rc == 1);
	check_print_text(sink(), c, NULL);
	check_print_text(sink(), c, &x);
	check_print_markdown(sink(), c, NULL);
	check_print_markdown(sink(), c, &x);
	struct check_section s[2] = {{c, &x, "x86_64, bm-model/1", "http://s/"}, {c, NULL, "aarch64, `m`", NULL}};
	check_print_comment(sink(), "<!-- bm-check: p -->", s, 2);
	check_expected_release(&x);
	char line[141];
	memset(line, 'x', sizeof line);
	check_format_summary(line, sizeof line - 1, c);
	FUZZ_ASSERT(memchr(line, '\0', sizeof line) != NULL);
	FUZZ_ASSERT(check_exit_code(c) == 0 || check_exit_code(c) == 1);
}

/* The same bytes as a list of runs. */
static void runs(const uint8_t *data, size_t size)
{
	struct commit_runs r;
	char *err = NULL;
	if (commit_runs_parse(&r, (const char *)data, size, &err)) {
		FUZZ_ASSERT(err && !strncmp(err, "the server's list of runs", 25) && !strchr(err, '\n'));
		FUZZ_ASSERT(r.groups == NULL && r.runs == NULL);
		free(err);
		return;
	}
	FUZZ_ASSERT(r.ngroups <= r.nruns && commit_runs_same(&r, &r));
	for (size_t i = 0; i < r.ngroups; i++) {
		int found = 0;
		for (size_t k = 0; k < r.nruns && !found; k++)
			found = !strcmp(r.groups[i], r.runs[k]);
		FUZZ_ASSERT(found);
	}
	commit_runs_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	runs(data, size);
	static struct expectations *e;
	char *err = NULL;
	if (!e) {
		e = expectations_parse(expectations_text, sizeof expectations_text - 1, "expectations.json", &err);
		FUZZ_ASSERT(e != NULL);
	}
	struct check c;
	if (check_from_answer(&c, (const char *)data, size, &err)) {
		FUZZ_ASSERT(err && !strncmp(err, "the server's answer", 19) && !strchr(err, '\n'));
		FUZZ_ASSERT(c.rows == NULL && c.nrows == 0 && c.commit == NULL);
		free(err);
		return 0;
	}
	FUZZ_ASSERT(c.commit && c.baseline_reason && (c.rows || c.nrows == 0));
	FUZZ_ASSERT(c.verdict >= VERDICT_REGRESSION && c.verdict < VERDICT_COUNT);
	for (size_t i = 0; i < c.nrows; i++) {
		const struct check_row *r = &c.rows[i];
		FUZZ_ASSERT(r->id && r->status);
		FUZZ_ASSERT(!strcmp(r->status, "ok") || !strcmp(r->status, "failed") || !strcmp(r->status, "skipped") ||
			    !strcmp(r->status, "not-run") || !strcmp(r->status, "missing"));
	}
	use(&c, e);
	/* Judged again as bm-check does: each gate metric, with and
	 * without thresholds of their own. */
	static struct check_config cfg;
	if (!cfg.nrules)
		FUZZ_ASSERT(!check_config_parse(&cfg, config_text, sizeof config_text - 1, "bm.json", &err));
	size_t n = c.nrows;
	for (int m = GATE_CYCLES; m <= GATE_SYSCALLS; m++) {
		check_judge(&c, (enum gate_metric)m, 0.1, m == GATE_INSTRUCTIONS ? NULL : &cfg);
		FUZZ_ASSERT(c.nrows == n);
		for (size_t i = 0; i < c.nrows; i++)
			FUZZ_ASSERT(!c.rows[i].has_impact || c.rows[i].impact >= -1); /* -1 by rounding */
		use(&c, e);
	}
	check_release(&c);
	return 0;
}
