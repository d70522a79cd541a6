#!/bin/sh
# SPDX-License-Identifier: MIT
# Overhead of bm-run over a bare run of its engine (bm's own, or callgrind
# with BM_BENCH_ENGINE=callgrind) with the same simulation options on the
# same program, side by side in one hyperfine run, as a ratio.  Bar (SPEC
# 6): at most 1.05.
#
# The bare command gets the same environment (the glibc tunables included)
# so that both run the same instructions: the difference is bm-run's own
# work (reading the ELF file, the sandbox, the control channel, reading
# every dump and writing the report).
#
# usage: bench/overhead.sh [BUILD_DIR]   (default: build)
# Needs: valgrind, hyperfine, perl (apt-get install hyperfine).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run/bm-run
runs=${BM_BENCH_RUNS:-10}
for tool in valgrind.bin hyperfine perl; do
	command -v "$tool" >/dev/null || { echo "overhead.sh: '$tool' not found (apt-get install valgrind hyperfine)" >&2; exit 2; }
done
[ -x "$bmrun" ] && [ -x "$build/examples/sort" ] ||
	{ echo "overhead.sh: build bm and its examples first (make && make examples)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT
tunables=$(sed -n '/sandbox_glibc_tunables\[\] =/,/;$/p' "$top/instrument/bm-run/sandbox.c" | grep -o '"[^"]*"' | tr -d '"' | tr -d '\n')
valgrind=$(command -v valgrind.bin)
engine=${BM_BENCH_ENGINE:-bm}
[ "$engine" = callgrind ] || [ -x "$build/simulator/engine/bm-amd64-linux" ] ||
	{ echo "overhead.sh: bm's engine is not built; BM_BENCH_ENGINE=callgrind measures with callgrind" >&2; exit 2; }

bare() {
	printf "env -i PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C TZ=UTC LD_BIND_NOW=1 BM_CONTROL=3 VALGRIND_LIB=%s GLIBC_TUNABLES='%s' %s --tool=%s --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec --instr-atstart=no --callgrind-out-file=%s/b/cg.%%p.out --log-file=%s/b/log %s >/dev/null 2>&1" \
		"$build/simulator/engine" "$tunables" "$valgrind" "$engine" "$work" "$work" "$1"
}

# The same benchmarks in both: without bm-run no time limit can stop
# sort::insertion's range, so it is given the values bm-run would run;
# bm-run measures on warm caches (its default), which it asks of the
# program with --warm.
args() {
	case $1 in
	sort) echo "--filter 'sort::[qr]*' --filter 'sort::insertion[[]n=[0-9]]' --filter 'sort::insertion[[]n=[0-9][0-9][0-9]]' --filter 'sort::insertion[[]n=[0-9][0-9][0-9][0-9]]'" ;;
	*) echo "" ;;
	esac
}

echo "timing bm-run against bare $engine ($runs runs each, interleaved)..." >&2
set --
for e in ${BM_BENCH_PROGRAMS:-hashtable sort parse fileio}; do
	set -- "$@" -n "bare $e" "$(bare "$build/examples/$e $(args $e) --warm")" \
		-n "bm-run $e" "$bmrun -q --engine $engine -o $work/r.json -- $build/examples/$e $(args $e)"
done
hyperfine --style basic --warmup 1 --runs "$runs" --prepare "rm -rf $work/b; mkdir $work/b" \
	--export-json "$work/t.json" "$@" >&2

perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my %m = map { $_->{command} => $_->{median} } @{$j->{results}};
	print "| program | bare $ARGV[1] (median) | bm-run (median) | ratio |\n| --- | --- | --- | --- |\n";
	my $max = 0;
	for my $e (grep { exists $m{"bare $_"} } qw(hashtable sort parse fileio)) {
		my ($b, $r) = ($m{"bare $e"}, $m{"bm-run $e"});
		my $ratio = $r / $b; $max = $ratio if $ratio > $max;
		printf "| %s | %.3f s | %.3f s | %.3f |\n", $e, $b, $r, $ratio;
	}
	printf "\nLargest ratio %.3f: %s (bar: at most 1.05)\n", $max, $max <= 1.05 ? "PASS" : "FAIL";
' "$work/t.json" "$engine"
