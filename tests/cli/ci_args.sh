#!/bin/sh
# SPDX-License-Identifier: MIT
# No word of what the workflow says, and no file name of the checkout
# (the pull request's), is split, globbed or expanded by a shell on its
# way to bm-run (issue 20).  In a working directory full of file names
# made of *, ?, [, blanks and $(...): the exact arguments bm-run gets from
# BM_RUN_ARGS (and the action's run-args input), recorded by a stand-in
# bm-run that prints them one a line; the manifest it gets from
# BM_PROGRAMS; and, with the real bm-run, a pull request that made s::slow
# ten times slower and added an empty file named s::fast: with --filter
# 's::*' the slow benchmark is still measured.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/ci_lib.sh"

# The stand-in: bm-run's arguments, one a line, to $scratch/argv, the
# manifest it was given to $scratch/manifest, and an empty report.
mkdir -p "$scratch/fake" "$scratch/fake-prefix/bin"
cat >"$scratch/fake/bm-run" <<EOF
#!/bin/sh
: >"$scratch/argv"
for a; do printf '%s\n' "\$a" >>"$scratch/argv"; done
while [ \$# -gt 1 ]; do
	case \$1 in --manifest) cp "\$2" "$scratch/manifest" ;; -o) echo '{}' >"\$2" ;; esac
	shift
done
exit 0
EOF
chmod +x "$scratch/fake/bm-run"
ln -s "$scratch/fake/bm-run" "$scratch/fake-prefix/bin/bm-run"

# The checkout: every name a shell would make something else of.
mkdir "$scratch/ws"
cd "$scratch/ws" || exit 1
for name in 's::fast' '*' '?' '[ab]' a b 'x y' '$(touch pwned)' '`touch pwned2`' '-q' '~' '$HOME'; do
	: >"$name"
done
# argv BM_RUN_ARGS: the arguments bm-ci measure gives bm-run, joined by '|'.
argv() {
	rm -f "$scratch/argv"
	env BM_PREFIX="$scratch/fake-prefix" BM_PROGRAMS=./bench BM_RUN_ARGS="$1" sh "$BM_CI" measure 2>"$scratch/err" >/dev/null
	sed 's|^--manifest$|[|; s|^/.*/manifest$|manifest|' "$scratch/argv" | tr '\n' '|' | sed 's/|-o|bm-report.json|$/]/'
}
check_eq "one line: split at blanks, 's::*' as it is (a file s::fast is there)" "--filter|s::*|[|manifest]" \
	"$(argv '--filter s::*')"
check_eq "... tabs and runs of blanks split too" "--jobs|2|--filter|s::*|[|manifest]" "$(argv "	--jobs	2   --filter  s::*  ")"
check_eq "... no word globbed, expanded or run" "*|?|[ab]|\$(touch|pwned)|\`touch|pwned2\`|~|\$HOME|'x|y'|[|manifest]" \
	"$(argv "* ? [ab] \$(touch pwned) \`touch pwned2\` ~ \$HOME 'x y'")"
check "... nothing ran" test ! -e pwned -a ! -e pwned2
check_eq "one argument a line, each as it is, blanks and all (blank lines skipped)" \
	"--filter|s::* with blanks|  indented|\$(touch pwned)|*|[|manifest]" \
	"$(argv "
--filter
s::* with blanks
  indented
\$(touch pwned)
*

")"
check "... nothing ran" test ! -e pwned
check_eq "one line and an empty one: still one line (split)" "-q|--jobs|2|[|manifest]" "$(argv '-q --jobs 2
')"
check_eq "none: bm-run gets only the manifest and the report" "[|manifest]" "$(argv '')"

# BM_PROGRAMS goes to bm-run as a manifest file, as it is: bm-run's
# manifest syntax splits and unquotes, never globs nor expands.
programs='./bench --filter s::*
./other "$(touch pwned)" * ?'
env BM_PREFIX="$scratch/fake-prefix" BM_PROGRAMS="$programs" sh "$BM_CI" measure 2>/dev/null >/dev/null
check_eq "BM_PROGRAMS: the manifest bm-run gets is what the workflow wrote" "$programs" "$(cat "$scratch/manifest")"
check "... nothing ran" test ! -e pwned

# The action: run-args reach bm-run the same way, through the measure job.
git_repo "$scratch/repo"
c1=$(commit c1 2026-11-01T10:00:00Z)
cd "$scratch/ws" || exit 1
rm -f "$scratch/argv"
ci_bm_run="$scratch/fake/bm-run"
check_eq "the action's run-args, one a line: the measure job runs" 0 \
	"$(gh_job "$scratch/job" '{"mode": "measure", "programs": "./bench", "run-args": "--filter\ns::*\n$(touch pwned)\n"}' \
		GITHUB_WORKSPACE="$scratch/ws" GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA="$c1")"
check_eq "... bm-run gets them as they are" "--filter|s::*|\$(touch pwned)|--manifest" \
	"$(head -n 4 "$scratch/argv" | tr '\n' '|' | sed 's/|$//')"
check "... nothing ran" test ! -e pwned
unset ci_bm_run

# The real bm-run: a pull request made s::slow ten times slower and added
# an empty file named s::fast, hoping that --filter 's::*' becomes
# --filter s::fast.
cat >"$scratch/s.c" <<'EOF'
#include <bm.h>
static void work(long n)
{
	long acc = 0;
	for (long i = 0; i < n; i++)
		acc += i * 3 ^ (acc >> 2);
	bm_black_box(acc);
}
static void fast(struct bm_state *s) { (void)s; work(1000); }
static void slow(struct bm_state *s) { (void)s; work(10000); }
BM_BENCHMARK(s, fast, .run = fast);
BM_BENCHMARK(s, slow, .run = slow);
BM_MAIN()
EOF
${CC:-cc} -O1 -g -I"$top_srcdir/instrument/libbm" -o "$scratch/ws/bench" "$scratch/s.c" \
	"$top_builddir/instrument/libbm/.libs/libbm.a" -lm || exit 1
rm -rf "$scratch/artifacts"
check_eq "the real bm-run, --filter 's::*' by the action's run-args with a file s::fast there: the measure job runs" 0 \
	"$(gh_job "$scratch/job2" '{"mode": "measure", "programs": "./bench", "run-args": "--filter s::*"}' \
		GITHUB_WORKSPACE="$scratch/ws" GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA="$c1")"
check_eq "... and measures both benchmarks, the slow one too" "s::fast ok|s::slow ok" \
	"$(json_get "$scratch/ws/bm-report.json" 'join "|", map { "$_->{id} $_->{status}" } @{$j->{benchmarks}}')"

done_testing
