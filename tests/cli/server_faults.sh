#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server when its database fails: every database call a request makes
# is made to fail in turn (tests/faults/dbfault.c, preloaded: the real
# SQLite or libpq returns the error), one request at a time, over every
# route that reads or writes.  Each failure is a 500 whose JSON error
# names the database, the server goes on serving, nothing is half-written
# (a failed upload, token, setting or acknowledgement is absent and the
# same request right after stores it whole), and every read answers again
# exactly as before.  The commands that open the database (serve, project
# create, token create) fail the same way with a one-line message and
# leave a database the next start opens.  A database that stays down
# makes every request a 500 until it is back.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

shim="$top_builddir/tests/faults/.libs/dbfault.so"
if [ ! -f "$shim" ]; then
	echo "Bail out! $shim is not built (make check builds it)"
	exit 1
fi
fault="$scratch/fault"
BM_DBFAULT=$fault
export BM_DBFAULT
# ASan wants its runtime first among the libraries; the preloaded one is
# not instrumented and changes nothing it watches.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# arm SPEC: the control file, written anew ("N", "N-" or "0").
arm() {
	rm -f "$fault.fired"
	echo "$1" >"$fault.new" && mv "$fault.new" "$fault"
}

# each_failing_call ROUND: rounds n = 1, 2, ...: the nth database call
# from now is made to fail while "ROUND try" makes its request; then no
# call fails and "ROUND check" judges what came back, with call the name
# of the call that failed, or empty when the request made fewer than n
# calls: the last round.  Leaves n the number of rounds (at most 400).
each_failing_call() {
	n=1
	while :; do
		arm "$n"
		"$1" try
		call=$(cat "$fault.fired" 2>/dev/null)
		arm 0
		"$1" check
		[ -n "$call" ] && [ "$n" -lt 400 ] || return 0
		n=$((n + 1))
	done
}

db=$(test_db faults)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
admin_tok=$("$BM_SERVER_BIN" --db "$db" token create app --admin 2>/dev/null)
admin="Authorization: Bearer $admin_tok"
# The writes go to a project of their own, so app's answers stay.
wtok=$("$BM_SERVER_BIN" --db "$db" project create w 2>/dev/null)
wadmin="Authorization: Bearer $("$BM_SERVER_BIN" --db "$db" token create w --admin 2>/dev/null)"
make_report m1.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100,100
make_report m2.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 70,130,-
make_report pr.json topic c1c1c1 2026-11-05T10:00:00Z a2a2a2,a1a1a1 60,130,100 pr=3 base=main
"$top_builddir/uploader/bm-import" gbench "$top_srcdir/tests/cli/data/import/gbench.json" -o g.json >/dev/null
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{run_id} = "import"; $j->{context}{branch} = "main";
	$j->{context}{commit} = {sha => "a2a2a2", timestamp => "2026-11-02T10:00:00Z", ancestors => ["a1a1a1"]};
	$_ = encode_json($j)' g.json >import.json

# app's reads, each a request of its own: METHOD PATH.
cat >reads.txt <<EOF
GET /api/v1/projects/app/settings
GET /api/v1/projects/app/branches
GET /api/v1/projects/app/summary
GET /api/v1/projects/app/benchmarks?branch=main
GET /api/v1/projects/app/changes?branch=main
GET /api/v1/projects/app/acknowledgements
GET /api/v1/projects/app/commits/a2a2a2/report
GET /api/v1/projects/app/commits/c1c1c1/report?pr=3
GET /api/v1/projects/app/benchmarks/suite::b1/history?branch=main
GET /api/v1/projects/app/benchmarks/BM_StringCopy%2F8/history?branch=main&metric=walltime
GET /api/v1/projects/app/runs/run-a2a2a2-push-m1/benchmarks/suite::b1/profile
GET /api/v1/projects/app/tokens
GET /api/v1/projects
EOF
read_answers() {
	grep -v '^GET /api/v1/projects$' reads.txt | while read -r method path; do
		answer "$method" "$path" -H "$admin"
	done
}

# ---- the data, stored without faults ----
start_server "$db" || exit 1

