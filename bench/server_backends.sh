#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server on SQLite and on PostgreSQL, side by side in one run.
#
# 1. Ingest: reports of 100 benchmarks (bench/reports.pl) uploaded by
#    BM_BENCH_CLIENTS concurrent clients to a fresh database: SQLite with
#    one instance, PostgreSQL with 1, 2 and 3 instances (the uploads spread
#    over them in turn); reports/s, BM_BENCH_ROUNDS interleaved rounds,
#    medians.  Bar: PostgreSQL with 2 instances at least SQLite's
#    single-instance rate.
# 2. Reads as the database grows: each backend filled through the API to
#    each size of BM_BENCH_SIZES (results: 100,000 and 1,000,000 by
#    default; 10,000,000 if asked), then p50 and p99 of BM_BENCH_REQUESTS
#    sequential requests to the commit report of random commits and the
#    history of random benchmarks.  Bars on PostgreSQL at 1,000,000
#    results: history p99 < 20 ms, commit report p99 < 5 ms.
#
# PostgreSQL is a throwaway server (tests/cli/pg_lib.sh: Debian's
# postgresql 15, its defaults, fsync on) on a Unix socket.
#
# usage: bench/server_backends.sh [BUILD_DIR]   (default: build)
# Environment: BM_BENCH_REPORTS (ingest, default 2000), BM_BENCH_ROUNDS
# (default 3), BM_BENCH_CLIENTS (default 8), BM_BENCH_SIZES (default
# "100000 1000000"), BM_BENCH_REQUESTS (default 500).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
server=$build/dashboard/bm-server
reports=${BM_BENCH_REPORTS:-2000}
rounds=${BM_BENCH_ROUNDS:-3}
clients=${BM_BENCH_CLIENTS:-8}
sizes=${BM_BENCH_SIZES:-100000 1000000}
requests=${BM_BENCH_REQUESTS:-500}
benchmarks=100
for tool in curl perl; do
	command -v "$tool" >/dev/null || { echo "server_backends.sh: '$tool' not found" >&2; exit 2; }
done
[ -x "$server" ] || { echo "server_backends.sh: build bm first (make)" >&2; exit 2; }
grep -q '^#define HAVE_POSTGRESQL 1' "$build/config.h" ||
	{ echo "server_backends.sh: bm-server was built without PostgreSQL" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-backends.XXXXXX")
chmod 755 "$work"
. "$top/tests/cli/pg_lib.sh"
pids=
stop_servers() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=
}
trap 'stop_servers; pg_stop; [ -n "${BM_BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
pg_start || exit 1

max=0
for s in $sizes; do [ "$s" -gt "$max" ] && max=$s; done
n=$(((max + benchmarks - 1) / benchmarks))
[ "$n" -lt "$reports" ] && n=$reports
echo "writing $n reports of $benchmarks benchmarks..." >&2
perl "$top/bench/reports.pl" "$work" "$n" "$benchmarks"
mkdir "$work/answers"

# start K DB: K instances on DB; their URLs in $urls.
start() {
	urls=
	i=0
	while [ "$i" -lt "$1" ]; do
		out="$work/server.$i.out"
		"$server" --db "$2" serve --listen 127.0.0.1:0 >"$out" 2>>"$work/server.err" &
		pids="$pids $!"
		k=0
		until u=$(sed -n 's|^bm-server: serving \(http://[^ ]*\)/ .*|\1|p' "$out") && [ -n "$u" ]; do
			k=$((k + 1))
			[ "$k" -lt 100 ] || { echo "bm-server did not start:" >&2; cat "$work/server.err" >&2; exit 1; }
			sleep 0.1
		done
		urls="$urls $u"
		i=$((i + 1))
	done
}

