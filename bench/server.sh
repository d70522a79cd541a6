#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server's ingest rate and read latency.
#
# 1. Ingest: reports of 100 benchmarks each (distinct run_ids and commits
#    of one linear main-branch history) uploaded to a fresh database by
#    concurrent clients (one curl process, --parallel, keep-alive), in
#    reports/s; next to it, in the same run, the very rows the server
#    stored copied into a fresh database with the same schema through the
#    sqlite3 CLI (one transaction per report, WAL, synchronous=FULL: the
#    cost of the durable inserts alone), and the ratio of the two;
#    BM_BENCH_ROUNDS rounds, medians.  Bar (SPEC 7): at least 500
#    reports/s on 2 cores.
# 2. Reads: a second fresh database filled through the API with
#    BM_BENCH_RESULTS results (10,000 reports x 100 benchmarks by default;
#    the fill's rate is reported too, in fifths, as the database grows),
#    then p50 and p99 of curl's time_total over sequential requests (one
#    keep-alive connection) to the commit report of random commits and the
#    history of random benchmarks.  Bar (SPEC 7): p99 under 20 ms.
#
# usage: bench/server.sh [BUILD_DIR]   (default: build)
# Environment: BM_BENCH_REPORTS (ingest, default 2000), BM_BENCH_RESULTS
# (reads, default 1000000), BM_BENCH_REQUESTS (per read endpoint, default
# 1000), BM_BENCH_ROUNDS (ingest rounds, default 5), BM_BENCH_CLIENTS
# (concurrent uploads, default 8), BM_BENCH_THREADS (the server's
# --threads, default its own), BM_BENCH_KEEP=1 (keep the scratch
# directory, to look into the databases afterwards).
# Needs: curl, sqlite3, perl (apt-get install curl sqlite3).  At the
# default scale: about 3 minutes, and 600 MB of reports and databases under
# $TMPDIR.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
server=$build/dashboard/bm-server
reports=${BM_BENCH_REPORTS:-2000}
results=${BM_BENCH_RESULTS:-1000000}
requests=${BM_BENCH_REQUESTS:-1000}
clients=${BM_BENCH_CLIENTS:-8}
threads=${BM_BENCH_THREADS:-}
rounds=${BM_BENCH_ROUNDS:-5}
benchmarks=100
for tool in curl sqlite3 perl; do
	command -v "$tool" >/dev/null || { echo "server.sh: '$tool' not found (apt-get install curl sqlite3)" >&2; exit 2; }
done
[ -x "$server" ] || { echo "server.sh: build bm first (make)" >&2; exit 2; }
fill=$(((results + benchmarks - 1) / benchmarks))
[ "$reports" -ge 1 ] && [ "$fill" -ge 2 ] && [ "$requests" -ge 1 ] && [ "$rounds" -ge 1 ] ||
	{ echo "server.sh: BM_BENCH_REPORTS, BM_BENCH_REQUESTS, BM_BENCH_ROUNDS must be >= 1 and BM_BENCH_RESULTS >= 200" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-server.XXXXXX")
pid=
stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		pid=
	fi
}
trap 'stop_server; [ -n "${BM_BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The reports, 1.json ... N.json: commit i of a linear history (its sha
# the SHA-1 of "commit i", committed a minute after commit i - 1, its ten
# nearest ancestors listed), 100 benchmarks whose numbers drift a little
# from commit to commit.
n=$((fill > reports ? fill : reports))
echo "writing $n reports of $benchmarks benchmarks..." >&2
perl "$top/bench/reports.pl" "$work" "$n" "$benchmarks"

# timed RESULT OUT ERR COMMAND...: runs COMMAND with its output and errors
# into OUT and ERR; writes "wall-seconds CPU-seconds" of it into RESULT.
timed() {
	perl -MTime::HiRes=time -e 'my ($res, $out, $err) = splice @ARGV, 0, 3;
		open my $r, ">", $res or die; open STDOUT, ">", $out or die; open STDERR, ">", $err or die;
		my $t = time; my $rc = system @ARGV; my @c = times;
		printf $r "%.3f %.2f\n", time - $t, $c[2] + $c[3]; exit($rc ? 1 : 0)' "$@"
}

