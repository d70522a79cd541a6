/* SPDX-License-Identifier: MIT */
/* Which run a commit is compared with (dashboard/api/baseline.c), on a
 * real SQLite store in a fresh directory per test: a push's closest
 * first-parent ancestor with a run; a pull request's merge commit's first
 * parent, else its base branch's latest run; the merge-base rule and its
 * fallback; a run of another series never chosen; and the reason, in
 * words, for each choice or for there being none.  The head is stored
 * and read back as the server does before it looks for a baseline. */
#include "config.h"

#include "baseline.h"
#include "report.h"
#include "store.h"
#include "unit.h"
#include "xalloc.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A 40-digit commit id from four hex digits: its 12-digit short form,
 * which the reasons quote, is the four three times over. */
#define SHA(d) d d d d d d d d d d
#define SHORT(d) d d d

/* A first-parent ancestry, nearest first; the words a reason must hold. */
#define ANCESTORS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

#define PLATFORM "{\"arch\":\"x86_64\",\"compiler\":\"gcc 12\",\"os\":\"Linux\"}"
#define MODEL1 "bm-model/1"
#define MODEL2 "bm-model/2"

/* One directory for the suite, made and removed outside the tests so
 * that a failed test leaves nothing behind; a store in a fresh directory
 * inside it for each test. */
