/* SPDX-License-Identifier: MIT */
/* The upload context: see context.h. */
#include "config.h"

#include "context.h"

#include "error.h"
#include "report.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

/* The largest output read from one git command (257 SHAs fit easily). */
#define GIT_MAX_OUTPUT (64u << 10)

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* Runs git with args (NULL-terminated), stderr discarded; returns its
 * standard output with the last newline removed, or NULL when git failed
 * or is missing. */
static char *git(const char *const *args)
{
	int fd[2];
	if (pipe(fd))
		return NULL;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		FILE *null = freopen("/dev/null", "w", stderr);
		(void)null;
		size_t n = 0;
		while (args[n])
			n++;
		const char **argv = xcalloc(n + 2, sizeof *argv);
		argv[0] = "git";
		memcpy(argv + 1, args, n * sizeof *argv);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	char *out = xmalloc(GIT_MAX_OUTPUT + 1);
	size_t len = 0;
	ssize_t got;
	while ((got = read(fd[0], out + len, GIT_MAX_OUTPUT - len)) > 0)
		len += (size_t)got;
	close(fd[0]);
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || len == GIT_MAX_OUTPUT) {
		free(out);
		return NULL;
	}
	while (len && out[len - 1] == '\n')
		len--;
	out[len] = '\0';
	return out;
}

/* GitHub Actions: a pull_request event checks out the merge commit
 * (GITHUB_SHA) of GITHUB_HEAD_REF onto GITHUB_BASE_REF; GITHUB_REF is
 * refs/pull/N/merge.  A push names its branch in GITHUB_REF.  Returns 1
 * when running there. */
static int from_github(struct bm_context *ctx)
{
	if (!env("GITHUB_ACTIONS"))
		return 0;
	const char *event = env("GITHUB_EVENT_NAME"), *ref = env("GITHUB_REF");
	int pr_event = event && (!strcmp(event, "pull_request") || !strcmp(event, "pull_request_target"));
	if (pr_event && env("GITHUB_HEAD_REF")) {
		ctx->branch = xstrdup(env("GITHUB_HEAD_REF"));
		if (env("GITHUB_BASE_REF"))
			ctx->pr->base_branch = xstrdup(env("GITHUB_BASE_REF"));
		if (ref && !strncmp(ref, "refs/pull/", 10))
			ctx->pr->number = strtol(ref + 10, NULL, 10);
	} else if (ref && !strncmp(ref, "refs/heads/", 11)) {
		ctx->branch = xstrdup(ref + 11);
	}
	if (env("GITHUB_SHA"))
		ctx->commit->sha = xstrdup(env("GITHUB_SHA"));
	return 1;
}

/* GitLab CI: merge request pipelines name the request and its branches;
 * branch pipelines name the branch. */
static void from_gitlab(struct bm_context *ctx)
{
	if (!env("GITLAB_CI"))
		return;
	if (env("CI_MERGE_REQUEST_IID")) {
		ctx->pr->number = strtol(env("CI_MERGE_REQUEST_IID"), NULL, 10);
		if (env("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"))
			ctx->branch = xstrdup(env("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"));
		if (env("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"))
			ctx->pr->base_branch = xstrdup(env("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"));
	} else if (env("CI_COMMIT_BRANCH")) {
		ctx->branch = xstrdup(env("CI_COMMIT_BRANCH"));
	}
	if (env("CI_COMMIT_SHA"))
		ctx->commit->sha = xstrdup(env("CI_COMMIT_SHA"));
	/* The merge request's diff base: its merge base with the target. */
	if (ctx->pr->number > 0 && env("CI_MERGE_REQUEST_DIFF_BASE_SHA"))
		ctx->pr->merge_base = xstrdup(env("CI_MERGE_REQUEST_DIFF_BASE_SHA"));
}

static void replace(char **field, const char *value)
{
	if (!value)
		return;
	free(*field);
	*field = xstrdup(value);
}

