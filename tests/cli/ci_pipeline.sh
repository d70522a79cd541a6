#!/bin/sh
# SPDX-License-Identifier: MIT
# What a CI job does, end to end with the real tools: a repository whose
# code gets slower and then fast again; at each commit the program is
# built, run under bm-run (real Valgrind), its report sent with bm-upload
# and judged by bm-check, online without flags (the commit from git, the
# baseline its parent) and offline from the two reports.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_UPLOAD="$top_builddir/uploader/bm-upload"
BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_ACTIONS GITLAB_CI GITHUB_STEP_SUMMARY
db=$(test_db bm)
tok=$("$BM_SERVER_BIN" --db "$db" project create app 2>/dev/null)
start_server "$db" || exit 1

git_repo "$scratch/repo"
# at N TIME: the program doing N steps of work, committed at TIME, built,
# measured and uploaded; prints bm-run's and bm-upload's exit codes.
at() {
	cat >prog.c <<C
#include <stdio.h>
static __attribute__((noinline)) unsigned work(int n)
{
	unsigned h = 5381;
	for (int i = 0; i < n; i++)
		h = h * 33 + (unsigned)i;
	return h;
}
int main(void)
{
	printf("%u\n", work($1));
	return 0;
}
C
	commit "$1" "$2" >/dev/null
	${CC:-cc} -O1 -g -o prog prog.c || return 1
	"$BM_RUN" -q --bench work -o "$scratch/r$1.json" -- ./prog >/dev/null
	run=$?
	env BM_SERVER="$server_url" BM_PROJECT=app BM_TOKEN="$tok" "$BM_UPLOAD" -q "$scratch/r$1.json" >"$scratch/url" 2>/dev/null
	echo "$run $?"
}
# bmc ARGS...: bm-check in the repository, the server from the
# environment as in CI; stdout to $scratch/out, prints the exit code.
bmc() {
	env BM_SERVER="$server_url" BM_PROJECT=app "$BM_CHECK" "$@" >"$scratch/out" 2>"$scratch/err"
	echo $?
}

check_eq "commit 1: measured and uploaded" "0 0" "$(at 1000 2026-11-01T10:00:00Z)"
check_eq "... bm-upload prints the commit's page" "$server_url/projects/app/commits/$(git rev-parse HEAD)" "$(cat "$scratch/url")"
cycles1=$(json_get "$scratch/r1000.json" '$j->{benchmarks}[0]{cycles}')
check_eq "commit 1: no baseline yet, exit 0, said plainly" "0|verdict: no-baseline" \
	"$(bmc)|$(grep '^verdict' "$scratch/out")"
check_eq "commit 2 (three times the work): measured and uploaded" "0 0" "$(at 3000 2026-11-02T10:00:00Z)"
check_eq "commit 2: a regression against commit 1, exit 1" "1|verdict: regression" \
	"$(bmc --markdown "$scratch/summary.md")|$(grep '^verdict' "$scratch/out")"
check "... the baseline is the parent, found by the server" \
	grep -q "^baseline: $(git rev-parse HEAD~1) (push to 'main': the parent commit" "$scratch/out"
check "... the slower benchmark says it runs more instructions" \
	grep -q '^prog::work .* -[0-9.]*%  more instructions (Ir +[0-9.]*%)$' "$scratch/out"
check "... and the Markdown summary says regression" grep -q '^### bm: regression (-[0-9.]*%)$' "$scratch/summary.md"
sed -n '/^benchmark/,$p' "$scratch/out" >"$scratch/online"
check_eq "offline, from the two reports: the same verdict" "1" \
	"$("$BM_CHECK" --base "$scratch/r1000.json" --head "$scratch/r3000.json" >"$scratch/offline.out" 2>/dev/null; echo $?)"
sed -n '/^benchmark/,$p' "$scratch/offline.out" >"$scratch/offline"
check_output "... and the same table" "$scratch/offline" "$scratch/online"
check_eq "--metric instructions agrees" "1" "$(bmc --metric instructions)"
printf '{"benchmarks": {"prog::*": {"threshold": 1}}}\n' >"$scratch/bm.json"
check_eq "a bm.json that lets prog::* grow passes it" "0" "$(bmc --config "$scratch/bm.json")"
check_eq "commit 3 (back to the original work): measured and uploaded" "0 0" "$(at 1000 2026-11-03T10:00:00Z)"
check_eq "commit 3: an improvement, exit 0" "0|verdict: improvement" "$(bmc)|$(grep '^verdict' "$scratch/out")"
check_eq "commit 3 counts exactly the cycles commit 1 counted" "$cycles1" \
	"$(json_get "$scratch/r1000.json" '$j->{benchmarks}[0]{cycles}')"

done_testing