static char top[64], dir[96];
static struct store *st;
static int64_t project;

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static void make_top(void)
{
	snprintf(top, sizeof top, "/tmp/bm-test-baseline.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
}

static void remove_top(void)
{
	nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void open_store(void)
{
	snprintf(dir, sizeof dir, "%s/test.XXXXXX", top);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *db = xasprintf("sqlite:%s/bm.db", dir), *err = NULL;
	st = store_open(db, NULL, &err);
	free(db);
	ck_assert_msg(st != NULL, "store_open: %s", err ? err : "?");
	struct project p;
	ck_assert_int_eq(store_project_create(st, "demo", &err), 1);
	ck_assert_int_eq(store_project_get(st, "demo", &p, &err), 1);
	project = p.id;
}

static void close_store(void)
{
	store_free(st);
	st = NULL;
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* One upload, as much of it as a baseline reads: where the commit sits
 * (branch, first-parent ancestry, nearest first, NULL-terminated), the
 * series and platform it was measured in, and its pull request.  Left
 * out: branch main, bm-model/1 on cold caches, PLATFORM, and a pull
 * request into main. */
struct upload {
	const char *sha, *branch;
	const char *const *ancestors;
	int64_t time; /* committer time */
	const char *model, *platform;
	int warm;
	long pr;
	const char *base_branch, *merge_base;
};

/* Stores u as a run of project; with run, reads it back into *run. */
static void upload(int64_t proj, const struct upload *u, struct store_run *run)
{
	struct bm_report r;
	report_init(&r);
	r.model.id = xstrdup(u->model ? u->model : MODEL1);
	r.model.warm_caches = u->warm;
	r.context.branch = xstrdup(u->branch ? u->branch : "main");
	r.context.commit = xcalloc(1, sizeof *r.context.commit);
	r.context.commit->sha = xstrdup(u->sha);
	for (const char *const *a = u->ancestors; a && *a; a++)
		r.context.commit->nancestors++;
	r.context.commit->ancestors = xcalloc(r.context.commit->nancestors + 1, sizeof(char *));
	for (size_t i = 0; i < r.context.commit->nancestors; i++)
		r.context.commit->ancestors[i] = xstrdup(u->ancestors[i]);
	if (u->pr) {
		r.context.pr = xcalloc(1, sizeof *r.context.pr);
		r.context.pr->number = u->pr;
		r.context.pr->base_branch = xstrdup(u->base_branch ? u->base_branch : "main");
		r.context.pr->merge_base = u->merge_base ? xstrdup(u->merge_base) : NULL;
	}
	char *err = NULL;
	int created = 0;
	ck_assert_msg(!store_run_add(st, proj, &r, u->platform ? u->platform : PLATFORM, u->time, &created, &err),
		      "store_run_add: %s", err ? err : "?");
	ck_assert_int_eq(created, 1);
	if (run)
		ck_assert_int_eq(store_run_get(st, proj, r.run_id, run, &err), 1);
	report_release(&r);
}

/* The baseline of head under rule, which baseline_find must answer. */
static void find(int64_t proj, const struct store_run *head, enum baseline_rule rule, struct baseline *b)
{
	char *err = NULL;
	ck_assert_msg(!baseline_find(st, proj, head, rule, b, &err), "baseline_find: %s", err ? err : "?");
	ck_assert_ptr_nonnull(b->reason);
}

static void found_is(const struct baseline *b, const char *sha, const char *reason)
{
	ck_assert_int_eq(b->found, 1);
	ck_assert_str_eq(b->run.sha, sha);
	ck_assert_str_eq(b->reason, reason);
}

static void none_is(const struct baseline *b, const char *reason)
{
	ck_assert_int_eq(b->found, 0);
	ck_assert_str_eq(b->reason, reason);
}

/* b's reason must hold each of words (NULL-terminated). */
static void reason_has(const struct baseline *b, const char *const *words)
{
	for (; *words; words++)
		ck_assert_msg(strstr(b->reason, *words) != NULL, "'%s' not in the reason: %s", *words, b->reason);
}

START_TEST(rule_names)
{
	enum baseline_rule r = BASELINE_MERGE_BASE;
	ck_assert_int_eq(baseline_rule_lookup("auto", &r), 0);
	ck_assert_int_eq(r, BASELINE_AUTO);
	ck_assert_int_eq(baseline_rule_lookup("merge-base", &r), 0);
	ck_assert_int_eq(r, BASELINE_MERGE_BASE);
	ck_assert_int_eq(baseline_rule_lookup("merge_base", &r), -1);
	ck_assert_int_eq(baseline_rule_lookup("", &r), -1);
	ck_assert_int_eq(r, BASELINE_MERGE_BASE);
}
END_TEST

/* main: a001 <- a002 <- a003 <- a004 <- a005; runs of a001 and a002, and
 * of a003 only in another series. */
START_TEST(push_closest_ancestor_with_a_run)
{
	upload(project, &(struct upload){.sha = SHA("a001"), .time = 100}, NULL);
	upload(project, &(struct upload){.sha = SHA("a002"), .ancestors = ANCESTORS(SHA("a001")), .time = 200}, NULL);
	/* Nearer, but measured under another cost model: skipped. */
	upload(project,
	       &(struct upload){.sha = SHA("a003"), .ancestors = ANCESTORS(SHA("a002"), SHA("a001")),
				.time = 300, .model = MODEL2},
	       NULL);
	struct store_run head;
	upload(project,
	       &(struct upload){.sha = SHA("a005"),
				.ancestors = ANCESTORS(SHA("a004"), SHA("a003"), SHA("a002"), SHA("a001")),
				.time = 500},
	       &head);
	struct baseline b;
	find(project, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("a002"),
		 "push to 'main': the closest first-parent ancestor with a run is " SHORT("a002") ", 3 commits back");
	ck_assert_str_eq(b.run.model, MODEL1);
	baseline_release(&b);
	ck_assert_ptr_null(b.reason);
	/* The rule asked for is a pull request's: a push ignores it. */
	find(project, &head, BASELINE_MERGE_BASE, &b);
	found_is(&b, SHA("a002"),
		 "push to 'main': the closest first-parent ancestor with a run is " SHORT("a002") ", 3 commits back");
	baseline_release(&b);
	store_run_release(&head);

	/* The next push: its parent, the head above, has a run. */
	upload(project,
	       &(struct upload){.sha = SHA("a006"),
				.ancestors = ANCESTORS(SHA("a005"), SHA("a004"), SHA("a003")), .time = 600},
	       &head);
	find(project, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("a005"), "push to 'main': the parent commit " SHORT("a005") " has a run");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

/* main: b001 (t 100), b002 (t 300), b003 (t 200, uploaded last). */
static void base_branch(int64_t proj)
{
	upload(proj, &(struct upload){.sha = SHA("b001"), .time = 100}, NULL);
	upload(proj, &(struct upload){.sha = SHA("b002"), .ancestors = ANCESTORS(SHA("b001")), .time = 300}, NULL);
	upload(proj, &(struct upload){.sha = SHA("b003"), .ancestors = ANCESTORS(SHA("b001")), .time = 200}, NULL);
}

START_TEST(pull_request_merge_commit_first_parent)
{
	base_branch(project);
	/* A GitHub merge commit: its first parent is main's b003, which has a
	 * run, though not main's latest by committer time. */
	struct store_run head;
	upload(project,
	       &(struct upload){.sha = SHA("c001"), .branch = "feature", .pr = 7,
				.ancestors = ANCESTORS(SHA("b003"), SHA("b001")), .time = 400},
	       &head);
	ck_assert_int_eq(head.pr, 7);
	ck_assert_str_eq(head.base_branch, "main");
	struct baseline b;
	find(project, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("b003"),
		 "pull request #7: the merge commit's first parent " SHORT("b003")
		 " (the head of 'main' it merges into) has a run");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

START_TEST(pull_request_base_branch_latest_run)
{
	base_branch(project);
	/* The first parent, main's newest commit, has no run yet: main's
	 * latest commit with one, by committer time (b002), not by upload. */
	struct store_run head;
	upload(project,
	       &(struct upload){.sha = SHA("c002"), .branch = "feature", .pr = 8,
				.ancestors = ANCESTORS(SHA("b004"), SHA("b002")), .time = 500},
	       &head);
	struct baseline b;
	find(project, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("b002"),
		 "pull request #8: the latest commit of base branch 'main' with a run (" SHORT("b002")
		 "); the merge commit's first parent has none");
	baseline_release(&b);
	store_run_release(&head);

	/* Uploaded without its ancestry: the base branch's latest run, and no
	 * word of a first parent. */
	upload(project, &(struct upload){.sha = SHA("c003"), .branch = "feature", .pr = 8, .time = 600}, &head);
	find(project, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("b002"),
		 "pull request #8: the latest commit of base branch 'main' with a run (" SHORT("b002") ")");
	baseline_release(&b);
	store_run_release(&head);

	/* A pull request's runs are never its base branch's head, even when
	 * uploaded with branch main and a later commit time. */
	upload(project, &(struct upload){.sha = SHA("c004"), .pr = 9, .base_branch = "main", .time = 900}, NULL);
	upload(project, &(struct upload){.sha = SHA("c005"), .branch = "feature", .pr = 8, .time = 1000}, &head);
	find(project, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("b002"),
		 "pull request #8: the latest commit of base branch 'main' with a run (" SHORT("b002") ")");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

/* main: d001 <- d002 <- d003 <- d004, with runs as has[] says; then the
 * merge commit of pull request #12, whose merge base is merge_base, into
 * *head. */
static int64_t merge_base_history(const char *name, const int has[4], const char *merge_base, struct store_run *head)
{
	static const char *const main_shas[] = {SHA("d001"), SHA("d002"), SHA("d003"), SHA("d004")};
	char *err = NULL;
	struct project p;
	ck_assert_int_eq(store_project_create(st, name, &err), 1);
	ck_assert_int_eq(store_project_get(st, name, &p, &err), 1);
	for (int i = 0; i < 4; i++) {
		if (!has[i])
			continue;
		const char *ancestors[5] = {NULL};
		for (int k = i - 1, n = 0; k >= 0; k--)
			ancestors[n++] = main_shas[k];
		upload(p.id, &(struct upload){.sha = main_shas[i], .ancestors = ancestors, .time = 100 * (i + 1)},
		       NULL);
	}
	upload(p.id,
	       &(struct upload){.sha = SHA("e001"), .branch = "topic", .pr = 12, .merge_base = merge_base,
				.ancestors = ANCESTORS(SHA("d004"), SHA("d003"), SHA("d002"), SHA("d001")),
				.time = 1000},
	       head);
	return p.id;
}

START_TEST(merge_base_rule)
{
	struct store_run head;
	struct baseline b;
	/* The merge base has a run: it, where the first parent would win. */
	int64_t p = merge_base_history("mb-run", (const int[]){1, 1, 1, 1}, SHA("d002"), &head);
	ck_assert_str_eq(head.merge_base, SHA("d002"));
	find(p, &head, BASELINE_MERGE_BASE, &b);
	found_is(&b, SHA("d002"), "pull request #12: its merge base " SHORT("d002") " with 'main' has a run");
	baseline_release(&b);
	find(p, &head, BASELINE_AUTO, &b);
	found_is(&b, SHA("d004"),
		 "pull request #12: the merge commit's first parent " SHORT("d004")
		 " (the head of 'main' it merges into) has a run");
	baseline_release(&b);
	store_run_release(&head);

	/* None at the merge base: its closest first-parent ancestor with one. */
	p = merge_base_history("mb-ancestor", (const int[]){1, 0, 1, 1}, SHA("d002"), &head);
	find(p, &head, BASELINE_MERGE_BASE, &b);
	found_is(&b, SHA("d001"),
		 "pull request #12: its merge base " SHORT("d002") " with 'main' has no run; its closest first-parent "
		 "ancestor with one is " SHORT("d001") ", 1 commit back");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

START_TEST(merge_base_rule_falls_back)
{
	struct store_run head;
	struct baseline b;
	/* Neither the merge base nor its ancestors have a run: the first
	 * parent's, and why the rule asked for was not followed. */
	int64_t p = merge_base_history("mb-none", (const int[]){0, 0, 0, 1}, SHA("d002"), &head);
	find(p, &head, BASELINE_MERGE_BASE, &b);
	found_is(&b, SHA("d004"),
		 "pull request #12: the merge commit's first parent " SHORT("d004")
		 " (the head of 'main' it merges into) has a run (merge-base rule: its merge base " SHORT("d002")
		 " has no run, nor has an ancestor of it uploaded with the run)");
	baseline_release(&b);
	store_run_release(&head);

	/* Uploaded without its merge base. */
	p = merge_base_history("mb-unknown", (const int[]){1, 1, 1, 1}, NULL, &head);
	ck_assert_ptr_null(head.merge_base);
	find(p, &head, BASELINE_MERGE_BASE, &b);
	ck_assert_int_eq(b.found, 1);
	ck_assert_str_eq(b.run.sha, SHA("d004"));
	reason_has(&b, WORDS("pull request #12: the merge commit's first parent " SHORT("d004"),
			     "(merge-base rule: the run was uploaded without its merge base",
			     "--merge-base)"));
	baseline_release(&b);
	store_run_release(&head);

	/* A merge base that is not in the uploaded ancestry: only itself. */
	p = merge_base_history("mb-elsewhere", (const int[]){1, 1, 1, 1}, SHA("0ff1"), &head);
	find(p, &head, BASELINE_MERGE_BASE, &b);
	found_is(&b, SHA("d004"),
		 "pull request #12: the merge commit's first parent " SHORT("d004")
		 " (the head of 'main' it merges into) has a run (merge-base rule: its merge base " SHORT("0ff1")
		 " has no run, nor has an ancestor of it uploaded with the run)");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

START_TEST(another_series_is_never_chosen)
{
	/* main's only run is of bm-model/2. */
	upload(project, &(struct upload){.sha = SHA("f001"), .time = 100, .model = MODEL2}, NULL);
	struct store_run head;
	struct baseline b;
	/* A pull request into main: its first parent, main's latest commit,
	 * has a run only of the other series. */
	upload(project,
	       &(struct upload){.sha = SHA("f003"), .branch = "feature", .pr = 3,
				.ancestors = ANCESTORS(SHA("f001")), .time = 300},
	       &head);
	find(project, &head, BASELINE_AUTO, &b);
	ck_assert_int_eq(b.found, 0);
	reason_has(&b,
		   WORDS("no baseline: base branch 'main' at " SHORT("f001") " has a run, but measured differently: ",
			 "cost model: " MODEL2 " there, " MODEL1 " here"));
	baseline_release(&b);
	store_run_release(&head);

	/* A push on main. */
	upload(project, &(struct upload){.sha = SHA("f002"), .ancestors = ANCESTORS(SHA("f001")), .time = 200}, &head);
	find(project, &head, BASELINE_AUTO, &b);
	ck_assert_int_eq(b.found, 0);
	reason_has(&b, WORDS("no baseline: ancestor " SHORT("f001") " has a run, but measured differently: ",
			     "cost model: " MODEL2 " there, " MODEL1 " here",
			     "bm-run --model " MODEL2 ", or --model " MODEL1,
			     "; only runs measured the same way on the same platform are compared"));
	baseline_release(&b);
	store_run_release(&head);

	/* Warm caches here, cold there: the field named is the caches. */
	upload(project,
	       &(struct upload){.sha = SHA("f004"), .ancestors = ANCESTORS(SHA("f001")), .time = 400,
				.model = MODEL2, .warm = 1},
	       &head);
	find(project, &head, BASELINE_AUTO, &b);
	ck_assert_int_eq(b.found, 0);
	reason_has(&b, WORDS("no baseline: ancestor " SHORT("f001") " has a run, but measured differently: ",
			     "simulated caches: cold there, warm here"));
	baseline_release(&b);
	store_run_release(&head);

	/* The same series on another platform. */
	upload(project,
	       &(struct upload){.sha = SHA("f005"), .ancestors = ANCESTORS(SHA("f001")), .time = 500,
				.model = MODEL2, .platform = "{\"arch\":\"aarch64\"}"},
	       &head);
	find(project, &head, BASELINE_AUTO, &b);
	none_is(&b, "no baseline: ancestor " SHORT("f001") " has a run, but on another platform (" PLATFORM
		    " there, {\"arch\":\"aarch64\"} here); only runs measured the same way on the same platform are "
		    "compared");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

START_TEST(no_baseline)
{
	struct store_run head;
	struct baseline b;
	/* A first commit: no ancestry at all. */
	upload(project, &(struct upload){.sha = SHA("9001"), .time = 100}, &head);
	find(project, &head, BASELINE_AUTO, &b);
	none_is(&b, "no baseline: the run was uploaded without its commit's ancestry (a first commit, or a shallow "
		    "clone: fetch the history, e.g. actions/checkout's fetch-depth: 0)");
	baseline_release(&b);
	store_run_release(&head);

	/* Ancestors, none of them measured. */
	upload(project,
	       &(struct upload){.sha = SHA("9005"), .branch = "other",
				.ancestors = ANCESTORS(SHA("9004"), SHA("9003"), SHA("9002")), .time = 500},
	       &head);
	find(project, &head, BASELINE_AUTO, &b);
	none_is(&b, "no baseline: none of the 3 first-parent ancestors uploaded with the run has a run");
	baseline_release(&b);
	store_run_release(&head);

	/* A pull request into a branch without runs, under either rule. */
	upload(project,
	       &(struct upload){.sha = SHA("9006"), .branch = "feature", .pr = 5, .base_branch = "release",
				.merge_base = SHA("9003"), .ancestors = ANCESTORS(SHA("9004"), SHA("9003")),
				.time = 600},
	       &head);
	find(project, &head, BASELINE_AUTO, &b);
	none_is(&b, "no baseline: base branch 'release' of pull request #5 has no run yet");
	baseline_release(&b);
	find(project, &head, BASELINE_MERGE_BASE, &b);
	none_is(&b, "no baseline: base branch 'release' of pull request #5 has no run yet (merge-base rule: its merge "
		    "base " SHORT("9003") " has no run, nor has an ancestor of it uploaded with the run)");
	baseline_release(&b);
	store_run_release(&head);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("baseline");
	TCase *tc = tcase_create("baseline");
	tcase_add_unchecked_fixture(tc, make_top, remove_top);
	tcase_add_checked_fixture(tc, open_store, close_store);
	tcase_add_test(tc, rule_names);
	tcase_add_test(tc, push_closest_ancestor_with_a_run);
	tcase_add_test(tc, pull_request_merge_commit_first_parent);
	tcase_add_test(tc, pull_request_base_branch_latest_run);
	tcase_add_test(tc, merge_base_rule);
	tcase_add_test(tc, merge_base_rule_falls_back);
	tcase_add_test(tc, another_series_is_never_chosen);
	tcase_add_test(tc, no_baseline);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
