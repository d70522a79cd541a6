#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server against a synthetic git history, over real HTTP: tokens,
# uploads, every baseline rule, commit impact, history, changes, settings,
# profiles, and every class of bad input (each leaving nothing stored).
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create demo 2>"$scratch/err")
check "project create prints an upload token" sh -c "echo '$tok' | grep -q '^bm_[0-9a-f]\{64\}$'"
admin=$("$BM_SERVER_BIN" --db "$db" token create demo --admin 2>/dev/null)
other=$("$BM_SERVER_BIN" --db "$db" project create other 2>/dev/null)
"$BM_SERVER_BIN" --db "$db" project create demo >/dev/null 2>"$scratch/err"
check_eq "creating a project twice: exit 1 and why" \
	"1 bm-server: project 'demo' exists already (bm-server token create PROJECT gives another token)" \
	"$? $(cat "$scratch/err")"
check "tokens are stored hashed, never in clear" sh -c "! grep -q '${tok#bm_}' '$db'"
start_server "$db" || exit 1

# -- uploads and idempotence --
# main: c1 <- c2 <- c3 <- c4 (no run) <- c5
make_report "$scratch/c1.json" main c1c1c1 2026-11-01T10:00:00Z "" 100,100,100
check_eq "an upload: 201" 201 "$(upload "$tok" demo "$scratch/c1.json")"
check_eq "the answer names the run and where to see it" "run-c1c1c1-push-m1 $server_url/projects/demo/commits/c1c1c1" \
	"$(body '"$j->{run_id} $j->{report_url}"')"
check_eq "the same run_id again: 200, nothing new" "200 false 1" \
	"$(upload "$tok" demo "$scratch/c1.json") $(body '$j->{created} ? "true" : "false"') $(run_count demo)"
gzip -c "$scratch/c1.json" >"$scratch/c1.json.gz"
make_report "$scratch/c2.json" main c2c2c2 2026-11-02T10:00:00Z c1c1c1 110,100,70
gzip -c "$scratch/c2.json" >"$scratch/c2.json.gz"
check_eq "a gzip body: 201" 201 "$(upload "$tok" demo "$scratch/c2.json.gz" -H 'Content-Encoding: gzip')"
make_report "$scratch/c3.json" main c3c3c3 2026-11-03T10:00:00Z c2c2c2,c1c1c1 110,130,80
upload "$tok" demo "$scratch/c3.json" >/dev/null
make_report "$scratch/c5.json" main c5c5c5 2026-11-05T10:00:00Z c4c4c4,c3c3c3,c2c2c2 110,130,-
upload "$tok" demo "$scratch/c5.json" >/dev/null

# -- baselines --
api GET /api/v1/projects/demo/commits/c1c1c1/report >/dev/null
check_eq "the first commit: no baseline, and the verdict says so" \
	"null no-baseline no baseline: the run was uploaded without its commit's ancestry (a first commit, or a shallow clone: fetch the history, e.g. actions/checkout's fetch-depth: 0)" \
	"$(body '($j->{baseline} // "null") . " $j->{verdict} $j->{baseline_reason}"')"
api GET /api/v1/projects/demo/commits/c2c2c2/report >/dev/null
check_eq "push: the parent's run is the baseline" \
	"c2c2c2 c1c1c1 push to 'main': the parent commit c1c1c1 has a run" \
	"$(body '"$j->{commit} $j->{baseline}{sha} $j->{baseline}{reason}"')"
check_eq "impacts per benchmark, worst first" "suite::b3 -0.3 suite::b2 0 suite::b1 0.1" \
	"$(body 'join " ", map { "$_->{id} " . (0 + sprintf("%.6f", $_->{impact})) } @{$j->{benchmarks}}')"
check_eq "commit impact with one impact below -t (t = 0.10): the worst, a regression" "-0.3 regression 0.1" \
	"$(body '(0 + sprintf("%.6f", $j->{commit_impact})) . " $j->{verdict} $j->{threshold}"')"
check_eq "each benchmark names the run its result came from and whether it has a profile" \
	"run-c2c2c2-push-m1 1" \
	"$(body 'my $b = $j->{benchmarks}[0]; "$b->{run_id} " . ($b->{profile} ? 1 : 0)')"
api GET /api/v1/projects/demo/commits/c5c5c5/report >/dev/null
check_eq "push: the closest ancestor with a run, past one without" \
	"c3c3c3 push to 'main': the closest first-parent ancestor with a run is c3c3c3, 2 commits back" \
	"$(body '"$j->{baseline}{sha} $j->{baseline}{reason}"')"
check_eq "a failed benchmark: verdict failed, listed first with its reason" \
	"failed suite::b3 failed killed by signal 11 (Segmentation fault)" \
	"$(body '"$j->{verdict} $j->{benchmarks}[0]{id} $j->{benchmarks}[0]{status} $j->{benchmarks}[0]{reason}"')"

