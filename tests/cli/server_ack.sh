#!/bin/sh
# SPDX-License-Identifier: MIT
# Acknowledged regressions (SPEC 4.1) against the real bm-server: who may
# acknowledge what, the verdict "acknowledged" in the commit report, the
# summary and bm-check (exit 0, the note shown), a pull request's
# acknowledgement holding for its next push until the regression grows,
# withdrawal, and the bad-input classes.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_STEP_SUMMARY BM_PROJECT GITHUB_TOKEN GITHUB_REPOSITORY GITHUB_API_URL
cd "$scratch" || exit 1

bmc() {
	env -u BM_SERVER "$BM_CHECK" --server "$server_url" --project demo "$@" >out 2>err
	echo $?
}

db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
admin=$("$BM_SERVER_BIN" --db "$db" token create demo --admin 2>/dev/null)
"$BM_SERVER_BIN" --db "$db" project create other >/dev/null 2>&1
other=$("$BM_SERVER_BIN" --db "$db" token create other 2>/dev/null)
start_server "$db" || exit 1

# main: a0 -> a1 where b1 is 30% slower and b3 fails; a pull request #7
# whose first push makes b2 20% slower, its second push 20% again, its
# third 40%.
make_report a0.json main a0a0a0 2026-11-01T10:00:00Z "" 100,100,100
make_report a1.json main a1a1a1 2026-11-02T10:00:00Z a0a0a0 70,105,-
make_report a2.json main a2a2a2 2026-11-03T10:00:00Z a1a1a1 70,105,100
make_report p1.json topic 7d7d01 2026-11-04T10:00:00Z a2a2a2 70,84,100 pr=7 base=main
make_report p2.json topic 7d7d02 2026-11-05T10:00:00Z a2a2a2 70,84,100 pr=7 base=main
make_report p3.json topic 7d7d03 2026-11-06T10:00:00Z a2a2a2 70,63,100 pr=7 base=main
for r in a0 a1 a2 p1 p2 p3; do
	upload "$tok" demo "$r.json" >/dev/null
done

ack() { # ack TOKEN SHA QUERY BODY
	api POST "/api/v1/projects/demo/commits/$2/acknowledgements$3" -H "Authorization: Bearer $1" --data-binary "$4"
}
A='{"benchmark": "suite::b1", "by": "Ada", "reason": "the new checksum is worth 30%"}'

check_eq "a1 before anyone acknowledges anything: failed (b3), b1 30% slower" "failed|-0.3" \
	"$(api GET /api/v1/projects/demo/commits/a1a1a1/report >/dev/null; body '$j->{verdict}')|$(body '0 + sprintf("%.6f", $j->{commit_impact})')"
check_eq "no token: 401, nothing stored" "401" "$(ack "" a1a1a1 "" "$A")"
check_eq "another project's token: 401" "401" "$(ack "$other" a1a1a1 "" "$A")"
check_eq "a crash cannot be acknowledged: 409 naming why" "409|'suite::b3' has no impact to acknowledge (it failed: a crash cannot be acknowledged, only fixed)" \
	"$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::b3", "by": "Ada", "reason": "x"}')|$(body '$j->{error}')"
check_eq "a faster benchmark: 409" "409|'suite::b2' is not slower than its baseline (impact +5.00%): nothing to acknowledge" \
	"$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::b2", "by": "Ada", "reason": "x"}')|$(body '$j->{error}')"
check_eq "without a baseline: 409" "409|'suite::b1' has no impact to acknowledge (there is no baseline)" \
	"$(ack "$tok" a0a0a0 "" "$A")|$(body '$j->{error}')"
check_eq "an unknown benchmark: 404" "404|commit 'a1a1a1' has no benchmark 'suite::nope'" \
	"$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::nope", "by": "Ada", "reason": "x"}')|$(body '$j->{error}')"
check_eq "an unknown commit: 404" "404" "$(ack "$tok" ffffff "" "$A")"
check_eq "no 'by': 400 naming the field" "400|by: expected a non-empty string of at most 200 bytes" \
	"$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::b1", "reason": "x"}')|$(body '$j->{error}')"
check_eq "an empty reason: 400" "400|reason: expected a non-empty string of at most 4000 bytes" \
	"$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::b1", "by": "Ada", "reason": ""}')|$(body '$j->{error}')"