# cpu: the server's CPU seconds so far (user + system).
cpu() {
	perl -e 'open my $f, "<", "/proc/$ARGV[0]/stat" or die; my @s = split " ", (split /\) /, <$f>)[1];
		printf "%.2f\n", ($s[11] + $s[12]) / 100' "$pid"
}

# start_server DB: the server on DB, in the background; sets pid and url.
start_server() {
	"$server" --db "$1" serve --listen 127.0.0.1:0 ${threads:+--threads "$threads"} >"$work/server.out" 2>>"$work/server.err" &
	pid=$!
	i=0
	until url=$(sed -n 's|^bm-server: serving \(http://[^ ]*\)/ .*|\1|p' "$work/server.out") && [ -n "$url" ]; do
		i=$((i + 1))
		[ "$i" -lt 100 ] && kill -0 "$pid" 2>/dev/null ||
			{ echo "server.sh: bm-server did not start:" >&2; cat "$work/server.err" >&2; exit 1; }
		sleep 0.1
	done
}

# upload TOKEN FIRST LAST: reports FIRST..LAST to project p, BM_BENCH_CLIENTS
# at a time; prints the seconds it took, curl's CPU seconds and the
# server's; fails unless each upload got a 201.
upload() {
	perl -e 'my ($url, $token, $dir, $first, $last) = @ARGV;
		for my $i ($first .. $last) {
			print "url = \"$url/api/v1/projects/p/runs\"\nheader = \"Authorization: Bearer $token\"\n",
				"header = \"Content-Type: application/json\"\ndata-binary = \"\@$dir/r/$i.json\"\n",
				"silent\noutput = \"/dev/null\"\nwrite-out = \"%{http_code}\\n\"\n";
			print "next\n" if $i < $last;
		}' "$url" "$1" "$work" "$2" "$3" >"$work/upload.cfg"
	sync # no writeback of earlier phases during this one
	c0=$(cpu)
	# (curl 7.88 draws its parallel progress meter despite -s when there is a
	# write-out: its stderr goes to a file.)
	timed "$work/timed" "$work/codes" "$work/curl.err" curl -sS --parallel --parallel-immediate --parallel-max "$clients" -K "$work/upload.cfg" ||
		{ echo "server.sh: curl failed uploading reports $2-$3:" >&2; tr '\r' '\n' <"$work/curl.err" | grep 'curl:' >&2; exit 1; }
	c1=$(cpu)
	bad=$(grep -cv '^201$' "$work/codes" || true)
	[ "$bad" -eq 0 ] && [ "$(wc -l <"$work/codes")" -eq $(($3 - $2 + 1)) ] ||
		{ echo "server.sh: $bad uploads of reports $2-$3 did not answer 201:" >&2; sort "$work/codes" | uniq -c >&2; exit 1; }
	perl -e 'my @t = split " ", $ARGV[0]; printf "%s %s %.2f\n", @t, $ARGV[2] - $ARGV[1]' "$(cat "$work/timed")" "$c0" "$c1"
}

# project DB: creates project p in DB, prints its token.
project() {
	"$server" --db "$1" project create p 2>/dev/null
}