# A feature branch pushed from c2: f1 (no run) <- f2.
make_report "$scratch/f2.json" feature f2f2f2 2026-11-04T10:00:00Z f1f1f1,c2c2c2,c1c1c1 110,100,70
upload "$tok" demo "$scratch/f2.json" >/dev/null
api GET /api/v1/projects/demo/commits/f2f2f2/report >/dev/null
check_eq "branch push: the closest ancestor, on the branch it came from" "c2c2c2 neutral" \
	"$(body '"$j->{baseline}{sha} $j->{verdict}"')"

# Pull request 7: GitHub's merge commit m7 has parents c3 (the base head) and f2.
make_report "$scratch/m7.json" feature 7a7a7a 2026-11-06T10:00:00Z c3c3c3,c2c2c2 110,130,80 pr=7 base=main
upload "$tok" demo "$scratch/m7.json" >/dev/null
api GET '/api/v1/projects/demo/commits/7a7a7a/report?pr=7' >/dev/null
check_eq "pull request: the merge commit's first parent (the base head) has a run" \
	"7 c3c3c3 pull request #7: the merge commit's first parent c3c3c3 (the head of 'main' it merges into) has a run" \
	"$(body '"$j->{pr} $j->{baseline}{sha} $j->{baseline}{reason}"')"
# Pull request 8's first parent has no run: the latest main commit with one.
make_report "$scratch/m8.json" feature2 8a8a8a 2026-11-07T10:00:00Z c6c6c6,c5c5c5 110,130,80 pr=8 base=main
upload "$tok" demo "$scratch/m8.json" >/dev/null
api GET /api/v1/projects/demo/commits/8a8a8a/report >/dev/null
check_eq "pull request: else the latest commit of the base branch with a run" \
	"c5c5c5 pull request #8: the latest commit of base branch 'main' with a run (c5c5c5); the merge commit's first parent has none" \
	"$(body '"$j->{baseline}{sha} $j->{baseline}{reason}"')"
# The merge-base rule (bm-check --baseline merge-base): pull request 12
# left main at c3 (main has moved on to c5 since), 13 at c4 (no run).
make_report "$scratch/m12.json" topic12 12a12a 2026-11-07T10:00:00Z c5c5c5,c4c4c4,c3c3c3,c2c2c2 110,130,80 pr=12 \
	base=main merge_base=C3C3C3
make_report "$scratch/m13.json" topic13 13a13a 2026-11-07T10:00:00Z c5c5c5,c4c4c4,c3c3c3 110,130,80 pr=13 base=main \
	merge_base=c4c4c4
for m in m12 m13; do upload "$tok" demo "$scratch/$m.json" >/dev/null; done
api GET '/api/v1/projects/demo/commits/12a12a/report?pr=12' >/dev/null
check_eq "a pull request by the usual rule: the base branch's head" "c5c5c5" "$(body '$j->{baseline}{sha}')"
api GET '/api/v1/projects/demo/commits/12a12a/report?pr=12&baseline=merge-base' >/dev/null
check_eq "... by the merge-base rule: its merge base (uploaded in upper case, kept in lower)" \
	"c3c3c3 pull request #12: its merge base c3c3c3 with 'main' has a run" \
	"$(body '"$j->{baseline}{sha} $j->{baseline_reason}"')"
api GET '/api/v1/projects/demo/commits/13a13a/report?baseline=merge-base' >/dev/null
check_eq "a merge base without a run: its closest first-parent ancestor with one" \
	"c3c3c3 pull request #13: its merge base c4c4c4 with 'main' has no run; its closest first-parent ancestor with one is c3c3c3, 1 commit back" \
	"$(body '"$j->{baseline}{sha} $j->{baseline_reason}"')"
api GET '/api/v1/projects/demo/commits/7a7a7a/report?baseline=merge-base' >/dev/null
check_eq "a run uploaded without its merge base: the usual rule, and why" \
	"c3c3c3 pull request #7: the merge commit's first parent c3c3c3 (the head of 'main' it merges into) has a run (merge-base rule: the run was uploaded without its merge base (bm-upload reads it from git, for a merge commit, or CI_MERGE_REQUEST_DIFF_BASE_SHA; or give --merge-base))" \
	"$(body '"$j->{baseline}{sha} $j->{baseline_reason}"')"
check_eq "?baseline= of another rule: 400, naming the rules" \
	"400 baseline: expected auto or merge-base, not 'latest'" \
	"$(api GET '/api/v1/projects/demo/commits/7a7a7a/report?baseline=latest') $(body '$j->{error}')"
make_report "$scratch/m9.json" topic 9a9a9a 2026-11-07T10:00:00Z c6c6c6 100 pr=9 base=release
upload "$tok" demo "$scratch/m9.json" >/dev/null
api GET /api/v1/projects/demo/commits/9a9a9a/report >/dev/null
check_eq "pull request into a branch without runs: no baseline, never success" \
	"no-baseline no baseline: base branch 'release' of pull request #9 has no run yet" \
	"$(body '"$j->{verdict} $j->{baseline_reason}"')"
