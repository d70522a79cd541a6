#!/bin/sh
# SPDX-License-Identifier: MIT
# What heap counting costs (issue 25's bar: at most 10% more engine time
# on an allocation-heavy benchmark): the bm engine with bm-run's options,
# without and with --heap=yes, side by side in one hyperfine run, on a
# loop of a million malloc and free calls (the worst case: nothing but
# allocation) and on SQLite's speedtest1 when BM_BENCH_SPEEDTEST1 names a
# built one (bench/speedtest1.sh).  Prints the medians and their ratio.
#
# usage: bench/heap.sh [BUILD_DIR]   (default: build)
# Environment: BM_BENCH_RUNS (default 5), BM_BENCH_SPEEDTEST1.
# Needs: valgrind, hyperfine, a C compiler (apt-get install hyperfine).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
engine=$build/simulator/engine
runs=${BM_BENCH_RUNS:-5}
for tool in valgrind.bin hyperfine perl "${CC:-cc}"; do
	command -v "$tool" >/dev/null || { echo "heap.sh: '$tool' not found (apt-get install valgrind hyperfine gcc)" >&2; exit 2; }
done
[ -x "$engine/bm-amd64-linux" ] || { echo "heap.sh: build bm with its engine first (make)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-heap.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/allocs.c" <<'EOC'
#include <stdlib.h>
int main(void)
{
	void *keep[64] = {0};
	unsigned long s = 0;
	for (int i = 0; i < 1000000; i++) {
		int k = i & 63;
		free(keep[k]);
		keep[k] = malloc(16 + (size_t)(i % 200));
		s += (unsigned long)keep[k] & 15;
	}
	for (int k = 0; k < 64; k++)
		free(keep[k]);
	return (int)(s & 1);
}
EOC
"${CC:-cc}" -O2 -o "$work/allocs" "$work/allocs.c"

opts="--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec --cpu=x86-64-v1 --clock=virtual --callgrind-out-file=$work/cg.out"
run="env VALGRIND_LIB=$engine valgrind.bin --tool=bm $opts"
bench() { # NAME COMMAND...
	name=$1
	shift
	hyperfine --style none --warmup 1 --runs "$runs" --export-json "$work/$name.json" \
		-n off "$run $*" -n on "$run --heap=yes $*" >/dev/null
	perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my %m = map { $_->{command} => $_->{median} } @{$j->{results}};
		printf "| %s | %.3f s | %.3f s | %.3f |\n", $ARGV[0], $m{off}, $m{on}, $m{on} / $m{off}' "$name" <"$work/$name.json"
}
echo "| program | engine | engine --heap=yes | ratio |"
echo "| --- | ---: | ---: | ---: |"
bench "a million malloc and free" "$work/allocs"
if [ -n "${BM_BENCH_SPEEDTEST1:-}" ]; then
	bench "speedtest1 --size 1 --memdb" "$BM_BENCH_SPEEDTEST1" --size 1 --memdb
fi
