#!/bin/sh
# SPDX-License-Identifier: MIT
# What a hostile client tried against bm-server, each now a clean answer:
# /static/ with nothing after it, query parameters that are not UTF-8 or
# not numbers, ids reused after a DELETE, two Content-Lengths, impossible
# dates, huge benchmark ids, out-of-range path ids, profiles whose
# indices point nowhere, a chunked body past the limit, a file size limit.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

db=$(test_db bm)
up=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
admin=$("$BM_SERVER_BIN" --db "$db" token create app --admin 2>/dev/null)
start_server "$db" --web "$scratch/web" || exit 1
A="Authorization: Bearer $admin"
P=/api/v1/projects/app

# raw REQUEST [WAIT]: sends REQUEST (with \r and \n for CR and LF) as it
# is and prints the answer's status, its body in $scratch/body; with WAIT,
# leaves the connection open and waits at most WAIT seconds for the
# answer ("none" when none came).
raw() {
	perl -MIO::Socket::INET -e '
		my ($url, $req, $wait, $out) = @ARGV;
		my ($host, $port) = $url =~ m{^http://([^:/]+):(\d+)} or die "bad url $url";
		$req =~ s/\\r/\r/g;
		$req =~ s/\\n/\n/g;
		my $s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port) or die "connect: $!";
		$s->autoflush(1);
		print $s $req;
		my $got = "";
		eval {
			local $SIG{ALRM} = sub { die "timeout\n" };
			alarm($wait || 10);
			while (sysread($s, my $buf, 65536)) {
				$got .= $buf;
				last if $wait && $got =~ /\r\n\r\n/;
			}
			alarm(0);
		};
		my ($status, $body) = $got =~ m{^HTTP/1\.\d (\d+).*?\r\n\r\n(.*)}s;
		open my $f, ">", $out or die;
		print $f $body // "";
		print $status // "none";
	' "$server_url" "$1" "${2:-}" "$scratch/body"
}

# edit IN OUT PERL: OUT is report IN after PERL ran on it as $r.
edit() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = decode_json(<$f>);
		eval $ARGV[2]; die $@ if $@; open my $o, ">", $ARGV[1] or die; print $o encode_json($r)' "$@"
}

# says TEXT: whether the last answer's error says TEXT.
says() {
	body '$j->{error}' | grep -qF -- "$1"
}

# -- 1: /static/ with nothing after it --
mkdir -p "$scratch/web/static"
echo '<!doctype html>' >"$scratch/web/index.html"
for p in /static/ /static; do
	curl -s -o "$scratch/page" -w '%{http_code}' "$server_url$p" >"$scratch/status"
	check_eq "GET $p: a 404 that names the request and nothing else" "404|no such file: /static" \
		"$(cat "$scratch/status")|$(cat "$scratch/page")"
done
curl -s -o "$scratch/page" "$server_url/static/nothing%20here.js"
check_eq "GET /static/FILE: the 404 names the file asked for" "no such file: /static/nothing here.js" "$(cat "$scratch/page")"

# -- 2: every query parameter is valid UTF-8, or a 400 naming it --
make_report r1.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100
make_report r2.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 50,100
check_eq "two runs" "201 201" "$(upload "$up" app r1.json) $(upload "$up" app r2.json)"
for path in "$P/benchmarks?branch=%ff%fe" "$P/changes?branch=%ff" "$P/benchmarks/suite::b1/history?branch=%ff"; do
	check_eq "invalid UTF-8: $path: 400 naming branch" "400 yes" \
		"$(api GET "$path") $(says 'branch: the query parameter is not valid UTF-8' && echo yes)"
done
check_eq "invalid UTF-8 in metric: 400 naming it" "400 yes" \
	"$(api GET "$P/benchmarks/suite::b1/history?branch=main&metric=%c3%28") $(says 'metric:' && echo yes)"
check_eq "in a parameter no route reads: 400 too" "400 yes" \
	"$(api GET "$P/branches?x=%ed%a0%80") $(says 'x: the query parameter is not valid UTF-8' && echo yes)"
check_eq "a bad escape: 400 naming the parameter" "400 yes" \
	"$(api GET "$P/changes?branch=%zz") $(says 'branch: the query parameter has a bad percent-escape' && echo yes)"