# upload TOKEN FIRST LAST: the reports, spread over $urls in turn,
# BM_BENCH_CLIENTS at a time; prints the seconds it took.
upload() {
	perl -e 'my ($token, $dir, $first, $last, @urls) = @ARGV;
		for my $i ($first .. $last) {
			my $url = $urls[$i % @urls];
			print "url = \"$url/api/v1/projects/p/runs\"\nheader = \"Authorization: Bearer $token\"\n",
				"data-binary = \"\@$dir/r/$i.json\"\nsilent\noutput = \"$dir/answers/$i\"\nwrite-out = \"%{http_code} $i\\n\"\n";
			print "next\n" if $i < $last;
		}' "$1" "$work" "$2" "$3" $urls >"$work/upload.cfg"
	sync
	t0=$(perl -MTime::HiRes=time -e 'printf "%.3f", time')
	curl -sS --parallel --parallel-immediate --parallel-max "$clients" -K "$work/upload.cfg" >"$work/codes" 2>"$work/curl.err" ||
		true # (what failed is in the codes)
	t1=$(perl -MTime::HiRes=time -e 'printf "%.3f", time')
	bad=$(grep -cv '^201 ' "$work/codes" || true)
	[ "$bad" -eq 0 ] || {
		echo "$bad uploads did not answer 201, such as:" >&2
		grep -v '^201 ' "$work/codes" | head -3 | while read -r code i; do
			echo "  $code: $(cat "$work/answers/$i" 2>/dev/null)" >&2
		done
		tr '\r' '\n' <"$work/curl.err" | grep 'curl:' | sort | uniq -c | head -3 >&2
		exit 1
	}
	perl -e 'printf "%.3f\n", $ARGV[1] - $ARGV[0]' "$t0" "$t1"
}

# fresh NAME BACKEND: a new empty database; prints its --db.
fresh() {
	if [ "$2" = sqlite ]; then
		rm -f "$work/$1.db"*
		echo "$work/$1.db"
	else
		"$PG_BIN/psql" -q -X "$(pg_url postgres)" -c "DROP DATABASE IF EXISTS \"$1\"" >/dev/null 2>&1
		pg_db "$1"
	fi
}

# 1. Ingest.
: >"$work/ingest"
round=1
while [ "$round" -le "$rounds" ]; do
	for config in "sqlite 1" "postgresql 1" "postgresql 2" "postgresql 3"; do
		set -- $config
		echo "ingest, round $round of $rounds: $reports reports into $1 with $2 instance(s)..." >&2
		db=$(fresh ingest "$1")
		token=$("$server" --db "$db" project create p 2>/dev/null)
		start "$2" "$db"
		s=$(upload "$token" 1 "$reports")
		stop_servers
		echo "$1 $2 $s" >>"$work/ingest"
	done
	round=$((round + 1))
done

