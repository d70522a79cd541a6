#!/bin/sh
# SPDX-License-Identifier: MIT
# Imported benchmarks on bm-server: reports made by the real bm-import from
# other suites' output, uploaded by the real bm-upload from a real git
# repository.  Their values are kept: the commit report compares them by
# the speed their primary metric gives (a cost such as a time inverted, a
# rate as it is), and every metric, primary or extra, has a history.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_IMPORT="$top_builddir/uploader/bm-import"
BM_UPLOAD="$top_builddir/uploader/bm-upload"
unset GITHUB_ACTIONS GITLAB_CI BM_SERVER BM_PROJECT BM_TOKEN
data="$top_srcdir/tests/cli/data/import"
db=$(test_db bm)
gtok=$("$BM_SERVER_BIN" --db "$db" project create gb 2>/dev/null)
ctok=$("$BM_SERVER_BIN" --db "$db" project create cr 2>/dev/null)
start_server "$db" || exit 1

# The suites' output at c1, and at c2: Google Benchmark's BM_Sort/1024
# twice as slow (wall and CPU time); Chromium's url_parse::canonical twice
# as slow, frame_rate::scroll (runs/s, a rate) twice as fast.
sed -e 's/"real_time": 42.0,/"real_time": 84.0,/' -e 's/"cpu_time": 41.5,/"cpu_time": 83.0,/' \
	"$data/gbench.json" >"$scratch/gbench2.json"
sed -e 's/= 812.5 ns/= 1625 ns/' -e 's/= 59.8 runs/= 119.6 runs/' "$data/chromium.txt" >"$scratch/chromium2.txt"
for x in "gbench $data/gbench.json gb1" "gbench $scratch/gbench2.json gb2" \
	"chromium $data/chromium.txt cr1" "chromium $scratch/chromium2.txt cr2"; do
	# shellcheck disable=SC2086
	set -- $x
	"$BM_IMPORT" "$1" "$2" -o "$scratch/$3.json" >/dev/null || echo "# bm-import $1 $2 failed" >&2
done

# A repository with main c1 <- c2, where bm-upload finds branch, commit
# and ancestry.
repo="$scratch/repo"
git_repo "$repo"
# up PROJECT TOKEN REPORT: bm-upload, printing its exit status.
up() {
	env BM_SERVER="$server_url" BM_PROJECT="$1" BM_TOKEN="$2" "$BM_UPLOAD" -q "$3" >/dev/null 2>"$scratch/err"
	echo $?
}
c1=$(commit c1 2026-11-01T10:00:00Z)
check_eq "c1: both imported reports stored" "0 0" "$(up gb "$gtok" "$scratch/gb1.json") $(up cr "$ctok" "$scratch/cr1.json")"
c2=$(commit c2 2026-11-02T10:00:00Z)
check_eq "c2: both imported reports stored" "0 0" "$(up gb "$gtok" "$scratch/gb2.json") $(up cr "$ctok" "$scratch/cr2.json")"
cd "$scratch" || exit 1

# impacts: "id=impact" per benchmark of the last commit report, as listed.
impacts() {
	body 'join " ", map { "$_->{id}=" . (defined $_->{impact} ? 0 + sprintf("%.6f", $_->{impact}) : "null") } @{$j->{benchmarks}}'
}
# history PROJECT ID METRIC: "commit-status=value" per point, values as %.6g.
history() {
	api GET "/api/v1/projects/$1/benchmarks/$2/history?branch=main&metric=$3" >/dev/null
	body 'join " ", map { substr($_->{commit}, 0, 4) . "-$_->{status}=" . (defined $_->{value} ? sprintf("%.6g", $_->{value}) : "null") } @{$j->{points}}'
}
s1=$(echo "$c1" | cut -c1-4)
s2=$(echo "$c2" | cut -c1-4)