check_eq "an encoded NUL: 400" 400 "$(api GET "$P/changes?branch=a%00b")"
check_eq "a name that is not UTF-8: 400" 400 "$(api GET "$P/changes?%ff=main")"
check_eq "valid UTF-8 still answers" "200 é" \
	"$(api GET "$P/benchmarks?branch=%c3%a9") $(body '$j->{branch}' | perl -MEncode -pe '$_ = Encode::encode("UTF-8", $_)')"

# -- issue 39: a query parameter given twice is refused, not first-wins --
check_eq "?limit=1&limit=5: 400 naming limit (it answered the newest result)" \
	"400 limit: the query parameter is given 2 times (give it once)" \
	"$(api GET "$P/benchmarks/suite::b1/history?branch=main&limit=1&limit=5") $(body '$j->{error}')"
check_eq "... the same value twice too, three times said so" "400 yes" \
	"$(api GET "$P/benchmarks/suite::b1/history?branch=main&points=8&points=8&points=8") $(says 'points: the query parameter is given 3 times' && echo yes)"
check_eq "... a name percent-encoded is the same name" "400 yes" \
	"$(api GET "$P/changes?branch=main&br%61nch=topic") $(says 'branch: the query parameter is given 2 times' && echo yes)"
check_eq "... with and without a value" "400 yes" \
	"$(api GET "$P/commits/a2a2a2/report?run&run=x") $(says 'run: the query parameter is given 2 times' && echo yes)"
check_eq "... in a parameter no route reads" 400 "$(api GET "$P/branches?x=1&x=2")"
check_eq "a percent-encoded name alone is read as the name" "200 main" \
	"$(api GET "$P/benchmarks?br%61nch=main") $(body '$j->{branch}')"
check_eq "empty segments are no parameters: ?branch=main&&limit=1& answers" "200 1" \
	"$(api GET "$P/benchmarks/suite::b1/history?branch=main&&limit=1&") $(body 'scalar @{$j->{points}}')"

# -- 10: numeric parameters: empty, not a number, out of range --
for q in dt= st= dt=abc st=1x st=-1 'st=%2B3' dt=2 dt=nan st=99999999999999999999; do
	name=${q%%=*}
	check_eq "?$q: 400 naming $name" "400 yes" "$(api GET "$P/changes?branch=main&$q") $(says "$name: expected" && echo yes)"
done
check_eq "?dt=0.5&st=2 still read" "200 0.5 2" "$(api GET "$P/changes?branch=main&dt=0.5&st=2") $(body '"$j->{dt} $j->{st}"')"
for q in pr= pr=0 pr=x pr=99999999999999999999 pr=-1; do
	check_eq "report ?$q: 400 naming pr" "400 yes" "$(api GET "$P/commits/a2a2a2/report?$q") $(says 'pr: expected' && echo yes)"
done
for id in 99999999999999999999 9223372036854775808 -1 +1 ' 1' 0x1; do
	enc=$(printf %s "$id" | sed 's/ /%20/; s/+/%2B/')
	check_eq "DELETE tokens/$id: 400, never clamped" 400 "$(api DELETE "$P/tokens/$enc" -H "$A")"
	check_eq "DELETE acknowledgements/$id: 400" 400 "$(api DELETE "$P/acknowledgements/$enc" -H "$A")"
done
check_eq "DELETE tokens/9223372036854775807: no such token, 404" 404 "$(api DELETE "$P/tokens/9223372036854775807" -H "$A")"

# -- 5: token and acknowledgement ids are never used again --
api POST "$P/tokens" -H "$A" >/dev/null
t3=$(body '$j->{token}')
check_eq "a third token: id 3" 3 "$(body '$j->{id}')"
check_eq "revoke token 3" 200 "$(api DELETE "$P/tokens/3" -H "$A")"
api POST "$P/tokens" -H "$A" >/dev/null
t4=$(body '$j->{token}')
check_eq "the next token: id 4, not 3 again" 4 "$(body '$j->{id}')"
check_eq "a retried DELETE tokens/3: 404, the new token untouched" "404 201" \
	"$(api DELETE "$P/tokens/3" -H "$A") $(upload "$t4" app r1.json | sed 's/200/201/')"
ack() {
	api POST "$P/commits/a2a2a2/acknowledgements" -H "Authorization: Bearer $up" \
		-d '{"benchmark": "suite::b1", "by": "Ada", "reason": "wanted"}'
}
check_eq "an acknowledgement: id 1" "201 1" "$(ack) $(body '$j->{id}')"
check_eq "withdrawn" 200 "$(api DELETE "$P/acknowledgements/1" -H "$A")"
check_eq "the next one: id 2, not 1 again" "201 2" "$(ack) $(body '$j->{id}')"
check_eq "a retried DELETE acknowledgements/1: 404" 404 "$(api DELETE "$P/acknowledgements/1" -H "$A")"
unset t3

