#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGTERM under load (docs/bm-server.md): sixteen clients read and upload
# without pause; the server stops accepting and answers every request of
# every connection it accepted (keep-alive ones are told to close), so that
# each client sees an answer or a refused connection, never a connection
# cut without an answer (curl's "empty reply" or "receive failure").  Three
# rounds: before the drain waited for connections whose request was still
# on its way, each round cut one to three.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
trap 'server_cleanup; rm -rf "$scratch"' EXIT

db=$(test_db drain)
token=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
make_report "$scratch/report.json" main aaaa1 2026-11-20T10:00:00Z "" 100,110,120
for round in 1 2 3; do
	start_server "$db" || exit 1
	rm -rf "$scratch/codes"
	mkdir "$scratch/codes"
	pids=
	for w in $(seq 16); do
		(
			for k in $(seq 400); do
				if [ $((w % 4)) = 0 ]; then
					# an upload (the same run: stored once, then 200)
					curl -s -o /dev/null -w '%{http_code} %{exitcode}\n' -H "Authorization: Bearer $token" \
						--data-binary "@$scratch/report.json" "$server_url/api/v1/projects/demo/runs"
				else
					curl -s -o /dev/null -w '%{http_code} %{exitcode}\n' \
						"$server_url/api/v1/projects/demo/benchmarks?branch=main"
				fi
				# once refused, the server is gone: stop
				tail -n 1 "$scratch/codes/$w" 2>/dev/null | grep -q ' 7$' && break
			done >"$scratch/codes/$w"
		) &
		pids="$pids $!"
	done
	sleep 1.5
	kill -TERM "$server_pid"
	wait "$server_pid"
	rc=$?
	server_pid=
	# shellcheck disable=SC2086
	wait $pids
	answered=$(cat "$scratch"/codes/* | grep -c '^20[01] 0$')
	others=$(cat "$scratch"/codes/* | grep -v '^20[01] 0$' | grep -v '^000 7$' | sort | uniq -c | tr '\n' ';')
	echo "# round $round: $answered answered before the end"
	check_eq "round $round: SIGTERM under load: exit 0, every request answered or refused, none cut" "0 ok" \
		"$rc ${others:-ok}"
done

done_testing
