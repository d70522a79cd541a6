#!/bin/sh
# SPDX-License-Identifier: MIT
# The GitHub Action (action.yml) and the GitLab CI template as the hosts
# run them, in two jobs: the measure job (bm-run, no secret) and the check
# job (a fresh checkout, the report from the measure job's artifact,
# bm-upload and bm-check with the tokens), each run from the YAML file by
# tests/cli/ci_jobs.py with the environment the host gives its steps,
# against the real bm-server and a fake GitHub/GitLab API that records
# every request (fake_host.pl).  A push on main, then a pull request
# slower than main pushed twice: the summary, the commit statuses (on the
# pull request's head), one comment created then updated; the same in
# GitLab's two jobs (one merge-request note); the all-in-one mode, refused
# on a pull request unless the workflow trusts its code; and what a
# workflow gets wrong.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
. "$top_srcdir/tests/cli/ci_lib.sh"

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1

# ---- The files, as the hosts read them ----
check "python3-yaml is installed (quickstart installs it)" python3 -c 'import yaml'
# Every input reaches a script under the name bm-ci reads, in the modes
# that need it.
for pair in programs:BM_PROGRAMS manifest:BM_MANIFEST run-args:BM_RUN_ARGS server:BM_SERVER project:BM_PROJECT \
	token:BM_TOKEN threshold:BM_THRESHOLD comment:BM_COMMENT status:BM_STATUS baseline:BM_BASELINE \
	report:BM_REPORT github-token:GITHUB_TOKEN comment-as:BM_COMMENT_AS mode:BM_MODE \
	trust-pull-request-code:BM_TRUST_PULL_REQUEST_CODE; do
	check_eq "action.yml: input ${pair%%:*} is a step's ${pair#*:}" "\${{ inputs.${pair%%:*} }}" \
		"$(yaml "$ACTION" "sorted(set(s['env']['${pair#*:}'] for s in d['runs']['steps'] if '${pair#*:}' in s.get('env', {})))[0]")"
	[ "${pair#*:}" = BM_MODE ] || check "... and bm-ci reads ${pair#*:}" grep -q "${pair#*:}" "$BM_CI"
done
check_eq "action.yml: input artifact names the artifact, kept then fetched" \
	"\${{ inputs.artifact }} \${{ inputs.artifact }}" \
	"$(yaml "$ACTION" "' '.join(s['with']['name'] for s in d['runs']['steps'] if 'artifact@' in s.get('uses', ''))")"
check_eq "action.yml: every input is used" "" \
	"$(yaml "$ACTION" "' '.join(i for i in d['inputs'] if '\${{ inputs.' + i + ' }}' not in open(sys.argv[1]).read().split('runs:', 1)[1])")"
check_eq "action.yml: no expression is ever part of a script (values reach them as variables)" "" \
	"$(yaml "$ACTION" "' '.join(s['name'] for s in d['runs']['steps'] if '\${{' in s.get('run', ''))")"
check_eq "action.yml: a composite action; mode measure by default (the one that holds no secret)" "composite measure" \
	"$(yaml "$ACTION" "d['runs']['using'] + ' ' + d['inputs']['mode']['default']")"
