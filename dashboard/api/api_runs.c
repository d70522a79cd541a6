/* SPDX-License-Identifier: MIT */
/* GET /api/v1/projects/NAME/commits/SHA/runs[?pr=N]: every run of the
 * commit (with ?pr=N, those uploaded for pull request N), newest first:
 * {"commit", "pr", "runs": [{"run_id", "branch", "pr", "model",
 * "platform"}]}.  A commit measured by several CI jobs (a matrix of
 * platforms, the shards of a suite) has one run per job; bm-check reads
 * this to show every job's report in one comment.  An unknown commit has
 * no runs (200, an empty list): jobs that have not uploaded yet are not
 * an error. */
#include "config.h"

#include "api.h"

#include "xalloc.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>

void api_commit_runs(struct request *req, struct response *res)
{
	long long pr = 0;
	if (http_query_int(req, res, "pr", 1, LONG_MAX, &pr) < 0)
		return;
	char *sha = xstrdup(req->param[1]), *err = NULL;
	for (char *p = sha; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	struct store_run *runs;
	size_t n;
	if (store_commit_runs(req->server->store, req->project.id, sha, (long)pr, &runs, &n, &err)) {
		http_error(res, 500, "%s", err);
		free(err);
		free(sha);
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *platform = json_loads(runs[i].platform, 0, NULL);
		json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:s,s:o}", "run_id", runs[i].run_id, "branch",
						   runs[i].branch, "pr", runs[i].pr ? json_integer(runs[i].pr) : json_null(),
						   "model", runs[i].model, "platform", platform ? platform : json_object()));
	}
	store_runs_free(runs, n);
	http_json(res, 200,
		  json_pack("{s:s,s:o,s:o}", "commit", sha, "pr", pr ? json_integer((json_int_t)pr) : json_null(), "runs", a));
	free(sha);
}
