#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server migrate: a SQLite database made through the API (pushes on two
# branches and platforms, a pull request, an imported report, profiles, an
# acknowledgement, settings, tokens) copied into PostgreSQL answers every
# read route exactly as it did on SQLite; the target must be empty; the
# move is all or nothing; the server goes on from there (new ids, tokens).
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

src="$scratch/src.db"
tok=$("$BM_SERVER_BIN" --db "$src" project create app 2>/dev/null)
admin_tok=$("$BM_SERVER_BIN" --db "$src" token create app --admin 2>/dev/null)
"$BM_SERVER_BIN" --db "$src" project create other >/dev/null 2>&1
start_server "$src" --merge-rows 1000 || exit 1
make_report m1.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100,100
make_report m2.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 70,130,-
make_report m3.json main a3a3a3 2026-11-03T10:00:00Z a2a2a2,a1a1a1 70,130,100
make_report arm.json main a3a3a3 2026-11-03T10:00:00Z a2a2a2 50,50 arch=aarch64 run_id=arm
make_report pr.json topic c1c1c1 2026-11-05T10:00:00Z a3a3a3,a2a2a2 60,130,100 pr=7 base=main
"$top_builddir/uploader/bm-import" gbench "$top_srcdir/tests/cli/data/import/gbench.json" -o g.json >/dev/null
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{run_id} = "import"; $j->{context}{branch} = "main";
	$j->{context}{commit} = {sha => "a3a3a3", timestamp => "2026-11-03T10:00:00Z", ancestors => []};
	$_ = encode_json($j)' g.json >import.json
for r in import m1 m2 m3 arm pr; do upload "$tok" app "$r.json" >/dev/null; done
api POST /api/v1/projects/app/commits/a2a2a2/acknowledgements -H "Authorization: Bearer $tok" \
	-d '{"benchmark":"suite::b1","by":"ann","reason":"known"}' >/dev/null
api PUT /api/v1/projects/app/settings -H "Authorization: Bearer $admin_tok" -d '{"threshold":0.2,"st":3}' >/dev/null
check_eq "the SQLite database holds incoming results too (not all merged)" 1 \
	"$(sqlite3 "$src" 'SELECT count(*) > 0 FROM incoming_results')"

# reads: every read route's answer.
reads() {
	answer GET /api/v1/projects
	answer GET /api/v1/projects/app/settings
	answer GET /api/v1/projects/app/branches
	answer GET /api/v1/projects/app/summary
	answer GET "/api/v1/projects/app/benchmarks?branch=main"
	answer GET "/api/v1/projects/app/changes?branch=main"
	answer GET /api/v1/projects/app/acknowledgements
	answer GET /api/v1/projects/app/tokens -H "Authorization: Bearer $admin_tok"
	for c in a1a1a1 a2a2a2 a3a3a3 c1c1c1; do
		answer GET "/api/v1/projects/app/commits/$c/report"
	done
	answer GET "/api/v1/projects/app/commits/c1c1c1/report?pr=7"
	for m in speed cycles Ir sysTime walltime; do
		answer GET "/api/v1/projects/app/benchmarks/suite::b1/history?branch=main&metric=$m"
		answer GET "/api/v1/projects/app/benchmarks/BM_StringCopy%2F8/history?branch=main&metric=$m"
	done
	answer GET "/api/v1/projects/app/runs/run-a3a3a3-push-m1/benchmarks/suite::b2/profile"
	answer GET /api/v1/projects/other/summary
}
reads >sqlite.txt
stop_server

dst=$(test_db moved)
"$BM_SERVER_BIN" migrate --from "sqlite:$src" --to "$dst" >migrate.out 2>migrate.err
check_eq "migrate: exit 0" "0" "$?"
check "... and it says what it copied where" grep -q "^bm-server: copied SQLite database '$src' into PostgreSQL database 'moved'" migrate.out
start_server "$dst" || exit 1
reads >postgresql.txt
check "every read route answers on PostgreSQL as it did on SQLite ($(grep -c '^==' sqlite.txt) answers)" \
	diff -u sqlite.txt postgresql.txt
check_eq "the project's tokens work there" 201 \
	"$(make_report m4.json main a4a4a4 2026-11-04T10:00:00Z a3a3a3 70,130,100; upload "$tok" app m4.json)"
check_eq "... new tokens get new ids" "201 4" \
	"$(api POST /api/v1/projects/app/tokens -H "Authorization: Bearer $admin_tok" -d '{"admin":false}') $(body '$j->{id}')"
stop_server

# A source that does not exist is an error: it is not created (it was,
# empty, and "copied" into the target).
fresh=$(test_db fresh)
"$BM_SERVER_BIN" migrate --from "sqlite:$scratch/missing.db" --to "$fresh" >migrate.out 2>migrate.err
check_eq "from a SQLite file that does not exist: exit 2, saying so" \
	"2|bm-server: database '$scratch/missing.db' does not exist (nothing is created here: give an existing SQLite database); nothing was copied|" \
	"$?|$(cat migrate.err)|$(cat migrate.out)"
check "... and it was not created" test ! -e "$scratch/missing.db"
check_eq "... and the target was not touched" 0 \
	"$(db_query "$fresh" "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")"

# A target that is not empty is refused, and left as it was.
"$BM_SERVER_BIN" migrate --from "sqlite:$src" --to "$dst" >/dev/null 2>migrate.err
check_eq "into a database with data: exit 2" 2 $?
check "... saying it is not empty" grep -q "^bm-server: PostgreSQL database 'moved'.* is not empty (.* rows in projects): move into a new, empty database; nothing was copied" migrate.err
check_eq "... and nothing changed there" 7 "$(db_query "$dst" 'SELECT count(*) FROM runs')"

# All or nothing: a source row PostgreSQL refuses (text with a NUL byte
# cannot be stored as text) leaves the target empty.
bad="$scratch/bad.db"
cp "$src" "$bad"
sqlite3 "$bad" "INSERT INTO acknowledgements (project, benchmark, sha, pr, impact, author, reason, created_at)
	VALUES (1, 'x', 'a1a1a1', 0, -0.5, 'ann', CAST(X'610062' AS TEXT), 0)"
empty=$(test_db empty)
"$BM_SERVER_BIN" migrate --from "$bad" --to "$empty" >/dev/null 2>migrate.err
check_eq "a row the target refuses: exit 2" 2 $?
check "... saying nothing was copied" grep -q "nothing was copied" migrate.err
check_eq "... and the target has no project, no run" "0 0" \
	"$(db_query "$empty" 'SELECT count(*) FROM projects') $(db_query "$empty" 'SELECT count(*) FROM runs')"

# Usage errors.
"$BM_SERVER_BIN" migrate --from "$src" >/dev/null 2>migrate.err
check_eq "migrate without --to: exit 2" 2 $?
"$BM_SERVER_BIN" migrate --from "$dst" --to "$scratch/back.db" >/dev/null 2>migrate.err
check "PostgreSQL to SQLite: exit 2 and why" grep -q "postgresql cannot be moved from" migrate.err

done_testing
