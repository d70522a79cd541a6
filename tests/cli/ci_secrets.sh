#!/bin/sh
# SPDX-License-Identifier: MIT
# The tokens never reach benchmark code (issue 20): a benchmark that walks
# every process it descends from, up to pid 1, and reads each one's
# environment from /proc (tests/programs/hunt_tokens.c), measured as the
# hosts run the measure job (tests/cli/ci_jobs.py, from action.yml and
# gitlab-ci.yml) while the check job holds the tokens: it finds none.
# bm-ci measure refuses to run where a token is in its environment (its
# parents would hold it); bm-ci needs a sub-command; bm-ci all refuses a
# pull request's code unless told it is trusted, and otherwise warns and
# keeps the tokens out of bm-run and what it starts.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
. "$top_srcdir/tests/cli/ci_lib.sh"

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1
${CC:-cc} -O1 -g -o "$scratch/hunt" "$top_srcdir/tests/programs/hunt_tokens.c" || exit 1
# The tokens planted: bm's, GitHub's (github.token), GitLab's job token
# and note token (ci_lib.sh's jobs give the same).
printf '%s\n' "$tok" gh-token glcbt-job-token-of-this-pipeline-0123 gl-token >"$scratch/tokens"
git_repo "$scratch/repo"
c1=$(commit c1 2026-11-01T10:00:00Z)
push_env="GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA=$c1"
# found FILE: what the hunt found, "COMM NAME" a line.
found() {
	sed -n 's/^found [0-9]* //p' "$1" | sort -u | tr '\n' ' ' | sed 's/ $//'
}
# above_ci_only FILE: true when the hunt found some token, every one in the
# first shell up its ancestry (bm-ci) or above it: none in bm-run, the
# keeper, the benchmark.
above_ci_only() {
	awk '$1 == "process" { i++; if (!sh && ($3 == "sh" || $3 == "bm-ci")) sh = i; at[$2] = i }
	     $1 == "found" { n++; if (!sh || at[$2] < sh) bad = 1 }
	     END { exit !(n > 0 && !bad) }' "$1"
}

# ---- GitHub: the two jobs, as action.yml runs them ----
# A workflow that gives the token to the measure job too, by mistake (or
# leaves the mode out: measure is the default): refused before anything
# runs, the token in that job being the hazard.
rm -rf "$scratch/artifacts"
check_eq "the measure job given the token input: exit 2, the benchmark not run" "2 not run" \
	"$(gh_job "$scratch/m0" "{\"programs\": \"$scratch/hunt $scratch/tokens $scratch/m0.hunt\", \"token\": \"$tok\"}" \
		GITHUB_WORKSPACE="$scratch/repo" $push_env) $([ -e "$scratch/m0.hunt" ] && echo ran || echo not run)"
check_eq "the measure job (mode measure) runs the benchmark: exit 0" 0 \
	"$(gh_job "$scratch/m" "{\"mode\": \"measure\", \"programs\": \"$scratch/hunt $scratch/tokens $scratch/m.hunt\"}" \
		GITHUB_WORKSPACE="$scratch/repo" $push_env)"
check "... which looked at every process up to the runner and beyond: bm-run, bm-ci, the runner (ci_jobs.py)" \
	sh -c "grep -q '^process [0-9]* bm-run\$' '$scratch/m.hunt' && grep -q '^process [0-9]* bm-ci\$' '$scratch/m.hunt' &&
		grep -q '^process [0-9]* python3\$' '$scratch/m.hunt' && grep -q '^process 1 ' '$scratch/m.hunt'"
check_eq "... and found no token in any of them" "" "$(found "$scratch/m.hunt")"
check_eq "the check job, with the tokens, uploads and checks: exit 0" 0 \
	"$(gh_job "$scratch/c" "{\"mode\": \"check\", \"server\": \"$server_url\", \"project\": \"app\", \"token\": \"$tok\", \"status\": \"false\"}" \
		$push_env)"
check "... its step had them" sh -c "tr '\\0' '\\n' <'$scratch/c/env.3' | grep -q '^BM_TOKEN=$tok\$'"

# ---- bm-ci measure where a token is: refused, nothing run ----
# refused VAR=VALUE...: bm-ci measure of the hunt with these variables;
# prints its exit status and whether the hunt ran.
refused() {
	rm -f "$scratch/r.hunt"
	env "$@" BM_PREFIX="$scratch/m/tmp/bm" BM_PROGRAMS="$scratch/hunt $scratch/tokens $scratch/r.hunt" \
		BM_REPORT="$scratch/r.json" sh "$BM_CI" measure >/dev/null 2>"$scratch/r.err"
	echo "$? $([ -f "$scratch/r.hunt" ] && echo ran || echo 'not run')"
}
check_eq "bm-ci measure with BM_TOKEN: exit 2, the benchmark not run" "2 not run" "$(refused BM_TOKEN="$tok")"
check "... said, naming it and the way out" \
	grep -q "^bm-ci: the environment holds 'BM_TOKEN', and the benchmarks (the pull request's code) could read them from this process: measure in a job without secrets, and check in another (docs/ci.md, \"Secrets\")$" \
	"$scratch/r.err"
