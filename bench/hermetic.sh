#!/bin/sh
# SPDX-License-Identifier: MIT
# What the hermetic engine costs (docs/engine.md, "The canonical layout"):
# the bm engine as bm-run runs bm-model/3 (x86-64-v3, branch prediction,
# the L2 and prefetchers, block costs), once with the guest's own
# addresses (--layout=host) and once as bm-run measures now
# (--layout=canonical --skip-loader=yes), side by side in one run: rounds
# interleaved, the median CPU time (user + system) of each kept, and the
# ratio canonical / host (the bar: at most 1.05).
#
# Programs: gzip -9 of a 3 MB file and SQLite's speedtest1 (--size 5
# --memdb, built by bench/speedtest1.sh; left out with a word where it
# cannot be fetched).
#
# usage: bench/hermetic.sh [BUILD_DIR]   (default: build)
# Environment: BM_BENCH_RUNS (default 5).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
engine=$build/simulator/engine
runs=${BM_BENCH_RUNS:-5}
for tool in valgrind.bin perl gzip; do
	command -v "$tool" >/dev/null || { echo "hermetic.sh: '$tool' not found" >&2; exit 2; }
done
[ -x "$engine/bm-amd64-linux" ] || { echo "hermetic.sh: build bm with its engine first (make)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-hermetic.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/lib"
ln -s "$engine/bm-amd64-linux" "$engine/vgpreload_core-amd64-linux.so" "$work/lib/"
head -c 2250000 /dev/urandom | base64 -w 76 >"$work/input.txt" # 3 MB of text
programs="gzip speedtest1"
if ! "$top/bench/speedtest1.sh" "$work/speedtest1" >/dev/null; then
	echo "hermetic.sh: without speedtest1 (above: why)" >&2
	programs=gzip
fi

model3="--tool=bm --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec
	--branch-sim=yes --cpu=x86-64-v3 --L2=1048576,8,64 --block-cost=yes --core=bm-model/3"
layout() {
	case $1 in
	host) echo "--layout=host" ;;
	canonical) echo "--layout=canonical --skip-loader=yes" ;;
	esac
}
command_of() {
	case $1 in
	gzip) echo "gzip -9 -c $work/input.txt" ;;
	speedtest1) echo "$work/speedtest1/speedtest1 --size 5 --memdb" ;;
	esac
}

echo "timing $runs interleaved rounds; cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2
for round in $(seq "$runs"); do
	for p in $programs; do
		for l in host canonical; do
			rm -f "$work"/out*
			# shellcheck disable=SC2086
			set -- env VALGRIND_LIB="$work/lib" valgrind.bin $model3 $(layout "$l") \
				--callgrind-out-file="$work/out.%p" --log-file="$work/log" $(command_of "$p")
			(cd "$work" && perl -e 'my ($p, $l) = splice @ARGV, 0, 2; my $pid = fork // die;
				if (!$pid) { open STDOUT, ">", "/dev/null"; exec @ARGV or die "$ARGV[0]: $!\n" }
				waitpid $pid, 0; $? == 0 or die "failed: @ARGV\n"; my @t = times;
				printf "%s %s %.4f\n", $p, $l, $t[2] + $t[3]' "$p" "$l" "$@") >>"$work/times"
		done
	done
	echo "round $round done" >&2
done

perl -e '
	my %t;
	open my $f, "<", $ARGV[0] or die;
	while (<$f>) { my ($p, $l, $s) = split; push @{$t{$p}{$l}}, $s }
	sub med { my @s = sort { $a <=> $b } @_; $s[$#s / 2] }
	print "| program | --layout=host | --layout=canonical --skip-loader=yes | canonical / host |\n";
	print "| --- | ---: | ---: | ---: |\n";
	my $worst = 0;
	for my $p (split " ", $ARGV[1]) {
		my ($h, $c) = (med(@{$t{$p}{host}}), med(@{$t{$p}{canonical}}));
		$worst = $c / $h if $c / $h > $worst;
		printf "| %s | %.2f s | %.2f s | %.3f |\n", $p, $h, $c, $c / $h;
	}
	printf "\nlargest canonical / host %.3f (bar: at most 1.05): %s\n", $worst, $worst <= 1.05 ? "PASS" : "FAIL";
' "$work/times" "$programs"
