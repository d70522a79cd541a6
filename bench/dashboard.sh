#!/bin/sh
# SPDX-License-Identifier: MIT
# The web dashboard's speed in a real browser (Debian's chromium through
# playwright-core), against a real bm-server holding 10,000 runs and a
# commit of 1,000 benchmarks: how long after navigation each page is drawn
# with its data, and how long the history chart of 10,000 points takes
# from a cursor move to the next frame.  Bars (issue 6): every page well
# under a second (asserted at 1,000 ms), cursor moves within a frame or
# two (median under 34 ms).  Each page is opened after the scripts are
# cached, as for a person clicking through.
#
# usage: bench/dashboard.sh [BUILD_DIR]   (default: build)
# Needs: a build with the dashboard (configure without --disable-web),
# node and chromium (apt-get install nodejs chromium).  About 1 minute.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
[ -f "$build/dashboard/webroot/index.html" ] || { echo "dashboard.sh: build bm with the dashboard first (make)" >&2; exit 2; }
out=$(mktemp "${TMPDIR:-/tmp}/bm-bench-dashboard.XXXXXX")
trap 'rm -f "$out"' EXIT
status=0
env top_srcdir="$top" top_builddir="$build" BM_WEB_TESTS=./perf.bench.mjs BM_BENCH_OUT="$out" \
	sh "$top/tests/web/run.sh" >"$out.log" 2>&1 || status=$?
grep -E '^(ok|not ok)' "$out.log" || true
echo
perl -ne 'print sprintf("%-62s %9.1f ms\n", $1, $2) if /"name":"([^"]*)","ms":([0-9.]+)/' "$out"
[ "$status" -eq 0 ] || { echo "dashboard.sh: a bar was missed or the run failed; the log: $out.log" >&2; exit 1; }
rm -f "$out.log"