# 1. Ingest, BM_BENCH_ROUNDS times (the VM's speed drifts from minute to
# minute; each round compares the two paths a few seconds apart).
: >"$work/ingest"
round=1
while [ "$round" -le "$rounds" ]; do
	echo "ingest, round $round of $rounds: $reports reports through the API ($clients at a time)..." >&2
	rm -f "$work"/ingest.db* "$work"/raw.db*
	token=$(project "$work/ingest.db")
	start_server "$work/ingest.db"
	api=$(upload "$token" 1 "$reports")
	stop_server
	# The raw side: the very rows the server stored (runs, their ancestry,
	# benchmarks, results, profiles), copied from its database into a fresh one with the
	# same schema, one transaction per report into incoming_results, and the
	# same merge into the series-clustered results table as the server's
	# (every 5,000 results, its default --merge-rows).
	echo "ingest, round $round of $rounds: the same rows through sqlite3..." >&2
	project "$work/raw.db" >/dev/null
	sqlite3 "$work/ingest.db" "SELECT id FROM runs ORDER BY id" | perl -e 'my ($src, $nb) = @ARGV;
		my $cols = "benchmark, branch, commit_time, run, status, reason, speed, cycles, time_s, ev_Ir, ev_Dr, ev_Dw, ev_I1mr, " .
			"ev_D1mr, ev_D1mw, ev_ILmr, ev_DLmr, ev_DLmw, ev_Bc, ev_Bcm, ev_Bi, ev_Bim, ev_sysCount, ev_sysTime, ev_sysCpuTime";
		print "PRAGMA journal_mode = WAL;\nPRAGMA synchronous = FULL;\nPRAGMA foreign_keys = ON;\nATTACH \x27$src\x27 AS s;\n";
		my $incoming = 0;
		while (my $i = <STDIN>) {
			chomp $i;
			print "BEGIN IMMEDIATE;\nINSERT INTO runs SELECT * FROM s.runs WHERE id = $i;\n",
				"INSERT INTO run_ancestors SELECT * FROM s.run_ancestors WHERE run = $i;\n",
				"INSERT OR IGNORE INTO benchmarks SELECT b.* FROM s.benchmarks b WHERE b.id IN ",
				"(SELECT benchmark FROM s.results WHERE run = $i UNION ALL SELECT benchmark FROM s.incoming_results WHERE run = $i);\n",
				"INSERT INTO incoming_results ($cols) SELECT $cols FROM s.results WHERE run = $i",
				" UNION ALL SELECT $cols FROM s.incoming_results WHERE run = $i ORDER BY benchmark;\n",
				"INSERT INTO profiles SELECT * FROM s.profiles WHERE run = $i;\nCOMMIT;\n";
			$incoming += $nb;
			if ($incoming >= 5000) {
				print "BEGIN IMMEDIATE;\nINSERT INTO results ($cols) SELECT $cols FROM incoming_results",
					" ORDER BY benchmark, branch, commit_time, run;\nDELETE FROM incoming_results;\nCOMMIT;\n";
				$incoming = 0;
			}
		}' "$work/ingest.db" "$benchmarks" >"$work/raw.sql"
	sync
	timed "$work/timed" /dev/null "$work/sqlite.err" sqlite3 "$work/raw.db" <"$work/raw.sql" ||
		{ echo "server.sh: sqlite3 failed:" >&2; cat "$work/sqlite.err" >&2; exit 1; }
	for db in ingest raw; do
		rows=$(sqlite3 "$work/$db.db" "SELECT (SELECT count(*) FROM runs) || ' ' || ((SELECT count(*) FROM results) + (SELECT count(*) FROM incoming_results))")
		[ "$rows" = "$reports $((reports * benchmarks))" ] ||
			{ echo "server.sh: $db.db holds $rows runs and results, not $reports $((reports * benchmarks))" >&2; exit 1; }
	done
	echo "$api $(cat "$work/timed")" >>"$work/ingest"
	round=$((round + 1))
done
rm -f "$work"/ingest.db* "$work"/raw.db*
size=$(perl -e 'my $t = 0; $t += -s "$ARGV[0]/r/$_.json" for 1 .. $ARGV[1]; printf "%.0f", $t / $ARGV[1] / 1024' "$work" "$reports")

