#!/bin/sh
# SPDX-License-Identifier: MIT
# Bounded memory for what anyone may ask: an upload holds at most
# --max-benchmarks benchmarks (default 20,000: 413 past it), and sixteen
# parallel reads of the commit report of the largest allowed upload keep
# bm-server's peak memory under a stated bound (docs/bm-server.md) and give
# it back afterwards.  Before the report was written row by row and its
# builds gated, those reads took the server past 1.1 GB and kept it.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
trap 'server_cleanup; rm -rf "$scratch"' EXIT

db=$(test_db memory)
token=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
start_server "$db" --max-benchmarks 3 || exit 1
make_report "$scratch/four.json" main aaaa1 2026-11-20T10:00:00Z "" 100,100,100,100
check_eq "--max-benchmarks 3: a report of 4 is refused (413)" 413 "$(upload "$token" demo "$scratch/four.json")"
check_eq "... saying how many, the limit and what to do" \
	"the report holds 4 benchmarks; this server takes at most 3 per report (bm-server serve --max-benchmarks): upload the suite in parts, one report per part of the same commit" \
	"$(body '$j->{error}')"
make_report "$scratch/three.json" main aaaa1 2026-11-20T10:00:00Z "" 100,100,100
check_eq "... and one of 3 is taken" 201 "$(upload "$token" demo "$scratch/three.json")"
stop_server

# The default: 20,000 benchmarks, two commits of them (the second one's
# baseline is the first).
perl "$top_srcdir/bench/reports.pl" "$scratch" 2 20001 >/dev/null
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); pop @{$j->{benchmarks}} for 1 .. $ARGV[0];
	print encode_json($j)' 1 <"$scratch/r/1.json" >"$scratch/max1.json"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); pop @{$j->{benchmarks}} for 1 .. $ARGV[0];
	print encode_json($j)' 1 <"$scratch/r/2.json" >"$scratch/max2.json"
start_server "$db" || exit 1
check_eq "by default a report of 20,001 benchmarks is refused (413)" 413 \
	"$(upload "$token" demo "$scratch/r/1.json")"
check_eq "... and two of 20,000 are taken" "201 201" \
	"$(upload "$token" demo "$scratch/max1.json") $(upload "$token" demo "$scratch/max2.json")"
# A new server process, so that its peak is that of the reads alone.
stop_server
start_server "$db" || exit 1
memory() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$server_pid/status"; }
before=$(memory VmHWM)
sha=$(sed -n 2p "$scratch/shas")
pids=
for k in $(seq 16); do
	curl -s -o "$scratch/answer.$k" -w '%{http_code}\n' "$server_url/api/v1/projects/demo/commits/$sha/report" \
		>"$scratch/code.$k" &
	pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
check_eq "sixteen parallel reads of its commit report: all answered" "16 200" \
	"$(cat "$scratch"/code.* | sort | uniq -c | sed 's/^ *//')"
check_eq "... all the same report of 20,000 benchmarks" "1 20000" \
	"$(md5sum "$scratch"/answer.* | cut -d' ' -f1 | sort -u | wc -l) $(json_get "$scratch/answer.1" 'scalar @{$j->{benchmarks}}')"
peak=$(memory VmHWM)
rss=$(memory VmRSS)
echo "# peak ${before} kB before the reads, ${peak} kB after them; ${rss} kB resident at the end"
if grep -q '^BM_SANITIZE_CFLAGS = *-fsanitize' "$top_builddir/Makefile"; then
	# AddressSanitizer keeps freed memory in quarantine and pads the rest.
	ok "# SKIP the memory bounds: a sanitizer build's memory is not the server's"
	ok "# SKIP the memory given back: a sanitizer build's memory is not the server's"
else
	check "... the server's peak memory stays under 300 MB" test "$peak" -lt 307200
	check "... and what the reads took is given back (resident under 150 MB)" test "$rss" -lt 153600
fi

done_testing