check_eq "?pr= for a pull request the commit was not uploaded for: 404" 404 \
	"$(api GET '/api/v1/projects/demo/commits/9a9a9a/report?pr=10')"

# Another cost model, and another platform, are not compared.
make_report "$scratch/d1.json" main d1d1d1 2026-11-08T10:00:00Z c5c5c5 100 model=bm-model/2
make_report "$scratch/d2.json" main d2d2d2 2026-11-09T10:00:00Z d1d1d1 100
upload "$tok" demo "$scratch/d1.json" >/dev/null
upload "$tok" demo "$scratch/d2.json" >/dev/null
api GET /api/v1/projects/demo/commits/d2d2d2/report >/dev/null
check_eq "another model: no baseline, and the reason says which field differs and what to rerun" \
	"no-baseline no baseline: ancestor d1d1d1 has a run, but measured differently: cost model: bm-model/2 there, bm-model/1 here (results of two cost models never compare: rerun one of them with the other's model: bm-run --model bm-model/2, or --model bm-model/1); only runs measured the same way on the same platform are compared" \
	"$(body '"$j->{verdict} $j->{baseline_reason}"')"
make_report "$scratch/a1.json" main a1a1a1 2026-11-10T10:00:00Z d2d2d2 100 arch=aarch64
upload "$tok" demo "$scratch/a1.json" >/dev/null
api GET /api/v1/projects/demo/commits/a1a1a1/report >/dev/null
check "another platform: no baseline, and the reason says why" \
	test "$(body '$j->{baseline_reason} =~ /^no baseline: ancestor d2d2d2 has a run, but on another platform/ ? "why" : $j->{baseline_reason}')" = why
check_eq "an unknown commit: 404" 404 "$(api GET /api/v1/projects/demo/commits/ffff0000/report)"

# The engine and the CPU the program saw are part of a run's series too
# (project other): branch engines measured with bm's engine, a pull
# request into it measured with callgrind, whose guest sees the host's CPU
# (xxHash's run-time dispatch took another path: it showed "+310.48%").
cg="engine=callgrind"
cpu="cpu=host: AMD EPYC 7B13"
make_report "$scratch/g1.json" engines 0e1e1e 2026-11-01T10:00:00Z "" 100,100 engine=bm
make_report "$scratch/g2.json" engines 0e2e2e 2026-11-02T10:00:00Z 0e1e1e 100,100 engine=bm
make_report "$scratch/gp.json" topic 0e9e9e 2026-11-03T10:00:00Z 0e2e2e,0e1e1e 310,310 "$cg" "$cpu" pr=11 base=engines
for g in g1 g2 gp; do upload "$other" other "$scratch/$g.json" >/dev/null; done
api GET '/api/v1/projects/other/commits/0e9e9e/report?pr=11' >/dev/null
check_eq "a pull request measured with callgrind: not compared with the base branch's bm-engine run, the engine named" \
	"no-baseline null|no baseline: base branch 'engines' at 0e2e2e has a run, but measured differently: engine: bm there, callgrind here (rerun one of them with the other's engine: bm-run --engine bm, or --engine callgrind); only runs measured the same way on the same platform are compared" \
	"$(body '"$j->{verdict} " . ($j->{baseline} // "null")')|$(body '$j->{baseline_reason}')"
make_report "$scratch/g3.json" engines 0e3e3e 2026-11-04T10:00:00Z 0e2e2e,0e1e1e 310,310 "$cg" "$cpu"
make_report "$scratch/g4.json" engines 0e4e4e 2026-11-05T10:00:00Z 0e3e3e,0e2e2e 320,320 "$cg" "cpu=host: Intel(R) Xeon(R)"
for g in g3 g4; do upload "$other" other "$scratch/$g.json" >/dev/null; done
api GET /api/v1/projects/other/commits/0e3e3e/report >/dev/null
check_eq "a push measured with callgrind after bm-engine runs: no baseline, the engine named" \
	"no-baseline|no baseline: ancestor 0e2e2e has a run, but measured differently: engine: bm there, callgrind here" \
	"$(body '$j->{verdict}')|$(body '$j->{baseline_reason}' | sed 's/ (rerun.*//')"
api GET /api/v1/projects/other/commits/0e4e4e/report >/dev/null
check_eq "callgrind on another host's CPU: no baseline, the CPU named" \
	"no-baseline|no baseline: ancestor 0e3e3e has a run, but measured differently: virtual CPU: 'host: AMD EPYC 7B13' there, 'host: Intel(R) Xeon(R)' here" \
	"$(body '$j->{verdict}')|$(body '$j->{baseline_reason}' | sed 's/ (code that.*//')"
api GET '/api/v1/projects/other/benchmarks/suite%3A%3Ab1/history?branch=engines' >/dev/null
check_eq "the history lists every run, each point with its series, so the change shows" \
	"0e1e1e bm-model/1+valgrind=3.19.0|0e2e2e bm-model/1+valgrind=3.19.0|0e3e3e bm-model/1+callgrind+valgrind=3.19.0+cpu=host: AMD EPYC 7B13|0e4e4e bm-model/1+callgrind+valgrind=3.19.0+cpu=host: Intel(R) Xeon(R)" \
	"$(body 'join "|", map { "$_->{commit} $_->{model}" } @{$j->{points}}')"

