#!/bin/sh
# SPDX-License-Identifier: MIT
# Every API route's answer over one populated database, byte for byte,
# against tests/cli/data/server-answers.txt: pushes on two branches and two
# platforms, a pull request, a failed benchmark, an imported report with
# extra metrics, an acknowledgement, settings and tokens.  What changes
# from run to run is written as a placeholder: the times the server takes
# from its clock and the server's port.  The same answers on every storage
# backend (BM_TEST_DB, server_lib.sh) are the proof that a backend
# changes nothing above it.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

db=$(test_db answers)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
admin_tok=$("$BM_SERVER_BIN" --db "$db" token create app --admin 2>/dev/null)
"$BM_SERVER_BIN" --db "$db" project create empty >/dev/null 2>&1
start_server "$db" || exit 1
make_report m1.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100,100,100
make_report m2.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 70,130,100,-
make_report m3.json main a3a3a3 2026-11-03T10:00:00Z a2a2a2,a1a1a1 70,130,101,100
make_report arm.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 50,50 arch=aarch64 run_id=arm
make_report f1.json topic b1b1b1 2026-11-04T10:00:00Z a2a2a2,a1a1a1 100,100,100
make_report pr.json topic c1c1c1 2026-11-05T10:00:00Z a3a3a3,a2a2a2 60,130,100,100 pr=3 base=main
make_report warm.json main a3a3a3 2026-11-03T10:00:00Z a2a2a2,a1a1a1 90,90 warm=1 run_id=warm
# An imported report (the real bm-import's, of Google Benchmark's output):
# times with an extra metric, one benchmark failed.
"$top_builddir/uploader/bm-import" gbench "$top_srcdir/tests/cli/data/import/gbench.json" -o g.json >/dev/null
for n in 1 2; do
	perl -MJSON::PP -e '
		my ($n, $in, $out) = @ARGV;
		local $/; open my $f, "<", $in or die; my $r = decode_json(<$f>);
		$r->{run_id} = "import-$n";
		$r->{context} = { platform => { compiler => "GCC 12.2.0", os => "Debian 12", arch => "x86_64" },
				  host => "ci-1", branch => "main", pr => undef,
				  commit => { sha => $n == 1 ? "a1a1a1" : "a2a2a2", timestamp => "2026-11-0${n}T10:00:00Z",
					      ancestors => $n == 1 ? [] : ["a1a1a1"] } };
		$_->{value} *= $n for grep { defined $_->{value} } @{$r->{benchmarks}};
		open my $o, ">", $out or die; print $o JSON::PP->new->canonical->encode($r);
	' "$n" g.json "import$n.json"
done
for r in import1 import2 m1 arm m2 warm m3 f1 pr; do
	check_eq "upload $r" 201 "$(upload "$tok" app "$r.json")"
done
check_eq "an upload again: the same run" 200 "$(upload "$tok" app m1.json)"

admin="Authorization: Bearer $admin_tok"
{
	answer POST /api/v1/projects/app/commits/a2a2a2/acknowledgements -H "Authorization: Bearer $tok" \
		-d '{"benchmark":"suite::b1","by":"ann","reason":"known: the new hash table"}'
	answer PUT /api/v1/projects/app/settings -H "$admin" -d '{"threshold":0.2,"dt":0.02}'
	answer POST /api/v1/projects/app/tokens -H "$admin" -d '{"admin":false}' |
		sed 's|"token":"[^"]*"|"token":"TOKEN"|'
	answer GET /api/v1/projects
	for p in app empty nothing; do
		answer GET "/api/v1/projects/$p/settings"
		answer GET "/api/v1/projects/$p/branches"
		answer GET "/api/v1/projects/$p/summary"
		answer GET "/api/v1/projects/$p/benchmarks?branch=main"
		answer GET "/api/v1/projects/$p/changes?branch=main"
		answer GET "/api/v1/projects/$p/acknowledgements"
	done
	answer GET "/api/v1/projects/app/benchmarks?branch=topic"
	for c in a1a1a1 a2a2a2 a3a3a3 b1b1b1 c1c1c1 ffffff; do
		answer GET "/api/v1/projects/app/commits/$c/report"
	done
	answer GET "/api/v1/projects/app/commits/c1c1c1/report?pr=3"
	for m in speed cycles time_s Ir D1mw sysCount walltime cpu_time unknown; do
		answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&metric=$m"
		answer GET "/api/v1/projects/app/benchmarks/BM_StringCopy%2F8/history?branch=main&metric=$m"
	done
	answer GET "/api/v1/projects/app/benchmarks/suite::b2/history?branch=topic"
	# Windows: the newest result, the page before it, a time range, a
	# chart's budget; bad ones.
	answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&limit=2"
	answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&limit=2&to=1793613600"
	answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&from=1793613600&to=1793613600"
	answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&limit=0&points=8"
	answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&points=3"
	answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&limit=many"
	answer GET "/api/v1/projects/app/changes?branch=main&metric=cycles"
	answer GET "/api/v1/projects/app/changes?branch=topic"
	answer GET "/api/v1/projects/app/runs/run-a2a2a2-push-m1/benchmarks/suite::b2/profile"
	answer GET "/api/v1/projects/app/runs/run-a2a2a2-push-m1/benchmarks/suite::b4/profile"
	answer GET "/api/v1/projects/app/runs/nothing/benchmarks/suite::b2/profile"
	answer GET /api/v1/projects/app/tokens -H "$admin"
	answer DELETE /api/v1/projects/app/tokens/4 -H "$admin"
	answer GET /api/v1/projects/app/tokens -H "$admin"
	answer DELETE /api/v1/projects/app/acknowledgements/1 -H "$admin"
	answer GET /api/v1/projects/app/acknowledgements
} >answers.txt
if [ -n "${BM_RECORD_ANSWERS:-}" ]; then
	cp answers.txt "$top_srcdir/tests/cli/data/server-answers.txt"
fi
check "every route's answer is the one recorded (tests/cli/data/server-answers.txt)" \
	diff -u "$top_srcdir/tests/cli/data/server-answers.txt" answers.txt

done_testing
