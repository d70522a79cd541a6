#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-check --comment: one comment on the pull request (GitHub) or note on
# the merge request (GitLab), created by the first run and updated by
# every later one, found again by its hidden marker among the others (on
# any page); exit codes as without it; every request checked as a fake
# host (tests/cli/fake_host.pl) recorded it.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL GITHUB_STEP_SUMMARY \
	GITLAB_CI CI_API_V4_URL CI_PROJECT_ID CI_MERGE_REQUEST_IID BM_GITLAB_TOKEN GITLAB_TOKEN BM_SERVER BM_PROJECT
make_report base.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100
make_report slower.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 70,100
make_report faster.json main a3a3a3 2026-11-03T10:00:00Z a1a1a1 100,130

mkdir host
perl "$top_srcdir/tests/cli/fake_host.pl" "$scratch/host" &
host_pid=$!
trap 'kill $host_pid 2>/dev/null; server_cleanup' EXIT
for _ in $(seq 100); do [ -s host/port ] && break; sleep 0.05; done
host="http://127.0.0.1:$(cat host/port)"
# requests: the request lines the host got so far, one per line.
requests() {
	for f in $(ls host | grep '^request\.' | sort -t. -k2 -n); do head -n 1 "host/$f" | tr -d '\r'; done
}
# last_body: the JSON body of the last request.
last_body() {
	f=$(ls host | grep '^request\.' | sort -t. -k2 -n | tail -n 1)
	sed '1,/^.$/d' "host/$f" >body.json
	json_get body.json '$j->{body}'
}
bmc() {
	"$BM_CHECK" --base base.json "$@" >out 2>err
	echo $?
}

# -- not in a CI: a clear error, nothing sent --
check_eq "--comment outside GitHub Actions and GitLab CI: exit 2" 2 "$(bmc --head slower.json --comment)"
check "... saying what to set" grep -q "^bm-check: --comment works in GitHub Actions (GITHUB_REPOSITORY, GITHUB_TOKEN) or GitLab CI" err
export GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r GITHUB_TOKEN=t GITHUB_API_URL="$host"
check_eq "a push, not a pull request: exit 2" 2 "$(bmc --head slower.json --comment)"
check "... saying so" grep -q "not a pull request" err
check_eq "... and nothing was sent" "" "$(requests)"

# -- GitHub: created, then updated --
export GITHUB_REF=refs/pull/7/merge
check_eq "a regression with --comment: exit 1, as without" 1 "$(bmc --head slower.json --comment)"
check_eq "the comments listed, then one created" \
	"GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|POST /repos/o/r/issues/7/comments HTTP/1.1" \
	"$(requests | tr '\n' '|' | sed 's/|$//')"
check "with the token" grep -q "^Authorization: Bearer t.$" host/request.2
last_body >first.md
check "the comment is the Markdown summary" grep -q '^### bm: regression' first.md
check "... with the hidden marker" grep -q '^<!-- bm-check: offline -->$' first.md
check "bm-check says what it did" grep -q "^bm-check: created the comment on GitHub pull request #7$" err
check_eq "an improvement: exit 0" 0 "$(bmc --head faster.json --comment)"
check_eq "the second run updates the same comment: listed, then patched" \
	"GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/1001 HTTP/1.1" \
	"$(requests | tail -n 2 | tr '\n' '|' | sed 's/|$//')"
last_body >second.md
check "... with the new summary" grep -q '^### bm: improvement' second.md
check "bm-check says it updated it" grep -q "^bm-check: updated the comment on GitHub pull request #7$" err
check_eq "never a second comment: 4 requests in all" 4 "$(requests | wc -l | tr -d ' ')"

# Found again on a later page, among 150 of others'.
export GITHUB_REPOSITORY=o/busy
bmc --head slower.json --comment >/dev/null
bmc --head faster.json --comment >/dev/null
check_eq "among 150 comments: created, then found on page 2 and updated" \
	"POST /repos/o/busy/issues/7/comments HTTP/1.1|PATCH /repos/o/busy/issues/comments/1152 HTTP/1.1" \
	"$(requests | grep -v '^GET' | tail -n 2 | tr '\n' '|' | sed 's/|$//')"

# The host refuses: exit 2 and its message.
export GITHUB_REPOSITORY=o/forbidden
check_eq "GitHub refuses the comment: exit 2" 2 "$(bmc --head faster.json --comment)"
check "... with GitHub's message" grep -q "GitHub answered 403 for POST .*: Resource not accessible by integration" err

# -- GitLab: a merge request's note, created then updated --
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL
export GITLAB_CI=true CI_API_V4_URL="$host/api/v4" CI_PROJECT_ID=42 CI_MERGE_REQUEST_IID=5
check_eq "GitLab without a token: exit 2" 2 "$(bmc --head slower.json --comment)"
check "... naming BM_GITLAB_TOKEN" grep -q "BM_GITLAB_TOKEN" err
export BM_GITLAB_TOKEN=g
before=$(requests | wc -l)
check_eq "GitLab: exit 1 on the regression" 1 "$(bmc --head slower.json --comment)"
check_eq "GitLab: bm-check --comment again" 0 "$(bmc --head faster.json --comment)"
check_eq "the notes listed, one created, then listed and updated" \
	"GET /api/v4/projects/42/merge_requests/5/notes?per_page=100&page=1&sort=asc HTTP/1.1|POST /api/v4/projects/42/merge_requests/5/notes HTTP/1.1|GET /api/v4/projects/42/merge_requests/5/notes?per_page=100&page=1&sort=asc HTTP/1.1|PUT /api/v4/projects/42/merge_requests/5/notes/1155 HTTP/1.1" \
	"$(requests | tail -n +$((before + 1)) | tr '\n' '|' | sed 's/|$//')"
check "with GitLab's token header" grep -q "^PRIVATE-TOKEN: g.$" "host/request.$((before + 2))"
check "bm-check says it updated the note" grep -q "^bm-check: updated the comment on GitLab merge request #5$" err

done_testing