# -- the commit report: impacts from the primary metric --
api GET "/api/v1/projects/gb/commits/$c2/report" >/dev/null
check_eq "gbench: c1 is c2's baseline, of the same importer" "$c1 import/gbench" \
	"$(body '"$j->{baseline}{sha} $j->{model}"')"
check_eq "gbench: twice the wall time is an impact of -0.5; the failed benchmark first" \
	"BM_Open/real_time=null BM_Sort/1024=-0.5 BM_StringCopy/8=0" "$(impacts)"
check_eq "gbench: the speed of a time in seconds is executions per second" "11904.76 23809.52" \
	"$(body 'my ($b) = grep { $_->{id} eq "BM_Sort/1024" } @{$j->{benchmarks}}; sprintf("%.2f %.2f", $b->{speed}, $b->{base_speed})')"
check_eq "gbench: commit impact and verdict" "-0.5 failed" \
	"$(body '(0 + sprintf("%.6f", $j->{commit_impact})) . " $j->{verdict}"')"
api GET "/api/v1/projects/cr/commits/$c2/report" >/dev/null
check_eq "chromium: twice the ns is -0.5, twice the runs/s is +1, a list's mean and bytes unchanged" \
	"url_parse::canonical=-0.5 peak_memory::browser=0 url_parse::relative=0 frame_rate::scroll=1" "$(impacts)"
check_eq "chromium: a regression beyond the threshold is the commit impact" "-0.5 regression" \
	"$(body '(0 + sprintf("%.6f", $j->{commit_impact})) . " $j->{verdict}"')"
check_eq "chromium: the answer names each imported metric's unit and values" "ns 812.5 1625" \
	"$(body 'my ($b) = grep { $_->{id} eq "url_parse::canonical" } @{$j->{benchmarks}}; "$b->{unit} $b->{base_value} $b->{value}"')"
check_eq "bm-check online shows the imported values with their units, exit 1" \
	"1|url_parse::canonical     812.5 ns       1625 ns   -50.00%" \
	"$(env -u BM_SERVER "$top_builddir/uploader/bm-check" --server "$server_url" --project cr --commit "$c2" >out 2>/dev/null; echo $?)|$(grep '^url_parse::canonical' out)"

# -- history: built-in metrics and imported ones --
check_eq "history of walltime, the primary metric" "$s1-ok=4.2e-05 $s2-ok=8.4e-05" \
	"$(history gb BM_Sort%2F1024 walltime)"
check_eq "history of cpu_time, an extra metric" "$s1-ok=4.15e-05 $s2-ok=8.3e-05" \
	"$(history gb BM_Sort%2F1024 cpu_time)"
check_eq "history of time_s: the primary metric, a time in seconds" "$s1-ok=4.2e-05 $s2-ok=8.4e-05" \
	"$(history gb BM_Sort%2F1024 time_s)"
check_eq "history of speed: what the report compares" "$s1-ok=23809.5 $s2-ok=11904.8" \
	"$(history gb BM_Sort%2F1024 speed)"
check_eq "history of cycles: an imported benchmark has none" "$s1-ok=null $s2-ok=null" \
	"$(history gb BM_Sort%2F1024 cycles)"
check_eq "history of a rate, its unit in the name (runs/s)" "$s1-ok=59.8 $s2-ok=119.6" \
	"$(history cr frame_rate%3A%3Ascroll runs%2Fs)"
check_eq "history of a failed benchmark: its failures, as in every series" "$s1-failed=null $s2-failed=null" \
	"$(history gb BM_Open%2Freal_time walltime)"
check_eq "history of a metric no result carries: 200, an empty series" "200 0" \
	"$(api GET "/api/v1/projects/gb/benchmarks/BM_Sort%2F1024/history?branch=main&metric=InstructionReads") $(body 'scalar @{$j->{points}}')"