# -- a commit is never its own baseline, nor is a pull request's run (issue 39) --
# Branch lab (project other): l0 <- (a merge request's head l1, measured
# only as pull request 21) <- l2.  An ancestry that named the commit
# gave the pull request its own run as baseline: impact 0, neutral.
make_report "$scratch/l0.json" lab 1a0a0a 2026-11-01T10:00:00Z "" 100,100
make_report "$scratch/l1.json" topic21 1a1a1a 2026-11-02T10:00:00Z "" 50,50 pr=21 base=lab
make_report "$scratch/l2.json" lab 1a2a2a 2026-11-03T10:00:00Z 1a1a1a,1a0a0a 100,100
for l in l0 l1 l2; do upload "$other" other "$scratch/$l.json" >/dev/null; done
api GET /api/v1/projects/other/commits/1a2a2a/report >/dev/null
check_eq "push: an ancestor measured only in a pull request is passed over" \
	"1a0a0a neutral push to 'lab': the closest first-parent ancestor with a run is 1a0a0a, 2 commits back" \
	"$(body '"$j->{baseline}{sha} $j->{verdict} $j->{baseline_reason}"')"
runs_before=$(run_count other)
make_report "$scratch/self.json" topic22 1a3a3a 2026-11-04T10:00:00Z 1A3A3A,1a2a2a 50,50 pr=22 base=lab
check_eq "an ancestry naming the commit itself (in upper case): 400, saying so" \
	"400 context.commit.ancestors[0]: the commit itself (1a3a3a): the ancestry is its first parents, nearest first, without it" \
	"$(upload "$other" other "$scratch/self.json") $(body '$j->{error}')"
make_report "$scratch/twice.json" lab 1a4a4a 2026-11-04T10:00:00Z 1a2a2a,1a1a1a,1a2a2a 50,50
check_eq "an ancestry naming a commit twice: 400, saying so" \
	"400 context.commit.ancestors: '1a2a2a' appears twice (a first-parent ancestry names each commit once)" \
	"$(upload "$other" other "$scratch/twice.json") $(body '$j->{error}')"
make_report "$scratch/mbself.json" topic23 1a5a5a 2026-11-04T10:00:00Z 1a2a2a 50,50 pr=23 base=lab merge_base=1a5a5a
check_eq "a merge base that is the commit itself: 400, saying so" \
	"400 context.pr.merge_base: the commit itself (1a5a5a): a merge base is where the pull request left its base branch, an ancestor of the commit" \
	"$(upload "$other" other "$scratch/mbself.json") $(body '$j->{error}')"
check_eq "... none of them stored" "$runs_before" "$(run_count other)"
# Runs stored before these were refused: their ancestry rewritten so.
make_report "$scratch/p24.json" topic24 1a6a6a 2026-11-05T10:00:00Z 1a2a2a 50,50 pr=24 base=lab merge_base=1a2a2a
make_report "$scratch/l7.json" lab2 1a7a7a 2026-11-06T10:00:00Z 1a2a2a 50,50
for l in p24 l7; do upload "$other" other "$scratch/$l.json" >/dev/null; done
for sha in 1a6a6a 1a7a7a; do
	db_query "$db" "UPDATE run_ancestors SET ancestors = '[\"$sha\",\"1a2a2a\"]' WHERE run = (SELECT id FROM runs WHERE sha = '$sha')"
done
db_query "$db" "UPDATE runs SET merge_base = '1a6a6a' WHERE sha = '1a6a6a'"
api GET '/api/v1/projects/other/commits/1a6a6a/report?pr=24' >/dev/null
check_eq "a pull request stored with itself as its first parent: compared with its base branch, not itself" \
	"1a2a2a regression -0.5 pull request #24: the latest commit of base branch 'lab' with a run (1a2a2a); the merge commit's first parent has none" \
	"$(body '"$j->{baseline}{sha} $j->{verdict} $j->{commit_impact} $j->{baseline_reason}"')"
api GET '/api/v1/projects/other/commits/1a6a6a/report?pr=24&baseline=merge-base' >/dev/null
check_eq "... and with itself as its merge base: the same, saying why" \
	"1a2a2a regression (merge-base rule: its merge base is the commit itself)" \
	"$(body '"$j->{baseline}{sha} $j->{verdict} " . ($j->{baseline_reason} =~ /(\(merge-base rule: .*)/)[0]')"
api GET /api/v1/projects/other/commits/1a7a7a/report >/dev/null
check_eq "a push stored with itself as its parent: compared with its parent, not itself" "1a2a2a regression -0.5" \
	"$(body '"$j->{baseline}{sha} $j->{verdict} $j->{commit_impact}"')"

