#!/bin/sh
# SPDX-License-Identifier: MIT
# The GitHub Action (action.yml) as GitHub runs it: its step script
# (uploader/ci/bm-ci) with the inputs action.yml maps into its environment
# and GitHub's own variables and event payload, against the real
# bm-server and a fake GitHub API that records every request (fake_host.pl).
# A push on main, then a pull request slower than main pushed twice: the
# summary file, the commit statuses (on the pull request's head), and one
# comment created then updated.  The same script in GitLab CI's variables
# keeps one merge-request note.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

ACTION="$top_srcdir/action.yml"
BM_CI="$top_srcdir/uploader/ci/bm-ci"
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL GITHUB_STEP_SUMMARY GITHUB_SHA \
	GITHUB_EVENT_NAME GITHUB_EVENT_PATH GITHUB_HEAD_REF GITHUB_BASE_REF GITLAB_CI CI_API_V4_URL CI_PROJECT_ID \
	CI_MERGE_REQUEST_IID BM_GITLAB_TOKEN GITLAB_TOKEN BM_SERVER BM_PROJECT BM_TOKEN BM_PROGRAMS BM_MANIFEST
db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1

# The action as GitHub reads it: every input reaches the script under the
# name bm-ci reads, and the steps install then run bm-ci.  The GitLab
# template: a hidden job that installs bm and runs bm-ci, with the history.
yaml() {
	python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
check "python3-yaml is installed (quickstart installs it)" python3 -c 'import yaml'
for pair in programs:BM_PROGRAMS manifest:BM_MANIFEST server:BM_SERVER project:BM_PROJECT token:BM_TOKEN \
	threshold:BM_THRESHOLD comment:BM_COMMENT status:BM_STATUS report:BM_REPORT github-token:GITHUB_TOKEN; do
	check_eq "action.yml: input ${pair%%:*} is the script's ${pair#*:}" "\${{ inputs.${pair%%:*} }}" \
		"$(yaml "$ACTION" "d['runs']['steps'][2]['env']['${pair#*:}']")"
	check "... and bm-ci reads ${pair#*:}" grep -q "${pair#*:}" "$BM_CI"
done
check_eq "action.yml: every input is mapped" 10 "$(yaml "$ACTION" "len(d['inputs'])")"
check_eq "action.yml: a composite action of three steps" "composite 3" \
	"$(yaml "$ACTION" "d['runs']['using'] + ' ' + str(len(d['runs']['steps']))")"
check_eq "action.yml: the steps install bm, then run bm-ci" \
	'"$GITHUB_ACTION_PATH/uploader/ci/bm-install" "$RUNNER_TEMP/bm"|"$GITHUB_ACTION_PATH/uploader/ci/bm-ci"' \
	"$(yaml "$ACTION" "d['runs']['steps'][1]['run'] + '|' + d['runs']['steps'][2]['run']")"
GITLAB="$top_srcdir/uploader/ci/gitlab-ci.yml"
check_eq "gitlab-ci.yml: .bm installs bm and runs bm-ci" \
	'sh "$BM_HOME/uploader/ci/bm-install" "$BM_PREFIX"|sh "$BM_HOME/uploader/ci/bm-ci"' \
	"$(yaml "$GITLAB" "d['.bm']['before_script'][-1] + '|' + d['.bm']['script'][0]")"
check_eq "gitlab-ci.yml: with the whole history" 0 "$(yaml "$GITLAB" "d['.bm']['variables']['GIT_DEPTH']")"

# The tools, as bm-install leaves them: PREFIX/bin.
mkdir -p "$scratch/prefix/bin"
for t in instrument/bm-run uploader/bm-upload uploader/bm-check; do
	ln -s "$top_builddir/$t" "$scratch/prefix/bin/"
done

mkdir "$scratch/host"
perl "$top_srcdir/tests/cli/fake_host.pl" "$scratch/host" &
host_pid=$!
trap 'kill $host_pid 2>/dev/null; server_cleanup' EXIT
for _ in $(seq 100); do [ -s "$scratch/host/port" ] && break; sleep 0.05; done
host="http://127.0.0.1:$(cat "$scratch/host/port")"
# requests: the request lines the host got, one per line.
requests() {
	for f in $(ls "$scratch/host" | grep '^request\.' | sort -t. -k2 -n); do head -n 1 "$scratch/host/$f" | tr -d '\r'; done
}

git_repo "$scratch/repo"
# program N: the benchmark doing N steps of work, built in the repository.
program() {
	cat >prog.c <<C
static __attribute__((noinline)) unsigned work(int n)
{
	unsigned h = 5381;
	for (int i = 0; i < n; i++)
		h = h * 33 + (unsigned)i;
	return h;
}
int main(void) { return work($1) == 42; }
C
	${CC:-cc} -O1 -g -o "$scratch/prog" prog.c
}
# action: the step as GitHub runs it, with the inputs of a workflow; its
# exit status.
action() {
	env BM_PREFIX="$scratch/prefix" BM_PROGRAMS="$scratch/prog" BM_MANIFEST= \
		BM_SERVER="$server_url" BM_PROJECT=app BM_TOKEN="$tok" BM_THRESHOLD= BM_COMMENT=true BM_STATUS=true \
		BM_REPORT="$scratch/report.json" GITHUB_TOKEN=gh-token RUNNER_TEMP="$scratch" \
		GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r GITHUB_API_URL="$host" GITHUB_STEP_SUMMARY="$scratch/summary.md" \
		GITHUB_ACTION_PATH="$top_srcdir" "$@" sh "$BM_CI" >"$scratch/out" 2>"$scratch/err"
	echo $?
}

# A push on main.
program 20000
c1=$(commit c1 2026-11-01T10:00:00Z)
echo '{"ref":"refs/heads/main"}' >"$scratch/push.json"
check_eq "a push on main: exit 0 (no baseline yet)" 0 \
	"$(action GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA="$c1" GITHUB_EVENT_PATH="$scratch/push.json")"
check_eq "... one request to GitHub: the commit status, on the commit" "POST /repos/o/r/statuses/$c1 HTTP/1.1" "$(requests)"
check "... success" grep -q '"state":"success"' "$scratch/host/request.1"
check "the job summary is written" grep -q '^### bm: ' "$scratch/summary.md"

# A pull request from topic, slower; GitHub checks its merge commit.
git checkout -q -b topic
program 200000
c2=$(commit c2 2026-11-02T10:00:00Z)
git checkout -q main && git merge -q --no-ff topic -m merge
m1=$(git rev-parse HEAD)
git checkout -q topic
printf '{"number":7,"pull_request":{"number":7,"head":{"sha":"%s","ref":"topic"},"base":{"ref":"main"}}}\n' "$c2" \
	>"$scratch/pr.json"
pr_env() {
	echo GITHUB_EVENT_NAME=pull_request GITHUB_REF=refs/pull/7/merge GITHUB_SHA="$1" GITHUB_HEAD_REF=topic \
		GITHUB_BASE_REF=main GITHUB_EVENT_PATH="$scratch/pr.json"
}
: >"$scratch/summary.md"
# shellcheck disable=SC2046
check_eq "the pull request, slower than main: exit 1" 1 "$(action $(pr_env "$m1"))"
check_eq "... GitHub got the status on the pull request's head, then the comments listed and one created" \
	"POST /repos/o/r/statuses/$c2 HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|POST /repos/o/r/issues/7/comments HTTP/1.1" \
	"$(requests | tail -n 3 | tr '\n' '|' | sed 's/|$//')"
check "... the status says failure" grep -q '"state":"failure"' "$scratch/host/request.2"
run_id=$(json_get "$scratch/report.json" '$j->{run_id}')
check "... and links to the report of the run it uploaded (a matrix's jobs each check their own)" \
	grep -q "\"target_url\":\"http://127.0.0.1:[0-9]*/projects/app/commits/$m1?pr=7&run=$run_id\"" "$scratch/host/request.2"
check "... the comment is the summary, with the dashboard's link and the marker" \
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = <$f>; $r =~ s/^.*?\r\n\r\n//s;
		my $b = decode_json($r)->{body}; exit !($b =~ /^### bm: regression/ && $b =~ m{\(http://127\.0\.0\.1:\d+/projects/app/commits/} && $b =~ /<!-- bm-check: app -->/)' \
	"$scratch/host/request.4"
check "... and the job summary says regression" grep -q '^### bm: regression' "$scratch/summary.md"

# A second push to the pull request: the same comment, updated.
program 20000
c3=$(commit c3 2026-11-03T10:00:00Z)
git checkout -q main && git reset -q --hard "$c1" && git merge -q --no-ff topic -m merge2
m2=$(git rev-parse HEAD)
git checkout -q topic
printf '{"number":7,"pull_request":{"number":7,"head":{"sha":"%s","ref":"topic"},"base":{"ref":"main"}}}\n' "$c3" \
	>"$scratch/pr.json"
# shellcheck disable=SC2046
check_eq "the pull request back to main's speed: exit 0" 0 "$(action $(pr_env "$m2"))"
check_eq "... the status on the new head, the comment updated, not a second one" \
	"POST /repos/o/r/statuses/$c3 HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/1001 HTTP/1.1" \
	"$(requests | tail -n 3 | tr '\n' '|' | sed 's/|$//')"
check_eq "... 7 requests in all" 7 "$(requests | wc -l | tr -d ' ')"

# GitLab CI: the same script keeps one merge-request note.
gitlab() {
	env BM_PREFIX="$scratch/prefix" BM_PROGRAMS="$scratch/prog" BM_SERVER="$server_url" \
		BM_PROJECT=app BM_TOKEN="$tok" BM_REPORT="$scratch/report.json" GITLAB_CI=true CI_API_V4_URL="$host/api/v4" \
		CI_PROJECT_ID=9 CI_MERGE_REQUEST_IID=3 CI_COMMIT_SHA="$1" CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=topic CI_PIPELINE_SOURCE=merge_request_event \
		CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main BM_GITLAB_TOKEN=gl-token sh "$BM_CI" >"$scratch/out" 2>"$scratch/err"
	echo $?
}
check_eq "GitLab: a merge request pipeline, exit 0" 0 "$(gitlab "$c3")"
check_eq "GitLab: bm-check again" 0 "$(gitlab "$c3")"
check_eq "... one note created, then updated" \
	"POST /api/v4/projects/9/merge_requests/3/notes HTTP/1.1|PUT /api/v4/projects/9/merge_requests/3/notes/1003 HTTP/1.1" \
	"$(requests | grep -v '^GET' | tail -n 2 | tr '\n' '|' | sed 's/|$//')"

# What a workflow gets wrong: said, exit 2, nothing measured.
check_eq "no token input: exit 2" 2 "$(action BM_TOKEN= GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA="$c1")"
check "... naming the inputs" grep -q "^bm-ci: set BM_SERVER, BM_PROJECT and BM_TOKEN" "$scratch/err"
check_eq "nothing to measure: exit 2" 2 "$(action BM_PROGRAMS= GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA="$c1")"

done_testing