check_eq "... GITHUB_TOKEN, GH_TOKEN: the same" "2 not run" "$(refused GITHUB_TOKEN=x GH_TOKEN=y)"
check "... both named" grep -q "holds 'GH_TOKEN', 'GITHUB_TOKEN'," "$scratch/r.err"
check_eq "... a name that says secret (_SECRET, _PASSWORD, _KEY, an OIDC request token): the same" "2 not run" \
	"$(refused AWS_SECRET_ACCESS_KEY=x DB_PASSWORD=y SIGNING_KEY=z ACTIONS_ID_TOKEN_REQUEST_TOKEN=t)"
check_eq "... a token under another name (bm's, GitHub's, GitLab's, by their look): the same" "2 not run|'A', 'B', 'C'" \
	"$(refused A="$tok" B=ghp_0123456789abcdefghijABCDEFGHIJ C=glpat-0123456789abcdefghij)|$(sed -n "s/.*holds \(.*\), and the.*/\1/p" "$scratch/r.err")"
check_eq "... GitLab's job token: a warning, the benchmark runs" "0 ran" \
	"$(refused GITLAB_CI=true CI_JOB_TOKEN=glcbt-job-token-of-this-pipeline-0123 CI_RUNNER_SHORT_TOKEN=t1Ab2Cd3E)"
check "... said" grep -q "^bm-ci: warning: 'CI_JOB_TOKEN' (GitLab gives every job its job token) can be read" "$scratch/r.err"
check "... and kept out of bm-run and the benchmark" above_ci_only "$scratch/r.hunt"

# ---- GitLab: the measure job, as gitlab-ci.yml runs it ----
cat >"$scratch/gitlab-ci.yml" <<Y
bm-measure:
  extends: .bm-measure
  variables:
    BM_PROGRAMS: $scratch/hunt $scratch/tokens $scratch/gl.hunt
Y
printf '[{"key": "BM_TOKEN", "value": "%s", "environment_scope": "bm-check"},
	{"key": "BM_GITLAB_TOKEN", "value": "gl-token", "environment_scope": "bm-check"}]\n' "$tok" \
	>"$scratch/gitlab-variables.json"
check_eq "GitLab: the measure job, the tokens scoped to bm-check: exit 0" 0 \
	"$(gl_job "$scratch/gitlab-ci.yml" bm-measure "$scratch/gl" CI_COMMIT_SHA="$c1" CI_COMMIT_BRANCH=main)"
check_eq "... the benchmark found the job token alone (GitLab gives it to every job)" CI_JOB_TOKEN \
	"$(sed -n 's/^found [0-9]* [^ ]* //p' "$scratch/gl.hunt" | sort -u)"
check "... in bm-ci's shell and above, none in bm-run or the benchmark" above_ci_only "$scratch/gl.hunt"
printf '[{"key": "BM_TOKEN", "value": "%s", "environment_scope": "*"}]\n' "$tok" >"$scratch/gitlab-variables.json"
check_eq "GitLab: BM_TOKEN of every environment's scope reaches the measure job: refused, exit 2" 2 \
	"$(gl_job "$scratch/gitlab-ci.yml" bm-measure "$scratch/gl2" CI_COMMIT_SHA="$c1" CI_COMMIT_BRANCH=main)"
check "... said" grep -q "^bm-ci: the environment holds 'BM_TOKEN'" "$scratch/gl2/err"

# ---- bm-ci alone: no default mode ----
# one_job VAR=VALUE... -- ARGS...: bm-ci ARGS measuring the hunt into
# $scratch/all.hunt beside the tokens; prints its exit status.
one_job() {
	rm -f "$scratch/all.hunt"
	env BM_PREFIX="$scratch/m/tmp/bm" BM_PROGRAMS="$scratch/hunt $scratch/tokens $scratch/all.hunt" \
		BM_REPORT="$scratch/all.json" BM_SERVER="$server_url" BM_PROJECT=app BM_TOKEN="$tok" GITHUB_TOKEN=gh-token \
		"$@" >/dev/null 2>"$scratch/all.err"
	echo $?
}
check_eq "bm-ci without a sub-command: exit 2, the benchmark not run" "2 not run" \
	"$(one_job sh "$BM_CI") $([ -e "$scratch/all.hunt" ] && echo ran || echo not run)"
check "... naming the three" grep -q "^bm-ci: a sub-command is needed: bm-ci measure (the job that runs the pull request's code, without secrets), bm-ci check (a later job, with the tokens), or bm-ci all (both in one job, for code you trust)" \
	"$scratch/all.err"