# -- the seed's worked examples, through the settings --
make_report "$scratch/w0.json" examples e0e0e0 2026-11-01T10:00:00Z "" 100,100,100
make_report "$scratch/w1.json" examples e1e1e1 2026-11-02T10:00:00Z e0e0e0 110,100,70
make_report "$scratch/w2.json" examples e2e2e2 2026-11-03T10:00:00Z e0e0e0 110,130,80
for w in w0 w1 w2; do upload "$tok" demo "$scratch/$w.json" >/dev/null; done
check_eq "settings: the defaults" "0.1 0.01 4" "$(api GET /api/v1/projects/demo/settings >/dev/null; body '"$j->{threshold} $j->{dt} $j->{st}"')"
check_eq "settings: an upload token may not change them (403)" 403 \
	"$(api PUT /api/v1/projects/demo/settings -H "Authorization: Bearer $tok" --data '{"threshold": 0.25}')"
check_eq "settings: no token (401)" 401 "$(api PUT /api/v1/projects/demo/settings --data '{"threshold": 0.25}')"
check_eq "settings: out of range (400), naming the field" "400 threshold: expected a number from 0 to 0.50" \
	"$(api PUT /api/v1/projects/demo/settings -H "Authorization: Bearer $admin" --data '{"threshold": 0.6}') $(body '$j->{error}')"
check_eq "settings: a partial body changes only what it names" "200 0.25 0.01 4" \
	"$(api PUT /api/v1/projects/demo/settings -H "Authorization: Bearer $admin" --data '{"threshold": 0.25}') $(body '"$j->{threshold} $j->{dt} $j->{st}"')"
api GET /api/v1/projects/demo/commits/e1e1e1/report >/dev/null
check_eq "impacts [0.1, 0, -0.3], t = 0.25: -0.3, a regression" "-0.3 regression" \
	"$(body '(0 + sprintf("%.4f", $j->{commit_impact})) . " $j->{verdict}"')"
api GET /api/v1/projects/demo/commits/e2e2e2/report >/dev/null
check_eq "impacts [0.1, 0.3, -0.2], t = 0.25: 0.3, an improvement" "0.3 improvement" \
	"$(body '(0 + sprintf("%.4f", $j->{commit_impact})) . " $j->{verdict}"')"
api PUT /api/v1/projects/demo/settings -H "Authorization: Bearer $admin" --data '{"threshold": 0.5}' >/dev/null
api GET /api/v1/projects/demo/commits/e2e2e2/report >/dev/null
check_eq "impacts [0.1, 0.3, -0.2], t = 0.5: the geometric mean, ~0.0459, neutral" "0.0459 neutral" \
	"$(body '(0 + sprintf("%.4f", $j->{commit_impact})) . " $j->{verdict}"')"
api PUT /api/v1/projects/demo/settings -H "Authorization: Bearer $admin" --data '{"threshold": 0.1}' >/dev/null

# -- history and changes --
api GET '/api/v1/projects/demo/benchmarks/suite%3A%3Ab1/history?branch=main' >/dev/null
check_eq "history: one point per commit of the branch, oldest first, pull requests apart (speeds to 6 digits)" \
	"c1c1c1=100 c2c2c2=110 c3c3c3=110 c5c5c5=110 d1d1d1=100 d2d2d2=100 a1a1a1=100" \
	"$(body 'join " ", map { "$_->{commit}=" . (defined $_->{value} ? 0 + sprintf("%.6g", $_->{value}) : "null") } @{$j->{points}}')"
check_eq "history: model and platform per point, for the chart's markers" "bm-model/2+valgrind=3.19.0 aarch64" \
	"$(body '"$j->{points}[4]{model} $j->{points}[6]{platform}{arch}"')"
api GET '/api/v1/projects/demo/benchmarks/suite%3A%3Ab1/history?branch=main&metric=Ir' >/dev/null
check_eq "history of an event metric" "30000000 27272727" "$(body '"$j->{points}[0]{value} $j->{points}[1]{value}"')"
check_eq "history: a metric no result carries (an imported one's name) is an empty series" "200 0" \
	"$(api GET '/api/v1/projects/demo/benchmarks/suite%3A%3Ab1/history?branch=main&metric=nope') $(body 'scalar @{$j->{points}}')"
check_eq "history: an empty metric is a 400" 400 "$(api GET '/api/v1/projects/demo/benchmarks/x/history?branch=main&metric=')"
check_eq "changes: a metric that is not built in is a 400" 400 "$(api GET '/api/v1/projects/demo/changes?branch=main&metric=nope')"
check_eq "history: no branch is a 400" 400 "$(api GET '/api/v1/projects/demo/benchmarks/x/history')"