check_eq "an unknown field: 400" "400|unknown field 'who' (benchmark, by, reason)" \
	"$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::b1", "by": "Ada", "reason": "x", "who": 1}')|$(body '$j->{error}')"
check_eq "not JSON: 400" "400" "$(ack "$tok" a1a1a1 "" '{"benchmark": ')"
check_eq "a NUL inside 'by': 400" "400" "$(ack "$tok" a1a1a1 "" '{"benchmark": "suite::b1", "by": "A\u0000da", "reason": "x"}')"
check_eq "nothing was stored by any of these" "0" \
	"$(api GET /api/v1/projects/demo/acknowledgements >/dev/null; body 'scalar @{$j->{acknowledgements}}')"

check_eq "an upload token acknowledges b1 in a1: 201 with what was stored" "201|suite::b1|a1a1a1|null|-0.3|Ada|the new checksum is worth 30%" \
	"$(ack "$tok" a1a1a1 "" "$A")|$(body '$j->{impact} = 0 + sprintf("%.6f", $j->{impact}); join "|", map { $_ // "null" } @$j{qw(benchmark commit pr impact by reason)}')"
ack_id=$(body '$j->{id}')
at=$(body '$j->{at}')
check "its time is RFC 3339 ($at)" sh -c "echo '$at' | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z\$'"
api GET /api/v1/projects/demo/commits/a1a1a1/report >/dev/null
check_eq "a1's verdict: failed still (b3 crashed; a crash is never acknowledged)" "failed" "$(body '$j->{verdict}')"
check_eq "b1's row carries the acknowledgement, covering" "Ada|the new checksum is worth 30%|1" \
	"$(body 'my ($r) = grep { $_->{id} eq "suite::b1" } @{$j->{benchmarks}}; join "|", $r->{acknowledgement}{by}, $r->{acknowledgement}{reason}, $r->{acknowledgement}{covers} ? 1 : 0')"
check_eq "the commit impact is still what was measured" "-0.3" "$(body '0 + sprintf("%.6f", $j->{commit_impact})')"

# a2: b1 is unchanged against a1, so nothing to acknowledge; acknowledge
# on p1 instead (pull request scope).
check_eq "a1's acknowledgement is a1's only: a2 compares with a1 and is neutral" "neutral" \
	"$(api GET /api/v1/projects/demo/commits/a2a2a2/report >/dev/null; body '$j->{verdict}')"

P='{"benchmark": "suite::b2", "by": "Grace", "reason": "bounds checks | on <purpose>"}'
check_eq "p1 (#7) is a regression" "1|verdict: regression" "$(bmc --commit 7d7d01 --pr 7)|$(sed -n 4p out)"
check_eq "acknowledged in pull request #7" "201|7|-0.2" "$(ack "$tok" 7d7d01 "?pr=7" "$P")|$(body '$j->{pr}')|$(body '$j->{impact}')"
check_eq "bm-check on p1 now passes and says why" \
	"0|verdict: acknowledged (every regression beyond the threshold is acknowledged: the check passes)|suite::b2: acknowledged by Grace: bounds checks | on <purpose>" \
	"$(bmc --commit 7d7d01 --pr 7)|$(sed -n 4p out)|$(grep '^suite::b2:' out)"
check_eq "the next push of #7, as slow: still acknowledged" "0|verdict: acknowledged" \
	"$(bmc --commit 7d7d02 --pr 7 --markdown md)|$(sed -n 4p out | cut -d' ' -f1-2)"
check_eq "the Markdown says it too, the note in code (it reads as written)" \
	"### bm: acknowledged (-20.00%)|- \`suite::b2\`: acknowledged by \`Grace\`: \`bounds checks | on <purpose>\`" \
	"$(sed -n 1p md)|$(grep '^- .suite' md)"
check_eq "the third push is slower still (-40%): the acknowledgement no longer covers it, exit 1" \
	"1|verdict: regression|suite::b2: acknowledged by Grace at -20.00%, now -40.00%: no longer covered (bounds checks | on <purpose>)" \
	"$(bmc --commit 7d7d03 --pr 7)|$(sed -n 4p out)|$(grep '^suite::b2:' out)"