# 2. Reads: the fill, in fifths, then the requests.
echo "reads: filling a database with $fill reports ($((fill * benchmarks)) results)..." >&2
token=$(project "$work/reads.db")
start_server "$work/reads.db"
: >"$work/fill"
k=0
while [ "$k" -lt 5 ]; do
	first=$((fill * k / 5 + 1))
	last=$((fill * (k + 1) / 5))
	if [ "$last" -ge "$first" ]; then
		s=$(upload "$token" "$first" "$last")
		echo "$first $last $s" >>"$work/fill"
		echo "  reports $first-$last: ${s%% *} s" >&2
	fi
	k=$((k + 1))
done

# read ENDPOINT WHAT [QUERY]: BM_BENCH_REQUESTS sequential GETs to random
# commits or benchmarks (a history with QUERY after branch=main), "code
# seconds bytes" per request into $work/ENDPOINT.times.
read_endpoint() {
	perl -e 'my ($url, $dir, $what, $n, $fill, $q) = @ARGV; srand(2);
		open my $f, "<", "$dir/$what" or die; chomp(my @k = <$f>);
		splice @k, $fill if $what eq "shas" && @k > $fill; # only the commits the fill uploaded
		print "silent\nwrite-out = \"%{http_code} %{time_total} %{size_download}\\n\"\n";
		for (1 .. $n) {
			my $x = $k[int rand @k];
			if ($what eq "shas") {
				print "url = \"$url/api/v1/projects/p/commits/$x/report\"\n";
			} else {
				$x =~ s/([^A-Za-z0-9_.~-])/sprintf "%%%02X", ord $1/ge;
				print "url = \"$url/api/v1/projects/p/benchmarks/$x/history?branch=main$q\"\n";
			}
			print "output = \"/dev/null\"\n";
		}' "$url" "$work" "$2" "$requests" "$fill" "${3:-}" >"$work/$1.cfg"
	curl -sS -K "$work/$1.cfg" >"$work/$1.times" || { echo "server.sh: curl failed reading $1" >&2; exit 1; }
	bad=$(grep -cv '^200 ' "$work/$1.times" || true)
	[ "$bad" -eq 0 ] && [ "$(wc -l <"$work/$1.times")" -eq "$requests" ] ||
		{ echo "server.sh: $bad $1 requests did not answer 200" >&2; exit 1; }
}
echo "reads: $requests requests each, one at a time..." >&2
sync
c0=$(cpu)
read_endpoint report shas
c1=$(cpu)
read_endpoint history benchmarks
c2=$(cpu)
read_endpoint whole benchmarks '&limit=0&points=1000'
c3=$(cpu)
stop_server
db_mb=$(perl -e 'printf "%.0f", (-s $ARGV[0]) / 1048576' "$work/reads.db")