# A series of 12 constant values, then one step of 1% (DT 0.5%, ST 4).
i=0
parent=
while [ $i -lt 16 ]; do
	speed=1000
	[ $i -ge 12 ] && speed=1010
	sha=$(printf 'aa%04d' $i)
	make_report "$scratch/s.json" steps "$sha" "2026-10-01T10:00:$(printf %02d $i)Z" "$parent" "$speed,500"
	upload "$tok" demo "$scratch/s.json" >/dev/null
	parent=$sha
	i=$((i + 1))
	if [ $i = 13 ]; then
		api GET '/api/v1/projects/demo/changes?branch=steps&dt=0.005&st=4' >/dev/null
		check_eq "changes: a 1% step with DT 0.5% is found at its first commit, not yet stable" \
			"suite::b1 aa0012 aa0011 0.01 stable=0 last_stable=0 from_stable=1" \
			"$(body 'my $c = $j->{changes}[0]; "$c->{id} $c->{commit} $c->{from_commit} " . (0 + sprintf("%.4f", $c->{change})) . " stable=" . ($c->{stable} ? 1 : 0) . " last_stable=" . ($c->{last_stable} ? 1 : 0) . " from_stable=" . ($c->{from_stable} ? 1 : 0)')"
	fi
done
api GET '/api/v1/projects/demo/changes?branch=steps&dt=0.005&st=3' >/dev/null
check_eq "changes: stable once ST values follow; the constant series has no change" \
	"suite::b1 aa0012 stable=1 rank=1 unchanged=suite::b2" \
	"$(body 'my $c = $j->{changes}[0]; "$c->{id} $c->{commit} stable=" . ($c->{stable} ? 1 : 0) . " rank=$c->{rank} unchanged=" . join(",", @{$j->{unchanged}})')"
api GET '/api/v1/projects/demo/changes?branch=steps' >/dev/null
check_eq "changes: the project's DT (1%) does not see a 1% step" "0 0.01 4" \
	"$(body 'scalar(@{$j->{changes}}) . " $j->{dt} $j->{st}"')"

# A chart's budget is used (issue 39: points=8 over 20 results answered 2
# points, one run): 20 commits up and down (project other, branch budget).
i=0
parent=
while [ $i -lt 20 ]; do
	sha=$(printf 'bb%04d' $i)
	make_report "$scratch/s.json" budget "$sha" "2026-10-01T10:00:$(printf %02d $i)Z" "$parent" "$((100 + i * 7 % 13))"
	upload "$other" other "$scratch/s.json" >/dev/null
	parent=$sha
	i=$((i + 1))
done
api GET '/api/v1/projects/other/benchmarks/suite%3A%3Ab1/history?branch=budget&points=8' >/dev/null
check_eq "history: points=8 over 20 results: 7 points, each of 3 runs its lowest and highest, and the ends" "7 20 3 bb0000 bb0019" \
	"$(body 'scalar(@{$j->{points}}) . " $j->{reduced}{points} $j->{reduced}{buckets} $j->{points}[0]{commit} $j->{points}[-1]{commit}"')"
api GET '/api/v1/projects/other/benchmarks/suite%3A%3Ab1/history?branch=budget&points=20' >/dev/null
check_eq "... points=20: every one, not reduced" "20 null" "$(body 'scalar(@{$j->{points}}) . " " . ($j->{reduced} // "null")')"

# -- profiles and listings --
api GET /api/v1/projects/demo/runs/run-c2c2c2-push-m1/benchmarks/suite%3A%3Ab1/profile >/dev/null
check_eq "profile: the stored profile and syscall breakdown with callers" "main read 1 main" \
	"$(body '"$j->{profile}{functions}[0]{name} $j->{syscalls}{by_function}[0]{function} $j->{syscalls}{count} $j->{syscalls}{by_function}[0]{callers}[0]{function}"')"
check_eq "profile: the run's commit and the baseline run a differential flame graph compares with" \
	"c2c2c2 main run-c1c1c1-push-m1 c1c1c1" \
	"$(body '"$j->{commit} $j->{branch} $j->{baseline}{run_id} $j->{baseline}{sha}"')"
check_eq "profile: an unknown benchmark is a 404" 404 \
	"$(api GET /api/v1/projects/demo/runs/run-c2c2c2-push-m1/benchmarks/nope/profile)"
api GET /api/v1/projects/demo/branches >/dev/null
check_eq "branches, latest commit first, pull-request runs apart" "main feature examples steps" \
	"$(body 'join " ", map { $_->{name} } @{$j->{branches}}')"
api GET /api/v1/projects/demo/benchmarks?branch=main >/dev/null
check_eq "a branch's benchmark ids, sorted" "suite::b1 suite::b2 suite::b3" \
	"$(body 'join " ", @{$j->{benchmarks}}')"
check_eq "... a branch is needed" 400 "$(api GET /api/v1/projects/demo/benchmarks)"
check_eq "... an unknown branch has none" "200 0" \
	"$(api GET /api/v1/projects/demo/benchmarks?branch=nope) $(body 'scalar @{$j->{benchmarks}}')"
check_eq "an unknown project: 404" 404 "$(api GET /api/v1/projects/nope/branches)"
check_eq "an unknown path: 404 with a JSON error" "404 no such API path" \
	"$(api GET /api/v2/whatever) $(body '$j->{error}')"
