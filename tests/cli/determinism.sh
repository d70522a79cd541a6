#!/bin/sh
# SPDX-License-Identifier: MIT
# The product's promise: the same benchmark gives the same events and
# cycles every time, and whatever the caller's environment, working
# directory and path to the program.  Checked in all three modes: a libbm
# harness (stack pinned), symbol mode and whole-process mode (neither).
# System-call times are real clock readings and are left out; everything
# else must be equal to the last count.
. "$(dirname "$0")/lib.sh"

cases="$PROGRAMS/cases"
whole="$PROGRAMS/whole"

# measure LABEL [ENV...] -- CWD PROGRAM_PATH: runs the three modes as the
# caller described and writes "$scratch/LABEL.numbers".
measure() {
	label=$1
	shift
	envs=
	while [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	cwd=$2
	cases_path=$3
	whole_path=$4
	mkdir -p "$cwd"
	# shellcheck disable=SC2086
	(cd "$cwd" && env $envs "$BM_RUN" -q -o "$scratch/$label.h.json" -- "$cases_path" \
		--filter 'cases::compute*' --filter 'cases::memory*' --filter 'cases::sleep*' &&
		env $envs "$BM_RUN" -q -o "$scratch/$label.s.json" --bench checksum -- "$whole_path" &&
		env $envs "$BM_RUN" -q -o "$scratch/$label.w.json" -- "$whole_path") >/dev/null 2>"$scratch/$label.err" || {
		echo "# bm-run failed for $label:" && sed 's/^/# /' "$scratch/$label.err"
	}
	for m in h s w; do numbers "$scratch/$label.$m.json"; done >"$scratch/$label.numbers"
}

measure base -- "$scratch/run" "$cases" "$whole"
check "the runs measured something" grep -q 'cases::memory\[kib=1024\] ok .*Ir=' "$scratch/base.numbers"

i=1
same=0
while [ $i -le 10 ]; do
	measure "again$i" -- "$scratch/run" "$cases" "$whole"
	cmp -s "$scratch/base.numbers" "$scratch/again$i.numbers" && same=$((same + 1))
	i=$((i + 1))
done
check_eq "10 more runs: all identical to the first" 10 "$same"

big=$(head -c 100000 /dev/zero | tr '\0' x)
measure bigenv "HUGE=$big" "TMPDIR=/tmp/a/much/longer/temporary/directory" "LC_ALL=de_DE.UTF-8" \
	"TZ=America/New_York" -- "$scratch/run" "$cases" "$whole"
check_output "a 100 KB environment, other TMPDIR, locale and TZ: identical" \
	"$scratch/base.numbers" "$scratch/bigenv.numbers"

long="$scratch/a/working/directory/that/is/much/longer/than/the/first/one/by/far/xxxxxxxxxxxxxxx"
measure longcwd -- "$long" "$cases" "$whole"
check_output "a working directory of another length: identical" "$scratch/base.numbers" "$scratch/longcwd.numbers"

deep="$scratch/another/directory/whose/name/makes/argv0/longer/yyyyyyyyyyyyyyyyyyyy"
mkdir -p "$deep"
cp "$cases" "$deep/cases"
cp "$whole" "$deep/whole"
measure longargv0 -- "$scratch/run" "$deep/cases" "$deep/whole"
check_output "the program at a longer path (argv[0]): identical" "$scratch/base.numbers" "$scratch/longargv0.numbers"

(cd "$PROGRAMS" && "$BM_RUN" -q -o "$scratch/relative.h.json" -- ./cases --filter 'cases::compute*' \
	--filter 'cases::memory*' --filter 'cases::sleep*' >/dev/null 2>&1)
numbers "$scratch/relative.h.json" >"$scratch/relative.numbers"
numbers "$scratch/base.h.json" >"$scratch/base.h.numbers"
check_output "a relative program path: identical" "$scratch/base.h.numbers" "$scratch/relative.numbers"

"$BM_RUN" -q -j 3 -o "$scratch/parallel.json" -- "$cases" --filter 'cases::compute*' \
	--filter 'cases::memory*' --filter 'cases::sleep*' >/dev/null 2>&1
yes >/dev/null &
hog=$!
"$BM_RUN" -q -o "$scratch/loaded.json" -- "$cases" --filter 'cases::compute*' \
	--filter 'cases::memory*' --filter 'cases::sleep*' >/dev/null 2>&1
kill $hog
numbers "$scratch/loaded.json" >"$scratch/loaded.numbers"
check_output "with a CPU hog beside it: identical" "$scratch/base.h.numbers" "$scratch/loaded.numbers"

"$BM_RUN" -q -o "$scratch/one.json" -- "$cases" --filter 'cases::memory[[]kib=1024]' >/dev/null 2>&1
check_eq "one benchmark alone (--filter) has the numbers it has among others" \
	"$(grep '^cases::memory\[kib=1024\]' "$scratch/base.numbers")" "$(numbers "$scratch/one.json")"

# Run again with BM_ENGINE=callgrind (determinism_callgrind.sh): the
# engine that counted, by default bm's own where it is built.
default_engine=callgrind
[ -x "$top_builddir/simulator/engine/bm-amd64-linux" ] && default_engine=bm
check_eq "the reports name the engine that counted" "${BM_ENGINE:-$default_engine}" \
	"$(json_get "$scratch/base.h.json" '$j->{tool}{engine}')"

done_testing
