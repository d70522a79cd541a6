#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-server serving the dashboard: the pages' routes give index.html, files
# under /static/ with their types, every page with the Content-Security-
# Policy, nothing outside the web directory, and a clear word when the
# files are missing.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

web="$top_builddir/dashboard/webroot"
[ -f "$web/index.html" ] || { echo "1..0 # SKIP the dashboard was not built (configure --disable-web)"; exit 0; }
start_server "$scratch/bm.db" --web "$web" || exit 1

# get PATH: "status content-type" of a GET, the body in $scratch/body.
get() {
	curl -s --path-as-is -o "$scratch/body" -w '%{http_code} %{content_type}' "$server_url$1"
}
check_eq "/ is the dashboard's page" "200 text/html; charset=utf-8" "$(get /)"
check "... the page itself" cmp -s "$web/index.html" "$scratch/body"
check_eq "a page's own address (as bm-check links it) is the same page" "200 text/html; charset=utf-8" \
	"$(get '/projects/demo/commits/e1e1e1?pr=7')"
check "... the same file" cmp -s "$web/index.html" "$scratch/body"
check_eq "a style sheet" "200 text/css; charset=utf-8" "$(get /static/app.css)"
check_eq "a vendor library, installed from npm" "200 text/javascript; charset=utf-8" "$(get /static/vendor/uPlot.iife.min.js)"
check "... byte for byte" cmp -s "$web/vendor/uPlot.iife.min.js" "$scratch/body"
headers=$(curl -s -D - -o /dev/null "$server_url/projects/x")
check "every page has the Content-Security-Policy: no inline scripts, nothing from elsewhere" \
	sh -c "printf '%s' \"\$1\" | grep -qi \"^content-security-policy: default-src 'self'; script-src 'self'; style-src 'self';\"" - "$headers"
check "... and nosniff" sh -c "printf '%s' \"\$1\" | grep -qi '^x-content-type-options: nosniff'" - "$headers"
for p in /static/../../etc/passwd /static/%2e%2e/%2e%2e/etc/passwd /static/a%2F..%2F..%2Fetc%2Fpasswd /static/.stamp /static/vendor; do
	check_eq "no way out of the web directory: $p" "404" "$(get "$p" | cut -d' ' -f1)"
done
check_eq "a page cannot be posted to" "405" "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$server_url/projects/x")"
check_eq "the API is still the API" "200 application/json; charset=utf-8" "$(get /api/v1/projects)"
check_eq "other paths are the API's 404" "404 application/json; charset=utf-8" "$(get /favicon.ico)"
stop_server

start_server "$scratch/bm.db" --web "$scratch/none" || exit 1
check_eq "without the files: a 404 that says what to do" \
	"404|the dashboard's files are not in '$scratch/none': install bm (make install) or start the server with --web DIR" \
	"$(get / | cut -d' ' -f1)|$(cat "$scratch/body")"
check "... and a warning when the server starts" grep -q "^bm-server: warning: no dashboard in '$scratch/none'" "$scratch/server.err"

done_testing