check_eq "a wrong method: 405" 405 "$(api DELETE /api/v1/projects/demo/settings)"

# -- a commit measured on two platforms (a CI matrix): a report for each --
upload_matrix "$tok" demo mx e1e1e1 e2e2e2
api GET /api/v1/projects/demo/commits/e2e2e2/report >/dev/null
check_eq "two platforms: without ?run= the newest upload's report" "mx-arm-1 aarch64 mx-arm-0 neutral" \
	"$(body '"$j->{run_id} $j->{platform}{arch} $j->{baseline}{run_id} $j->{verdict}"')"
check_eq "two platforms: ?run= the other platform's, against its own baseline" "200 mx-x86-1 x86_64 mx-x86-0 regression" \
	"$(api GET '/api/v1/projects/demo/commits/e2e2e2/report?run=mx-x86-1') $(body '"$j->{run_id} $j->{platform}{arch} $j->{baseline}{run_id} $j->{verdict}"')"
check_eq "?run= a run of another commit: 404 naming both" "404 no run 'mx-x86-0' of commit 'E2E2E2' in project 'demo'" \
	"$(api GET '/api/v1/projects/demo/commits/E2E2E2/report?run=mx-x86-0') $(body '$j->{error}')"
check_eq "?run= no such run: 404" 404 "$(api GET '/api/v1/projects/demo/commits/e2e2e2/report?run=nope')"
check_eq "?run= with ?pr= of a pull request the run is not of: 404" "404 no run 'mx-x86-1' of commit 'e2e2e2' for pull request #3" \
	"$(api GET '/api/v1/projects/demo/commits/e2e2e2/report?pr=3&run=mx-x86-1') $(body '$j->{error}')"
check_eq "?run= empty: 404, not the newest" 404 "$(api GET '/api/v1/projects/demo/commits/e2e2e2/report?run=')"

# -- bad input: a clear 4xx, nothing stored --
runs_before=$(run_count demo)
make_report "$scratch/bad.json" main b0b0b0 2026-11-11T10:00:00Z c5c5c5 100
check_eq "no token: 401" "401 no token: send the project's token as 'Authorization: Bearer TOKEN'" \
	"$(api POST /api/v1/projects/demo/runs --data-binary "@$scratch/bad.json") $(body '$j->{error}')"
check_eq "a wrong token: 401" 401 "$(upload bm_0000 demo "$scratch/bad.json")"
check_eq "another project's token: 401" 401 "$(upload "$other" demo "$scratch/bad.json")"
printf '{"schema": "bm-report/1", ' >"$scratch/broken.json"
check_eq "malformed JSON: 400 with the position" "400 malformed JSON at line 1" \
	"$(upload "$tok" demo "$scratch/broken.json") $(body '$j->{error} =~ /^(malformed JSON at line \d+)/; $1')"
sed 's|"bm-report/1"|"bm-report/9"|' "$scratch/bad.json" >"$scratch/schema.json"
check_eq "an unknown schema: 400 naming it" "400 unknown report schema 'bm-report/9' (this bm reads bm-report/1)" \
	"$(upload "$tok" demo "$scratch/schema.json") $(body '$j->{error}')"
make_report "$scratch/nocommit.json" main b0b0b0 2026-11-11T10:00:00Z "" 100
perl -MJSON::PP -i -0pe '$j = decode_json($_); $j->{context}{commit} = undef; $_ = encode_json($j)' "$scratch/nocommit.json"
check_eq "no commit in the context: 400 naming the field" "400 context.commit: missing" \
	"$(upload "$tok" demo "$scratch/nocommit.json") $(body '$j->{error} =~ /^(context\.commit: missing)/; $1')"
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{benchmarks}[0]{events}{Ir} = -5; $_ = encode_json($j)' "$scratch/bad.json" >"$scratch/negative.json"
check_eq "a negative count: 400 naming the field" "400 benchmarks[0].events.Ir" \
	"$(upload "$tok" demo "$scratch/negative.json") $(body '$j->{error} =~ /^(benchmarks\[0\]\.events\.Ir)/; $1')"
perl -MJSON::PP -0pe '$j = decode_json($_); @{$j->{benchmarks}[0]}{qw(cycles time_s speed)} = (1000, 5, 1e12);
	$_ = encode_json($j)' "$scratch/bad.json" >"$scratch/claim.json"
check_eq "numbers that contradict themselves: 400 naming the benchmark (it was stored and gated on its claim)" \
	"400 benchmarks[0].speed: 1e+12 in benchmark 'suite::b1' contradicts its cycles: 1000 cycles at model.frequency_hz 3000000000 are 3000000 runs per second (speed = frequency_hz / cycles)" \
	"$(upload "$tok" demo "$scratch/claim.json") $(body '$j->{error}')"
