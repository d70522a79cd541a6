#!/bin/sh
# SPDX-License-Identifier: MIT
# Several bm-server processes on one PostgreSQL database behave as one
# server: uploads spread over three instances, one of them killed with
# SIGKILL midway, leave every acknowledged run there exactly once, and
# retries (sent to any instance, the same run twice at once too) never
# double one; a setting changed, a token revoked or a regression
# acknowledged through one instance is in force on the others at their
# next request; SIGTERM lets an instance finish the uploads in flight.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

n=${BM_INSTANCES_UPLOADS:-600}
db=$(test_db multi)
tok=$("$BM_SERVER_BIN" --db "$db" project create load 2>/dev/null)
admin=$("$BM_SERVER_BIN" --db "$db" token create load --admin 2>/dev/null)

# Three instances: A, B, C (start_server keeps one; their pids and URLs
# are kept here).
for x in a b c; do
	start_server "$db" --threads 4 || exit 1
	eval "pid_$x=\$server_pid url_$x=\$server_url"
	server_pid=
done
cleanup_instances() {
	kill $pid_a $pid_b $pid_c 2>/dev/null
	wait 2>/dev/null
	server_cleanup
}
trap cleanup_instances EXIT

# n reports of a linear history, each sent to A, B or C in turn.
make_report template.json main 000000 2026-11-01T10:00:00Z "" 100,200,300
mkdir r ack retried
perl -e '
	my ($n, $template, $tok, @urls) = @ARGV;
	local $/; open my $t, "<", $template or die; my $text = <$t>;
	open my $cfg, ">", "upload.cfg" or die;
	open my $retry, ">", "retry.cfg" or die;
	for my $i (1 .. $n) {
		if ($i > 1) { print $cfg "next\n"; print $retry "next\n"; }
		my ($sha, $parent) = (sprintf("%06x", $i), sprintf("%06x", $i - 1));
		(my $r = $text) =~ s/"run_id":"[^"]*"/"run_id":"load-$i"/;
		$r =~ s/"sha":"000000"/"sha":"$sha"/;
		$r =~ s/"ancestors":\[\]/"ancestors":["$parent"]/;
		open my $f, ">", "r/$i.json" or die; print $f $r; close $f;
		my ($url, $again) = ($urls[$i % 3], $urls[($i + 1) % 3]);
		print $cfg "url = \"$url/api/v1/projects/load/runs\"\nheader = \"Authorization: Bearer $tok\"\n",
			"data-binary = \"\@r/$i.json\"\noutput = \"ack/$i\"\nwrite-out = \"%{http_code} $i\\n\"\n";
		print $retry "url = \"$again/api/v1/projects/load/runs\"\nheader = \"Authorization: Bearer $tok\"\n",
			"data-binary = \"\@r/$i.json\"\noutput = \"retried/$i\"\nwrite-out = \"%{http_code} $i\\n\"\n";
	}
' "$n" template.json "$tok" "$url_a" "$url_b" "$url_c"

# (Line-buffered: written to a file, curl's codes would come in blocks of
# 4 KB, 500 uploads, and B would be killed after the last of them.)
stdbuf -oL curl -s --parallel --parallel-max 24 -K upload.cfg >codes 2>/dev/null &
curl_pid=$!
for _ in $(seq 1000); do
	[ "$(wc -l <codes)" -ge $((n / 3)) ] && break
	sleep 0.01
done
kill -KILL "$pid_b"
wait "$pid_b" 2>/dev/null
wait "$curl_pid"
acked=$(grep -c '^20[01] ' codes || true)
echo "# $acked of $n uploads acknowledged; B was killed with SIGKILL midway"
check "uploads were acknowledged by the instances left too" test "$acked" -gt $((n / 2))
check "some uploads to B failed when it died" grep -q '^000 ' codes

# Every acknowledged run is there, once: asked of A and C.
server_url=$url_a
check_eq "every acknowledged run is stored exactly once" "0" \
	"$(grep '^20[01] ' codes | while read -r _ i; do echo "load-$i"; done | sort >acked.txt
	   db_query "$db" "SELECT run_id FROM runs" | sort >stored.txt
	   comm -23 acked.txt stored.txt | wc -l | tr -d ' ')"
