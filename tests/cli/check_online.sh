#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-check against the real bm-server: the verdicts and exit codes of the
# offline check from the server's answer, --threshold recomputed, the
# commit from git, errors (no run, no server), and --github-status against
# a fake GitHub API on a loopback port.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_STEP_SUMMARY BM_PROJECT GITHUB_TOKEN GITHUB_REPOSITORY GITHUB_API_URL
cd "$scratch" || exit 1

# bmc ARGS...: runs bm-check; stdout to out, stderr to err, prints the
# exit code.  (Not the caller's BM_SERVER: --server is the tests' to give.)
bmc() {
	env -u BM_SERVER "$BM_CHECK" "$@" >out 2>err
	echo $?
}

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
start_server "$db" || exit 1

# The seed's worked examples, pushed to a branch: e1 and e2 have e0 as parent.
make_report w0.json examples e0e0e0 2026-11-01T10:00:00Z "" 100,100,100
make_report w1.json examples e1e1e1 2026-11-02T10:00:00Z e0e0e0 110,100,70
make_report w2.json examples e2e2e2 2026-11-03T10:00:00Z e0e0e0 110,130,80
make_report f1.json examples f1f1f1 2026-11-04T10:00:00Z e0e0e0 110,-,100
make_report p7.json topic 7a7a7a 2026-11-05T10:00:00Z e0e0e0 100,100,50 pr=7 base=examples
make_report p8.json topic 8a8a8a 2026-11-05T10:00:00Z e2e2e2,e0e0e0 100,100,100 pr=8 base=examples merge_base=e0e0e0
for r in w0 w1 w2 f1 p7 p8; do
	check_eq "upload $r" 201 "$(upload "$tok" demo "$r.json")"
done

check_eq "[0.1, 0, -0.3] with the project's threshold (0.10): a regression, exit 1" \
	"1|commit e1e1e1 on x86_64-debian-12-gcc-12.2.0|baseline: e0e0e0 (push to 'examples': the parent commit e0e0e0 has a run)|commit impact: -30.00% (threshold 10%)|verdict: regression" \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1)|$(sed -n 1,4p out | paste -sd'|')"
check_eq "--threshold 0.25 recomputes [0.1, 0, -0.3]: still -0.3, exit 1" "1|commit impact: -30.00% (threshold 25%)|verdict: regression" \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1 --threshold 0.25)|$(sed -n 3,4p out | paste -sd'|')"
check_eq "--threshold 0.25 recomputes [0.1, 0.3, -0.2]: 0.3, an improvement, exit 0" \
	"0|commit impact: +30.00% (threshold 25%)|verdict: improvement" \
	"$(bmc --server "$server_url" --project demo --commit e2e2e2 --threshold 0.25)|$(sed -n 3,4p out | paste -sd'|')"
check_eq "--threshold 0.5 recomputes [0.1, 0.3, -0.2]: ~0.0459, neutral, exit 0" \
	"0|commit impact: +4.59% (threshold 50%)|verdict: neutral" \
	"$(bmc --server "$server_url" --project demo --commit e2e2e2 --threshold 0.5)|$(sed -n 3,4p out | paste -sd'|')"
sed -n '/^benchmark/,$p' out >online.table
"$BM_CHECK" --base w0.json --head w2.json --threshold 0.5 | sed -n '/^benchmark/,$p' >offline.table
check_output "the table online is the table offline (same code, same order)" offline.table online.table
check_eq "a failed benchmark: exit 1, listed first" "1|verdict: failed|suite::b2      100 /s       -   failed" \
	"$(bmc --server "$server_url" --project demo --commit f1f1f1)|$(sed -n 4p out)|$(sed -n 7p out)"
check_eq "BM_SERVER and BM_PROJECT stand for the flags" "1" \
	"$(env BM_SERVER="$server_url/" BM_PROJECT=demo "$BM_CHECK" --commit e1e1e1 >/dev/null 2>&1; echo $?)"
check_eq "--pr: the pull request's run, against its base branch" \
	"1|baseline: e0e0e0 (pull request #7: the merge commit's first parent e0e0e0 (the head of 'examples' it merges into) has a run)|commit impact: -50.00% (threshold 10%)" \
	"$(bmc --server "$server_url" --project demo --commit 7a7a7a --pr 7)|$(sed -n 2,3p out | paste -sd'|')"

check_eq "--baseline merge-base: the pull request against its merge base" \
	"0|baseline: e0e0e0 (pull request #8: its merge base e0e0e0 with 'examples' has a run)|verdict: neutral" \
	"$(bmc --server "$server_url" --project demo --commit 8a8a8a --pr 8 --baseline merge-base)|$(sed -n 2p out)|$(sed -n 4p out)"
check_eq "... by default, against the base branch's head, which moved on (a regression)" "1|baseline: e2e2e2" \
	"$(bmc --server "$server_url" --project demo --commit 8a8a8a --pr 8)|$(sed -n 2p out | cut -d' ' -f1-2)"
check_eq "--baseline of another rule: exit 2, naming the rules" "2|bm-check: --baseline takes auto or merge-base, not 'latest'" \
	"$(bmc --server "$server_url" --project demo --commit 8a8a8a --baseline latest)|$(cat err)"

