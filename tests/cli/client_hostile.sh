#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-upload and bm-check against hostile input: run ids that collided or
# hid in the spool, tokens that smuggle headers, servers whose messages
# drive the terminal, a server that never answers and one that redirects.
# The real bm-server on loopback, and a small listener (below) that
# records what it gets and answers as it is told.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

BM_UPLOAD="$top_builddir/uploader/bm-upload"
BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL GITHUB_STEP_SUMMARY \
	GITLAB_CI CI_API_V4_URL CI_PROJECT_ID CI_MERGE_REQUEST_IID BM_GITLAB_TOKEN GITLAB_TOKEN \
	BM_SERVER BM_PROJECT BM_TOKEN
ESC=$(printf '\033')

# The listener: tests/cli/listen.pl.
listeners=
# listener NAME STATUS [HEADER_FILE BODY_FILE]: starts one in directory
# NAME; sets url to its address.
listener() {
	dir=$1
	shift
	mkdir -p "$dir"
	perl "$top_srcdir/tests/cli/listen.pl" "$scratch/$dir" "$@" &
	listeners="$listeners $!"
	for _ in $(seq 600); do [ -s "$dir/port" ] && break; sleep 0.05; done
	url="http://127.0.0.1:$(cat "$dir/port")"
}
trap 'for p in $listeners; do kill "$p" 2>/dev/null; done; server_cleanup' EXIT
# requests NAME: how many requests listener NAME got.
requests() {
	ls "$1" | grep -c '^request\.'
}

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1
port=${server_url##*:}
spool="$scratch/spool"
# up ARGS...: bm-upload to project app, with its token, outside git.
up() {
	env BM_SERVER="${up_server:-$server_url}" BM_PROJECT=app BM_TOKEN="$tok" "$BM_UPLOAD" -q --spool "$spool" \
		--branch main --commit-time 2026-11-05T10:00:00Z "$@"
}

# -- 3, 4: one spool file per run id, none hidden, all flushed --
stop_server
n=0
for id in col/1 col_1 .hidden a.b "$(printf '%0128d' 0 | tr 0 .)"; do
	n=$((n + 1))
	make_report "r$n.json" main 000000 2026-01-01T00:00:00Z "" 100 run_id="$id"
	up --tries 1 --commit "c0ffee0$n" "r$n.json" >/dev/null 2>"err$n"
	echo "$?" >>codes
done
check_eq "server down: every run id spooled, exit 1" "1 1 1 1 1" "$(tr '\n' ' ' <codes | sed 's/ $//')"
check_eq "five run ids, five spool files (col/1 and col_1 no longer share one)" 5 "$(ls -A "$spool" | wc -l | tr -d ' ')"
check_eq "their names: every byte outside [A-Za-z0-9-] percent-encoded" \
	"%2Ehidden.json a%2Eb.json col%2F1.json col%5F1.json" "$(ls "$spool" | grep -v '%~' | tr '\n' ' ' | sed 's/ $//')"
check "no spool file is hidden" sh -c "! ls -A '$spool' | grep -q '^\\.'"
long=$(ls "$spool" | grep '%~')
check_eq "a run id too long to encode in a file name: its encoded start and a hash" \
	"198 yes" "$(printf %s "${long%.json}" | wc -c | tr -d ' ') $(case $long in %2E%2E*%~????????????????.json) echo yes ;; esac)"
check "each says where it was kept" grep -q "kept as '$spool/col%2F1.json'" err1

# Files spooled by an older bm-upload (run ids made into names with '_',
# a leading '.' kept) are still sent: the run id is inside.
for id in old/1 .old; do
	perl -MJSON::PP -e 'my ($id, $srv, $out) = @ARGV; local $/; open my $f, "<", "r1.json" or die; my $r = decode_json(<$f>);
		$r->{run_id} = $id; $r->{context}{commit}{sha} = "0dd0" . length $id;
		open my $o, ">", $out or die; print $o encode_json({server => $srv, project => "app", report => $r})' \
		"$id" "$server_url" "$spool/$(printf %s "$id" | tr / _).json"
done
echo 'not a report' >"$spool/notes.txt"
: >"$spool/x.json.tmp.AbC123"
start_server "$db" --listen "127.0.0.1:$port" || exit 1
up --flush >/dev/null 2>err
check_eq "--flush: a file it cannot send makes the exit 2" 2 "$?"
check "... and it says which, and why" grep -q "^bm-upload: $spool/notes.txt: not sent: not a spooled report (not JSON" err
check "... and what it counted" grep -q "^bm-upload: sent 7 of 8 spooled reports" err
check "a file still being written is named, not sent" grep -q "'$spool/x.json.tmp.AbC123' is a report still being spooled" err
got=
for sha in c0ffee01 c0ffee02 c0ffee03 c0ffee04 c0ffee05 0dd05 0dd04; do
	api GET "/api/v1/projects/app/commits/$sha/report" >/dev/null
	got="$got $(body '$j->{run_id}' | cut -c 1-8)"
done
check_eq "every spooled run arrived, the old names' and the hidden ones too" \
	" col/1 col_1 .hidden a.b ........ old/1 .old" "$got"
rm "$spool/notes.txt" "$spool/x.json.tmp.AbC123"
up --flush >/dev/null 2>err
check_eq "the spool is empty: exit 0" "0 0" "$? $(ls -A "$spool" | wc -l | tr -d ' ')"

# -- 7: tokens with control characters are refused before any request --
listener rec 500
up_server=$url
make_report t.json main 000000 2026-01-01T00:00:00Z "" 100 run_id=tok-run
crlf_token=$(printf 'tok\r\nX-Injected: yes')
env BM_SERVER="$url" BM_PROJECT=app BM_TOKEN="$crlf_token" "$BM_UPLOAD" --spool "$spool" --branch main \
	--commit abc --commit-time 2026-11-05T10:00:00Z t.json >/dev/null 2>err
check_eq "BM_TOKEN with CR LF: exit 2, nothing sent, nothing spooled" "2 0 0" \
	"$? $(requests rec) $(ls -A "$spool" | wc -l | tr -d ' ')"
check_eq "... saying why" \
	"bm-upload: the token (--token or BM_TOKEN) holds a control character (\\x0d at byte 4): a token is one line of printable text; nothing was sent" \
	"$(cat err)"
up --token "$(printf 'tok\ninjected')" --commit abc t.json >/dev/null 2>err
check_eq "--token with LF: exit 2, nothing sent" "2 0" "$? $(requests rec)"
up --flush --token "$crlf_token" >/dev/null 2>err
check_eq "--flush with such a token: exit 2" "2 0" "$? $(requests rec)"
make_report base.json main a1a1a1 2026-11-01T10:00:00Z "" 100
make_report head.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 100
env GITHUB_TOKEN="$crlf_token" GITHUB_REPOSITORY=o/r GITHUB_API_URL="$url" \
	"$BM_CHECK" --base base.json --head head.json --github-status >out 2>err
check_eq "bm-check --github-status with such a GITHUB_TOKEN: exit 2, nothing sent, nothing checked" "2 0 0" \
	"$? $(requests rec) $(wc -c <out | tr -d ' ')"
check "... saying why" grep -q "^bm-check: --github-status: the token (GITHUB_TOKEN) holds a control character" err
env GITHUB_ACTIONS=true GITHUB_TOKEN="$crlf_token" GITHUB_REPOSITORY=o/r GITHUB_API_URL="$url" \
	GITHUB_REF=refs/pull/3/merge "$BM_CHECK" --base base.json --head head.json --comment >out 2>err
check_eq "bm-check --comment with such a GITHUB_TOKEN: exit 2, nothing sent" "2 0" "$? $(requests rec)"
check "... saying why" grep -q "^bm-check: --comment: the token (GITHUB_TOKEN) holds a control character" err
env GITLAB_CI=true BM_GITLAB_TOKEN="$crlf_token" CI_API_V4_URL="$url/api/v4" CI_PROJECT_ID=5 \
	CI_MERGE_REQUEST_IID=3 "$BM_CHECK" --base base.json --head head.json --comment >out 2>err
check_eq "... and with such a BM_GITLAB_TOKEN" "2 0" "$? $(requests rec)"
check "... saying why" grep -q "^bm-check: --comment: the token (BM_GITLAB_TOKEN) holds a control character" err
up_server=

# -- 7: a server's words are printed with control characters escaped --
printf '{"error":"bad \\u001b[2J\\u001b]0;owned\\u0007 token\\r\\nbm-upload: all good \\u009b31m"}' >evil.json
: >no-headers
listener evil 400 no-headers evil.json
env BM_SERVER="$url" BM_PROJECT=app BM_TOKEN=t "$BM_UPLOAD" -q --spool "$spool" --branch main --commit abc \
	--commit-time 2026-11-05T10:00:00Z t.json >/dev/null 2>err
check_eq "bm-upload: the server's message, escaped, on one line" \
	'2 bm-upload: t.json: the server answered 400: bad \x1b[2J\x1b]0;owned\x07 token\x0d\x0abm-upload: all good \xc2\x9b31m' \
	"$? $(cat err)"
"$BM_CHECK" --server "$url" --project app --commit abc --tries 1 >out 2>err
check "bm-check: no escape character reaches the terminal" sh -c "! grep -q '$ESC' err out"
check "... the server's message escaped" grep -q 'answered 400 for .*: bad \\x1b\[2J\\x1b\]0;owned\\x07 token\\x0d\\x0abm-upload' err
printf '{"error":"no run of commit \\u001b[31mabc"}' >evil404.json
listener evil404 404 no-headers evil404.json
"$BM_CHECK" --server "$url" --project app --commit abc --tries 1 >out 2>err
check_eq "bm-check: a 404's message too" '2 bm-check: no run of commit \x1b[31mabc' "$? $(cat err)"
# A whole answer whose texts carry escapes: reason, names, acknowledgement.
up --commit a1a1a1 base.json >/dev/null 2>&1
make_report head.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 50 run_id=head-evil
up --commit a2a2a2 --branch feature --pr 1 --base-branch main --commit-time 2026-11-06T10:00:00Z head.json \
	>/dev/null 2>&1
api GET "/api/v1/projects/app/commits/a2a2a2/report?pr=1" >/dev/null
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my $e = "\e[2J";
	$j->{baseline_reason} .= $e; $j->{benchmarks}[0]{id} .= $e;
	$j->{benchmarks}[0]{acknowledgement} = {by => "G$e", reason => "r$e", covers => JSON::PP::false, impact => -0.1};
	print encode_json($j)' <body >evil200.json
listener evil200 200 no-headers evil200.json
"$BM_CHECK" --server "$url" --project app --commit a2a2a2 --pr 1 --tries 1 --markdown summary.md >out 2>err
check_eq "bm-check: a regression in an answer full of escapes: exit 1" 1 "$?"
check "... none reaches the terminal or the summary" sh -c "! grep -q '$ESC' out err summary.md"
check "... the reason, the name and the acknowledgement are shown escaped" \
	sh -c "grep -q '^baseline: a1a1a1 .*\\\\x1b\[2J' out && grep -q 'suite::b1\\\\x1b\[2J' out && grep -q 'G\\\\x1b\[2J' out"

# -- bm-check --timeout: a server that accepts and never answers --
listener hang hang
start=$(date +%s)
"$BM_CHECK" --server "$url" --project app --commit abc --tries 2 --timeout 1 >out 2>err
rc=$?
took=$(($(date +%s) - start))
check_eq "bm-check --timeout 1 --tries 2 against a silent server: exit 2" 2 "$rc"
check "... within seconds, not minutes ($took s; the default is 60 s a try)" test "$took" -lt 60
check "... saying it timed out" grep -qi "no answer from $url/.*timed out" err
check_eq "the silent server saw both tries" 2 "$(requests hang)"
"$BM_CHECK" --server "$url" --project app --commit abc --timeout 0 >out 2>err
check_eq "--timeout 0: a usage error" "2 bm-check: --timeout needs seconds from 1 to 3600, not '0'" "$? $(cat err)"
check "bm-check --help shows --timeout" sh -c "'$BM_CHECK' --help | grep -q -- '--timeout SECONDS'"

# -- a redirect is not followed, and bm-upload keeps the report --
listener elsewhere 201
elsewhere=$url
printf 'Location: %s/api/v1/projects/app/runs\r\n' "$url" >redirect.h
listener moved 307 redirect.h no-headers
make_report m.json main 000000 2026-01-01T00:00:00Z "" 100 run_id=moved-run
env BM_SERVER="$url" BM_PROJECT=app BM_TOKEN="$tok" "$BM_UPLOAD" -q --spool "$spool" --branch main --commit abc \
	--commit-time 2026-11-05T10:00:00Z m.json >/dev/null 2>err
check_eq "bm-upload on a 307: exit 1, the report spooled, one request, the redirect not followed" \
	"1 moved-run.json 1 0" "$? $(ls "$spool") $(requests moved) $(requests elsewhere)"
check "it says it was a redirect, and where to" grep -q \
	"^bm-upload: m.json: the server answered 307, a redirect to '$elsewhere/api/v1/projects/app/runs', which is not followed" err
check "... and where the report is" grep -q "^bm-upload: m.json: not sent; kept as '$spool/moved-run.json'" err
"$BM_UPLOAD" --flush --spool "$spool" --token "$tok" >/dev/null 2>err
check_eq "--flush to a server that redirects: exit 1, the report stays" "1 moved-run.json 0" \
	"$? $(ls "$spool") $(requests elsewhere)"
"$BM_CHECK" --server "$url" --project app --commit abc --tries 1 >out 2>err
check_eq "bm-check on a 307: exit 2, the redirect named, not followed" "2 0" "$? $(requests elsewhere)"
check "... in words" grep -q "^bm-check: the server answered 307, a redirect to 'http://127.0.0.1:[0-9]*/api/v1/projects/app/runs'" err
done_testing
