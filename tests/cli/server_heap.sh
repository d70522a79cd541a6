#!/bin/sh
# SPDX-License-Identifier: MIT
# Heap counts on bm-server (issue 25): a simulated result's heap counts are
# kept with it, have a history by name (allocations, bytes_allocated,
# peak_bytes, leaked_bytes), come back in the commit report for bm-check,
# and a report without them stores none.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_STEP_SUMMARY BM_PROJECT GITHUB_TOKEN GITHUB_REPOSITORY GITHUB_API_URL
cd "$scratch" || exit 1
db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create mem 2>/dev/null)
start_server "$db" || exit 1

make_report h0.json main 5a5a5a 2026-11-01T10:00:00Z "" 100,100 heap_allocations=10,3 heap_bytes_allocated=1000,48 heap_peak_bytes=500,48 heap_leaked_bytes=0,16 heap_leaked_blocks=0,1 heap_system_bytes=135168,0
make_report h1.json main 5b5b5b 2026-11-02T10:00:00Z 5a5a5a 100,100 heap_allocations=22,3 heap_bytes_allocated=5096,48 heap_peak_bytes=900,48 heap_leaked_bytes=64,16 heap_leaked_blocks=1,1 heap_system_bytes=1052672,0
make_report h2.json main 5c5c5c 2026-11-03T10:00:00Z 5b5b5b 100,100
check_eq "three reports stored, the last without heap counts" "201 201 201" \
	"$(upload "$tok" mem h0.json) $(upload "$tok" mem h1.json) $(upload "$tok" mem h2.json)"

# history ID METRIC: "sha=value" per point.
history() {
	api GET "/api/v1/projects/mem/benchmarks/$1/history?branch=main&metric=$2" >/dev/null
	body 'join " ", map { substr($_->{commit}, 0, 6) . "=" . ($_->{value} // "null") } @{$j->{points}}'
}
check_eq "history of allocations: the counts (the commit without them has no point)" "5a5a5a=10 5b5b5b=22" \
	"$(history suite::b1 allocations)"
check_eq "... of bytes_allocated, peak_bytes and leaked_bytes" "5a5a5a=1000 5b5b5b=5096|5a5a5a=500 5b5b5b=900|5a5a5a=0 5b5b5b=64" \
	"$(history suite::b1 bytes_allocated)|$(history suite::b1 peak_bytes)|$(history suite::b1 leaked_bytes)"
check_eq "... of system_bytes" "5a5a5a=135168 5b5b5b=1052672" "$(history suite::b1 system_bytes)"
check_eq "... and speed as before, at every commit" "5a5a5a=100 5b5b5b=100 5c5c5c=100" "$(history suite::b1 speed)"

api GET "/api/v1/projects/mem/changes?branch=main&metric=allocations" >/dev/null
check_eq "the ranked changes of allocations: more blocks a regression, the commit without counts no point" \
	"suite::b1 10 22 1.2 true 2|suite::b2" \
	"$(body 'my $c = $j->{changes}[0]; join " ", $c->{id}, $c->{from_value}, $c->{value}, $c->{change}, ($c->{regression} ? "true" : "false"), $c->{points}')|$(body 'join " ", @{$j->{unchanged}}')"

# The commit report carries them for bm-check.
api GET "/api/v1/projects/mem/commits/5b5b5b/report" >/dev/null
check_eq "the commit report: each row's heap and its baseline's" \
	"suite::b1 22 5096 900 64 1 1052672 10 1000 500 0 0 135168|suite::b2 3 48 48 16 1 0 3 48 48 16 1 0|frees 0 0" \
	"$(body 'join "|", map { my $r = $_; join " ", $r->{id}, (map { $r->{heap}{$_} } qw(allocations bytes_allocated peak_bytes leaked_bytes leaked_blocks system_bytes)), (map { $r->{base_heap}{$_} } qw(allocations bytes_allocated peak_bytes leaked_bytes leaked_blocks system_bytes)) } sort { $a->{id} cmp $b->{id} } @{$j->{benchmarks}}')|frees $(body 'my ($r) = grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}; "$r->{heap}{frees} $r->{heap}{bytes_freed}"')"
api GET "/api/v1/projects/mem/commits/5c5c5c/report" >/dev/null
check_eq "... none where the run had none (its baseline's still there)" "null base" \
	"$(body 'my ($r) = grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}; ($r->{heap} // "null") . " " . ($r->{base_heap} ? "base" : "null")')"

env -u BM_SERVER "$BM_CHECK" --server "$server_url" --project mem --commit 5b5b5b --metric allocations >out 2>err
check_eq "bm-check online --metric allocations: the server's counts" "1|suite::b1           10      22  -54.55%" \
	"$?|$(grep '^suite::b1' out)"
env -u BM_SERVER "$BM_CHECK" --base h0.json --head h1.json --metric allocations | sed -n '/^benchmark/,$p' >offline.table
sed -n '/^benchmark/,$p' out >online.table
check_output "... the same table as offline" offline.table online.table
env -u BM_SERVER "$BM_CHECK" --server "$server_url" --project mem --commit 5c5c5c --metric allocations >out 2>err
check_eq "... a commit without them: exit 2, and why" \
	"2|bm-check: --metric allocations: no benchmark of the server's report has heap counts (the bm engine counts the heap unless bm-run --no-heap; callgrind does not)" \
	"$?|$(cat err)"

# Counts that contradict each other are refused (issue 39: a peak of
# 10^12 bytes with 10 allocated was stored and charted), nothing stored.
runs=$(run_count mem)
make_report bad.json main 5d5d5d 2026-11-04T10:00:00Z 5c5c5c 100 heap_allocations=1 heap_bytes_allocated=10 heap_peak_bytes=1000000000000
check_eq "a peak of 10^12 bytes with 10 allocated: 400 saying why" \
	"400 benchmarks[0].heap.peak_bytes: 1000000000000 is more than bytes_allocated, 10 (the benchmark's blocks never hold more at once than all of them)" \
	"$(upload "$tok" mem bad.json) $(body '$j->{error}')"
make_report bad.json main 5d5d5d 2026-11-04T10:00:00Z 5c5c5c 100 heap_allocations=2 heap_bytes_allocated=100 heap_peak_bytes=50 heap_leaked_bytes=60 heap_leaked_blocks=1
check_eq "more leaked than the peak: 400" \
	"400 benchmarks[0].heap.leaked_bytes: 60 is more than peak_bytes, 50 (what is left allocated at the end was held at once)" \
	"$(upload "$tok" mem bad.json) $(body '$j->{error}')"
make_report bad.json main 5d5d5d 2026-11-04T10:00:00Z 5c5c5c 100 heap_allocations=0 heap_bytes_allocated=100 heap_peak_bytes=100
check_eq "bytes in no allocation: 400" \
	"400 benchmarks[0].heap.allocations: 0 with bytes_allocated 100 (bytes are allocated in blocks)" \
	"$(upload "$tok" mem bad.json) $(body '$j->{error}')"
check_eq "... none stored, nothing charted" "$runs 5a5a5a=10 5b5b5b=22" "$(run_count mem) $(history suite::b1 allocations)"

done_testing