# -- 6: the body's length beyond doubt --
req="POST $P/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $up\r\nContent-Type: application/json\r\nConnection: close\r\n"
check_eq "two different Content-Lengths: 400" 400 "$(raw "${req}Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}xyz")"
check_eq "two equal Content-Lengths: 400 too" 400 "$(raw "${req}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}")"
check_eq "Content-Length with Transfer-Encoding: chunked: 400" 400 \
	"$(raw "${req}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")"
check_eq "one Content-Length: read (the report's 400)" 400 "$(raw "${req}Content-Length: 2\r\n\r\n{}")"
check "... as a report, not as the length" says "missing field 'schema'"

# -- 10: loose values in uploads --
edit r1.json bad.json '$r->{context}{commit}{timestamp} = "2026-02-30T10:00:00Z"; $r->{run_id} = "feb30"'
check_eq "committer time 2026-02-30: 400 naming it" "400 yes" \
	"$(upload "$up" app bad.json) $(says 'context.commit.timestamp: expected an RFC 3339 time' && echo yes)"
for day in 2026-04-31 2100-02-29 2026-13-01 2026-00-10; do
	edit r1.json bad.json "\$r->{context}{commit}{timestamp} = '${day}T10:00:00Z'; \$r->{run_id} = 'd$day'"
	check_eq "committer time $day: 400" 400 "$(upload "$up" app bad.json)"
done
edit r1.json leap.json '$r->{context}{commit}{timestamp} = "2028-02-29T10:00:00Z"; $r->{run_id} = "leap"; $r->{context}{commit}{sha} = "b1b1b1"'
check_eq "2028-02-29 is a day: 201" 201 "$(upload "$up" app leap.json)"
edit r1.json long.json '$r->{benchmarks}[1]{id} = "x" x 513; $r->{run_id} = "long"'
check_eq "a benchmark id of 513 bytes: 400 naming the benchmark" "400 yes" \
	"$(upload "$up" app long.json) $(says 'benchmarks[1].id: longer than 512 bytes' && echo yes)"
edit r1.json long.json '$r->{benchmarks}[1]{id} = "x" x 512; $r->{run_id} = "long512"; $r->{context}{commit}{sha} = "b2b2b2"'
check_eq "one of 512 bytes: 201, and its history answers" "201 200" \
	"$(upload "$up" app long.json) $(api GET "$P/benchmarks/$(printf '%0512d' 0 | tr 0 x)/history?branch=main")"

# -- issue 39: model.clock is one bm-run writes --
runs_before=$(api GET /api/v1/projects >/dev/null; body 'my ($p) = grep { $_->{name} eq "app" } @{$j->{projects}}; $p->{runs}')
edit r1.json clock.json '$r->{model}{clock} = "sundial"; $r->{run_id} = "sundial"; $r->{context}{commit}{sha} = "c0c0c0"'
check_eq "model.clock \"sundial\": 400 naming the clocks" \
	'400 model.clock: expected "virtual" or "host" (the time the program read)' \
	"$(upload "$up" app clock.json) $(body '$j->{error}')"
edit r1.json clock.json '$r->{model}{clock} = "v" x 2000; $r->{run_id} = "clock2000"; $r->{context}{commit}{sha} = "c0c0c0"'
check_eq "model.clock of 2,000 bytes: 400 (it was stored)" 400 "$(upload "$up" app clock.json)"
check_eq "... nothing stored" "$runs_before 404" \
	"$(api GET /api/v1/projects >/dev/null; body 'my ($p) = grep { $_->{name} eq "app" } @{$j->{projects}}; $p->{runs}') $(api GET "$P/commits/c0c0c0/report")"
for clock in virtual host; do
	edit r1.json clock.json "\$r->{model}{clock} = '$clock'; \$r->{run_id} = 'clock-$clock'; \$r->{context}{commit}{sha} = 'c0c0c0'"
	check_eq "model.clock \"$clock\": 201" 201 "$(upload "$up" app clock.json)"
done

