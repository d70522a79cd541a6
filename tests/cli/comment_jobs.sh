#!/bin/sh
# SPDX-License-Identifier: MIT
# One answer per pull request, however many CI jobs: bm-check --comment
# --github-status against the real bm-server (SQLite, or PostgreSQL with
# BM_TEST_DB=postgresql) and a fake code host (fake_host.pl).  A matrix of
# two platforms: one status context each (a job never overwrites
# another's), one comment showing both, the worst on top.  The shards of a
# suite on one platform: one section, one context, the failure of either.
# A job that uploads while another publishes: the other publishes again.
# The jobs of a commit at once, on a slow host: one comment all the same.
# Projects whose names differ only in punctuation keep a comment each; a
# marker inside a benchmark's name is not a comment's marker.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
# The Valgrind of server_lib.sh's reports (tool.valgrind), in their series.
vg=3.19.0
cd "$scratch" || exit 1

BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL GITHUB_STEP_SUMMARY GITLAB_CI CI_API_V4_URL \
	CI_PROJECT_ID CI_MERGE_REQUEST_IID BM_GITLAB_TOKEN GITLAB_TOKEN BM_SERVER BM_PROJECT BM_COMMENT_AS
db=$(test_db jobs)
tok_app=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
tok_xd=$("$BM_SERVER_BIN" --db "$db" project create x-y 2>/dev/null)
tok_xu=$("$BM_SERVER_BIN" --db "$db" project create x_y 2>/dev/null)
tok_other=$("$BM_SERVER_BIN" --db "$db" project create other 2>/dev/null)
start_server "$db" || exit 1

mkdir host
perl "$top_srcdir/tests/cli/fake_host.pl" "$scratch/host" &
host_pid=$!
trap 'kill $host_pid 2>/dev/null; server_cleanup' EXIT
for _ in $(seq 100); do [ -s host/port ] && break; sleep 0.05; done
export GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r GITHUB_TOKEN=t GITHUB_API_URL="http://127.0.0.1:$(cat host/port)"

requests() {
	for f in $(ls host | grep '^request\.' | sort -t. -k2 -n); do head -n 1 "host/$f" | tr -d '\r'; done
}
count() {
	requests | wc -l | tr -d ' '
}
# statuses N: "CONTEXT=STATE" of every status posted after the first N
# requests, in order, joined with '|'.
statuses() {
	for f in $(ls host | grep '^request\.' | sort -t. -k2 -n | tail -n +$(($1 + 1))); do
		head -n 1 "host/$f" | grep -q '^POST /repos/o/r/statuses/' || continue
		sed '1,/^.$/d' "host/$f" >st.json
		json_get st.json '"$j->{context}=$j->{state}"'
	done | tr '\n' '|' | sed 's/|$//'
}
# thread N: the bodies of bm's comments on pull request N, in order.
bm_comments() {
	json_get host/comments.json "join qq{\\n----\\n}, map { \$_->{body} } grep { \$_->{by} eq 'bm-bot' } @{\$j->{'/repos/o/r/issues/$1/comments'} // []}"
}
# job PROJECT SHA PR RUN [bm-check options]: one CI job's check; its exit code.
job() {
	project=$1 sha=$2 pr=$3 run=$4
	shift 4
	GITHUB_REF="refs/pull/$pr/merge" "$BM_CHECK" --server "$server_url" --project "$project" --commit "$sha" \
		--pr "$pr" --run "$run" --comment --github-status "$@" >out 2>err
	echo $?
}
up() {
	[ "$(upload "$1" "$2" "$3")" = 201 ] || echo "# upload of $3 failed: $(cat "$scratch/body")" >&2
}

# The base branch, measured on both platforms.
m0=aaaa000000000000000000000000000000000000
for arch in x86_64 aarch64; do
	make_report "main-$arch.json" main $m0 2026-11-01T10:00:00Z "" 100,100 arch=$arch warm=1 run_id="main-$arch"
	up "$tok_app" app "main-$arch.json"
done

