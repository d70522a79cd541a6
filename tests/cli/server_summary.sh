#!/bin/sh
# SPDX-License-Identifier: MIT
# GET .../summary, the projects page's rows: one per branch, model and
# platform with pushes, its latest run against its baseline, counted.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1
make_report m1.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100,100,100
make_report m2.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 70,130,100,-
make_report arm.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 50,50 arch=aarch64 run_id=arm
make_report f1.json topic b1b1b1 2026-11-03T10:00:00Z a2a2a2 100,100,100
make_report pr.json topic c1c1c1 2026-11-04T10:00:00Z a2a2a2 1,1,1 pr=3 base=main
for r in m1 m2 arm f1 pr; do upload "$tok" app "$r.json" >/dev/null; done

check_eq "one row per branch and platform, latest upload first; pull requests are not rows" \
	"topic/x86_64 main/aarch64 main/x86_64" \
	"$(api GET /api/v1/projects/app/summary >/dev/null; body 'join " ", map { "$_->{branch}/$_->{platform}{arch}" } @{$j->{rows}}')"
check_eq "main on x86_64: its latest commit against its parent, counted with the project's threshold" \
	"a2a2a2 a1a1a1 2 runs, 4 benchmarks: 1 failed, 1 regression, 1 improvement; failed" \
	"$(body 'my ($r) = grep { $_->{branch} eq "main" && $_->{platform}{arch} eq "x86_64" } @{$j->{rows}}; "$r->{latest}{sha} $r->{baseline} $r->{runs} runs, $r->{benchmarks} benchmarks: $r->{failed} failed, $r->{regressions} regression, $r->{improvements} improvement; $r->{verdict}"')"
check_eq "main on aarch64: no baseline on its platform" "null no-baseline" \
	"$(body 'my ($r) = grep { $_->{platform}{arch} eq "aarch64" } @{$j->{rows}}; ($r->{baseline} // "null") . " $r->{verdict}"')"
check_eq "topic: its ancestor on main is its baseline (130 -> 100: a regression)" "a2a2a2 regression" \
	"$(body 'my ($r) = grep { $_->{branch} eq "topic" } @{$j->{rows}}; "$r->{baseline} $r->{verdict}"')"
"$BM_SERVER_BIN" --db "$db" project create empty >/dev/null 2>&1
check_eq "a project without runs: no rows" "200 0" "$(api GET /api/v1/projects/empty/summary) $(body 'scalar @{$j->{rows}}')"

done_testing