perl -e '
	my ($work, $reports, $nb, $clients, $size, $requests, $db_mb, $rcpu, $hcpu, $wcpu) = @ARGV;
	sub median { my @v = sort { $a <=> $b } @_; @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2 }
	open my $i, "<", "$work/ingest" or die;
	my @rounds = map { [split] } <$i>; # api seconds, curl CPU, server CPU, raw seconds, sqlite3 CPU
	my $n = @rounds;
	my @api = map { $reports / $_->[0] } @rounds;
	my @raw = map { $reports / $_->[3] } @rounds;
	my @ratio = map { $api[$_] / $raw[$_] } 0 .. $#rounds;
	my ($ar, $rr) = (median(@api), median(@raw));
	my $range = sub { my @v = sort { $a <=> $b } @_; sprintf "%.0f-%.0f", $v[0], $v[-1] };
	my $ms = sub { my $k = shift; sprintf "%.2f", 1000 * median(map { $_->[$k] } @rounds) / $reports };
	print "## Server: ingest ($reports reports of $nb benchmarks, $size KB each, $clients concurrent uploads; median of $n rounds)\n\n";
	print "| path | reports/s | range | results/s | CPU per report |\n| --- | --- | --- | --- | --- |\n";
	printf "| bm-server (HTTP, JSON, SQLite) | %.0f | %s | %.0f | %s ms server + %s ms curl |\n", $ar, $range->(@api), $ar * $nb, $ms->(2), $ms->(1);
	printf "| sqlite3 CLI, same rows and schema | %.0f | %s | %.0f | %s ms sqlite3 |\n", $rr, $range->(@raw), $rr * $nb, $ms->(4);
	printf "\nRatio bm-server / raw SQLite (median of the rounds): %.2f (%.2f-%.2f).  Bar: at least 500 reports/s: %s\n\n",
		median(@ratio), (sort { $a <=> $b } @ratio)[0, -1], $ar >= 500 ? "PASS" : "FAIL";
	open my $f, "<", "$work/fill" or die;
	my @fill = map { [split] } <$f>;
	my $results = $fill[-1][1] * $nb;
	print "## Server: filling $fill[-1][1] reports ($results results) through the API\n\n";
	print "| reports | reports/s | CPU per report |\n| --- | --- | --- |\n";
	for (@fill) {
		my ($first, $last, $s, $client, $server) = @$_;
		my $k = $last - $first + 1;
		printf "| %d-%d | %.0f | %.2f ms server + %.2f ms curl |\n", $first, $last, $k / $s, 1000 * $server / $k, 1000 * $client / $k;
	}
	my @rate = map { ($_->[1] - $_->[0] + 1) / $_->[2] } @fill;
	my $slowest = (sort { $a <=> $b } @rate)[0];
	printf "\nDatabase: %d MB.  Slowest fifth / first fifth: %.2f.  Bar (issue 26): at least 0.90: %s\n\n", $db_mb,
		$slowest / $rate[0], $slowest >= 0.9 * $rate[0] ? "PASS" : "FAIL";
	print "## Server: reads with $results results ($requests sequential requests each, one keep-alive connection)\n\n";
	print "| endpoint | p50 | p90 | p99 | max | answer size (median) | server CPU per request |\n| --- | --- | --- | --- | --- | --- | --- |\n";
	my (%p99, %kb);
	for (["commit report", "report", $rcpu], ["benchmark history (default: the newest 2,000, at most 600 points)", "history", $hcpu],
	     ["benchmark history, the whole past at 1,000 points", "whole", $wcpu]) {
		my ($label, $what, $c) = @$_;
		open my $t, "<", "$work/$what.times" or die;
		my @r = map { [split] } <$t>;
		my @ms = sort { $a <=> $b } map { 1000 * $_->[1] } @r;
		my @kb = sort { $a <=> $b } map { $_->[2] / 1024 } @r;
		my $q = sub { $ms[int($_[0] * (@ms - 1) + 0.5)] };
		($p99{$what}, $kb{$what}) = ($q->(0.99), $kb[-1]);
		printf "| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.1f KB | %.2f ms |\n", $label, $q->(0.5), $q->(0.9), $q->(0.99), $ms[-1],
			$kb[int($#kb / 2)], 1000 * $c / @r;
	}
	printf "\nBars: p99 under 20 ms (SPEC 7): %s; issue 26: history p99 under 10 ms (%s), its largest answer under 200 KB (%.0f KB: %s), commit report p99 under 5 ms (%s)\n",
		$p99{report} < 20 && $p99{history} < 20 ? "PASS" : "FAIL", $p99{history} < 10 ? "PASS" : "FAIL", $kb{history},
		$kb{history} < 200 ? "PASS" : "FAIL", $p99{report} < 5 ? "PASS" : "FAIL";
' "$work" "$reports" "$benchmarks" "$clients" "$size" "$requests" "$db_mb" \
	"$(perl -e 'printf "%.2f", $ARGV[1] - $ARGV[0]' "$c0" "$c1")" "$(perl -e 'printf "%.2f", $ARGV[1] - $ARGV[0]' "$c1" "$c2")" \
	"$(perl -e 'printf "%.2f", $ARGV[1] - $ARGV[0]' "$c2" "$c3")"