# 2. Reads at each size, for both backends.
# read_endpoint NAME WHAT FILL: sequential GETs; "code seconds" lines.
read_endpoint() {
	perl -e 'my ($url, $dir, $what, $n, $fill) = @ARGV; srand(2);
		open my $f, "<", "$dir/$what" or die; chomp(my @k = <$f>);
		splice @k, $fill if $what eq "shas" && @k > $fill;
		print "silent\nwrite-out = \"%{http_code} %{time_total}\\n\"\n";
		for (1 .. $n) {
			my $x = $k[int rand @k];
			if ($what eq "shas") {
				print "url = \"$url/api/v1/projects/p/commits/$x/report\"\n";
			} else {
				$x =~ s/([^A-Za-z0-9_.~-])/sprintf "%%%02X", ord $1/ge;
				print "url = \"$url/api/v1/projects/p/benchmarks/$x/history?branch=main\"\n";
			}
			print "output = \"/dev/null\"\n";
		}' "${urls# }" "$work" "$2" "$requests" "$3" >"$work/$1.cfg"
	curl -sS -K "$work/$1.cfg" >"$work/$1.times"
	bad=$(grep -cv '^200 ' "$work/$1.times" || true)
	[ "$bad" -eq 0 ] || { echo "$bad $1 requests did not answer 200" >&2; exit 1; }
}
: >"$work/reads"
for backend in sqlite postgresql; do
	db=$(fresh reads "$backend")
	token=$("$server" --db "$db" project create p 2>/dev/null)
	start 1 "$db"
	filled=0
	for size in $sizes; do
		fill=$(((size + benchmarks - 1) / benchmarks))
		echo "reads on $backend: filling to $((fill * benchmarks)) results..." >&2
		[ "$fill" -gt "$filled" ] && s=$(upload "$token" $((filled + 1)) "$fill") && filled=$fill
		label=$backend
		# PostgreSQL twice: as the fill left it, and once vacuumed and
		# analyzed (what autovacuum does within a minute: the speed
		# history's index-only scan needs the pages marked all-visible).
		for pass in 1 2; do
			read_endpoint report shas "$fill"
			read_endpoint history benchmarks "$fill"
			for what in report history; do
				echo "$label $size $what $(perl -e 'my @ms = sort { $a <=> $b } map { (split)[1] * 1000 } <STDIN>;
					printf "%.2f %.2f", $ms[int(0.5 * $#ms + 0.5)], $ms[int(0.99 * $#ms + 0.5)]' <"$work/$what.times")" \
					>>"$work/reads"
			done
			[ "$backend" = postgresql ] && [ "$pass" = 1 ] || break
			"$PG_BIN/psql" -q -X "$db" -c "VACUUM ANALYZE" >/dev/null
			label=postgresql+vacuum
		done
	done
	stop_servers
done

perl -e '
	my ($work, $reports, $nb, $clients, $cpu) = @ARGV;
	sub median { my @v = sort { $a <=> $b } @_; @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2 }
	open my $i, "<", "$work/ingest" or die;
	my %rate;
	for (<$i>) { my ($b, $k, $s) = split; push @{$rate{"$b $k"}}, $reports / $s }
	print "## Ingest: $reports reports of $nb benchmarks, $clients concurrent uploads (median of the rounds; $cpu)\n\n";
	print "| backend | instances | reports/s | range | results/s |\n| --- | ---: | ---: | --- | ---: |\n";
	for my $c ("sqlite 1", "postgresql 1", "postgresql 2", "postgresql 3") {
		my @v = sort { $a <=> $b } @{$rate{$c}};
		my ($b, $k) = split " ", $c;
		printf "| %s | %d | %.0f | %.0f-%.0f | %.0f |\n", $b, $k, median(@v), $v[0], $v[-1], median(@v) * $nb;
	}
	my ($sq, $pg2) = (median(@{$rate{"sqlite 1"}}), median(@{$rate{"postgresql 2"}}));
	printf "\nPostgreSQL with 2 instances / SQLite with one: %.2f.  Bar: at least 1: %s\n\n", $pg2 / $sq, $pg2 >= $sq ? "PASS" : "FAIL";
	open my $r, "<", "$work/reads" or die;
	print "## Reads as the database grows (sequential requests, one connection)\n\n";
	print "| backend | results | commit report p50 | p99 | history p50 | p99 |\n| --- | ---: | ---: | ---: | ---: | ---: |\n";
	my (%row, @order);
	for (<$r>) { my ($b, $size, $what, $p50, $p99) = split; push @order, "$b $size" unless $row{"$b $size"}; $row{"$b $size"}{$what} = [$p50, $p99] }
	my @verdict;
	for my $k (@order) {
		my ($b, $size) = split " ", $k;
		my ($rep, $his) = @{$row{$k}}{qw(report history)};
		printf "| %s | %d | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n", $b, $size, @$rep, @$his;
		push @verdict, sprintf("%s: history p99 %.2f ms (bar 20): %s; commit report p99 %.2f ms (bar 5): %s", $b, $his->[1],
			$his->[1] < 20 ? "PASS" : "FAIL", $rep->[1], $rep->[1] < 5 ? "PASS" : "FAIL") if $b =~ /^postgresql/ && $size == 1000000;
	}
	print "\nPostgreSQL at 1,000,000 results: ", join("; ", @verdict), "\n" if @verdict;
' "$work" "$reports" "$benchmarks" "$clients" "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
