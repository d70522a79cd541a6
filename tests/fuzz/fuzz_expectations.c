/* SPDX-License-Identifier: MIT */
/* Fuzzes bm-check's reader of Chromium-style expectations: any input
 * either fails with one line that names it, or gives expectations that
 * judge benchmarks of every status consistently with their keys. */
#include "config.h"

#include "expectations.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ids and platforms of the seed corpus, so that entries match. */
static const char *const ids[] = {"sort::a", "sort::b", "sort::c", "sort::d", "sort::qsort[n=1000]",
				  "parse::json", "plain", "a::b::c", "::x", ""};
static const char *const platforms[] = {"x86_64-debian-12-gcc-12.2.0", "unknown-unknown-unknown", NULL};

static const struct check_row rows[] = {
	{.status = "ok", .has_speed = 1, .has_base = 1, .has_impact = 1, .speed = 80, .base_speed = 100, .impact = -0.2},
	{.status = "ok", .has_speed = 1, .has_base = 1, .has_impact = 1, .speed = 120, .base_speed = 100, .impact = 0.2},
	{.status = "ok", .has_speed = 1, .has_base = 1, .has_impact = 1, .speed = 100, .base_speed = 100, .impact = 0},
	{.status = "ok", .has_speed = 1, .speed = 100},
	{.status = "failed", .reason = "killed by signal 11 (Segmentation fault)"},
	{.status = "failed"},
	{.status = "skipped", .reason = "not on this platform"},
	{.status = "missing", .has_base = 1, .base_speed = 100},
};

/* A key found for id on platform names that platform (or "*") and ends
 * in "/METRIC". */
static int key_fits(const char *key, const char *platform, const char *metric)
{
	size_t n = strlen(key), p = strlen(platform ? platform : "unknown"), m = strlen(metric);
	if (n < m + 1 || strcmp(key + n - m, metric) || key[n - m - 1] != '/')
		return 0;
	return !strncmp(key, "*/", 2) || (!strncmp(key, platform ? platform : "unknown", p) && key[p] == '/');
}

static void judge_in(const struct expectations *e, enum gate_metric m)
{
	for (size_t p = 0; p < sizeof platforms / sizeof *platforms; p++)
		for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
			for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
				struct check_row r = rows[k];
				r.id = (char *)ids[i];
				const char *key;
				char *note;
				const char *metric = expectations_metric(m);
				enum expectation x = expectations_judge(e, platforms[p], metric, &r, &key, &note);
				FUZZ_ASSERT(x >= EXPECT_UNLISTED && x <= EXPECT_FAILURE);
				FUZZ_ASSERT(*expectation_name(x));
				FUZZ_ASSERT(!key || key_fits(key, platforms[p], metric));
				/* Only an unlisted benchmark has no note; a failed one
				 * always fails. */
				FUZZ_ASSERT((x == EXPECT_UNLISTED) == (note == NULL));
				FUZZ_ASSERT(strcmp(r.status, "failed") || x == EXPECT_FAILURE);
				FUZZ_ASSERT(x != EXPECT_UNLISTED || !key);
				FUZZ_ASSERT(!note || !strchr(note, '\n'));
				free(note);
			}
}

static void judge_all(const struct expectations *e)
{
	for (int m = GATE_CYCLES; m <= GATE_SYSCALLS; m++)
		judge_in(e, (enum gate_metric)m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *why = NULL;
	struct expectations *e = expectations_parse((const char *)data, size, "input", &why);
	if (!e) {
		FUZZ_ASSERT(why && strstr(why, "input") && !strchr(why, '\n'));
		free(why);
		return 0;
	}
	FUZZ_ASSERT(why == NULL);
	judge_all(e);
	expectations_free(e);
	return 0;
}
