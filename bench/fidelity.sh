#!/bin/sh
# SPDX-License-Identifier: MIT
# Fidelity of the cycle model: over the example benchmarks, the Spearman
# rank correlation between bm-run's estimated time and the measured native
# time (each example binary timing itself, median of its calibrated runs,
# then the median of BM_BENCH_REPEATS such runs), next to the same
# correlation for the instruction count (Ir) alone.
#
# Estimated time excludes system calls, native time cannot; the table shows
# the syscall wall time bm-run recorded so that outliers can be read.
#
# usage: bench/fidelity.sh [BUILD_DIR]   (default: build)
# Needs: valgrind, perl.  Run it on an otherwise idle machine.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run
repeats=${BM_BENCH_REPEATS:-3}
min_time=${BM_BENCH_MIN_TIME:-0.5}
programs=${BM_BENCH_PROGRAMS:-hashtable sort parse fileio}
for tool in valgrind perl; do
	command -v "$tool" >/dev/null || { echo "fidelity.sh: '$tool' not found (apt-get install valgrind perl)" >&2; exit 2; }
done
[ -x "$bmrun" ] && [ -x "$build/examples/sort" ] ||
	{ echo "fidelity.sh: build bm and its examples first (make && make examples)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-fidelity.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "estimating under bm-run..." >&2
set --
for e in $programs; do set -- "$@" "$build/examples/$e"; done
printf '%s\n' "$@" >"$work/manifest"
"$bmrun" -q -j 2 --manifest "$work/manifest" -o "$work/report.json"

for e in $programs; do
	for i in $(seq "$repeats"); do
		echo "timing $e natively ($i/$repeats, --min-time $min_time)..." >&2
		"$build/examples/$e" --min-time "$min_time" >"$work/native.$e.$i"
	done
done

perl -MJSON::PP -e '
	my ($report, @native) = @ARGV;
	my %unit = (ns => 1e-9, us => 1e-6, ms => 1e-3, s => 1);
	my (%times);
	for my $file (@native) {
		open my $f, "<", $file or die "$file: $!";
		while (<$f>) {
			next unless /^(\S+)\s+([0-9.]+)\s+(ns|us|ms|s)\s/;
			push @{$times{$1}}, $2 * $unit{$3};
		}
	}
	sub median { my @v = sort { $a <=> $b } @_; @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2 }
	local $/; open my $f, "<", $report or die; my $j = decode_json(<$f>);
	my @rows;
	for my $b (@{$j->{benchmarks}}) {
		next unless $b->{status} eq "ok" && $times{$b->{id}};
		push @rows, { id => $b->{id}, est => $b->{time_s}, ir => $b->{events}{Ir},
			sys => $b->{syscalls}{wall_ns} * 1e-9, native => median(@{$times{$b->{id}}}) };
	}
	die "fidelity.sh: no benchmark both measured and timed\n" if @rows < 3;
	sub ranks {
		my @v = @_; my @order = sort { $v[$a] <=> $v[$b] } 0 .. $#v; my @r;
		for (my $i = 0; $i < @order;) {
			my $k = $i; $k++ while $k + 1 < @order && $v[$order[$k + 1]] == $v[$order[$i]];
			$r[$order[$_]] = ($i + $k) / 2 + 1 for $i .. $k;
			$i = $k + 1;
		}
		@r;
	}
	sub pearson {
		my ($x, $y) = @_; my $n = @$x; my ($mx, $my) = (0, 0);
		$mx += $_ / $n for @$x; $my += $_ / $n for @$y;
		my ($sxy, $sxx, $syy) = (0, 0, 0);
		for my $i (0 .. $n - 1) {
			my ($dx, $dy) = ($x->[$i] - $mx, $y->[$i] - $my);
			$sxy += $dx * $dy; $sxx += $dx * $dx; $syy += $dy * $dy;
		}
		$sxy / sqrt($sxx * $syy);
	}
	sub spearman { my ($x, $y) = @_; pearson([ranks(@$x)], [ranks(@$y)]) }
	sub fmt { my $s = shift; $s >= 1 ? sprintf("%.3g s", $s) : $s >= 1e-3 ? sprintf("%.3g ms", $s * 1e3) :
		$s >= 1e-6 ? sprintf("%.3g us", $s * 1e6) : sprintf("%.3g ns", $s * 1e9) }
	print "| benchmark | native median | estimated time | Ir | syscall wall |\n| --- | --- | --- | --- | --- |\n";
	printf "| %s | %s | %s | %d | %s |\n", $_->{id}, fmt($_->{native}), fmt($_->{est}), $_->{ir}, fmt($_->{sys})
		for sort { $a->{id} cmp $b->{id} } @rows;
	my @native = map { $_->{native} } @rows;
	my @without = grep { $_->{sys} < 0.1 * $_->{native} } @rows;
	printf "\n%d benchmarks. Spearman rank correlation with native time:\n", scalar @rows;
	printf "  estimated time (bm-model/1): %.3f\n", spearman([map { $_->{est} } @rows], \@native);
	printf "  instruction count alone:     %.3f\n", spearman([map { $_->{ir} } @rows], \@native);
	printf "  estimated time + syscall wall time: %.3f\n", spearman([map { $_->{est} + $_->{sys} } @rows], \@native);
	printf "Without the %d benchmarks whose syscall time is over 10%% of native time (%d left):\n",
		@rows - @without, scalar @without;
	my @n2 = map { $_->{native} } @without;
	printf "  estimated time (bm-model/1): %.3f\n", spearman([map { $_->{est} } @without], \@n2);
	printf "  instruction count alone:     %.3f\n", spearman([map { $_->{ir} } @without], \@n2);
' "$work/report.json" "$work"/native.*