/* The commit's time and first-parent ancestry from git. */
static int from_git(struct bm_context *ctx, char **err)
{
	if (!ctx->commit->sha) {
		const char *head[] = {"rev-parse", "--verify", "-q", "HEAD^{commit}", NULL};
		if (!(ctx->commit->sha = git(head)))
			return bm_error(err, "cannot tell which commit this is: not in a git repository with a commit "
					     "(give --commit SHA --commit-time TIME --branch NAME)");
	}
	if (!ctx->branch) {
		const char *branch[] = {"symbolic-ref", "--short", "-q", "HEAD", NULL};
		if (!(ctx->branch = git(branch)))
			return bm_error(err, "cannot tell the branch: HEAD is detached or this is not a git repository "
					     "(give --branch NAME)");
	}
	char *spec = xasprintf("%s^{commit}", ctx->commit->sha);
	const char *verify[] = {"rev-parse", "--verify", "-q", spec, NULL};
	char *full = git(verify);
	free(spec);
	if (!full) {
		if (ctx->commit->timestamp)
			return 0; /* given by flags: nothing to read, no ancestry */
		return bm_error(err, "cannot read commit '%s' from git: run in the repository with its history "
				     "(on GitHub: actions/checkout with fetch-depth: 0), or give --commit-time", ctx->commit->sha);
	}
	free(ctx->commit->sha);
	ctx->commit->sha = full;
	if (!ctx->commit->timestamp) {
		const char *show[] = {"show", "-s", "--format=%cI", ctx->commit->sha, NULL};
		if (!(ctx->commit->timestamp = git(show)))
			return bm_error(err, "cannot read the committer time of '%s' from git", ctx->commit->sha);
	}
	/* The server takes a pull request's first parent as its baseline: right
	 * for the merge commit GitHub builds (its first parent is the base
	 * branch's head), wrong for a source branch's own head (GitLab's merge
	 * request pipelines), whose baseline is then the base branch's latest
	 * run.  So a pull request's ancestry goes only with a merge commit. */
	if (ctx->pr->number > 0) {
		const char *parents[] = {"rev-list", "--parents", "-n", "1", ctx->commit->sha, NULL};
		char *line = git(parents);
		int merge = line && strchr(line, ' ') && strchr(strchr(line, ' ') + 1, ' ');
		free(line);
		if (!merge)
			return 0;
		if (!ctx->pr->merge_base) { /* where the pull request left its base branch */
			char *base = xasprintf("%s^1", ctx->commit->sha), *head = xasprintf("%s^2", ctx->commit->sha);
			const char *merge_base[] = {"merge-base", base, head, NULL};
			ctx->pr->merge_base = git(merge_base);
			free(base);
			free(head);
		}
	}
	char count[32];
	snprintf(count, sizeof count, "--max-count=%d", CONTEXT_MAX_ANCESTORS + 1);
	const char *log[] = {"rev-list", "--first-parent", count, ctx->commit->sha, NULL};
	char *list = git(log);
	if (!list)
		return 0; /* a shallow clone may know no ancestry: no baseline for a push, said by the server */
	ctx->commit->ancestors = xcalloc(CONTEXT_MAX_ANCESTORS + 1, sizeof *ctx->commit->ancestors);
	/* One sha a line, the commit itself first. */
	for (const char *line = strchr(list, '\n'); line; ) {
		line++;
		size_t n = strcspn(line, "\n");
		if (n && ctx->commit->nancestors < CONTEXT_MAX_ANCESTORS)
			ctx->commit->ancestors[ctx->commit->nancestors++] = xstrndup(line, n);
		line = line[n] ? line + n : NULL;
	}
	free(list);
	return 0;
}

/* What the flags and the CI's variables say, git not asked yet. */
static void from_environment(const struct context_flags *flags, struct bm_context *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->commit = xcalloc(1, sizeof *ctx->commit);
	ctx->pr = xcalloc(1, sizeof *ctx->pr);
	if (!from_github(ctx))
		from_gitlab(ctx);
	replace(&ctx->branch, flags->branch);
	replace(&ctx->commit->sha, flags->commit);
	replace(&ctx->commit->timestamp, flags->commit_time);
	replace(&ctx->pr->base_branch, flags->base_branch);
	replace(&ctx->pr->merge_base, flags->merge_base);
	if (flags->pr > 0)
		ctx->pr->number = flags->pr;
}

int context_commit(const struct context_flags *flags, char **sha, long *pr, char **err)
{
	struct bm_context ctx;
	from_environment(flags, &ctx);
	if (!ctx.commit->sha) {
		const char *head[] = {"rev-parse", "--verify", "-q", "HEAD^{commit}", NULL};
		if (!(ctx.commit->sha = git(head))) {
			report_context_release(&ctx);
			return bm_error(err, "not in a git repository with a commit (give --commit SHA)");
		}
	}
	*sha = ctx.commit->sha;
	*pr = ctx.pr->number;
	ctx.commit->sha = NULL;
	report_context_release(&ctx);
	return 0;
}

int context_detect(const struct context_flags *flags, struct bm_context *ctx, char **err)
{
	from_environment(flags, ctx);
	if (from_git(ctx, err)) {
		report_context_release(ctx);
		return -1;
	}
	if (ctx->pr->number > 0 && !ctx->pr->base_branch) {
		long pr = ctx->pr->number;
		report_context_release(ctx);
		return bm_error(err, "pull request %ld: its base branch is unknown (give --base-branch NAME)", pr);
	}
	/* A merge request with no commits of its own (GitLab's diff base is
	 * then its head): no merge base of its own, which the server refuses;
	 * its baseline is the base branch's latest run. */
	if (ctx->pr->merge_base && ctx->commit->sha && !strcasecmp(ctx->pr->merge_base, ctx->commit->sha)) {
		free(ctx->pr->merge_base);
		ctx->pr->merge_base = NULL;
	}
	if (ctx->pr->number <= 0) { /* not a pull request */
		free(ctx->pr->base_branch);
		free(ctx->pr->merge_base);
		free(ctx->pr);
		ctx->pr = NULL;
	}
	return 0;
}

void context_apply(const struct bm_context *ctx, json_t *report)
{
	json_t *context = json_object_get(report, "context");
	if (!json_is_object(context)) {
		context = json_object();
		json_object_set_new(report, "context", context);
	}
	report_context_put_vcs(context, ctx);
}
