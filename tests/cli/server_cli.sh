#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server's command line: every wrong use is exit 2 with one line that
# names what is wrong (and, for a usage error, the usage), before anything
# is opened or listened on; the right ones do what they say.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
trap 'server_cleanup; rm -rf "$scratch"' EXIT

db=$(test_db cli)
# refused "ARGS" MESSAGE: bm-server ARGS exits 2, its first line MESSAGE.
refused() {
	# shellcheck disable=SC2086
	"$BM_SERVER_BIN" --db "$db" $1 >"$scratch/out" 2>"$scratch/err"
	check_eq "bm-server $1: exit 2, '$2'" "2 bm-server: $2" "$? $(head -n 1 "$scratch/err")"
}
refused "serve --threads 0" "--threads needs a number from 1 to 1024, not '0'"
refused "serve --threads 4x" "--threads needs a number from 1 to 1024, not '4x'"
refused "serve --max-body 100" "--max-body needs bytes from 1024 to 4294967296, not '100'"
refused "serve --max-body -2048" "--max-body needs bytes from 1024 to 4294967296, not '-2048'"
refused "serve --max-benchmarks 0" "--max-benchmarks needs a number from 1 to 1000000, not '0'"
refused "serve --per-address -1" "--per-address needs a number from 0 to 4096, not '-1'"
refused "serve --request-timeout 0" "--request-timeout needs seconds from 1 to 3600, not '0'"
refused "serve --request-timeout 1h" "--request-timeout needs seconds from 1 to 3600, not '1h'"
refused "serve --merge-rows -5" "--merge-rows needs a number from 0 to 1000000, not '-5'"
refused "serve --listen 8080" "--listen needs HOST:PORT (such as 127.0.0.1:8080), not '8080'"
refused "serve --no-such-option" "serve: unknown option, or one missing its value: '--no-such-option'"
refused "serve --threads" "serve: unknown option, or one missing its value: '--threads'"
refused "serve extra" "serve takes no arguments besides its options"
refused "project" "usage: project create NAME"
refused "project delete demo" "usage: project create NAME"
refused "token create" "usage: token create PROJECT [--admin]"
refused "token create demo --root" "usage: token create PROJECT [--admin]"
refused "migrate --from" "migrate: unknown option, or one missing its value: '--from'"
refused "migrate --from sqlite:a.db" "usage: migrate --from sqlite:FILE --to postgresql://..."
refused "launch" "unknown command 'launch' (see bm-server --help)"
refused "--verbose serve" "unknown option '--verbose' (see bm-server --help)"
"$BM_SERVER_BIN" --db "$db" project >/dev/null 2>"$scratch/err"
check "a usage error shows the usage" grep -q '^usage: bm-server \[--db DB\] COMMAND' "$scratch/err"
"$BM_SERVER_BIN" >/dev/null 2>"$scratch/err"
check_eq "no command: exit 2" "2 bm-server: no command" "$? $(head -n 1 "$scratch/err")"
check "nothing was created by any of these" test ! -e "$db"

# migrate from a SQLite file that is not there: an error, and no empty
# database made there and "copied" (the source is opened before the
# target, so no PostgreSQL server is needed to see it).
for missing in "$scratch/none.db" "$scratch/no/such.db"; do
	"$BM_SERVER_BIN" migrate --from "sqlite:$missing" --to postgresql://127.0.0.1:1/none >"$scratch/out" 2>"$scratch/err"
	check_eq "migrate --from a missing $missing: exit 2, saying it does not exist" \
		"2 bm-server: database '$missing' does not exist (nothing is created here: give an existing SQLite database); nothing was copied" \
		"$? $(cat "$scratch/err")"
	check "... and it was not created" test ! -e "$missing"
done

"$BM_SERVER_BIN" --help >"$scratch/out" 2>&1
check_eq "--help: exit 0, the usage" "0 usage: bm-server [--db DB] COMMAND" "$? $(head -n 1 "$scratch/out")"
"$BM_SERVER_BIN" --version >"$scratch/out" 2>&1
check_eq "--version: exit 0, the version" "0 bm-server $(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")" \
	"$? $(cat "$scratch/out")"

# Names: 1 to 255 bytes of UTF-8.
refused "project create $(printf '%256s' '' | tr ' ' a)" \
	"project names are 1 to 255 bytes of UTF-8, not '$(printf '%256s' '' | tr ' ' a)'"
"$BM_SERVER_BIN" --db "$db" project create "$(printf 'bad\377')" >/dev/null 2>"$scratch/err"
check_eq "a project name that is not UTF-8: exit 2" 2 $?
"$BM_SERVER_BIN" "--db=$db" project create demo >"$scratch/token" 2>"$scratch/err"
check_eq "--db=DB project create: exit 0, the token on standard output, what it is on standard error" \
	"0 1 project created; its upload token for project 'demo' (shown once, keep it secret):" \
	"$? $(wc -l <"$scratch/token") $(sed 's/^bm-server: //' "$scratch/err")"
"$BM_SERVER_BIN" --db "$db" project create demo >/dev/null 2>"$scratch/err"
check_eq "the same project again: exit 1, and how to get another token" \
	"1 bm-server: project 'demo' exists already (bm-server token create PROJECT gives another token)" \
	"$? $(cat "$scratch/err")"
"$BM_SERVER_BIN" --db "$db" token create nope >/dev/null 2>"$scratch/err"
check_eq "a token for no project: exit 2, and how to make it" \
	"2 bm-server: no project 'nope' (create it with: bm-server project create NAME)" "$? $(cat "$scratch/err")"
"$BM_SERVER_BIN" --db "$db" token create demo --admin >"$scratch/admin" 2>/dev/null
check_eq "token create --admin: exit 0, one token" "0 1" "$? $(wc -l <"$scratch/admin")"
check "... not the upload token" sh -c '! cmp -s "$1" "$2"' - "$scratch/token" "$scratch/admin"
BM_DB="$db" "$BM_SERVER_BIN" token create demo >/dev/null 2>&1
check_eq "BM_DB names the database" 0 $?

done_testing