for r in import m1 m2 pr; do
	check_eq "upload $r" 201 "$(upload "$tok" app "$r.json")"
done
for r in m1 m2; do
	check_eq "upload $r to w" 201 "$(upload "$wtok" w "$r.json")"
done
check_eq "an acknowledgement" 201 "$(api POST /api/v1/projects/app/commits/a2a2a2/acknowledgements \
	-H "Authorization: Bearer $tok" -d '{"benchmark":"suite::b1","by":"ann","reason":"known"}')"
# Commits with a regression each, for the acknowledging rounds (one a
# round: a commit's acknowledgements are read row by row, so a commit
# that gathered them would make each round longer than the last).
for i in $(seq 60); do
	make_report "r$i.json" acks "$(printf 'e%05d' "$i")" 2026-11-03T10:00:00Z a2a2a2,a1a1a1 50,130 \
		run_id="acks-$i" >/dev/null
	upload "$wtok" w "r$i.json" >/dev/null
done
# What the revoke and withdraw rounds take away, one a round.
for i in $(seq 30); do
	api POST /api/v1/projects/w/tokens -H "$wadmin" -d '{"admin":false}' >/dev/null
	api POST /api/v1/projects/w/commits/a2a2a2/acknowledgements -H "Authorization: Bearer $wtok" \
		-d '{"benchmark":"suite::b1","by":"ann","reason":"known"}' >/dev/null
done
read_answers >before.txt
stop_server

