#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-upload against the real bm-server over real HTTP, from a real git
# repository with history: the context it fills (git, GitHub Actions,
# GitLab CI, flags), idempotent retries, retries while the server starts
# late, the spool while it is down and --flush once it is back, a
# refusal (4xx) that is neither retried nor spooled, and --from (another
# suite's results imported on the way).
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_UPLOAD="$top_builddir/uploader/bm-upload"
unset GITHUB_ACTIONS GITLAB_CI BM_SERVER BM_PROJECT BM_TOKEN
db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1
# up ARGS...: bm-upload with the server, project and token from the
# environment, as CI sets them.
up() {
	env BM_SERVER="$server_url" BM_PROJECT=app BM_TOKEN="$tok" "$BM_UPLOAD" "$@"
}
# up_env VAR=VALUE... -- ARGS...: the same with CI variables set.
up_env() {
	vars=
	while [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env $vars BM_SERVER="$server_url" BM_PROJECT=app BM_TOKEN="$tok" "$BM_UPLOAD" "$@"
}
spool="$scratch/spool"

# A repository: main c1 <- c2 <- c3, feature f1 off c2, and the merge
# commit GitHub makes for a pull request of feature onto main (parents c3, f1).
repo="$scratch/repo"
git_repo "$repo"
c1=$(commit c1 2026-11-01T10:00:00Z)
c2=$(commit c2 2026-11-02T10:00:00Z)
git checkout -q -b feature
f1=$(commit f1 2026-11-03T09:00:00Z)
git checkout -q main
c3=$(commit c3 2026-11-03T10:00:00Z)
merge=$(GIT_COMMITTER_DATE=2026-11-04T10:00:00Z git commit-tree -p "$c3" -p "$f1" -m merge "$c3^{tree}")

# report FILE RUN_ID SPEED: a report whose context bm-upload will fill.
report() {
	make_report "$1" x 000000 2026-01-01T00:00:00Z "" "$3,100" run_id="$2"
}
report "$scratch/r.json" run-c1 100

git checkout -q "$c1"
up -q "$scratch/r.json" >"$scratch/out" 2>"$scratch/err"
check_eq "a detached HEAD and no --branch: exit 2 and what to give" \
	"2 bm-upload: cannot tell the branch: HEAD is detached or this is not a git repository (give --branch NAME)" \
	"$? $(cat "$scratch/err")"
git checkout -q main
git reset -q --hard "$c1"
up -q "$scratch/r.json" >"$scratch/out" 2>"$scratch/err"
check_eq "upload from git: exit 0, the report's address on stdout" "0 $server_url/projects/app/commits/$c1" \
	"$? $(cat "$scratch/out")"
api GET "/api/v1/projects/app/commits/$c1/report" >/dev/null
check_eq "the run has git's branch and commit" "main $c1 null" "$(body '"$j->{branch} $j->{commit} " . ($j->{pr} // "null")')"

git reset -q --hard "$c2"
report "$scratch/r.json" run-c2 110
up -q "$scratch/r.json" >/dev/null 2>&1
git reset -q --hard "$c3"
report "$scratch/r.json" run-c3 121
up -q "$scratch/r.json" >/dev/null 2>&1
api GET "/api/v1/projects/app/commits/$c3/report" >/dev/null
check_eq "the ancestry it sent finds the parent's run" "$c2 0.1" \
	"$(body 'my ($b) = grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}; "$j->{baseline}{sha} " . (0 + sprintf("%.6f", $b->{impact}))')"

up -q "$scratch/r.json" >/dev/null 2>"$scratch/err"
check_eq "the same report again: exit 0, stored once" "0 3" "$? $(run_count app)"
check "and it says the server had it already" grep -q "already had run run-c3" "$scratch/err"

# GitHub Actions, pull_request event: GITHUB_SHA is the merge commit.
report "$scratch/r.json" run-pr 90
up_env GITHUB_ACTIONS=true GITHUB_EVENT_NAME=pull_request GITHUB_REF=refs/pull/7/merge GITHUB_HEAD_REF=feature \
	GITHUB_BASE_REF=main GITHUB_SHA="$merge" -- -q "$scratch/r.json" >"$scratch/out" 2>/dev/null
check_eq "GitHub pull request: stored, with ?pr in the address" "0 $server_url/projects/app/commits/$merge?pr=7" \
	"$? $(cat "$scratch/out")"
api GET "/api/v1/projects/app/commits/$merge/report?pr=7" >/dev/null
check_eq "its branch, number and base; the merge's first parent is the baseline" "feature 7 $c3" \
	"$(body '"$j->{branch} $j->{pr} $j->{baseline}{sha}"')"
api GET "/api/v1/projects/app/commits/$merge/report?pr=7&baseline=merge-base" >/dev/null
check_eq "... its merge base with main (c2), from git, is the baseline by the merge-base rule" \
	"$c2 pull request #7: its merge base $(echo "$c2" | cut -c1-12) with 'main' has a run" \
	"$(body '"$j->{baseline}{sha} $j->{baseline_reason}"')"

# GitLab CI, merge request pipeline.
report "$scratch/r.json" run-mr 95
up_env GITLAB_CI=true CI_MERGE_REQUEST_IID=9 CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=feature \
	CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main CI_COMMIT_SHA="$f1" -- -q "$scratch/r.json" >/dev/null 2>&1
api GET "/api/v1/projects/app/commits/$f1/report?pr=9" >/dev/null
check_eq "GitLab merge request (the source branch's head, no merge commit): the base branch's latest run" "feature 9 $c3" "$(body '"$j->{branch} $j->{pr} $j->{baseline}{sha}"')"
report "$scratch/r.json" run-mr-base 95
up_env GITLAB_CI=true CI_MERGE_REQUEST_IID=10 CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=feature \
	CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main CI_COMMIT_SHA="$f1" CI_MERGE_REQUEST_DIFF_BASE_SHA="$c2" -- -q \
	"$scratch/r.json" >/dev/null 2>&1
api GET "/api/v1/projects/app/commits/$f1/report?pr=10&baseline=merge-base" >/dev/null
check_eq "... with CI_MERGE_REQUEST_DIFF_BASE_SHA, the merge base by the merge-base rule" "$c2" \
	"$(body '$j->{baseline}{sha}')"
# A merge request with no commits of its own: GitLab's diff base is its
# head, which the server refuses as a merge base; bm-upload sends none.
report "$scratch/r.json" run-mr-empty 95
up_env GITLAB_CI=true CI_MERGE_REQUEST_IID=11 CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=feature \
	CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main CI_COMMIT_SHA="$f1" CI_MERGE_REQUEST_DIFF_BASE_SHA="$f1" -- -q \
	"$scratch/r.json" >/dev/null 2>"$scratch/err"
check_eq "... with CI_MERGE_REQUEST_DIFF_BASE_SHA its own head: uploaded, without a merge base, the base branch's latest run" \
	"0 $c3" "$? $(api GET "/api/v1/projects/app/commits/$f1/report?pr=11" >/dev/null; body '$j->{baseline}{sha}')"

# Flags win over everything.
report "$scratch/r.json" run-flags 100
up_env GITHUB_ACTIONS=true GITHUB_REF=refs/heads/ignored GITHUB_SHA="$c3" -- -q --branch release --commit "$c2" "$scratch/r.json" >/dev/null 2>&1
api GET /api/v1/projects/app/branches >/dev/null
check "flags override CI variables" sh -c "grep -q '\"release\"' '$scratch/body'"

# --from: another suite's results, imported as bm-import does, then sent
# with the same context (project imp, so that app's counts stay).
data="$top_srcdir/tests/cli/data/import"
itok=$("$BM_SERVER_BIN" --db "$db" project create imp 2>/dev/null)
up_imp() {
	env BM_SERVER="$server_url" BM_PROJECT=imp BM_TOKEN="$itok" "$BM_UPLOAD" -q "$@"
}
up_imp --from gbench "$data/gbench.json" >"$scratch/out" 2>"$scratch/err"
check_eq "--from gbench: exit 0, the report's address on stdout" "0 $server_url/projects/imp/commits/$c3" \
	"$? $(cat "$scratch/out")"
api GET "/api/v1/projects/imp/commits/$c3/report" >/dev/null
check_eq "--from: git's branch and commit, the importer as the model" "main $c3 import/gbench 3" \
	"$(body '"$j->{branch} $j->{commit} $j->{model} " . scalar @{$j->{benchmarks}}')"
api GET "/api/v1/projects/imp/benchmarks/BM_Sort%2F1024/history?branch=main&metric=walltime" >/dev/null
check_eq "--from: the imported value is on the server" "4.2e-05" "$(body 'sprintf "%.6g", $j->{points}[0]{value}')"
up_imp --from chromium - <"$data/chromium.txt" >/dev/null 2>&1
check_eq "--from chromium -: standard input" "0 2" "$? $(run_count imp)"
up_imp --from gbench "$data/gbench.json" "$data/bad.json" >/dev/null 2>"$scratch/err"
check_eq "--from with a file that does not parse: exit 2, its position, nothing sent" \
	"2 bm-upload: $data/bad.json:2:94: string or '}' expected near '}' 2" "$? $(cat "$scratch/err") $(run_count imp)"
up_imp --from junit "$data/gbench.json" >/dev/null 2>"$scratch/err"
check_eq "--from an unknown format: exit 2" "2 bm-upload: unknown format 'junit'" "$? $(head -n 1 "$scratch/err")"

# Outside a repository, flags can say it all.
cd "$scratch" || exit 1
report "$scratch/r.json" run-nogit 100
up -q "$scratch/r.json" >/dev/null 2>"$scratch/err"
check_eq "not in a git repository and no flags: exit 2 and what to give" \
	"2 bm-upload: cannot tell which commit this is: not in a git repository with a commit (give --commit SHA --commit-time TIME --branch NAME)" \
	"$? $(cat "$scratch/err")"
up -q --branch main --commit abcdef1 --commit-time 2026-11-05T10:00:00Z "$scratch/r.json" >/dev/null 2>&1
check_eq "... and with them it is stored" 0 "$?"

# A refusal is final: a wrong token is not retried and not spooled.
up --token wrong --spool "$spool" --branch main --commit abcdef1 --commit-time 2026-11-05T10:00:00Z \
	"$scratch/r.json" >/dev/null 2>"$scratch/err"
check_eq "a wrong token: exit 2, nothing spooled" "2 0" "$? $(ls "$spool" 2>/dev/null | wc -l | tr -d ' ')"
check "the server's message is printed as it gave it" grep -q "the server answered 401: the token is not valid for this project" "$scratch/err"

# The server down: after the last try the report is spooled, exit 1.
port=${server_url##*:}
stop_server
report "$scratch/r.json" run-down 100
up --tries 2 --spool "$spool" --branch main --commit c0ffee --commit-time 2026-11-06T10:00:00Z \
	"$scratch/r.json" >/dev/null 2>"$scratch/err"
check_eq "server down: exit 1, the report spooled" "1 run-down.json" "$? $(ls "$spool")"
check "it says where the report is and how to send it" grep -q "bm-upload --flush" "$scratch/err"
check "the spool holds no token" sh -c "! grep -q '$tok' '$spool/run-down.json'"

# Retries while the server starts late (on the same port).
report "$scratch/r2.json" run-late 100
up --tries 8 --spool "$spool" --branch main --commit c0ffee2 --commit-time 2026-11-07T10:00:00Z \
	"$scratch/r2.json" >"$scratch/late.out" 2>"$scratch/late.err" &
late=$!
sleep 1.5
start_server "$db" --listen "127.0.0.1:$port" || exit 1
wait "$late"
check_eq "a server that starts late: the retries get through" "0" "$?"
check "each retry was announced" grep -q "retrying in" "$scratch/late.err"

up --flush --spool "$spool" >/dev/null 2>"$scratch/err"
check_eq "--flush: exit 0, the spool empty" "0 0" "$? $(ls "$spool" | wc -l | tr -d ' ')"
api GET /api/v1/projects/app/commits/c0ffee/report >/dev/null
check_eq "the spooled run arrived, once" "run-down 11" "$(body '$j->{run_id}') $(run_count app)"
stop_server
done_testing
