#!/bin/sh
# SPDX-License-Identifier: MIT
# Durability: bm-server killed with SIGKILL while uploads are in flight.
# Every upload that got a 2xx must be there after a restart, and clients
# retrying every upload must leave each run exactly once.  --merge-rows 30
# merges every ten uploads, so the kill may land in a merge too.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

n=${BM_DURABILITY_UPLOADS:-1000}
db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create load 2>/dev/null)
start_server "$db" --merge-rows 30 || exit 1

# n reports of a linear history, from one template; curl configs with an
# entry per request ("next" keeps each one's body and output apart).
make_report "$scratch/template.json" main 000000 2026-11-01T10:00:00Z "" 100,200,300
mkdir "$scratch/r" "$scratch/ack" "$scratch/check"
perl -e '
	my ($n, $dir, $template, $url, $tok) = @ARGV;
	local $/; open my $t, "<", $template or die; my $text = <$t>;
	open my $cfg, ">", "$dir/upload.cfg" or die;
	open my $chk, ">", "$dir/check.cfg" or die;
	for my $i (1 .. $n) {
		print $cfg "next\n" and print $chk "next\n" if $i > 1;
		my ($sha, $parent) = (sprintf("%06x", $i), sprintf("%06x", $i - 1));
		(my $r = $text) =~ s/"run_id":"[^"]*"/"run_id":"load-$i"/;
		$r =~ s/"sha":"000000"/"sha":"$sha"/;
		$r =~ s/"ancestors":\[\]/"ancestors":["$parent"]/;
		open my $f, ">", "$dir/r/$i.json" or die; print $f $r; close $f;
		print $cfg "url = \"$url/api/v1/projects/load/runs\"\nheader = \"Authorization: Bearer $tok\"\n",
			"data-binary = \"\@$dir/r/$i.json\"\noutput = \"$dir/ack/$i\"\nwrite-out = \"%{http_code} $i\\n\"\n";
		print $chk "url = \"$url/api/v1/projects/load/commits/$sha/report\"\noutput = \"$dir/check/$i\"\n",
			"write-out = \"%{http_code} $i\\n\"\n";
	}
' "$n" "$scratch" "$scratch/template.json" "$server_url" "$tok"

# Uploads from 16 connections at once; the server dies under them.
: >"$scratch/codes"
curl -s --parallel --parallel-max 16 -K "$scratch/upload.cfg" >"$scratch/codes" 2>/dev/null &
curl_pid=$!
# Kill once a quarter of them have been answered: the rest are in flight.
for _ in $(seq 1000); do
	[ "$(wc -l <"$scratch/codes")" -ge $((n / 4)) ] && break
	sleep 0.01
done
kill -KILL "$server_pid"
wait "$server_pid" 2>/dev/null
server_pid=
wait "$curl_pid"
acked=$(grep -c '^20[01] ' "$scratch/codes" || true)
echo "# $acked of $n uploads were acknowledged before SIGKILL"
check "some uploads were acknowledged before the kill" test "$acked" -gt 0

start_server "$db" --merge-rows 30 || exit 1
# The check config still names the old port.
sed -i "s|http://127.0.0.1:[0-9]*|$server_url|" "$scratch/check.cfg"
curl -s --parallel --parallel-max 8 -K "$scratch/check.cfg" >"$scratch/found" 2>/dev/null
lost=$(grep '^20[01] ' "$scratch/codes" | while read -r _ i; do
	grep -q "^200 $i\$" "$scratch/found" && grep -q "\"run_id\":\"load-$i\"" "$scratch/check/$i" || echo "$i"
done)
check_eq "every acknowledged upload survived SIGKILL" "" "$lost"

# Clients retry everything (acknowledged or not): nothing doubles.
sed -i "s|http://127.0.0.1:[0-9]*|$server_url|" "$scratch/upload.cfg"
curl -s --parallel --parallel-max 16 -K "$scratch/upload.cfg" >"$scratch/codes2" 2>/dev/null
check_eq "retried uploads all succeed" "$n" "$(grep -c '^20[01] ' "$scratch/codes2")"
check_eq "acknowledged ones answer 200 (already there)" "$acked" \
	"$(grep '^20[01] ' "$scratch/codes" | while read -r _ i; do grep "^200 $i\$" "$scratch/codes2"; done | wc -l | tr -d ' ')"
check_eq "each run is there exactly once" "$n" "$(run_count load)"
stop_server
# (SQLite keeps recent results in incoming_results until it merges them.)
results=results
on_sqlite && results="(SELECT run, benchmark FROM results UNION ALL SELECT run, benchmark FROM incoming_results)"
check_eq "each result is there exactly once, merged or incoming" "$((3 * n)) $((3 * n))" \
	"$(db_query "$db" "SELECT count(*) || ' ' || count(DISTINCT run || '/' || benchmark) FROM $results x")"

done_testing