# ---- reads ----
server_preload=$shim
start_server "$db" || exit 1
reads_failed=0 reads_bad=
# A 500 naming the database, or (a failure that loses nothing, such as
# ending a read's transaction) the answer itself; the same read right
# after answers as before.
read_round() {
	case $1 in
	try) status=$(api "$method" "$path" -H "$admin") ;;
	check)
		[ -n "$call" ] || return 0
		reads_failed=$((reads_failed + 1))
		msg=$(body '$j->{error}')
		case $status/$msg in
		500/*database*) ;;
		*)
			last_answer "$method" "$path" "$status" >failed.txt
			cmp -s ref.txt failed.txt || reads_bad="$reads_bad
$method $path call $n ($call): $status $msg"
			;;
		esac
		answer "$method" "$path" -H "$admin" >again.txt
		cmp -s ref.txt again.txt || reads_bad="$reads_bad
$method $path after call $n failed: $(diff ref.txt again.txt | head -5)"
		;;
	esac
}
while read -r method path; do
	answer "$method" "$path" -H "$admin" >ref.txt
	each_failing_call read_round
	[ "$n" -gt 1 ] || reads_bad="$reads_bad
$method $path: no database call failed"
done <reads.txt
check_eq "reads: each of their $reads_failed database calls failing is a 500 naming the database, and the same read right after answers as before" \
	"" "$reads_bad"

# ---- writes: each failed write leaves nothing, the retry stores it ----
# sweep NAME EXPECTED_STATUS FUNCTION: FUNCTION makes round $n's write and
# prints its status; its database calls are failed in turn, from the
# first until one round makes no more.  Each failure must be a 500 naming
# the database and the same write again (unfailed) must give
# EXPECTED_STATUS (nothing of it was kept), unless the failure came after
# the write was kept and the answer says so.  Sets rounds.
writes_bad=
write_round() {
	case $1 in
	try) status=$($fn) ;;
	check)
		if [ -z "$call" ]; then
			[ "$status" = "$want" ] || writes_bad="$writes_bad
$name round $n, no call failed: $status $(cat "$scratch/body")"
			return 0
		fi
		msg=$(body '$j->{error}')
		case $status/$msg in
		500/*database*)
			again=$($fn)
			[ "$again" = "$want" ] || writes_bad="$writes_bad
$name: after call $n ($call) failed, the write again: $again $(cat "$scratch/body")"
			;;
		"$want"/*) ;;
		*)
			writes_bad="$writes_bad
$name call $n ($call): $status $msg"
			;;
		esac
		;;
	esac
}
sweep() {
	name=$1 want=$2 fn=$3
	each_failing_call write_round
	[ "$n" -gt 1 ] || writes_bad="$writes_bad
$name: no database call failed"
	rounds=$n
}

upload_round() {
	make_report "u$n.json" side "$(printf 'd%05d' "$n")" 2026-11-06T10:00:00Z a2a2a2,a1a1a1 90,110,100 \
		run_id="up-$n" >/dev/null
	upload "$wtok" w "u$n.json"
}
sweep upload 201 upload_round
check_eq "uploads: every round's run is stored once" "$rounds" \
	"$(db_query "$db" "SELECT count(*) FROM runs WHERE run_id LIKE 'up-%'")"
api GET "/api/v1/projects/w/commits/d00001/report" >/dev/null
check_eq "uploads: the run whose first call failed has every benchmark" 3 "$(body 'scalar @{$j->{benchmarks}}')"

# Uploads at once are written as one batch (group commit), each run in
# a savepoint: a failure in one run undoes that run alone, one that
# cannot be undone (or a transaction the database rolled back) fails the
# batch whole.  Whatever fails, every upload answered 201 is stored with
# all its benchmarks, and every one answered 500 is not stored: the
# same upload again is 201.
batch_bad=
batch_round() {
	case $1 in
	try)
		# The reports first: the six uploads must arrive together.
		for i in 1 2 3 4 5 6; do
			make_report "b$n-$i.json" batch "$(printf 'b%03d%02d' "$n" "$i")" 2026-11-07T10:00:00Z a2a2a2 \
				90,110,100 run_id="batch-$n-$i" >/dev/null
		done
		pids=
		for i in 1 2 3 4 5 6; do
			curl -s -o "b$n-$i.out" -w '%{http_code}' -H "Authorization: Bearer $wtok" \
				--data-binary "@b$n-$i.json" "$server_url/api/v1/projects/w/runs" >"b$n-$i.status" &
			pids="$pids $!"
		done
		# shellcheck disable=SC2086
		wait $pids
		;;
	check)
		for i in 1 2 3 4 5 6; do
			status=$(cat "b$n-$i.status")
			case ${call:+failing}$status in
			*201) ;;
			failing500)
				grep -q database "b$n-$i.out" || batch_bad="$batch_bad
round $n upload $i: 500 $(cat "b$n-$i.out")"
				again=$(upload "$wtok" w "b$n-$i.json")
				[ "$again" = 201 ] || batch_bad="$batch_bad
round $n upload $i: answered 500, then again $again (it was stored)"
				;;
			*) batch_bad="$batch_bad
round $n upload $i: $status $(cat "b$n-$i.out")" ;;
			esac
		done
		;;
	esac
}
each_failing_call batch_round
check_eq "uploads at once: a 500 stored nothing of its run, a 201 stored it ($n rounds of 6)" "" "$batch_bad"
check_eq "uploads at once: every run stored once, with all its results" \
	"$((6 * n)) $((18 * n))" \
	"$(db_query "$db" "SELECT count(*) FROM runs WHERE run_id LIKE 'batch-%'") $(db_query "$db" \
		"SELECT count(*) FROM results WHERE run IN (SELECT id FROM runs WHERE run_id LIKE 'batch-%')
		 $(on_sqlite && echo "UNION ALL SELECT count(*) FROM incoming_results WHERE run IN
		 (SELECT id FROM runs WHERE run_id LIKE 'batch-%')")" | awk '{ n += $1 } END { print n }')"

settings_round() {
	api PUT /api/v1/projects/w/settings -H "$wadmin" -d "{\"threshold\":0.0$((n % 9 + 1))}"
}
sweep settings 200 settings_round
api GET /api/v1/projects/w/settings >/dev/null
check_eq "settings: the last round's are in force" "0.0$((rounds % 9 + 1))" "$(body '$j->{threshold}')"

tokens() {
	db_query "$db" "SELECT count(*) FROM tokens WHERE NOT admin"
}
before=$(tokens)
token_round() {
	api POST /api/v1/projects/w/tokens -H "$wadmin" -d '{"admin":false}'
}
sweep token 201 token_round
check_eq "tokens: one made a round" "$((before + rounds))" "$(tokens)"
before=$(tokens)
revoke_round() {
	api DELETE "/api/v1/projects/w/tokens/$(db_query "$db" "SELECT max(id) FROM tokens WHERE NOT admin")" \
		-H "$wadmin"
}
sweep revoke 200 revoke_round
check_eq "tokens: one revoked a round" "$((before - rounds))" "$(tokens)"

acks() {
	db_query "$db" "SELECT count(*) FROM acknowledgements"
}
before=$(acks)
ack_round() {
	api POST "/api/v1/projects/w/commits/$(printf 'e%05d' "$n")/acknowledgements" -H "Authorization: Bearer $wtok" \
		-d "{\"benchmark\":\"suite::b1\",\"by\":\"r$n\",\"reason\":\"round $n\"}"
}
sweep acknowledge 201 ack_round
check_eq "acknowledgements: one made a round" "$((before + rounds))" "$(acks)"
before=$(acks)
withdraw_round() {
	api DELETE "/api/v1/projects/w/acknowledgements/$(db_query "$db" "SELECT max(id) FROM acknowledgements")" \
		-H "$wadmin"
}
sweep withdraw 200 withdraw_round
check_eq "acknowledgements: one withdrawn a round" "$((before - rounds))" "$(acks)"
check_eq "writes: each database call failing is a 500 naming the database, and the write again stores it whole" \
	"" "$writes_bad"

# ---- a database that stays down, then is back ----
arm 1-
down=
for path in /api/v1/projects /api/v1/projects/app/commits/a2a2a2/report \
	"/api/v1/projects/app/benchmarks/suite::b2/history?branch=main"; do
	down="$down $(api GET "$path")"
done
down="$down $(upload "$tok" app m1.json)"
check_eq "a database that stays down: every request a 500" " 500 500 500 500" "$down"
arm 0
read_answers >after.txt
check_output "the database back: every read of app answers as before the faults" before.txt after.txt
check "the server logged the failures on standard error" grep -q 'bm-server: 500 .*database' "$scratch/server.err"
if [ "${BM_TEST_DB:-sqlite}" = postgresql ]; then
	# Every connection of the pool was ended by the restart: each is
	# found closed when next borrowed and made anew, before a request
	# fails on it.
	as_pg "$PG_BIN/pg_ctl" -D "$pg_dir/data" -w -t 60 -m fast restart >/dev/null 2>&1
	read_answers >restarted.txt
	check_output "PostgreSQL restarted under the server: every read answers at once, as before" \
		before.txt restarted.txt
fi
stop_server
server_preload=

# ---- the commands that open the database ----
# cli_sweep NAME FUNCTION: as sweep, for a command: each failure exit 2
# with one line that names the database, and the command again succeeds
# (unless the failure came after what it did was kept: exit 0).  A
# project made without its token says so, and token create makes one.
cli_bad=
cli_round() {
	case $1 in
	try)
		$fn >out.txt 2>err.txt
		rc=$?
		;;
	check)
		if [ -z "$call" ]; then
			[ "$rc" = 0 ] || cli_bad="$cli_bad
$name, no call failed: exit $rc $(cat err.txt)"
		elif [ "$rc" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "^bm-server: project 'p$n' was created, but not its token (database: .*): bm-server token create p$n makes one" err.txt; then
			LD_PRELOAD=$shim "$BM_SERVER_BIN" --db "$fresh" token create "p$n" >out.txt 2>err.txt ||
				cli_bad="$cli_bad
$name: after call $n ($call) failed, token create: $(cat err.txt)"
		elif [ "$rc" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q '^bm-server: .*database' err.txt; then
			$fn >out.txt 2>err.txt || cli_bad="$cli_bad
$name: after call $n ($call) failed, again: $(cat err.txt)"
		elif [ "$rc" != 0 ]; then
			cli_bad="$cli_bad
$name call $n ($call): exit $rc, $(head -3 err.txt)"
		fi
		;;
	esac
}
cli_sweep() {
	name=$1 fn=$2
	each_failing_call cli_round
	[ "$n" -gt 1 ] || cli_bad="$cli_bad
$name: no database call failed"
}
fresh=$(test_db fresh)
"$BM_SERVER_BIN" --db "$fresh" project create app >/dev/null 2>&1
create_round() {
	LD_PRELOAD=$shim "$BM_SERVER_BIN" --db "$fresh" project create "p$n"
}
cli_sweep "project create" create_round
token_create_round() {
	LD_PRELOAD=$shim "$BM_SERVER_BIN" --db "$fresh" token create app
}
cli_sweep "token create" token_create_round
check_eq "project and token create: each database call failing is exit 2 with one line naming the database" \
	"" "$cli_bad"

# serve: failures while opening (and making) a new database.
serve_bad=
serve_round() {
	case $1 in
	try)
		start=$(test_db "start$n")
		LD_PRELOAD=$shim "$BM_SERVER_BIN" --db "$start" serve --listen 127.0.0.1:0 >out.txt 2>err.txt &
		pid=$!
		for _ in $(seq 600); do
			grep -q serving out.txt && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.05
		done
		kill "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		;;
	check)
		[ -n "$call" ] || return 0
		grep -q serving out.txt || { [ "$rc" = 2 ] && grep -q 'database' err.txt; } || serve_bad="$serve_bad
serve call $n ($call): exit $rc, $(head -3 err.txt)"
		again=$("$BM_SERVER_BIN" --db "$start" project create app 2>&1 >/dev/null) || serve_bad="$serve_bad
after serve's call $n failed, the database does not open: $again"
		;;
	esac
}
each_failing_call serve_round
[ "$n" -gt 2 ] || serve_bad="only $((n - 1)) calls"
check_eq "serve: each database call of opening a new database failing stops it with the database's error; the database opens after" \
	"" "$serve_bad"

# migrate (SQLite into PostgreSQL): a failure anywhere, in reading the
# source or writing the target, is exit 2 saying nothing was copied, and
# the target is left as it was: a move into it then succeeds.
if [ "${BM_TEST_DB:-sqlite}" = postgresql ]; then
	src="$scratch/src.db"
	stok=$("$BM_SERVER_BIN" --db "$src" project create app 2>/dev/null)
	start_server "$src" || exit 1
	for r in import m1 m2 pr; do upload "$stok" app "$r.json" >/dev/null; done
	api POST /api/v1/projects/app/commits/a2a2a2/acknowledgements -H "Authorization: Bearer $stok" \
		-d '{"benchmark":"suite::b1","by":"ann","reason":"known"}' >/dev/null
	stop_server
	move_bad=
	move_round() {
		case $1 in
		try)
			dst=$(pg_db "move$n")
			LD_PRELOAD=$shim "$BM_SERVER_BIN" migrate --from "sqlite:$src" --to "$dst" >out.txt 2>err.txt
			rc=$?
			;;
		check)
			if [ -z "$call" ] || [ "$rc" = 0 ]; then
				: # the last round, or a failure that lost nothing (a statement run unprepared)
			elif [ "$rc" != 2 ] || ! grep -q 'nothing was copied\|database' err.txt; then
				move_bad="$move_bad
call $n ($call): exit $rc, $(head -3 err.txt)"
			elif grep -q 'the copy is committed, but could not be counted after' err.txt; then
				# Said so: then the copy is whole.
				[ "$(db_query "$dst" 'SELECT count(*) FROM results')" = "$(sqlite3 "$src" \
					'SELECT (SELECT count(*) FROM results) + (SELECT count(*) FROM incoming_results)')" ] ||
					move_bad="$move_bad
after call $n ($call) failed after the commit, the target's results differ"
			elif ! again=$("$BM_SERVER_BIN" migrate --from "sqlite:$src" --to "$dst" 2>&1 >/dev/null); then
				move_bad="$move_bad
after call $n ($call) failed, the target is not as it was: $again"
			fi
			;;
		esac
	}
	each_failing_call move_round
	[ "$n" -gt 2 ] || move_bad="only $((n - 1)) calls"
	check_eq "migrate: each database call failing ($((n - 1)) calls) is exit 2 and leaves the target as it was" \
		"" "$move_bad"
fi

done_testing
