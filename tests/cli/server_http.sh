#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server's HTTP layer refusing what it cannot serve, each with its
# status and a message that says what to send instead: bad escapes in the
# path or a parameter's name, methods a path does not take, a token that
# is not a bearer token, bodies in an encoding it does not speak or broken
# gzip, and paths that are no API.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
trap 'server_cleanup; rm -rf "$scratch"' EXIT

db=$(test_db http)
token=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
start_server "$db" || exit 1
# answers DESCRIPTION STATUS MESSAGE CURL_ARGS...: the status and the
# error message of one request.
answers() {
	desc=$1 status=$2 msg=$3
	shift 3
	check_eq "$desc: $status" "$status $msg" "$(curl -s -o "$scratch/body" -w '%{http_code}' "$@") $(body '$j->{error}')"
}
runs="$server_url/api/v1/projects/demo/runs"
answers "a bad escape in the path" 400 "the path has a bad percent-escape or an encoded NUL" \
	"$server_url/api/v1/projects/de%zzmo/benchmarks"
answers "an encoded NUL in the path" 400 "the path has a bad percent-escape or an encoded NUL" \
	"$server_url/api/v1/projects/de%00mo/benchmarks"
answers "a parameter's name that is not UTF-8" 400 \
	"a query parameter's name has a bad percent-escape, an encoded NUL or invalid UTF-8" \
	"$server_url/api/v1/projects/demo/benchmarks?%ff=1"
answers "POST on a dashboard page" 405 "POST is not allowed on the dashboard's pages" -X POST "$server_url/projects/demo"
answers "DELETE on the project list" 405 "DELETE is not allowed on this path" -X DELETE "$server_url/api/v1/projects"
answers "no such API path" 404 "no such API path" "$server_url/api/v1/nothing"
answers "a token that is not a bearer token" 401 \
	"the token is not valid for this project: send the project's token as 'Authorization: Bearer TOKEN'" \
	-H "Authorization: Basic $token" --data '{}' "$runs"
answers "a deflate body" 415 "Content-Encoding 'deflate' is not supported (send gzip or nothing)" \
	-H "Authorization: Bearer $token" -H "Content-Encoding: deflate" --data '{}' "$runs"
answers "a body that claims gzip and is not" 400 "the body is not valid gzip" \
	-H "Authorization: Bearer $token" -H "Content-Encoding: gzip" --data 'plain' "$runs"
printf '{"schema": "bm-report/1"}' | gzip | head -c 12 >"$scratch/cut.gz"
answers "a gzip body cut short" 400 "the body is not valid gzip" \
	-H "Authorization: Bearer $token" -H "Content-Encoding: gzip" --data-binary "@$scratch/cut.gz" "$runs"
make_report "$scratch/r.json" main abc123 2026-11-20T10:00:00Z "" 100
gzip -c "$scratch/r.json" >"$scratch/r.json.gz"
check_eq "a gzip body whole: stored (201)" 201 \
	"$(curl -s -o "$scratch/body" -w '%{http_code}' -H "Authorization: Bearer $token" -H "Content-Encoding: gzip" \
		--data-binary "@$scratch/r.json.gz" "$runs")"
check_eq "... and its report_url names the host the client used" "http://127.0.0.1:${server_url##*:}/projects/demo/commits/abc123" \
	"$(body '$j->{report_url}')"
check_eq "HTTP/1.0 without a Host: the report_url names localhost" "http://localhost/projects/demo/commits/abc123" \
	"$(printf 'POST /api/v1/projects/demo/runs HTTP/1.0\r\nAuthorization: Bearer %s\r\nContent-Length: %s\r\n\r\n' \
		"$token" "$(wc -c <"$scratch/r.json")" | cat - "$scratch/r.json" |
		perl -MIO::Socket::INET -e 'my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $ARGV[0]) or die;
			local $/; print $s <STDIN>; shutdown $s, 1; my $a = <$s>; $a =~ s/.*?\r\n\r\n//s; print $a' \
		"${server_url##*:}" | perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{report_url}')"

done_testing
