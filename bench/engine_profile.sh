#!/bin/sh
# SPDX-License-Identifier: MIT
# Where the bm engine's time goes, by part of the model: each program
# run once as bm-run runs it (bm-run --whole --print-command: the default
# model's options, whatever they are), under perf, and perf's samples
# summed by the part each function belongs to:
#
#   translated code   the program's code as Valgrind translated it, with
#                     the inline checks and counters bm adds ([JIT])
#   translation       VEX, Valgrind's translation table and bm's own pass
#                     (instrument.c, blockcost.c)
#   caches            the cache hierarchy (cachesim.c, layout.c, the
#                     fetch and data helpers of helpers.c)
#   predictor         the branch predictor (branchsim.c, its helpers)
#   call graph        callgraph.c, contexts.c, the call, return and jump
#                     helpers
#   counts            the instruction records and segments (costs.c)
#   heap              heap.c, fn_hooks.c
#   dump              writing the profile (output.c, dumps.c)
#   debug info        Valgrind reading the objects' symbols and lines
#                     (and decompressing libc6-dbg's sections)
#   core              the rest of Valgrind: dispatch, scheduler, memory
#   guest's world     the virtual clock, threads, timers, host state
#   kernel            system calls and page faults
#
# usage: bench/engine_profile.sh [BUILD_DIR]   (default: build)
# Needs perf (apt-get install linux-perf), gzip, xz, perl; speedtest1 as
# bench/engine.sh builds it (left out with a word where it cannot be).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run/bm-run
vglib=/usr/lib/x86_64-linux-gnu/valgrind
for tool in perf perl gzip xz nm; do
	command -v "$tool" >/dev/null || { echo "engine_profile.sh: '$tool' not found" >&2; exit 2; }
done
[ -x "$bmrun" ] && [ -x "$build/tests/programs/whole" ] ||
	{ echo "engine_profile.sh: build bm and its test programs first (make check TESTS=)" >&2; exit 2; }
[ -f "$vglib/libvex-amd64-linux.a" ] || { echo "engine_profile.sh: no $vglib (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-profile.XXXXXX")
trap 'rm -rf "$work"' EXIT
head -c 2250000 /dev/urandom | base64 -w 76 >"$work/input.txt" # 3 MB of text
programs="gzip xz speedtest1 whole"
if ! "$top/bench/speedtest1.sh" "$work/speedtest1" >/dev/null 2>&1; then
	echo "engine_profile.sh: without speedtest1 (bench/speedtest1.sh could not build it)" >&2
	programs="gzip xz whole"
fi

# Which part each function of the engine belongs to: bm's by its source
# file (the tool's line table: with link-time optimisation its objects
# hold no code), Valgrind's by the archive and object it comes from.
nm -l --defined-only "$build/simulator/engine/bm-amd64-linux" |
	awk '$2 ~ /^[tT]$/ && $4 ~ /simulator\/engine\// {
		f = $4; sub(/.*\//, "", f); sub(/\.[ch]:.*/, "", f); print "bm", f, $3 }' >"$work/parts"
nm -A "$vglib/libvex-amd64-linux.a" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print "vex", "-", $3 }' >>"$work/parts"
nm -A "$vglib/libcoregrind-amd64-linux.a" 2>/dev/null |
	awk '$2 ~ /^[tT]$/ { split($1, p, ":"); sub(/^libcoregrind_amd64_linux_a-/, "", p[2]); print "core", p[2], $3 }' >>"$work/parts"

command_of() {
	case $1 in
	gzip) echo "/bin/gzip -9 -c $work/input.txt" ;;
	xz) echo "/usr/bin/xz -6 -c $work/input.txt" ;;
	speedtest1) echo "$work/speedtest1/speedtest1 --size 5 --memdb" ;;
	whole) echo "$build/tests/programs/whole" ;;
	esac
}
echo "profiling $programs; cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2
for p in $programs; do
	# bm-run's own command, with perf in front of Valgrind.
	# shellcheck disable=SC2046 # the program's words
	"$bmrun" --whole --print-command -- $(command_of "$p") 2>/dev/null |
		sed "s|^\( *\)\([^ ]*valgrind[^ ]*\) \\\\\$|\1perf record -q -o $work/$p.data \2 \\\\|" >"$work/$p.sh"
	grep -q "perf record" "$work/$p.sh" || { echo "engine_profile.sh: cannot read bm-run's command" >&2; exit 1; }
	echo 'rm -rf "$d"' >>"$work/$p.sh" # the directory the command made
	sh "$work/$p.sh" >/dev/null 2>&1 || true
	perf report -i "$work/$p.data" --no-children --sort dso,sym -F sample,dso,sym 2>/dev/null |
		grep -v '^#' | grep -v '^$' >"$work/$p.samples"
	echo "$p done" >&2
done

perl -e '
	my ($work, @programs) = @ARGV;
	my %part;
	open my $f, "<", "$work/parts" or die;
	while (<$f>) {
		my ($lib, $file, $sym) = split;
		my $p;
		if ($lib eq "vex") { $p = "translation" }
		elsif ($lib eq "core") {
			$p = $file =~ /^(debuginfo|image|readdwarf3?|readelf|storage|tinfl|d3basics|readpdb|readexidx|misc|minilzo|readstabs)\.o$/ ? "debug info"
			   : $file =~ /^m_trans(late|tab)\.o$/ ? "translation" : "core";
		} else {
			my %by_file = (branchsim => "predictor", cachesim => "caches", layout => "caches",
				callgraph => "call graph", contexts => "call graph", blockcost => "translation",
				costs => "counts", heap => "heap", fn_hooks => "heap", output => "dump", dumps => "dump");
			$p = $by_file{$file} // "guest\x27s world";
			$p = $sym =~ /^log_(cond|indirect)/ ? "predictor" : "caches" if $file eq "helpers";
			$p = $sym =~ /^log_(call|return|jump)/ ? "call graph" : "translation" if $file eq "instrument";
		}
		(my $base = $sym) =~ s/\.(part|isra|constprop|cold|lto_priv)\..*//;
		$part{$base} //= $p;
	}
	my @order = ("translated code", "translation", "caches", "predictor", "call graph", "counts", "heap", "dump",
		"debug info", "core", "guest\x27s world", "kernel", "other");
	my %share;
	for my $prog (@programs) {
		open my $s, "<", "$work/$prog.samples" or die;
		my ($all, %n) = (0);
		while (<$s>) {
			my ($count, $dso, undef, $sym) = /^\s*(\d+)\s+(\S+(?: tid \d+)?)\s+\[(.)\]\s+(\S+)/ or next;
			(my $base = $sym) =~ s/\.(part|isra|constprop|cold|lto_priv)\..*//;
			my $p = $dso =~ /^\[JIT\]/ ? "translated code" : $dso eq "[kernel.kallsyms]" ? "kernel"
			      : $dso =~ /bm-amd64-linux/ ? ($part{$base} // "core") : "other";
			$n{$p} += $count;
			$all += $count;
		}
		$share{$prog}{$_} = $all ? 100 * ($n{$_} // 0) / $all : 0 for @order;
	}
	print "| part | ", join(" | ", @programs), " |\n| --- |", " ---: |" x @programs, "\n";
	for my $p (@order) {
		next unless grep { $share{$_}{$p} >= 0.05 } @programs;
		printf "| %s | %s |\n", $p, join(" | ", map { sprintf "%.1f%%", $share{$_}{$p} } @programs);
	}
' "$work" $programs