# -- a matrix of two platforms --
p1=bbbb000000000000000000000000000000000001
make_report pr-x86.json topic $p1 2026-11-02T10:00:00Z $m0 70,100 pr=7 base=main warm=1 run_id=pr-x86
make_report pr-arm.json topic $p1 2026-11-02T10:00:00Z $m0 100,100 pr=7 base=main arch=aarch64 warm=1 run_id=pr-arm
up "$tok_app" app pr-x86.json
n=$(count)
check_eq "the x86_64 job, slower: exit 1" 1 "$(job app $p1 7 pr-x86)"
check_eq "... its status, under its platform and model" "bm (x86_64, bm-model/1+warm+valgrind=$vg)=failure" "$(statuses "$n")"
bm_comments 7 >c1.md
check_eq "... one comment, of the one report there is" "### bm: regression (-30.00%)" "$(sed -n 2p c1.md)"
up "$tok_app" app pr-arm.json
n=$(count)
check_eq "the aarch64 job, as fast as main: exit 0" 0 "$(job app $p1 7 pr-arm)"
check_eq "... its own status only: the x86_64 job's failure stands" "bm (aarch64, bm-model/1+warm+valgrind=$vg)=success" \
	"$(statuses "$n")"
bm_comments 7 >c2.md
check_eq "... still one comment" 1 "$(grep -c '^<!-- bm-check: app -->$' c2.md)"
check_eq "... headed by the worst verdict, then every platform, the worst first" \
	"### bm: regression (-30.00%)||2 platforms and models measured this commit, the worst first:||- \`x86_64, bm-model/1+warm+valgrind=$vg\`: regression (-30.00%)|- \`aarch64, bm-model/1+warm+valgrind=$vg\`: neutral (+0.00%)" \
	"$(sed -n 2,7p c2.md | tr '\n' '|' | sed 's/|$//')"
check_eq "... then a section each, with its table and its dashboard link" \
	"#### \`x86_64, bm-model/1+warm+valgrind=$vg\`: regression (-30.00%)|#### \`aarch64, bm-model/1+warm+valgrind=$vg\`: neutral (+0.00%)" \
	"$(grep '^#### ' c2.md | tr '\n' '|' | sed 's/|$//')"
check "... each section links to its run's report" \
	sh -c "grep -q 'commits/$p1?pr=7&run=pr-x86)' c2.md && grep -q 'commits/$p1?pr=7&run=pr-arm)' c2.md"
n=$(count)
check_eq "the x86_64 job again (a re-run): exit 1" 1 "$(job app $p1 7 pr-x86)"
check_eq "... the same comment, updated, showing both" "PATCH 2" \
	"$(requests | tail -n +$((n + 1)) | grep -c '^POST /repos/o/r/issues' | sed 's/^0$/PATCH/') $(bm_comments 7 | grep -c '^#### ')"

# -- the shards of a suite, on one platform --
p2=bbbb000000000000000000000000000000000002
make_report shard-1.json topic $p2 2026-11-03T10:00:00Z $m0 70 pr=8 base=main warm=1 run_id=shard-1 ids=suite::b1
make_report shard-2.json topic $p2 2026-11-03T10:00:00Z $m0 105 pr=8 base=main warm=1 run_id=shard-2 ids=suite::b2
up "$tok_app" app shard-1.json
up "$tok_app" app shard-2.json
n=$(count)
check_eq "the second shard's job, its own benchmark faster: exit 1 (the first shard's regressed)" 1 \
	"$(job app $p2 8 shard-2)"
check_eq "... one context for both shards: failure" "bm (x86_64, bm-model/1+warm+valgrind=$vg)=failure" "$(statuses "$n")"
check_eq "... one section holding both shards' benchmarks" "0 2" \
	"$(bm_comments 8 | grep -c '^#### ') $(bm_comments 8 | grep -c '^| `suite::b')"

# -- a job uploads while another publishes --
p3=bbbb000000000000000000000000000000000003
make_report race-x86.json topic $p3 2026-11-04T10:00:00Z $m0 70,100 pr=9 base=main warm=1 run_id=race-x86
make_report race-arm.json topic $p3 2026-11-04T10:00:00Z $m0 100,100 pr=9 base=main arch=aarch64 warm=1 run_id=race-arm
up "$tok_app" app race-x86.json
printf 'curl -s -o /dev/null -H "Authorization: Bearer %s" --data-binary @%s %s\n' "$tok_app" "$scratch/race-arm.json" \
	"$server_url/api/v1/projects/app/runs" >host/hook
check_eq "the x86_64 job, while the aarch64 job uploads: exit 1" 1 "$(job app $p3 9 race-x86)"
check "... it saw the new run and published again" \
	grep -q "^bm-check: another job uploaded a run of this commit meanwhile: publishing again$" err
check_eq "... so the comment shows both platforms" 2 "$(bm_comments 9 | grep -c '^#### ')"
check_eq "... still one comment" 1 "$(bm_comments 9 | grep -c '^<!-- bm-check: app -->$')"