long=$(head -c 1025 /dev/zero | tr '\0' m)
check_eq "history of a metric name longer than any upload may give: 400" \
	"400 metric: expected a name of 1 to 1024 bytes" \
	"$(api GET "/api/v1/projects/gb/benchmarks/BM_Sort%2F1024/history?branch=main&metric=$long") $(body '$j->{error}')"
check_eq "changes: speed ranks imported benchmarks too" "200 BM_Sort/1024" \
	"$(api GET '/api/v1/projects/gb/changes?branch=main&dt=0.01&st=0') $(body 'join " ", map { $_->{id} } @{$j->{changes}}')"

# -- what is stored --
check_eq "every metric of an ok result is kept, the primary first" \
	"walltime|s|0|4.2e-05 cpu_time|s|1|4.15e-05" \
	"$(db_query "$db" "SELECT m.name, m.unit, m.position, m.value FROM result_metrics m JOIN benchmarks b ON b.id = m.benchmark
		JOIN runs r ON r.id = m.run WHERE b.name = 'BM_Sort/1024' AND r.sha = '$c1' ORDER BY m.position" | tr '\n' ' ' | sed 's/ $//')"
check_eq "a failed result has no metric" 0 \
	"$(db_query "$db" "SELECT count(*) FROM result_metrics m JOIN benchmarks b ON b.id = m.benchmark WHERE b.name = 'BM_Open/real_time'")"
run1=$(db_query "$db" "SELECT run_id FROM runs WHERE sha = '$c1' AND model = 'import/gbench'")
check_eq "profile of an imported benchmark: 404, nothing to show" 404 \
	"$(api GET "/api/v1/projects/gb/runs/$run1/benchmarks/BM_Sort%2F1024/profile")"

# -- a metric given twice in one benchmark: 400, nothing stored --
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{run_id} = "dup"; $j->{context}{branch} = "main";
	$j->{context}{commit} = {sha => "d0d0d0", timestamp => "2026-11-03T10:00:00Z", ancestors => []};
	push @{$j->{benchmarks}[1]{extra_metrics}}, {metric => "walltime", value => 1, unit => "s"};
	$_ = encode_json($j)' "$scratch/gb1.json" >"$scratch/dup.json"
runs_before=$(run_count gb)
check_eq "the same metric twice: 400 naming the benchmark" "400 benchmarks[1]: metric 'walltime' appears twice" \
	"$(upload "$gtok" gb "$scratch/dup.json") $(body '$j->{error}')"
check_eq "... and nothing stored" "$runs_before" "$(run_count gb)"
stop_server

# -- a database of schema version 1 takes imported reports once migrated --
# (SQLite's own: PostgreSQL's schema starts at SQLite's version 4.)
on_sqlite || { done_testing; exit 0; }
v1="$scratch/v1.db"
sqlite3 "$v1" <"$top_srcdir/tests/cli/data/server-v1.sql"
vtok=$("$BM_SERVER_BIN" --db "$v1" token create v1 2>/dev/null)
check_eq "the version 1 fixture migrates to version 6" 6 "$(sqlite3 "$v1" 'PRAGMA user_version')"
start_server "$v1" || exit 1
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{context}{branch} = "main";
	$j->{context}{commit} = {sha => "a4a4a4", timestamp => "2026-11-04T10:00:00Z", ancestors => []};
	$_ = encode_json($j)' "$scratch/gb1.json" >"$scratch/v1-import.json"
check_eq "an imported report into the migrated database: 201" 201 "$(upload "$vtok" v1 "$scratch/v1-import.json")"
check_eq "its extra metric's history" "a4a4-ok=4.15e-05" "$(history v1 BM_Sort%2F1024 cpu_time)"
api GET "/api/v1/projects/v1/benchmarks/suite%3A%3Ab1/history?branch=main" >/dev/null
check_eq "the migrated history is intact" "a1a1a1=100 a2a2a2=110 a3a3a3=121" \
	"$(body 'join " ", map { "$_->{commit}=$_->{value}" } @{$j->{points}}')"
stop_server
done_testing