check_eq "no run twice" "" "$(db_query "$db" "SELECT run_id FROM runs GROUP BY run_id HAVING count(*) > 1")"

# Retries of everything, each to another instance than the first time
# (B's go to C), two at a time of the same run: each run once.
sed -i "s|$url_b|$url_c|" retry.cfg upload.cfg
{ cat retry.cfg; echo next; cat upload.cfg; } >both.cfg
curl -s --parallel --parallel-max 24 -K both.cfg >codes2 2>/dev/null
check_eq "every retry succeeds" "$((2 * n))" "$(grep -c '^20[01] ' codes2)"
grep -v '^20[01] ' codes2 | head -3 | while read -r code i; do
	echo "# $code $i: $(cat "ack/$i" "retried/$i" 2>/dev/null | tr '\n' ' ')"
done
check_eq "each run is there exactly once" "$n $n" \
	"$(db_query "$db" "SELECT count(*) || ' ' || count(DISTINCT run_id) FROM runs")"
check_eq "each result once" "$((3 * n)) $((3 * n))" \
	"$(db_query "$db" "SELECT count(*) || ' ' || count(DISTINCT run || '/' || benchmark) FROM results")"
server_url=$url_c
check_eq "the last commit's report on C" "200 load-$n" \
	"$(api GET "/api/v1/projects/load/commits/$(printf '%06x' "$n")/report") $(body '$j->{run_id}')"

# What one instance changes is in force on another at once.
server_url=$url_a
api PUT /api/v1/projects/load/settings -H "Authorization: Bearer $admin" -d '{"threshold":0.33}' >/dev/null
server_url=$url_c
check_eq "a setting changed through A is C's at its next request" "0.33" \
	"$(api GET /api/v1/projects/load/settings >/dev/null; body '$j->{threshold}')"
server_url=$url_a
fresh=$(api POST /api/v1/projects/load/tokens -H "Authorization: Bearer $admin" -d '{"admin":false}' >/dev/null
	body '"$j->{id} $j->{token}"')
server_url=$url_c
make_report late.json main ffff01 2026-12-01T10:00:00Z "" 100,200,300 run_id=late
check_eq "a token made through A works on C" 201 "$(upload "${fresh#* }" load late.json)"
server_url=$url_a
api DELETE "/api/v1/projects/load/tokens/${fresh%% *}" -H "Authorization: Bearer $admin" >/dev/null
server_url=$url_c
make_report later.json main ffff02 2026-12-02T10:00:00Z ffff01 50,200,300 run_id=later
check_eq "revoked through A, refused by C at its next request" 401 "$(upload "${fresh#* }" load later.json)"
upload "$tok" load later.json >/dev/null
server_url=$url_a
api POST /api/v1/projects/load/commits/ffff02/acknowledgements -H "Authorization: Bearer $tok" \
	-d '{"benchmark":"suite::b1","by":"ann","reason":"known"}' >/dev/null
server_url=$url_c
check_eq "acknowledged through A: C's report says so" "acknowledged" \
	"$(api GET /api/v1/projects/load/commits/ffff02/report >/dev/null; body '$j->{verdict}')"

# SIGTERM: an instance stops accepting and answers what is in flight.
# curl says how each request ended: 7, the connection refused (A no
# longer listens); 52 or 56 would be an upload cut off.  (Connections
# that were open go on being served until A exits.)
sed 's|write-out = "%{http_code} |write-out = "%{http_code} %{exitcode} |' upload.cfg >upload3.cfg
: >codes3
curl -s --parallel --parallel-max 24 -K upload3.cfg >codes3 2>/dev/null &
curl_pid=$!
for _ in $(seq 500); do
	[ -s codes3 ] && break
	sleep 0.01
done
kill -TERM "$pid_a"
wait "$pid_a"
check_eq "SIGTERM: A exits 0" 0 $?
wait "$curl_pid"
check_eq "... every upload answered, or refused before it was sent: none cut off" "" \
	"$(grep -v -E '^(20[01] 0|000 7) ' codes3 | head -3)"

done_testing