check_eq "action.yml: the measure step gets no token" "BM_MANIFEST BM_PREFIX BM_PROGRAMS BM_REPORT BM_RUN_ARGS" \
	"$(yaml "$ACTION" "' '.join(sorted([s for s in d['runs']['steps'] if s.get('if') == \"inputs.mode == 'measure'\" and 'run' in s][0]['env']))")"
check_eq "action.yml: the check mode restores no cache, checks out afresh with the history, builds the client tools" \
	"actions/checkout@v4 0 False|actions/download-artifact@v4|\"\$GITHUB_ACTION_PATH/uploader/ci/bm-install\" --client \"\$RUNNER_TEMP/bm-client\"|\"\$GITHUB_ACTION_PATH/uploader/ci/bm-ci\" check" \
	"$(yaml "$ACTION" "'|'.join(s['uses'] + ('' if 'with' not in s or 'fetch-depth' not in s['with'] else ' %s %s' % (s['with']['fetch-depth'], s['with']['persist-credentials'])) if 'uses' in s else s['run'] for s in d['runs']['steps'] if s.get('if') in (\"inputs.mode == 'check'\", None) and s.get('id') is None and s['name'] != 'bm mode')")"
check_eq "action.yml: the cache's key is bm-cache-key's" '${{ steps.bm-key.outputs.key }}|"$GITHUB_ACTION_PATH/uploader/ci/bm-cache-key"' \
	"$(yaml "$ACTION" "[s for s in d['runs']['steps'] if s.get('uses', '').startswith('actions/cache@')][0]['with']['key'] + '|' + ' '.join([s for s in d['runs']['steps'] if s.get('id') == 'bm-key'][0]['run'].split('\$(')[1].split(')')[0].split())")"
check_eq "gitlab-ci.yml: .bm-measure installs bm and runs bm-ci measure; its artifact is the report" \
	'sh "$BM_HOME/uploader/ci/bm-install" "$BM_PREFIX"|sh "$BM_HOME/uploader/ci/bm-ci" measure|bm-report.json' \
	"$(yaml "$GITLAB" "d['.bm-measure']['before_script'][-1] + '|' + d['.bm-measure']['script'][0] + '|' + d['.bm-measure']['artifacts']['paths'][0]")"
check_eq "gitlab-ci.yml: .bm-check: environment bm-check (the tokens' scope), a fresh clone with the history, no cache, the client tools, bm-ci check" \
	'bm-check prepare|clone 0|[]|sh "$BM_HOME/uploader/ci/bm-install" --client "$BM_PREFIX"|sh "$BM_HOME/uploader/ci/bm-ci" check' \
	"$(yaml "$GITLAB" "(lambda c: '|'.join([c['environment']['name'] + ' ' + c['environment']['action'], c['variables']['GIT_STRATEGY'] + ' ' + c['variables']['GIT_DEPTH'], str(c['cache']), c['before_script'][-1], c['script'][0]]))(d['.bm-check'])")"
check_eq "gitlab-ci.yml: no job runs both in one (the two jobs only)" ".bm-check .bm-common .bm-measure" \
	"$(yaml "$GITLAB" "' '.join(sorted(d))")"

# ---- The fake code host ----
mkdir "$scratch/host"
perl "$top_srcdir/tests/cli/fake_host.pl" "$scratch/host" &
host_pid=$!
trap 'kill $host_pid 2>/dev/null; server_cleanup' EXIT
for _ in $(seq 100); do [ -s "$scratch/host/port" ] && break; sleep 0.05; done
host="http://127.0.0.1:$(cat "$scratch/host/port")"
# request_files: the requests the host got, in order, less bm-check's
# look-ups of its own identity (GET /user): one file name a line.
request_files() {
	for f in $(ls "$scratch/host" | grep '^request\.' | sort -t. -k2 -n); do
		head -n 1 "$scratch/host/$f" | grep -q '^GET /\(api/v4/\)\?user ' || echo "$f"
	done
}
# requests: their request lines, one per line.
requests() {
	for f in $(request_files); do head -n 1 "$scratch/host/$f" | tr -d '\r'; done
}
# last_requests N: the last N request lines, joined by '|'.
last_requests() {
	requests | tail -n "$1" | tr '\n' '|' | sed 's/|$//'
}

git_repo "$scratch/repo"
# program N: the benchmark doing N steps of work, built in the repository
# (the measure job's build).
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
measure_inputs="{\"mode\": \"measure\", \"programs\": \"$scratch/prog\"}"
check_inputs="{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\"}"
# measure_then_check NAME VAR=VALUE...: the workflow's two jobs for one
# event (the VARs: GitHub's variables for it); prints the check job's exit
# status.  The measure job works in the repository (its checkout and
# build), the check job in a workspace of its own.
measure_then_check() {
	name=$1
	shift
	rm -rf "$scratch/artifacts"
	m=$(gh_job "$scratch/$name-measure" "$measure_inputs" GITHUB_WORKSPACE="$scratch/repo" "$@")
	[ "$m" = 0 ] || { echo "measure job: exit $m"; sed 's/^/# /' "$scratch/$name-measure/err" >&2; return; }
	gh_job "$scratch/$name-check" "$check_inputs" "$@"
}

# ---- GitHub: a push on main ----
program 20000
c1=$(commit c1 2026-11-01T10:00:00Z)
echo '{"ref":"refs/heads/main"}' >"$scratch/push.json"
push_env="GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA=$c1 GITHUB_EVENT_PATH=$scratch/push.json"
# shellcheck disable=SC2086
check_eq "a push on main: the check job exits 0 (no baseline yet)" 0 "$(measure_then_check push $push_env)"
check_eq "... the measure job: mode, cache key, cache, install, measure, the report kept as artifact bm-report" \
	"run bm mode|run bm cache key|uses actions/cache@v4 key=bm-Linux-X64-ubuntu24-20261101.1-valgrind-$(sh "$top_srcdir/uploader/ci/bm-cache-key" --valgrind)-HASH path=$scratch/push-measure/tmp/bm|run Install bm|run Measure|uses actions/upload-artifact@v4 if-no-files-found=error name=bm-report path=bm-report.json" \
	"$(grep -v '^skip' "$scratch/push-measure/steps" | sed 's/-[0-9a-f]\{32\} path=/-HASH path=/' | tr '\n' '|' | sed 's/|$//')"
check_eq "... the check job: mode, a fresh checkout with the history, the artifact, the client tools, check" \
	"run bm mode|uses actions/checkout@v4 fetch-depth=0 persist-credentials=false|uses actions/download-artifact@v4 name=bm-report path=$scratch/push-check/tmp/bm-artifact|run Install bm's client tools|run Upload and check" \
	"$(grep -v '^skip' "$scratch/push-check/steps" | tr '\n' '|' | sed 's/|$//')"
check "... bm-install found bm installed (the cache), and built nothing" \
	grep -q "^bm-install: bm .* already in $scratch/push-measure/tmp/bm$" "$scratch/push-measure/out"
check_eq "... one request to GitHub: the commit status, on the commit" "POST /repos/o/r/statuses/$c1 HTTP/1.1" "$(requests)"
check "... success" grep -q '"state":"success"' "$scratch/host/request.1"
check "the job summary is written" grep -q '^### bm: ' "$scratch/push-check/summary.md"

# ---- GitHub: a pull request from topic, slower; GitHub checks its merge commit ----
git checkout -q -b topic
program 200000
c2=$(commit c2 2026-11-02T10:00:00Z)
git checkout -q main && git merge -q --no-ff topic -m merge
m1=$(git rev-parse HEAD)
git update-ref refs/pull/7/merge "$m1"
git reset -q --hard "$c1"
git checkout -q topic
printf '{"number":7,"pull_request":{"number":7,"head":{"sha":"%s","ref":"topic"},"base":{"ref":"main"}}}\n' "$c2" \
	>"$scratch/pr.json"
pr_env() {
	echo GITHUB_EVENT_NAME=pull_request GITHUB_REF=refs/pull/7/merge GITHUB_SHA="$1" GITHUB_HEAD_REF=topic \
		GITHUB_BASE_REF=main GITHUB_EVENT_PATH="$scratch/pr.json"
}
# shellcheck disable=SC2046
check_eq "the pull request, slower than main: the check job exits 1" 1 "$(measure_then_check pr1 $(pr_env "$m1"))"
check_eq "... the check job checked out the merge commit" "$m1" "$(git -C "$scratch/pr1-check/ws" rev-parse HEAD)"
check_eq "... GitHub got the status on the pull request's head, then the comments listed, one created, listed again" \
	"POST /repos/o/r/statuses/$c2 HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|POST /repos/o/r/issues/7/comments HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1" \
	"$(last_requests 4)"
status_req=$(request_files | tail -n 4 | head -n 1)
check "... the status says failure" grep -q '"state":"failure"' "$scratch/host/$status_req"
run_id=$(json_get "$scratch/repo/bm-report.json" '$j->{run_id}')
check "... and links to the report of the run it uploaded (a matrix's jobs each check their own)" \
	grep -q "\"target_url\":\"http://127.0.0.1:[0-9]*/projects/app/commits/$m1?pr=7&run=$run_id\"" "$scratch/host/$status_req"
check "... the comment is the summary, with the dashboard's link and the marker" \
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = <$f>; $r =~ s/^.*?\r\n\r\n//s;
		my $b = decode_json($r)->{body}; exit !($b =~ /^### bm: regression/m && $b =~ m{\(http://127\.0\.0\.1:\d+/projects/app/commits/} && $b =~ /<!-- bm-check: app/)' \
	"$scratch/host/$(request_files | tail -n 2 | head -n 1)"
check "... and the job summary says regression" grep -q '^### bm: regression' "$scratch/pr1-check/summary.md"

# A second push to the pull request: the same comment, updated.
program 20000
c3=$(commit c3 2026-11-03T10:00:00Z)
git checkout -q main && git merge -q --no-ff topic -m merge2
m2=$(git rev-parse HEAD)
git update-ref refs/pull/7/merge "$m2"
git reset -q --hard "$c1"
git checkout -q topic
printf '{"number":7,"pull_request":{"number":7,"head":{"sha":"%s","ref":"topic"},"base":{"ref":"main"}}}\n' "$c3" \
	>"$scratch/pr.json"
n_before=$(requests | wc -l | tr -d ' ')
# shellcheck disable=SC2046
check_eq "the pull request back to main's speed: exit 0" 0 "$(measure_then_check pr2 $(pr_env "$m2"))"
check_eq "... the status on the new head, the comment updated, not a second one" \
	"POST /repos/o/r/statuses/$c3 HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/1001 HTTP/1.1" \
	"$(last_requests 3)"
check_eq "... 3 requests for it" 3 "$(($(requests | wc -l) - n_before))"

# ---- GitHub: both in one job (mode all) ----
# On a pull request, refused: its code would run beside the tokens.
all_inputs="\"programs\": \"$scratch/prog\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\""
rm -rf "$scratch/artifacts"
# shellcheck disable=SC2046
check_eq "mode all on a pull request: exit 2, nothing measured" "2|run bm mode|run bm cache key|uses actions/cache@v4|run Install bm|run Measure, upload and check" \
	"$(gh_job "$scratch/all-pr" "{\"mode\": \"all\", $all_inputs}" GITHUB_WORKSPACE="$scratch/repo" $(pr_env "$m2"))|$(grep -v '^skip' "$scratch/all-pr/steps" | sed 's/^\(uses [^ ]*\) .*/\1/' | tr '\n' '|' | sed 's/|$//')"
check "... naming the two jobs and the input that trusts the code" \
	grep -q "^bm-ci: bm-ci all would run the pull request's code in the job that holds the tokens: measure in one job (mode: measure, bm-ci measure) and check in another (mode: check, bm-ci check), as docs/ci.md shows; for code you trust, say so (the action's trust-pull-request-code: true" "$scratch/all-pr/err"
check "... before anything was measured" sh -c "! grep -q '^bm-ci: measuring' '$scratch/all-pr/err'"
# shellcheck disable=SC2046
check_eq "no mode (measure, the default) with the check's token: exit 2, before anything runs" "2|run bm mode" \
	"$(gh_job "$scratch/all-none" "{$all_inputs}" GITHUB_WORKSPACE="$scratch/repo" $(pr_env "$m2"))|$(grep -v '^skip' "$scratch/all-none/steps" | tr '\n' '|' | sed 's/|$//')"
check "... said" grep -q "^bm: the token input is the check job's: mode measure (the default) runs the pull request's code and holds no secret" "$scratch/all-none/err"
# shellcheck disable=SC2046
check_eq "mode all, trust-pull-request-code: true: one job measures, uploads and checks: exit 0" 0 \
	"$(gh_job "$scratch/all" "{\"mode\": \"all\", \"trust-pull-request-code\": \"true\", $all_inputs}" \
		GITHUB_WORKSPACE="$scratch/repo" $(pr_env "$m2"))"
check_eq "... its steps" "run bm mode|run bm cache key|uses actions/cache@v4|run Install bm|run Measure, upload and check" \
	"$(grep -v '^skip' "$scratch/all/steps" | sed 's/^\(uses [^ ]*\) .*/\1/' | tr '\n' '|' | sed 's/|$//')"
check "... and it warns that the benchmarks ran where the tokens are" \
	grep -q "^bm-ci: warning: the benchmarks run in the job that holds 'BM_TOKEN', 'GITHUB_TOKEN'" "$scratch/all/err"
# shellcheck disable=SC2046
check_eq "mode all, trust-pull-request-code: maybe: exit 2" 2 \
	"$(gh_job "$scratch/all-maybe" "{\"mode\": \"all\", \"trust-pull-request-code\": \"maybe\", $all_inputs}" \
		GITHUB_WORKSPACE="$scratch/repo" $(pr_env "$m2"))"
check "... said" grep -q "^bm-ci: BM_TRUST_PULL_REQUEST_CODE (the trust-pull-request-code input) is yes or no, not 'maybe'" "$scratch/all-maybe/err"

# ---- GitHub: a matrix of two platforms, a shard of the suite each ----
# Each pair of jobs has its own artifact; each check job checks its own
# run and posts its own platform's status; the pull request keeps one
# comment, which shows both.  (The second pair's report says aarch64, as
# its runner's would: this machine has one architecture.)
cp "$scratch/prog" "$scratch/prog2"
rm -rf "$scratch/artifacts"
n_before=$(requests | wc -l | tr -d ' ')
for shard in 1 2; do
	prog=$scratch/prog
	[ $shard = 1 ] || prog=$scratch/prog2
	# shellcheck disable=SC2046
	check_eq "matrix job $shard: the measure job, its artifact bm-report-$shard" "0|report-$shard.json" \
		"$(gh_job "$scratch/shard$shard-measure" "{\"mode\": \"measure\", \"programs\": \"$prog\",
			\"artifact\": \"bm-report-$shard\", \"report\": \"report-$shard.json\"}" \
			GITHUB_WORKSPACE="$scratch/repo" $(pr_env "$m2"))|$(ls "$scratch/artifacts/bm-report-$shard")"
done
perl -MJSON::PP -i -0pe 'my $j = decode_json($_); $j->{context}{platform}{arch} = "aarch64";
	$_ = JSON::PP->new->utf8->canonical->encode($j)' "$scratch/artifacts/bm-report-2/report-2.json"
for shard in 1 2; do
	# shellcheck disable=SC2046
	rc=$(gh_job "$scratch/shard$shard-check" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\",
		\"token\": \"$tok\", \"artifact\": \"bm-report-$shard\"}" $(pr_env "$m2"))
	check "matrix job $shard: the check job judges its shard's run: exit 0 or 1" test "$rc" -le 1
	check "... bm-check got that run" grep -q "^bm-ci: checking (bm-check .* --run $(json_get "$scratch/artifacts/bm-report-$shard/report-$shard.json" '$j->{run_id}'))\$" \
		"$scratch/shard$shard-check/err"
done
check_eq "... GitHub: a status from each job, the one comment updated by each, no second comment" \
	"POST /repos/o/r/statuses/$c3|GET /repos/o/r/issues/7/comments|PATCH /repos/o/r/issues/comments/1001|POST /repos/o/r/statuses/$c3|GET /repos/o/r/issues/7/comments|PATCH /repos/o/r/issues/comments/1001" \
	"$(requests | tail -n +$((n_before + 1)) | sed 's/?[^ ]* / /; s/ HTTP\/1.1$//' | tr '\n' '|' | sed 's/|$//')"
statuses=$(for f in $(request_files | tail -n +$((n_before + 1))); do
	head -n 1 "$scratch/host/$f" | grep -q '^POST /repos/o/r/statuses/' || continue
	sed '1,/^.$/d' "$scratch/host/$f" >"$scratch/status.json"
	json_get "$scratch/status.json" '$j->{context}'
done | tr '\n' '|' | sed 's/|$//')
# The measure job's environment is its own (no BM_MODEL from the tests'):
# bm-run's default model and its CPU, the series' identity.
series="bm-model/3+valgrind=$("$VALGRIND" --version | sed 's/^valgrind-//')+cpu=bm x86-64-v3: AuthenticAMD family 25 model 1, cpuid max leaf 13, AVX2 BMI2 FMA RDRAND (no AVX-512)"
check_eq "... two statuses, one per platform: neither job overwrites the other's" \
	"bm (x86_64, $series)|bm (aarch64, $series)" "$statuses"
sed '1,/^.$/d' "$scratch/host/$(request_files | tail -n 1)" >"$scratch/comment.json"
json_get "$scratch/comment.json" '$j->{body}' >"$scratch/comment.md"
check_eq "... the comment the last job wrote shows both platforms' runs" \
	"#### \`aarch64, ${series%%:*}|#### \`x86_64, ${series%%:*}" \
	"$(grep '^#### ' "$scratch/comment.md" | sed 's/: .*//' | sort | tr '\n' '|' | sed 's/|$//')"

# ---- GitLab: the same in its two jobs ----
cat >"$scratch/gitlab-ci.yml" <<Y
bm-measure:
  extends: .bm-measure
  variables:
    BM_PROGRAMS: $scratch/prog
bm-check:
  extends: .bm-check
  variables:
    BM_SERVER: $server_url
    BM_PROJECT: app
Y
# The tokens: project variables of environment scope bm-check.
printf '[{"key": "BM_TOKEN", "value": "%s", "environment_scope": "bm-check"},
	{"key": "BM_GITLAB_TOKEN", "value": "gl-token", "environment_scope": "bm-check"}]\n' "$tok" \
	>"$scratch/gitlab-variables.json"
gl_mr_env="CI_PIPELINE_SOURCE=merge_request_event CI_MERGE_REQUEST_IID=3 CI_COMMIT_SHA=$c3 CI_COMMIT_REF_NAME=topic
	CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=topic CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main"
# gitlab NAME: the merge request pipeline's two jobs; prints the check
# job's exit status.
gitlab() {
	rm -rf "$scratch/gl-artifacts"
	# shellcheck disable=SC2086
	m=$(gl_job "$scratch/gitlab-ci.yml" bm-measure "$scratch/$1-measure" $gl_mr_env)
	[ "$m" = 0 ] || { echo "measure job: exit $m"; sed 's/^/# /' "$scratch/$1-measure/err" >&2; return; }
	# shellcheck disable=SC2086
	gl_job "$scratch/gitlab-ci.yml" bm-check "$scratch/$1-check" $gl_mr_env
}
check_eq "GitLab: a merge request pipeline, exit 0" 0 "$(gitlab gl1)"
check "... the measure job got neither token (their scope is bm-check)" \
	sh -c "! tr '\\0' '\\n' <'$scratch/gl1-measure/env.1' | grep -q '^BM_TOKEN=\\|^BM_GITLAB_TOKEN='"
check "... and warned that the job token can be read (GitLab gives every job one)" \
	grep -q "^bm-ci: warning: 'CI_JOB_TOKEN'" "$scratch/gl1-measure/err"
check_eq "... the check job: a fresh clone of the whole history, the measure job's report" \
	"clone depth 0 strategy clone|artifacts from bm-measure|run bm-check" "$(tr '\n' '|' <"$scratch/gl1-check/steps" | sed 's/|$//')"
check_eq "GitLab: bm-check again" 0 "$(gitlab gl2)"
check_eq "... one note created, then updated" \
	"POST /api/v4/projects/9/merge_requests/3/notes HTTP/1.1|PUT /api/v4/projects/9/merge_requests/3/notes/ID HTTP/1.1" \
	"$(requests | grep -v '^GET' | tail -n 2 | sed 's|/notes/[0-9]* |/notes/ID |' | tr '\n' '|' | sed 's/|$//')"

# ---- The check's inputs reach bm-check as its options ----
# (The check jobs find the measure job's artifact: the last report.)
rm -rf "$scratch/artifacts"
mkdir -p "$scratch/artifacts/bm-report"
cp "$scratch/repo/bm-report.json" "$scratch/artifacts/bm-report/"
run_id=$(json_get "$scratch/repo/bm-report.json" '$j->{run_id}')
# shellcheck disable=SC2046
rc=$(gh_job "$scratch/opts" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\",
	\"threshold\": \"0.2\", \"baseline\": \"merge-base\", \"comment\": \"on-change\", \"status\": \"false\"}" $(pr_env "$m2"))
check_eq "threshold, baseline, comment on-change, no status: bm-check gets them (and the run uploaded)" \
	"bm-ci: checking (bm-check --threshold 0.2 --baseline merge-base --comment=on-change --run $run_id)" \
	"$(grep '^bm-ci: checking' "$scratch/opts/err")"
check "... and judges: exit 0 or 1" test "$rc" -le 1
# shellcheck disable=SC2046
rc=$(gh_job "$scratch/opts2" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\",
	\"comment\": \"false\"}" $(pr_env "$m2"))
check_eq "comment false (never), status on: no --comment" \
	"bm-ci: checking (bm-check --github-status --status-sha $c3 --run $run_id)" "$(grep '^bm-ci: checking' "$scratch/opts2/err")"

# ---- The report is data: its context is the check job's ----
# A measure job whose report claims to be a push of main's commit c1.
perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); $r->{run_id} = "forged-run";
	$r->{context}{branch} = "main"; $r->{context}{commit} = { sha => $ARGV[0], timestamp => "2030-01-01T00:00:00Z",
	ancestors => [] }; $r->{context}{pr} = undef; print encode_json($r)' "$c1" \
	<"$scratch/artifacts/bm-report/bm-report.json" >"$scratch/forged.json" &&
	cp "$scratch/forged.json" "$scratch/artifacts/bm-report/bm-report.json"
# shellcheck disable=SC2046
rc=$(gh_job "$scratch/forged" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\",
	\"comment\": \"never\", \"status\": \"false\"}" $(pr_env "$m2"))
check "a report that claims main's commit, checked for the pull request: judged, exit 0 or 1" test "$rc" -le 1
check_eq "... stored as the pull request's merge commit, not as main's" "200 $m2 topic 7|404" \
	"$(api GET "/api/v1/projects/app/commits/$m2/report?pr=7&run=forged-run") $(body '"$j->{commit} $j->{branch} $j->{pr}"')|$(api GET "/api/v1/projects/app/commits/$c1/report?run=forged-run")"

# ---- What a workflow gets wrong: said, exit 2 ----
check_eq "mode check without the token input: exit 2" 2 \
	"$(gh_job "$scratch/e1" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\"}" $push_env)"
check "... naming the inputs" grep -q "^bm-ci: set BM_SERVER, BM_PROJECT and BM_TOKEN" "$scratch/e1/err"
check_eq "mode measure with nothing to measure: exit 2" 2 "$(gh_job "$scratch/e2" '{"mode": "measure"}' $push_env)"
check "... said" grep -q "^bm-ci: nothing to measure" "$scratch/e2/err"
check_eq "mode measure given the token: exit 2, nothing measured" 2 \
	"$(gh_job "$scratch/e3" "{\"mode\": \"measure\", \"programs\": \"$scratch/prog\"}" GITHUB_WORKSPACE="$scratch/repo" BM_TOKEN="$tok" $push_env)"
check "... said" grep -q "^bm-ci: the environment holds 'BM_TOKEN', and the benchmarks" "$scratch/e3/err"
check_eq "an unknown mode: exit 2, before anything runs" "2|run bm mode" \
	"$(gh_job "$scratch/e4" '{"mode": "measures"}' $push_env)|$(grep -v '^skip' "$scratch/e4/steps")"
check_eq "a bad comment input: exit 2" 2 \
	"$(gh_job "$scratch/e5" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\", \"comment\": \"sometimes\"}" $push_env)"
check "... said" grep -q "^bm-ci: BM_COMMENT (the comment input) is always, on-change or never, not 'sometimes'" "$scratch/e5/err"
check_eq "the check on a pull_request_target event (its variables name the base branch's commit): exit 2" 2 \
	"$(gh_job "$scratch/e6" "$check_inputs" GITHUB_EVENT_NAME=pull_request_target GITHUB_REF=refs/heads/main GITHUB_SHA="$c1")"
check "... said" grep -q "^bm-ci: a pull_request_target event's variables name the base branch's commit" "$scratch/e6/err"

# (Last: this push's second run of c1 is the newest on main.)
rm -rf "$scratch/artifacts"
# shellcheck disable=SC2086
check_eq "mode all on a push (no pull request's code): exit 0 or 1, with the warning" "ok|warned" \
	"$(rc=$(gh_job "$scratch/all-push" "{\"mode\": \"all\", $all_inputs}" GITHUB_WORKSPACE="$scratch/repo" $push_env)
		[ "$rc" -le 1 ] && echo ok || echo "exit $rc")|$(grep -q "^bm-ci: warning: the benchmarks run in the job that holds" "$scratch/all-push/err" && echo warned)"

done_testing