sed 's/"speed":100/"speed":NaN/' "$scratch/bad.json" >"$scratch/nan.json"
check_eq "NaN: 400" 400 "$(upload "$tok" demo "$scratch/nan.json")"
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{context}{commit}{timestamp} = "yesterday"; $_ = encode_json($j)' "$scratch/bad.json" >"$scratch/time.json"
check_eq "a bad timestamp: 400 naming the field" "400 context.commit.timestamp" \
	"$(upload "$tok" demo "$scratch/time.json") $(body '$j->{error} =~ /^(context\.commit\.timestamp)/; $1')"
printf 'not gzip' >"$scratch/notgz"
check_eq "a body that is not gzip: 400" "400 the body is not valid gzip" \
	"$(upload "$tok" demo "$scratch/notgz" -H 'Content-Encoding: gzip') $(body '$j->{error}')"
check_eq "nothing was stored by any of them" "$runs_before" "$(run_count demo)"

# Names of any bytes (UTF-8) go in and come back intact.
name='we"ird <img src=x onerror=alert(1)>/ü '"'"'; DROP TABLE runs;--'
weird=$("$BM_SERVER_BIN" --db "$db" project create "$name" 2>/dev/null)
enc=$(perl -e '$_ = $ARGV[0]; s/([^A-Za-z0-9._~-])/sprintf("%%%02X", ord $1)/ge; print' "$name")
make_report "$scratch/weird.json" "br/än'ch" abcdef 2026-11-01T10:00:00Z "" 100 'ids=s::x'"'"'; DROP TABLE benchmarks;--[n=<b>]'
check_eq "a project and benchmark with odd names: stored" 201 "$(upload "$weird" "$enc" "$scratch/weird.json")"
api GET /api/v1/projects >/dev/null
check_eq "the project's name comes back intact" 1 \
	"$(NAME="$name" json_get "$scratch/body" 'use Encode; scalar grep { $_->{name} eq Encode::decode("UTF-8", $ENV{NAME}) } @{$j->{projects}}')"
api GET "/api/v1/projects/$enc/commits/abcdef/report" >/dev/null
check_eq "the benchmark's and branch's names come back intact" "s::x'; DROP TABLE benchmarks;--[n=<b>] br/än'ch" \
	"$(json_get "$scratch/body" 'use Encode; Encode::encode("UTF-8", "$j->{benchmarks}[0]{id} $j->{branch}")')"

# Project names that could be made and never used, or that drive a
# terminal, are refused before anything is written (issue 39).
projects_before=$(api GET /api/v1/projects >/dev/null; body 'scalar @{$j->{projects}}')
for name in . ..; do
	"$BM_SERVER_BIN" --db "$db" project create "$name" >"$scratch/out" 2>"$scratch/err"
	check_eq "project create '$name': exit 2, saying why" \
		"2 bm-server: '$name' cannot be a project name: clients and browsers take '.' and '..' out of a URL's path (/projects/./runs is /projects/runs)|" \
		"$? $(cat "$scratch/err")|$(cat "$scratch/out")"
done
for name in "$(printf 'a\tb')" "$(printf 'x\033[2Jy')" "$(printf 'ab\302\205')" "$(printf 'ab\342\200\256cd')"; do
	shown=$(printf %s "$name" | perl -pe 's/([\x00-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80\xae)/join "", map { sprintf "\\x%02x", ord } split \/\/, $1/ge')
	"$BM_SERVER_BIN" --db "$db" project create "$name" >"$scratch/out" 2>"$scratch/err"
	check_eq "project create '$shown': exit 2, the name shown escaped" \
		"2 bm-server: project names have no control or invisible characters (a tab, a newline, an escape, a bidirectional override...), not '$shown'|" \
		"$? $(cat "$scratch/err")|$(cat "$scratch/out")"
done
check_eq "... none of them made" "$projects_before" "$(api GET /api/v1/projects >/dev/null; body 'scalar @{$j->{projects}}')"
"$BM_SERVER_BIN" --db "$db" project create ... >/dev/null 2>&1
check_eq "'...' is a name like any other: made, and its URLs answer" "0 200" "$? $(api GET /api/v1/projects/.../branches)"

# -- body size limit --
stop_server
start_server "$db" --max-body 4096 || exit 1
make_report "$scratch/big.json" main b1b1b1 2026-11-12T10:00:00Z "" "$(seq -s, 100 160)"
check_eq "a body over --max-body: 413" 413 "$(upload "$tok" demo "$scratch/big.json")"
head -c 3000 /dev/zero | gzip -c >"$scratch/small.gz"
head -c 100000 /dev/zero | gzip -c >"$scratch/bomb.gz"
check_eq "a gzip body over the limit once decompressed: 413" 413 \
	"$(upload "$tok" demo "$scratch/bomb.gz" -H 'Content-Encoding: gzip')"
kill -TERM "$server_pid"
wait "$server_pid"
check_eq "SIGTERM: a clean exit" 0 "$?"
server_pid=
check "SIGTERM: says it finishes what is in flight" grep -q 'terminated: finishing the requests in flight' "$scratch/server.err"
start_server "$db" || exit 1
check_eq "runs survive a restart" "$runs_before" "$(run_count demo)"

done_testing