# -- projects whose names differ only in punctuation --
p4=bbbb000000000000000000000000000000000004
for p in x-y x_y; do
	make_report "$p-main.json" main $m0 2026-11-01T10:00:00Z "" 100 warm=1 run_id="$p-main"
	make_report "$p-pr.json" topic $p4 2026-11-05T10:00:00Z $m0 100 pr=10 base=main warm=1 run_id="$p-pr"
done
up "$tok_xd" x-y x-y-main.json
up "$tok_xd" x-y x-y-pr.json
up "$tok_xu" x_y x_y-main.json
up "$tok_xu" x_y x_y-pr.json
job x-y $p4 10 x-y-pr >/dev/null
job x_y $p4 10 x_y-pr >/dev/null
job x-y $p4 10 x-y-pr >/dev/null
check_eq "projects x-y and x_y: a comment each, by their own markers, each updated in place" \
	"<!-- bm-check: x%2Dy -->|<!-- bm-check: x_y -->" \
	"$(bm_comments 10 | grep '^<!-- bm-check' | tr '\n' '|' | sed 's/|$//')"

# -- a marker in a benchmark's name --
p5=bbbb000000000000000000000000000000000005
make_report other-main.json main $m0 2026-11-01T10:00:00Z "" 100 warm=1 run_id=other-main
make_report other-pr.json topic $p5 2026-11-06T10:00:00Z $m0 100 pr=11 base=main warm=1 run_id=other-pr
make_report planted.json topic $p5 2026-11-06T10:00:00Z $m0 100 pr=11 base=main warm=1 run_id=planted \
	'ids=<!-- bm-check: other -->'
up "$tok_app" app planted.json
up "$tok_other" other other-main.json
up "$tok_other" other other-pr.json
job app $p5 11 planted >/dev/null
job other $p5 11 other-pr >/dev/null
check_eq "app's comment holds other's marker in a name; other gets a comment of its own all the same" \
	"<!-- bm-check: app -->|<!-- bm-check: other -->" \
	"$(bm_comments 11 | grep '^<!-- bm-check' | tr '\n' '|' | sed 's/|$//')"
check "... app's comment shows the name as code" grep -qF '`<!-- bm-check: other -->`' host/comments.json

# -- the jobs of a commit at once, on a slow host --
# 0.5 s a request: both jobs list the comments before either has created
# one, so each creates its own; each then lists them again, keeps the
# oldest with its own text and deletes the others.  Whatever the order,
# the pull request ends with one comment of bm's, and a later push
# updates that one.
bm_count() {
	json_get host/comments.json "scalar grep { \$_->{by} eq 'bm-bot' } @{\$j->{'/repos/o/r/issues/$1/comments'} // []}"
}
# at_once SHA PR SPEEDS_X86 SPEEDS_ARM: both platforms' runs uploaded,
# then both jobs' checks at once.
at_once() {
	make_report "$1-x86.json" topic "$1" 2026-11-07T10:00:00Z $m0 "$3" pr="$2" base=main warm=1 run_id="$1-x86"
	make_report "$1-arm.json" topic "$1" 2026-11-07T10:00:00Z $m0 "$4" pr="$2" base=main arch=aarch64 warm=1 \
		run_id="$1-arm"
	up "$tok_app" app "$1-x86.json"
	up "$tok_app" app "$1-arm.json"
	jobs=
	for p in x86 arm; do
		GITHUB_REF="refs/pull/$2/merge" "$BM_CHECK" --server "$server_url" --project app --commit "$1" --pr "$2" \
			--run "$1-$p" --comment --github-status >"out.$p" 2>"err.$p" &
		jobs="$jobs $!"
	done
	# shellcheck disable=SC2086
	wait $jobs
}
echo 0.5 >host/delay
for round in 1 2 3; do
	c=bbbb00000000000000000000000000000000010$round
	at_once $c "2$round" 70,100 100,100
	check_eq "round $round: two jobs of a commit at once, on a slow host: one comment of bm's" 1 "$(bm_count "2$round")"
	check_eq "... showing both platforms' runs of the commit, the regression on top" \
		"### bm: regression (-30.00%)|2" \
		"$(bm_comments "2$round" | sed -n 2p)|$(bm_comments "2$round" | grep -c "commits/$c?pr=2$round&run=")"
done
c=bbbb000000000000000000000000000000000201
at_once $c 21 130,130 130,130
check_eq "a later push to round 1's pull request, both jobs at once: still one comment of bm's" 1 "$(bm_count 21)"
check_eq "... showing the new commit's verdict and runs" "### bm: improvement (+30.00%)|2" \
	"$(bm_comments 21 | sed -n 2p)|$(bm_comments 21 | grep -c "commits/$c?pr=21&run=")"
rm host/delay

done_testing
