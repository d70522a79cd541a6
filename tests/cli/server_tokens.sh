#!/bin/sh
# SPDX-License-Identifier: MIT
# A project's tokens over the API (the settings page's): listed without
# the tokens themselves, made (shown once), revoked; admin tokens only.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

db=$(test_db bm)
up=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
admin=$("$BM_SERVER_BIN" --db "$db" token create app --admin 2>/dev/null)
start_server "$db" || exit 1
A="Authorization: Bearer $admin"

check_eq "the list: ids, kinds and ages, never a token" "1:upload 2:admin|no" \
	"$(api GET /api/v1/projects/app/tokens -H "$A" >/dev/null; body 'join " ", map { "$_->{id}:" . ($_->{admin} ? "admin" : "upload") } @{$j->{tokens}}')|$(grep -c "$up" "$scratch/body" | sed 's/^0$/no/')"
check "... with their creation time" sh -c "grep -q '\"created_at\":\"20[0-9-]*T[0-9:]*Z\"' '$scratch/body'"
check_eq "an upload token may not list them: 403" 403 "$(api GET /api/v1/projects/app/tokens -H "Authorization: Bearer $up")"
check_eq "no token: 401" 401 "$(api GET /api/v1/projects/app/tokens)"
check_eq "a new upload token: 201, shown once, as long as the CLI's" "201 3 upload ${#up}" \
	"$(api POST /api/v1/projects/app/tokens -H "$A" -d '{"admin": false}') $(body '"$j->{id} " . ($j->{admin} ? "admin" : "upload") . " " . length $j->{token}')"
new=$(body '$j->{token}')
make_report r.json main a1a1a1 2026-11-01T10:00:00Z "" 100
check_eq "... that uploads" 201 "$(upload "$new" app r.json)"
check_eq "no body: an upload token, 201" "201 upload" \
	"$(api POST /api/v1/projects/app/tokens -H "$A") $(body '$j->{admin} ? "admin" : "upload"')"
check_eq "a body that is not {\"admin\": bool}: 400" 400 "$(api POST /api/v1/projects/app/tokens -H "$A" -d '{"admin": "yes"}')"
check_eq "revoked: 200" "200 3" "$(api DELETE /api/v1/projects/app/tokens/3 -H "$A") $(body '$j->{revoked}')"
check_eq "... and it no longer uploads: 401" 401 "$(upload "$new" app r.json)"
check_eq "revoking it again: 404" 404 "$(api DELETE /api/v1/projects/app/tokens/3 -H "$A")"
check_eq "an id that is not one: 400" 400 "$(api DELETE /api/v1/projects/app/tokens/x -H "$A")"
check_eq "an upload token may not revoke: 403" 403 "$(api DELETE /api/v1/projects/app/tokens/1 -H "Authorization: Bearer $up")"

done_testing