# -- a commit measured on two platforms (a CI matrix): --run checks each --
upload_matrix "$tok" demo chk c0c0c0 c1c1c1
check_eq "two platforms, no --run: the newest upload's (aarch64), neutral, exit 0" "0|commit c1c1c1 on aarch64-debian-12-gcc-12.2.0" \
	"$(bmc --server "$server_url" --project demo --commit c1c1c1)|$(sed -n 1p out)"
check_eq "--run: that run's platform (x86_64), its regression, exit 1" \
	"1|commit c1c1c1 on x86_64-debian-12-gcc-12.2.0|verdict: regression" \
	"$(bmc --server "$server_url" --project demo --commit c1c1c1 --run chk-x86-1)|$(sed -n 1p out)|$(sed -n 4p out)"
check_eq "--run of another commit: the server's 404, exit 2" "2|bm-check: no run 'chk-x86-0' of commit 'c1c1c1' in project 'demo'" \
	"$(bmc --server "$server_url" --project demo --commit c1c1c1 --run chk-x86-0)|$(cat err)"

# -- the gate metric and the cause, from the counts the server returns --
make_report l0.json layout 5a5a5a 2026-11-06T10:00:00Z "" 100,100 ev_Ir=20000000,20000000 ev_D1mr=12,12 ev_DLmr=10,10
make_report l1.json layout 5b5b5b 2026-11-07T10:00:00Z 5a5a5a 80,50 ev_Ir=20000000,40000000 ev_D1mr=120012,12 ev_DLmr=120010,10
upload "$tok" demo l0.json >/dev/null
upload "$tok" demo l1.json >/dev/null
"$BM_CHECK" --base l0.json --head l1.json --metric instructions | sed -n '/^benchmark/,$p' >offline.table
check_eq "--metric instructions online: the server's counts, as offline" "1" \
	"$(bmc --server "$server_url" --project demo --commit 5b5b5b --metric instructions)"
sed -n '/^benchmark/,$p' out >online.table
check_output "... the same table" offline.table online.table
check_eq "cycles online: more cache misses named" \
	"suite::b1      100 /s  80 /s  -20.00%  more cache misses (Ir +0.00%, L1 misses +120,000, LL misses +120,000)" \
	"$(bmc --server "$server_url" --project demo --commit 5b5b5b >/dev/null; grep '^suite::b1' out)"
check_eq "--metric allocations online, reports without heap counts: exit 2, and why" \
	"2|bm-check: --metric allocations: no benchmark of the server's report has heap counts (the bm engine counts the heap unless bm-run --no-heap; callgrind does not)" \
	"$(bmc --server "$server_url" --project demo --commit 5b5b5b --metric allocations)|$(cat err)"
printf '{"benchmarks": {"suite::b2": {"threshold": 0.6}, "suite::b1": {"threshold": 0.25}}}' >bm.json
check_eq "--config online: the benchmarks' own thresholds" "0|verdict: neutral" \
	"$(bmc --server "$server_url" --project demo --commit 5b5b5b --config bm.json)|$(sed -n 4p out)"

# -- no baseline: a warning, exit 0 --
check_eq "the first commit: no baseline, exit 0, said on stdout" \
	"0|no baseline: the run was uploaded without its commit's ancestry (a first commit, or a shallow clone: fetch the history, e.g. actions/checkout's fetch-depth: 0) — nothing was compared|verdict: no-baseline" \
	"$(bmc --server "$server_url" --project demo --commit e0e0e0)|$(sed -n 2,3p out | paste -sd'|')"
check_eq "... and on stderr" \
	"bm-check: warning: no baseline: the run was uploaded without its commit's ancestry (a first commit, or a shallow clone: fetch the history, e.g. actions/checkout's fetch-depth: 0) — nothing was compared" "$(cat err)"

bmc --server "$server_url" --project demo --commit e0e0e0 --markdown nobase.md >/dev/null
check_eq "--markdown without a baseline says so, and why (offline, two reports always have one)" "1 1" \
	"$(grep -c 'No baseline' nobase.md) $(grep -c "the run was uploaded without its commit's ancestry" nobase.md)"

# -- warm and cold results are never compared --
make_report c0.json warmcold c0c0c0 2026-11-06T10:00:00Z "" 100,100,100
make_report c1.json warmcold c1c1c1 2026-11-07T10:00:00Z c0c0c0 50,50,50 warm=1
for r in c0 c1; do upload "$tok" demo "$r.json" >/dev/null; done
check_eq "a warm run after a cold one: no baseline (as after a model change), exit 0" "0|verdict: no-baseline" \
	"$(bmc --server "$server_url" --project demo --commit c1c1c1)|$(grep '^verdict' out)"
check "... and it says the parent's run was measured another way: the caches named" \
	grep -q "no baseline: ancestor c0c0c0 has a run, but measured differently: simulated caches: cold there, warm here" out

# -- errors: exit 2 --
check_eq "a commit with no run: exit 2 with the server's message" \
	"2 bm-check: no run of commit 'ffff0000' in project 'demo'" \
	"$(bmc --server "$server_url" --project demo --commit ffff0000) $(cat err)"