# ---- bm-ci all on a pull or merge request: refused unless trusted ----
for event in GITHUB_EVENT_NAME=pull_request GITHUB_HEAD_REF=topic CI_PIPELINE_SOURCE=merge_request_event \
	CI_MERGE_REQUEST_IID=3 CI_PIPELINE_SOURCE=external_pull_request_event; do
	check_eq "bm-ci all with $event: exit 2, the benchmark not run" "2 not run" \
		"$(one_job "$event" sh "$BM_CI" all) $([ -e "$scratch/all.hunt" ] && echo ran || echo not run)"
done
check "... naming the two jobs and how to trust the code" \
	grep -q "^bm-ci: bm-ci all would run the pull request's code in the job that holds the tokens: measure in one job (mode: measure, bm-ci measure) and check in another (mode: check, bm-ci check), as docs/ci.md shows; for code you trust, say so (the action's trust-pull-request-code: true, or BM_TRUST_PULL_REQUEST_CODE=yes)" \
	"$scratch/all.err"
check_eq "... BM_TRUST_PULL_REQUEST_CODE=perhaps: exit 2" 2 \
	"$(one_job CI_MERGE_REQUEST_IID=3 BM_TRUST_PULL_REQUEST_CODE=perhaps sh "$BM_CI" all)"

# ---- bm-ci all (both in one job): warned, and bm-run gets no token ----
rc=$(one_job sh "$BM_CI" all)
check_eq "bm-ci all in one job: measured, uploaded, checked: exit 0" 0 "$rc"
check "... warning that the benchmarks run where the tokens are" \
	grep -q "^bm-ci: warning: the benchmarks run in the job that holds 'BM_TOKEN', 'GITHUB_TOKEN' and could read them from this process" \
	"$scratch/all.err"
check "... which is so: the benchmark found them in bm-ci's shell" \
	sh -c "grep -q '^found [0-9]* sh BM_TOKEN\$' '$scratch/all.hunt' && grep -q '^found [0-9]* sh GITHUB_TOKEN\$' '$scratch/all.hunt'"
check "... but none in bm-run, its keeper or the benchmark's own process" above_ci_only "$scratch/all.hunt"

# ---- a descriptor bm-run was given (a token file a CI step left open),
# however high its number: not the program's, and not its ancestors'
# (bm-run, its keeper), which it could read through /proc ----
printf '%s\n' "$tok" >"$scratch/token.txt"
ulimit -n 4096 2>/dev/null
limit=$(ulimit -n)
high=1500
[ "$limit" = unlimited ] || [ "$limit" -gt 1500 ] || high=$((limit - 1))
# with_fd FILE FD COMMAND...: runs COMMAND with FILE open at FD (read,
# or written where FILE starts with '>').
with_fd() {
	perl -MPOSIX -e 'my $file = shift; my $mode = $file =~ s/^>// ? ">" : "<";
		open my $f, $mode, $file or die "$file: $!\n"; my $fd = shift;
		POSIX::dup2(fileno($f), $fd) or die "dup2 $fd: $!\n"; exec @ARGV or die "$ARGV[0]: $!\n"' "$@"
}
# The program: copies descriptor $1 of itself, of its parent and of its
# grandparent to $2.self, $2.parent and $2.grandparent, where it can.
printf '%s\n' 'cp "/proc/self/fd/$1" "$2.self"' 'cp "/proc/$PPID/fd/$1" "$2.parent"' \
	'cp "/proc/$(cut -d" " -f4 /proc/$PPID/stat)/fd/$1" "$2.grandparent"' >"$scratch/copy_fds.sh"
# (Run plainly under two shells that hold the descriptor, ': ' keeping
# each shell from replacing itself by its last command.)
with_fd "$scratch/token.txt" "$high" sh -c "sh -c \"sh '$scratch/copy_fds.sh' $high '$scratch/plain'; :\"; :"
check_eq "the copies work where the descriptor is open: run plainly, they copy the token" "$tok $tok $tok" \
	"$(cat "$scratch/plain.self" "$scratch/plain.parent" "$scratch/plain.grandparent" 2>&1 | tr '\n' ' ' | sed 's/ $//')"
for fd in 5 "$high"; do
	with_fd "$scratch/token.txt" "$fd" "$BM_RUN" -q --whole -o "$scratch/fd.json" -- \
		/bin/sh "$scratch/copy_fds.sh" "$fd" "$scratch/leak.$fd" >/dev/null 2>&1
	check_eq "bm-run's descriptor $fd: not the program's, nor its parent's or grandparent's" "" \
		"$(cd "$scratch" && ls | grep "^leak\.$fd\.")"
done
with_fd ">$scratch/out5.json" 5 "$BM_RUN" -q --whole -o /dev/fd/5 -- /bin/true >/dev/null 2>&1
check_eq "... but one its options name stays: -o /dev/fd/5 writes the report there" "bm-report/1" \
	"$(json_get "$scratch/out5.json" '$j->{schema}')"

done_testing
