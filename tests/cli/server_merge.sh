#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server's two result tables: uploads gather in incoming_results and are
# merged into the series-clustered results table once --merge-rows of them
# are there.  Whatever table a result sits in, the API answers the same:
# series in commit order whatever the upload order, one point per commit
# (its newest run), the newest result in a commit's report.  And a
# database written by schema version 1 migrates (through every later
# version) with its data intact.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

db="$scratch/bm.db"
tok=$("$BM_SERVER_BIN" --db "$db" project create m 2>/dev/null)
# Reports of 2 benchmarks: with --merge-rows 6 every third upload merges.
start_server "$db" --merge-rows 6 || exit 1
for c in 5 3 4 1 2; do
	make_report "$scratch/t$c.json" main "e$c$c$c$c" "2026-11-0${c}T10:00:00Z" "" "$((100 * c)),1"
	check_eq "upload of commit $c: 201" 201 "$(upload "$tok" m "$scratch/t$c.json")"
done
check_eq "t5, t3, t4 merged, t1 and t2 incoming" "3 2" \
	"$(sqlite3 "$db" 'SELECT (SELECT count(DISTINCT run) FROM results) || " " || (SELECT count(DISTINCT run) FROM incoming_results)')"

history() {
	api GET "/api/v1/projects/m/benchmarks/suite%3A%3Ab1/history?branch=main" >/dev/null
	body 'join " ", map { "$_->{commit}=$_->{value}" } @{$j->{points}}'
}
check_eq "history: commit order across both tables" "e1111=100 e2222=200 e3333=300 e4444=400 e5555=500" "$(history)"

# t4 measured again (a new run of the same commit): its newest result wins.
make_report "$scratch/t4b.json" main e4444 2026-11-04T10:00:00Z "" 480,1 run_id=t4-again
upload "$tok" m "$scratch/t4b.json" >/dev/null
check_eq "history: a commit's newer run replaces its point, in place" \
	"e1111=100 e2222=200 e3333=300 e4444=480 e5555=500" "$(history)"
api GET /api/v1/projects/m/commits/e4444/report >/dev/null
check_eq "commit report: the newest run's result" "480" \
	"$(body 'join " ", map { $_->{speed} } grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}')"
stop_server

# With --merge-rows 0 every upload is merged at once; the answers do not change.
start_server "$db" --merge-rows 0 || exit 1
make_report "$scratch/t6.json" main e6666 2026-11-06T10:00:00Z "e5555" 600,1
upload "$tok" m "$scratch/t6.json" >/dev/null
check_eq "--merge-rows 0: nothing stays incoming" "0" "$(sqlite3 "$db" 'SELECT count(*) FROM incoming_results')"
check_eq "history after the merge" "e1111=100 e2222=200 e3333=300 e4444=480 e5555=500 e6666=600" "$(history)"
api GET /api/v1/projects/m/commits/e6666/report >/dev/null
check_eq "the report after the merge" "e5555 0.2" \
	"$(body 'my ($b) = grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}; "$j->{baseline}{sha} " . (0 + sprintf("%.6f", $b->{impact}))')"
stop_server

# A database bm-server wrote with schema version 1 (tests/cli/data/server-v1.sql:
# project v1, commits a1 <- a2 <- a3 on main, speeds 100, 110, 121).
v1="$scratch/v1.db"
sqlite3 "$v1" <"$top_srcdir/tests/cli/data/server-v1.sql"
check_eq "the fixture is at schema version 1" 1 "$(sqlite3 "$v1" 'PRAGMA user_version')"
start_server "$v1" || exit 1
check_eq "opening it migrates it to the latest version, 6" 6 "$(sqlite3 "$v1" 'PRAGMA user_version')"
check_eq "version 3 keeps imported metrics in result_metrics" 0 "$(sqlite3 "$v1" 'SELECT count(*) FROM result_metrics')"
check_eq "version 4 keeps acknowledgements" 0 "$(sqlite3 "$v1" 'SELECT count(*) FROM acknowledgements')"
api GET "/api/v1/projects/v1/benchmarks/suite%3A%3Ab1/history?branch=main" >/dev/null
check_eq "its history is intact" "a1a1a1=100 a2a2a2=110 a3a3a3=121" \
	"$(body 'join " ", map { "$_->{commit}=$_->{value}" } @{$j->{points}}')"
api GET /api/v1/projects/v1/commits/a3a3a3/report >/dev/null
check_eq "its commit report is intact" "a2a2a2 0.1" \
	"$(body 'my ($b) = grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}; "$j->{baseline}{sha} " . (0 + sprintf("%.6f", $b->{impact}))')"
stop_server
done_testing