# -- b: profiles are checked like every other field --
full='$r->{benchmarks}[0]{profile} = {events => ["Ir", "Dr"], totals => [10, 2], cycles => 12,
	functions => [{name => "main", file => "m.c", object => "m", calls => 1, self => [5, 1], inclusive => [10, 2],
		       self_cycles => 6, inclusive_cycles => 12},
		      {name => "f", file => "m.c", object => "m", calls => 2, self => [5, 1], inclusive => [5, 1],
		       self_cycles => 6, inclusive_cycles => 6}],
	calls => [{caller => 0, callee => 1, count => 2, inclusive => [5, 1], cycles => 6}],
	lines => [{function => 1, file => "m.c", line => 3, self => [5, 1], cycles => 6}]};'
n=0
for case in '' \
	'$p->{calls}[0]{caller} = 999999|benchmarks[0].profile.calls[0].caller: expected the index of one of the 2 functions' \
	'$p->{calls}[0]{callee} = -5|benchmarks[0].profile.calls[0].callee: expected the index' \
	'delete $p->{calls}[0]{caller}|missing field '"'"'benchmarks[0].profile.calls[0].caller'"'" \
	'$p->{lines}[0]{function} = 2|benchmarks[0].profile.lines[0].function: expected the index' \
	'$p->{lines}[0]{function} = "0"|benchmarks[0].profile.lines[0].function' \
	'$p->{functions}[1]{self} = [1]|benchmarks[0].profile.functions[1].self: expected 2 costs' \
	'$p->{functions}[0]{inclusive} = [1, -2]|benchmarks[0].profile.functions[0].inclusive[1]: expected a non-negative integer' \
	'$p->{functions}[0]{name} = 7|benchmarks[0].profile.functions[0].name: expected a string' \
	'$p->{functions}[1] = [1]|benchmarks[0].profile.functions[1]: expected an object' \
	'$p->{calls} = {}|benchmarks[0].profile.calls: expected an array' \
	'$p->{totals} = [1]|benchmarks[0].profile.totals: expected 2 costs' \
	'$p->{events} = [1, 2]|benchmarks[0].profile.events[0]: expected a string' \
	'$p->{cycles} = 1.5|benchmarks[0].profile.cycles: expected a non-negative integer'; do
	n=$((n + 1))
	code=${case%%|*}
	edit r1.json prof.json "$full my \$p = \$r->{benchmarks}[0]{profile}; $code; \$r->{run_id} = 'prof$n'; \$r->{context}{commit}{sha} = 'c${n}c${n}c${n}'"
	if [ -z "$case" ]; then
		check_eq "a whole profile: 201, served as it came" "201 1 0 1" \
			"$(upload "$up" app prof.json) $(api GET "$P/runs/prof1/benchmarks/suite::b1/profile" >/dev/null;
				body '"$j->{profile}{calls}[0]{callee} $j->{profile}{calls}[0]{caller} $j->{profile}{lines}[0]{function}"')"
	else
		check_eq "profile: $code: 400 naming the field, nothing stored" "400 yes 404" \
			"$(upload "$up" app prof.json) $(says "${case#*|}" && echo yes) $(api GET "$P/runs/prof$n/benchmarks/suite::b1/profile")"
	fi
done

# -- c: a chunked body past the limit is answered at once --
stop_server
start_server "$db" --max-body 4096 || exit 1
chunk=$(printf '%04096d' 0)
check_eq "chunked, past --max-body, the rest never sent: 413 at once" 413 \
	"$(raw "POST $P/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $up\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n$chunk\r\n1000\r\n$chunk\r\n" 5)"
check_eq "chunked, within it: read whole (the report's 400)" 400 \
	"$(raw "POST $P/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $up\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n" 5)"
check "the server still serves" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' '$server_url/api/v1/projects')\" = 200 ]"
stop_server

# -- a: a file size limit fails writes, never the server --
if on_sqlite; then
	fdb="$scratch/fsize.db"
	ftok=$("$BM_SERVER_BIN" --db "$fdb" project create f 2>/dev/null)
	# (The shell's ulimit -f counts 512- or 1024-byte blocks: 1024 of
	# them are 512 KiB to 1 MiB, the database and its WAL together.)
	(
		ulimit -f 1024
		exec "$BM_SERVER_BIN" --db "$fdb" serve --listen 127.0.0.1:0 --merge-rows 0 >"$scratch/server.out" 2>>"$scratch/server.err"
	) &
	server_pid=$!
	server_url=
	for _ in $(seq 600); do
		server_url=$(sed -n 's|^bm-server: serving \(http://[^ ]*\)/ .*|\1|p' "$scratch/server.out" 2>/dev/null)
		[ -n "$server_url" ] && break
		sleep 0.05
	done
	ids=$(seq -f 'suite::a-rather-long-benchmark-name-to-fill-pages-%g' 1 100 | paste -sd, -)
	speeds=$(seq -s, 100 199)
	status=201
	i=0
	while [ "$status" = 201 ] && [ $i -lt 400 ]; do
		i=$((i + 1))
		make_report big.json main "$(printf 'f%05d' $i)" 2026-11-01T10:00:00Z "" "$speeds" ids="$ids"
		status=$(upload "$ftok" f big.json)
	done
	check_eq "uploads under ulimit -f until one fails: a 5xx, not a dead server" "5xx alive" \
		"$(echo "$status" | sed 's/^5../5xx/') $(kill -0 "$server_pid" 2>/dev/null && echo alive)"
	echo "# the upload that failed: $i ($(body '$j->{error}'))"
	check_eq "reads still answer" 200 "$(api GET /api/v1/projects/f/branches)"
	check_eq "... with every run acknowledged before" $((i - 1)) "$(body '$j->{branches}[0]{runs}')"
	stop_server
	check "the server stops cleanly" sh -c "! grep -q 'File size limit' '$scratch/server.err'"
fi

# -- 5 (SQLite): a database of schema version 4 is migrated, rows and ids kept --
if on_sqlite; then
	stop_server
	# Version 4 had no AUTOINCREMENT (nor version 6's merge_base): made here
	# from this test's database.
	cp "$db" "$scratch/v4.db"
	sqlite3 "$scratch/v4.db" "BEGIN;
		CREATE TABLE t (id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id),
		  hash BLOB NOT NULL UNIQUE, admin INTEGER NOT NULL, created_at INTEGER NOT NULL);
		INSERT INTO t SELECT * FROM tokens; DROP TABLE tokens; ALTER TABLE t RENAME TO tokens;
		CREATE TABLE a (id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id), benchmark TEXT NOT NULL,
		  sha TEXT NOT NULL, pr INTEGER NOT NULL, impact REAL NOT NULL, author TEXT NOT NULL,
		  reason TEXT NOT NULL, created_at INTEGER NOT NULL);
		INSERT INTO a SELECT * FROM acknowledgements; DROP TABLE acknowledgements; ALTER TABLE a RENAME TO acknowledgements;
		CREATE INDEX acknowledgements_by_scope ON acknowledgements (project, pr, sha);
		ALTER TABLE runs DROP COLUMN merge_base;
		DELETE FROM sqlite_sequence; PRAGMA user_version = 4; COMMIT;"
	check_eq "the version 4 copy" "4 0" "$(sqlite3 "$scratch/v4.db" 'PRAGMA user_version') $(sqlite3 "$scratch/v4.db" \
		"SELECT count(*) FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'")"
	start_server "$scratch/v4.db" || exit 1
	check_eq "opened: migrated to version 6, both tables with AUTOINCREMENT" "6 2" \
		"$(sqlite3 "$scratch/v4.db" 'PRAGMA user_version') $(sqlite3 "$scratch/v4.db" \
		"SELECT count(*) FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'")"
	check_eq "its tokens kept, with their ids" "1 2 4" \
		"$(api GET "$P/tokens" -H "$A" >/dev/null; body 'join " ", map { $_->{id} } @{$j->{tokens}}')"
	check_eq "... and they still work" 200 "$(upload "$t4" app r1.json)"
	check_eq "its acknowledgements kept, with their ids" "2" \
		"$(api GET "$P/acknowledgements" >/dev/null; body 'join " ", map { $_->{id} } @{$j->{acknowledgements}}')"
	check_eq "its runs kept" 200 "$(api GET "$P/commits/a2a2a2/report")"
	check_eq "revoke the newest token, 4" 200 "$(api DELETE "$P/tokens/4" -H "$A")"
	check_eq "the next token: 5, not 4 again" 5 "$(api POST "$P/tokens" -H "$A" >/dev/null; body '$j->{id}')"
	check_eq "withdraw the newest acknowledgement, 2; the next is 3" "200 201 3" \
		"$(api DELETE "$P/acknowledgements/2" -H "$A") $(ack) $(body '$j->{id}')"
	stop_server
	check_eq "a database of a newer version is still refused" 2 \
		"$(sqlite3 "$scratch/v4.db" 'PRAGMA user_version = 7'; "$BM_SERVER_BIN" --db "$scratch/v4.db" token create app >/dev/null 2>&1; echo $?)"
fi

done_testing
