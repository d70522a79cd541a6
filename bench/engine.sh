#!/bin/sh
# SPDX-License-Identifier: MIT
# The bm engine against Valgrind's own tools, side by side in one run:
# each program natively, under Valgrind's `none` tool (the floor of any
# tool), cachegrind with cache simulation and with cache and branch
# simulation, callgrind with cache simulation (the same cache geometry
# everywhere), and the bm engine exactly as bm-run runs it for a whole
# process (bm-run --whole --print-command: its environment, its options)
# under bm-model/1 and under the default model.  Runs are interleaved
# (program by program, tool by tool, BM_BENCH_RUNS rounds) and the median
# wall time of each is kept; the table gives each against native.
#
# Programs: gzip -9 of a 3 MB file, xz -6 (liblzma) of the same, SQLite's
# own speedtest1 (--size 5 --memdb: code-heavy, deep call chains; built by
# bench/speedtest1.sh from Debian's source package, left out with a word
# where that cannot be fetched), and the examples, whole (their
# benchmarks, their start-up and set-ups; natively a libbm program times
# itself in a loop, so it has no native column).
#
# The bars (issue 42) are on the first three: the default model no
# slower than cachegrind with cache simulation, at least 3x faster than
# callgrind, and bm-model/1 at most 3.5x `none` on gzip and xz.
#
# usage: bench/engine.sh [BUILD_DIR]   (default: build)
# Environment: BM_BENCH_RUNS (default 3).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run/bm-run
runs=${BM_BENCH_RUNS:-3}
for tool in valgrind.bin perl gzip xz; do
	command -v "$tool" >/dev/null || { echo "engine.sh: '$tool' not found" >&2; exit 2; }
done
[ -x "$bmrun" ] && [ -x "$build/examples/sort" ] ||
	{ echo "engine.sh: build bm with its engine and examples first (make && make examples)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-engine.XXXXXX")
trap 'rm -rf "$work"' EXIT
head -c 2250000 /dev/urandom | base64 -w 76 >"$work/input.txt" # 3 MB of text
programs="gzip xz speedtest1 hashtable sort parse fileio"
if ! "$top/bench/speedtest1.sh" "$work/speedtest1" >/dev/null; then
	echo "engine.sh: without speedtest1 (above: why)" >&2
	programs="gzip xz hashtable sort parse fileio"
fi

caches="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
command_of() {
	case $1 in
	gzip) echo "/bin/gzip -9 -c $work/input.txt" ;;
	xz) echo "/usr/bin/xz -6 -c $work/input.txt" ;;
	speedtest1) echo "$work/speedtest1/speedtest1 --size 5 --memdb" ;;
	*) echo "$build/examples/$1" ;;
	esac
}
# bm-run's own command for each program and model, made once: a script
# that makes its directory, runs, and removes it.
for p in $programs; do
	for m in 1 default; do
		model=
		[ "$m" = 1 ] && model="--model bm-model/1"
		# shellcheck disable=SC2046,SC2086 # the program's words, the option
		"$bmrun" --whole $model --print-command -- $(command_of "$p") 2>/dev/null >"$work/bm$m.$p.sh"
		grep -q 'valgrind' "$work/bm$m.$p.sh" || { echo "engine.sh: cannot read bm-run's command" >&2; exit 1; }
		echo 'rm -rf "$d"' >>"$work/bm$m.$p.sh"
	done
done
cmd_of() {
	case $1 in
	native) command_of "$2" ;;
	none) echo "valgrind.bin --tool=none $(command_of "$2")" ;;
	cachegrind) echo "valgrind.bin --tool=cachegrind --cache-sim=yes $caches --cachegrind-out-file=$work/out $(command_of "$2")" ;;
	cachegrind_branch) echo "valgrind.bin --tool=cachegrind --cache-sim=yes --branch-sim=yes $caches --cachegrind-out-file=$work/out $(command_of "$2")" ;;
	callgrind) echo "valgrind.bin --tool=callgrind --cache-sim=yes $caches --callgrind-out-file=$work/out.%p $(command_of "$2")" ;;
	bm1 | bmdefault) echo "sh $work/$1.$2.sh" ;;
	esac
}

tools="native none cachegrind cachegrind_branch callgrind bm1 bmdefault"
echo "timing $runs interleaved rounds; cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2
for round in $(seq "$runs"); do
	for p in $programs; do
		for t in $tools; do
			case $t$p in native[hpf]* | nativesort) continue ;; esac
			rm -f "$work"/out*
			(cd "$work" && perl -MTime::HiRes=time -e 'my $t = time; system("$ARGV[0] >/dev/null 2>&1") == 0 or die "failed: $ARGV[0]\n"; printf "%s %s %.4f\n", $ARGV[1], $ARGV[2], time - $t' \
				"$(cmd_of "$t" "$p")" "$p" "$t") >>"$work/times"
		done
	done
	echo "round $round done" >&2
done

perl -e '
	my %t;
	open my $f, "<", $ARGV[0] or die;
	while (<$f>) { my ($p, $tool, $s) = split; push @{$t{$p}{$tool}}, $s }
	sub med { my @s = sort { $a <=> $b } @_; $s[$#s / 2] }
	my @tools = qw(none cachegrind cachegrind_branch callgrind bm1 bmdefault);
	print "| program | native | `none` | cachegrind (cache) | cachegrind (cache + branch) | callgrind (cache) | bm-run, bm-model/1 | bm-run, default model | callgrind / default | default / cachegrind | bm-model/1 / `none` |\n";
	print "| --- |", " ---: |" x 10, "\n";
	my ($worst_speedup, $worst_against, $worst_m1);
	for my $p (split " ", $ARGV[1]) {
		my %m = map { $_ => med(@{$t{$p}{$_}}) } keys %{$t{$p}};
		my $n = $m{native};
		my @cells = map { $n ? sprintf("%.1fx", $m{$_} / $n) : sprintf("%.2f s", $m{$_}) } @tools;
		my ($speedup, $against, $m1) = ($m{callgrind} / $m{bmdefault}, $m{bmdefault} / $m{cachegrind}, $m{bm1} / $m{none});
		if ($n) {
			$worst_speedup = $speedup if !defined $worst_speedup || $speedup < $worst_speedup;
			$worst_against = $against if !defined $worst_against || $against > $worst_against;
			$worst_m1 = $m1 if $p ne "speedtest1" && (!defined $worst_m1 || $m1 > $worst_m1);
		}
		printf "| %s | %s | %s | %.2fx | %.2fx | %.2fx |\n", $p, $n ? sprintf("%.3f s", $n) : "-", join(" | ", @cells),
			$speedup, $against, $m1;
	}
	print "\n(native: times relative to it; the examples, which have no native run: seconds.)\n";
	printf "Default model: smallest callgrind / engine %.2fx (bar: at least 3x): %s; largest engine / cachegrind %.2fx (bar: at most 1x): %s\n",
		$worst_speedup, $worst_speedup >= 3 ? "PASS" : "FAIL", $worst_against, $worst_against <= 1 ? "PASS" : "FAIL";
	printf "bm-model/1 on gzip and xz: largest engine / none %.2fx (bar: at most 3.5x): %s\n", $worst_m1, $worst_m1 <= 3.5 ? "PASS" : "FAIL";
' "$work/times" "$programs"
