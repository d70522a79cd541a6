#!/bin/sh
# SPDX-License-Identifier: MIT
# Symbol mode's cost (issue 23's bar): bm-run --bench FUNCTION against a
# bare callgrind --toggle-collect=FUNCTION of the same program, side by
# side in one hyperfine run, as ratios: with profiles (bm-run's default)
# and with --no-profile.  Both are the engine's one run, which collects in
# every function itself (--collect-in).  Bar: at most 1.0 with profiles.
#
# usage: bench/symbols.sh [BUILD_DIR]   (default: build; needs its tests'
#        programs: make check, or make tests/programs/whole)
#   BM_BENCH_PROGRAM, BM_BENCH_FUNCTIONS (GLOBs or LIB:GLOBs) and
#   BM_BENCH_ARGS (the program's words, split at spaces) measure another
#   program: e.g. BM_BENCH_PROGRAM=/usr/bin/xz BM_BENCH_FUNCTIONS=liblzma:lzma_code
#   BM_BENCH_ARGS='-3 -c FILE'.
# Needs: valgrind, hyperfine, perl (apt-get install hyperfine).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run/bm-run
prog=${BM_BENCH_PROGRAM:-$build/tests/programs/whole}
fns=${BM_BENCH_FUNCTIONS:-checksum}
args=${BM_BENCH_ARGS:-}
runs=${BM_BENCH_RUNS:-10}
for tool in valgrind.bin hyperfine perl; do
	command -v "$tool" >/dev/null || { echo "symbols.sh: '$tool' not found (apt-get install valgrind hyperfine)" >&2; exit 2; }
done
[ -x "$bmrun" ] && [ -x "$prog" ] || { echo "symbols.sh: build bm and $prog first (make, make check)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-symbols.XXXXXX")
trap 'rm -rf "$work"' EXIT

toggles='' benches=''
for f in $fns; do
	toggles="$toggles --toggle-collect=${f#*:}"
	benches="$benches --bench $f"
done
bare="valgrind.bin --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec --collect-atstart=no$toggles --callgrind-out-file=$work/cg.%p.out --log-file=$work/log $prog $args </dev/null >/dev/null 2>&1"
echo "timing bm-run --bench$benches against bare callgrind$toggles ($runs runs each, interleaved)..." >&2
hyperfine --style basic --warmup 1 --runs "$runs" --export-json "$work/t.json" \
	-n bare "$bare" \
	-n profiles "$bmrun -q$benches -o $work/r.json -- $prog $args </dev/null" \
	-n no-profile "$bmrun -q --no-profile$benches -o $work/r.json -- $prog $args </dev/null" >&2
perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my %m = map { $_->{command} => $_->{median} } @{$j->{results}};
	printf "| bare callgrind --toggle-collect | bm-run --bench | ratio | bm-run --bench --no-profile | ratio |\n";
	printf "| ---: | ---: | ---: | ---: | ---: |\n";
	printf "| %.3f s | %.3f s | %.2f | %.3f s | %.2f |\n", $m{bare}, $m{profiles}, $m{profiles} / $m{bare},
		$m{"no-profile"}, $m{"no-profile"} / $m{bare};
	printf "\nWith profiles %.2f: %s (bar: at most 1.0)\n", $m{profiles} / $m{bare}, $m{profiles} <= $m{bare} ? "PASS" : "FAIL";
' "$work/t.json"