check_eq "the report says so: covers false" "regression|0" \
	"$(api GET '/api/v1/projects/demo/commits/7d7d03/report?pr=7' >/dev/null; body '$j->{verdict}')|$(body 'my ($r) = grep { $_->{id} eq "suite::b2" } @{$j->{benchmarks}}; $r->{acknowledgement}{covers} ? 1 : 0')"
check_eq "with --threshold 0.5 bm-check recomputes: neutral" "0|verdict: neutral" \
	"$(bmc --commit 7d7d03 --pr 7 --threshold 0.5)|$(sed -n 4p out)"
check_eq "a newer acknowledgement at -40% covers it" "201|0|verdict: acknowledged" \
	"$(ack "$admin" 7d7d03 "?pr=7" '{"benchmark": "suite::b2", "by": "Grace", "reason": "worth it"}')|$(bmc --commit 7d7d03 --pr 7)|$(sed -n 4p out | cut -d' ' -f1-2)"
check_eq "the list: newest first" "worth it|bounds checks | on <purpose>|the new checksum is worth 30%" \
	"$(api GET /api/v1/projects/demo/acknowledgements >/dev/null; body 'join "|", map { $_->{reason} } @{$j->{acknowledgements}}')"
newest=$(body '$j->{acknowledgements}[0]{id}')
check_eq "withdrawing needs an admin token: 403" "403" \
	"$(api DELETE "/api/v1/projects/demo/acknowledgements/$newest" -H "Authorization: Bearer $tok")"
check_eq "an admin withdraws it" "200|$newest" \
	"$(api DELETE "/api/v1/projects/demo/acknowledgements/$newest" -H "Authorization: Bearer $admin")|$(body '$j->{withdrawn}')"
check_eq "then p3 is a regression again" "1" "$(bmc --commit 7d7d03 --pr 7)"
check_eq "withdrawing it again: 404" "404" \
	"$(api DELETE "/api/v1/projects/demo/acknowledgements/$newest" -H "Authorization: Bearer $admin")"
check_eq "a bad id: 400" "400" "$(api DELETE /api/v1/projects/demo/acknowledgements/x -H "Authorization: Bearer $admin")"

# The summary reads the same report: main's head a2 is neutral; a push
# acknowledged on main shows "acknowledged".
make_report a3.json main a3a3a3 2026-11-07T10:00:00Z a2a2a2 35,105,100
upload "$tok" demo a3.json >/dev/null
ack "$tok" a3a3a3 "" '{"benchmark": "suite::b1", "by": "Ada", "reason": "halved on purpose"}' >/dev/null
check_eq "the summary's main row: acknowledged" "acknowledged" \
	"$(api GET /api/v1/projects/demo/summary >/dev/null; body 'my ($r) = grep { $_->{branch} eq "main" } @{$j->{rows}}; $r->{verdict}')"

# A commit measured on two platforms has a report for each: the benchmark
# is looked up in the one ?run= picks (without: the newest upload's).
upload_matrix "$tok" demo ack c0c0c0 c1c1c1
check_eq "two platforms: the newest upload's report has nothing slower: 409" 409 "$(ack "$tok" c1c1c1 "" "$A")"
check_eq "two platforms: ?run= the slower platform's: 201" "201 -0.5" \
	"$(ack "$tok" c1c1c1 "?run=ack-x86-1" "$A") $(body '$j->{impact}')"
check_eq "... and that report is acknowledged" "acknowledged" \
	"$(api GET '/api/v1/projects/demo/commits/c1c1c1/report?run=ack-x86-1' >/dev/null; body '$j->{verdict}')"
check_eq "?run= of another commit: 404" 404 "$(ack "$tok" c1c1c1 "?run=ack-x86-0" "$A")"

# Acknowledgements are data: they survive a restart.
stop_server
start_server "$db" || exit 1
check_eq "after a restart a3 is still acknowledged" "acknowledged|4" \
	"$(api GET /api/v1/projects/demo/commits/a3a3a3/report >/dev/null; body '$j->{verdict}')|$(api GET /api/v1/projects/demo/acknowledgements >/dev/null; body 'scalar @{$j->{acknowledgements}}')"
done_testing
