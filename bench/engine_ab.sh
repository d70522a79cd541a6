#!/bin/sh
# SPDX-License-Identifier: MIT
# Two builds of the bm engine side by side in one run: a reference
# (REFERENCE_BUILD, say a worktree of the last release) and a candidate
# (BUILD_DIR), each as bm-run runs bm-model/3 (the canonical layout, the
# virtual clock and its world, heap counting), rounds interleaved, the
# median CPU time (user + system) of each kept; the table gives both and
# candidate / reference, and whether their counts (each dump's totals)
# are the same.  For changes that must cost at most a few percent (the
# virtual world's bar: 1.03) or must not change a count (the engine's
# speed work).
#
# Programs: gzip -9 of a 3 MB file, SQLite's speedtest1 (--size 5 --memdb,
# bench/speedtest1.sh; left out with a word where it cannot be fetched),
# and a million system calls (bench/syscall_loop.c): read of /dev/zero a
# byte at a time, and getppid.
#
# usage: bench/engine_ab.sh BUILD_DIR REFERENCE_BUILD
# Environment: BM_BENCH_RUNS (default 5), CC (default cc).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: bench/engine_ab.sh BUILD_DIR REFERENCE_BUILD" >&2; exit 2; }
runs=${BM_BENCH_RUNS:-5}
for tool in valgrind.bin perl gzip "${CC:-cc}"; do
	command -v "$tool" >/dev/null || { echo "engine_ab.sh: '$tool' not found" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
for side in candidate reference; do
	case $side in candidate) b=$1 ;; reference) b=$2 ;; esac
	engine=$(cd "$b" && pwd)/simulator/engine
	[ -x "$engine/bm-amd64-linux" ] && [ -f "$engine/vgpreload_core-amd64-linux.so" ] ||
		{ echo "engine_ab.sh: no engine in '$b' (make there first)" >&2; exit 2; }
	mkdir "$work/$side"
	ln -s "$engine/bm-amd64-linux" "$engine/vgpreload_core-amd64-linux.so" "$work/$side/"
done
"${CC:-cc}" -O2 -o "$work/syscall_loop" "$top/bench/syscall_loop.c"
head -c 2250000 /dev/urandom | base64 -w 76 >"$work/input.txt" # 3 MB of text
programs="gzip speedtest1 read getppid"
if ! "$top/bench/speedtest1.sh" "$work/speedtest1" >/dev/null; then
	echo "engine_ab.sh: without speedtest1 (above: why)" >&2
	programs="gzip read getppid"
fi

# bm-run's options for bm-model/3 (bm-run --print-command shows them).
model3="--tool=bm --vgdb=no --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
	--collect-systime=nsec --branch-sim=yes --cpu=x86-64-v3 --layout=canonical --skip-loader=yes
	--fair-sched=yes --clock=virtual --clock-hz=3000000000
	--clock-cost=I1mr:1200,D1mr:200,D1mw:300,ILmr:12000,DLmr:2000,DLmw:3000,Bcm:2000,Bim:3000,Cc:1,I2mr:6800,D2mr:1133,D2mw:1700,D1mc:1000,D2mc:5667,DLmc:10000
	--L2=1048576,8,64 --block-cost=yes --core=bm-model/3 --heap=yes"
command_of() {
	case $1 in
	gzip) echo "gzip -9 -c $work/input.txt" ;;
	speedtest1) echo "$work/speedtest1/speedtest1 --size 5 --memdb" ;;
	*) echo "$work/syscall_loop $1" ;;
	esac
}

echo "timing $runs interleaved rounds; cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2
for round in $(seq "$runs"); do
	for p in $programs; do
		for side in reference candidate; do
			rm -f "$work"/out.*
			# shellcheck disable=SC2086
			set -- env VALGRIND_LIB="$work/$side" valgrind.bin $model3 \
				--callgrind-out-file="$work/out.%p" --log-file="$work/log" $(command_of "$p")
			(cd "$work" && perl -e 'my ($p, $s) = splice @ARGV, 0, 2; my $pid = fork // die;
				if (!$pid) { open STDOUT, ">", "/dev/null"; exec @ARGV or die "$ARGV[0]: $!\n" }
				waitpid $pid, 0; $? == 0 or die "failed: @ARGV\n"; my @t = times;
				printf "%s %s %.4f\n", $p, $s, $t[2] + $t[3]' "$p" "$side" "$@") >>"$work/times"
			[ "$round" -eq 1 ] && cat "$work"/out.* | grep '^totals:' >"$work/totals.$p.$side"
		done
	done
	echo "round $round done" >&2
done

perl -e '
	my ($times, $work, @programs) = @ARGV;
	my %t;
	open my $f, "<", $times or die;
	while (<$f>) { my ($p, $s, $x) = split; push @{$t{$p}{$s}}, $x }
	sub med { my @s = sort { $a <=> $b } @_; $s[$#s / 2] }
	sub slurp { local $/; open my $g, "<", $_[0] or return ""; <$g> }
	print "| program | reference | candidate | candidate / reference | counts |\n";
	print "| --- | ---: | ---: | ---: | --- |\n";
	for my $p (@programs) {
		my ($r, $c) = (med(@{$t{$p}{reference}}), med(@{$t{$p}{candidate}}));
		my $same = slurp("$work/totals.$p.reference") eq slurp("$work/totals.$p.candidate") ? "the same" : "differ";
		printf "| %s | %.2f s | %.2f s | %.3f | %s |\n", $p, $r, $c, $c / $r, $same;
	}
' "$work/times" "$work" $programs
