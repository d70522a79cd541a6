#!/bin/sh
# SPDX-License-Identifier: MIT
# The bm engine against callgrind, side by side in one run: each program
# natively, under Valgrind's `none` tool (the floor of any tool),
# cachegrind and callgrind with the pinned caches (today's bm-run), and
# the bm engine with the same options, and the bm engine as bm-model/2
# runs it (bm-run --model bm-model/2: x86-64-v3, branch prediction, the
# L2 and prefetchers, block costs).  Runs are interleaved (program by
# program, tool by tool, BM_BENCH_RUNS rounds) and the median wall time of
# each is kept; the table gives them, the bm engine's slowdown against
# native and against `none`, and callgrind / bm engine for each model (the
# bar: at least 3).
#
# Programs: gzip -9 of a 3 MB file, xz -6 (liblzma) of the same, SQLite's
# own speedtest1 (--size 5 --memdb: code-heavy, deep call chains; built by
# bench/speedtest1.sh from Debian's source package, left out with a word
# where that cannot be fetched), and the examples, whole (their
# benchmarks, their start-up and set-ups; natively a libbm program times
# itself in a loop, so it has no native column).  The bars are on the
# first three (the examples' runs are mostly Valgrind's own start-up):
# callgrind / engine at least 3, and the engine no slower than cachegrind.
#
# usage: bench/engine.sh [BUILD_DIR]   (default: build)
# Environment: BM_BENCH_RUNS (default 3).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
engine=$build/simulator/engine
runs=${BM_BENCH_RUNS:-3}
for tool in valgrind.bin perl gzip xz; do
	command -v "$tool" >/dev/null || { echo "engine.sh: '$tool' not found" >&2; exit 2; }
done
[ -x "$engine/bm-amd64-linux" ] && [ -x "$build/examples/sort" ] ||
	{ echo "engine.sh: build bm with its engine and examples first (make && make examples)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-engine.XXXXXX")
trap 'rm -rf "$work"' EXIT
# One VALGRIND_LIB for every tool, so that all see the same environment.
mkdir "$work/lib"
for t in none cachegrind callgrind; do ln -s "/usr/libexec/valgrind/$t-amd64-linux" "$work/lib/"; done
ln -s "$engine/bm-amd64-linux" "$engine/vgpreload_core-amd64-linux.so" "$work/lib/"
head -c 2250000 /dev/urandom | base64 -w 76 >"$work/input.txt" # 3 MB of text
programs="gzip xz speedtest1 hashtable sort parse fileio"
if ! "$top/bench/speedtest1.sh" "$work/speedtest1" >/dev/null; then
	echo "engine.sh: without speedtest1 (above: why)" >&2
	programs="gzip xz hashtable sort parse fileio"
fi

caches="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
opts() {
	case $1 in
	native) ;;
	none) echo "--tool=none" ;;
	cachegrind) echo "--tool=cachegrind --cache-sim=yes $caches --cachegrind-out-file=$work/out" ;;
	callgrind | bm) echo "--tool=$1 --cache-sim=yes $caches --collect-systime=nsec --callgrind-out-file=$work/out.%p" ;;
	bm2) echo "--tool=bm --cache-sim=yes $caches --collect-systime=nsec --branch-sim=yes --cpu=x86-64-v3 --L2=1048576,8,64 --block-cost=yes --callgrind-out-file=$work/out.%p" ;;
	esac
}
command_of() {
	case $1 in
	gzip) echo "gzip -9 -c $work/input.txt" ;;
	xz) echo "xz -6 -c $work/input.txt" ;;
	speedtest1) echo "$work/speedtest1/speedtest1 --size 5 --memdb" ;;
	*) echo "$build/examples/$1" ;;
	esac
}

tools="native none cachegrind callgrind bm bm2"
echo "timing $runs interleaved rounds; cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2
for round in $(seq "$runs"); do
	for p in $programs; do
		for t in $tools; do
			case $t$p in native[hpf]* | nativesort) continue ;; esac
			rm -f "$work"/out*
			if [ "$t" = native ]; then
				cmd="$(command_of "$p")"
			else
				cmd="env VALGRIND_LIB=$work/lib valgrind.bin $(opts "$t") $(command_of "$p")"
			fi
			(cd "$work" && perl -MTime::HiRes=time -e 'my $t = time; system("$ARGV[0] >/dev/null 2>&1") == 0 or die "failed: $ARGV[0]\n"; printf "%s %s %.4f\n", $ARGV[1], $ARGV[2], time - $t' \
				"$cmd" "$p" "$t") >>"$work/times"
		done
	done
	echo "round $round done" >&2
done

perl -e '
	my %t;
	open my $f, "<", $ARGV[0] or die;
	while (<$f>) { my ($p, $tool, $s) = split; push @{$t{$p}{$tool}}, $s }
	sub med { my @s = sort { $a <=> $b } @_; $s[$#s / 2] }
	print "| program | native | none | cachegrind | callgrind | bm engine | bm / native | bm / none | callgrind / bm | bm-model/2 | callgrind / bm-model/2 | bm-model/2 / cachegrind |\n";
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
	my (%worst, %slowest);
	for my $p (split " ", $ARGV[1]) {
		my %m = map { $_ => med(@{$t{$p}{$_}}) } keys %{$t{$p}};
		my %speedup = (bm => $m{callgrind} / $m{bm}, bm2 => $m{callgrind} / $m{bm2});
		my %against = (bm => $m{bm} / $m{cachegrind}, bm2 => $m{bm2} / $m{cachegrind});
		if ($m{native}) { # the bars: the programs with a native run
			for my $e (keys %speedup) {
				$worst{$e} = $speedup{$e} if !defined $worst{$e} || $speedup{$e} < $worst{$e};
				$slowest{$e} = $against{$e} if !defined $slowest{$e} || $against{$e} > $slowest{$e};
			}
		}
		printf "| %s | %s | %.2f s | %.2f s | %.2f s | %.2f s | %s | %.1fx | %.2fx | %.2f s | %.2fx | %.2fx |\n", $p,
			$m{native} ? sprintf("%.3f s", $m{native}) : "-", $m{none}, $m{cachegrind}, $m{callgrind},
			$m{bm}, $m{native} ? sprintf("%.0fx", $m{bm} / $m{native}) : "-", $m{bm} / $m{none}, $speedup{bm},
			$m{bm2}, $speedup{bm2}, $against{bm2};
	}
	print "\nOn the programs with a native run (the examples are mostly start-up):\n";
	for my $e (["bm", "bm engine (bm-model/1)"], ["bm2", "bm engine under bm-model/2"]) {
		my ($k, $name) = @$e;
		printf "%s: smallest callgrind / engine %.2fx (bar: at least 3x): %s; largest engine / cachegrind %.2fx (bar: at most 1x): %s\n",
			$name, $worst{$k}, $worst{$k} >= 3 ? "PASS" : "FAIL", $slowest{$k}, $slowest{$k} <= 1 ? "PASS" : "FAIL";
	}
' "$work/times" "$programs"