check_eq "a pull request the commit has no run for: exit 2" \
	"2 bm-check: no run of commit 'e1e1e1' for pull request #8" \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1 --pr 8) $(cat err)"
check_eq "no project: exit 2 and what to set" "2 bm-check: no project: give --project NAME or set BM_PROJECT" \
	"$(bmc --server "$server_url" --commit e1e1e1) $(head -n 1 err)"

# -- the commit from git --
git init -q repo && (cd repo && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one) || exit 1
head_sha=$(git -C repo rev-parse HEAD)
make_report g1.json examples "$head_sha" 2026-11-06T10:00:00Z e0e0e0 100,100,100
upload "$tok" demo g1.json >/dev/null
check_eq "without --commit: git's HEAD" "0|commit $head_sha on x86_64-debian-12-gcc-12.2.0" \
	"$(cd repo && bmc --server "$server_url" --project demo)|$(sed -n 1p repo/out)"
mkdir -p nogit
check_eq "without --commit outside a git repository: exit 2 and why" \
	"2 bm-check: cannot tell which commit to check: not in a git repository with a commit (give --commit SHA)" \
	"$(cd nogit && GIT_CEILING_DIRECTORIES="$scratch" bmc --server "$server_url" --project demo) $(cat nogit/err)"

# -- --github-status against a fake GitHub API --
# It answers 201 to every request and records each in request.N: the
# request line, the headers and the body.
cat >fake_github.pl <<'EOF'
use strict;
use lib "$ENV{top_srcdir}/tests/cli";
use fake_http;
my ($dir) = @ARGV;
my $srv = fake_http::listen_in($dir);
my $n = 0;
while (my $c = $srv->accept) {
	fake_http::record($dir, ++$n, fake_http::read_request($c));
	print $c "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
	close $c;
}
EOF
mkdir gh
perl fake_github.pl "$scratch/gh" &
gh_pid=$!
trap 'kill $gh_pid 2>/dev/null; server_cleanup' EXIT
for _ in $(seq 600); do [ -s gh/port ] && break; sleep 0.05; done
export GITHUB_API_URL="http://127.0.0.1:$(cat gh/port)"

check_eq "--github-status without GITHUB_TOKEN and GITHUB_REPOSITORY: exit 2 and what to set" \
	"2 bm-check: --github-status needs GITHUB_TOKEN (a token that may write statuses) and GITHUB_REPOSITORY (OWNER/REPO)" \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1 --github-status) $(cat err)"
check_eq "... and sends nothing" "" "$(ls gh | grep request)"
export GITHUB_REPOSITORY=o/r GITHUB_TOKEN=t
check_eq "--github-status on a regression: exit 1 still" 1 \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1 --github-status)"
check_eq "the status went to /repos/o/r/statuses/SHA" "POST /repos/o/r/statuses/e1e1e1 HTTP/1.1" \
	"$(head -n 1 gh/request.1 | tr -d '\r')"
check "with the bearer token" grep -q "^Authorization: Bearer t.$" gh/request.1
sed '1,/^.$/d' gh/request.1 >status.json
check_eq "the body: state failure, context 'bm (ARCH, MODEL)', the verdict, a link to the report" \
	"failure|bm (x86_64, bm-model/1+valgrind=3.19.0)|regression: commit impact -30.00% (threshold 10%)|$server_url/projects/demo/commits/e1e1e1" \
	"$(json_get status.json '"$j->{state}|$j->{context}|$j->{description}|$j->{target_url}"')"
check_eq "a passing check: state success" "0 success" \
	"$(bmc --server "$server_url" --project demo --commit e2e2e2 --threshold 0.5 --github-status) $(sed '1,/^.$/d' gh/request.2 >s2.json; json_get s2.json '$j->{state}')"
check_eq "offline too, on the head report's commit" "1 POST /repos/o/r/statuses/e1e1e1 HTTP/1.1 failure" \
	"$(bmc --base w0.json --head w1.json --github-status) $(head -n 1 gh/request.3 | tr -d '\r') $(sed '1,/^.$/d' gh/request.3 >s3.json; json_get s3.json '$j->{state}')"
check_eq "--run: the status links to that run's report" "1 $server_url/projects/demo/commits/c1c1c1?run=chk-x86-1" \
	"$(bmc --server "$server_url" --project demo --commit c1c1c1 --run chk-x86-1 --github-status) $(sed '1,/^.$/d' gh/request.4 >s4.json; json_get s4.json '$j->{target_url}')"

# -- the server is gone --
stop_server
check_eq "the server not running: exit 2, and why" "2" \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1 --tries 1)"
check "... the message names the server" grep -q "^bm-check: no answer from $server_url/api/v1/projects/demo/commits/e1e1e1/report: " err
check_eq "... with --github-status, the status says error" "2 error" \
	"$(bmc --server "$server_url" --project demo --commit e1e1e1 --tries 1 --github-status) $(sed '1,/^.$/d' gh/request.5 >s5.json; json_get s5.json '$j->{state}')"

done_testing
