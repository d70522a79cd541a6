#!/bin/sh
# SPDX-License-Identifier: MIT
# Layout noise: how far the cycles of a benchmark whose code did not change
# move when other code moves, with cold and with warm simulated caches.
#
# Every example is rebuilt in several layouts: with padding code of several
# sizes linked before it (which shifts every function of the example and of
# libbm by that many bytes) and with its functions reordered (one section
# per function, sorted by name).  Each layout runs under bm-run --cold and
# --warm; per benchmark the spread is (max - min) / min of its cycles over
# the layouts.  The table gives, per example, the largest and the median
# spread of its benchmarks, cold and warm.
#
# usage: bench/layout.sh [BUILD_DIR]   (default: build)
# Environment: BM_LAYOUT_PADS (padding sizes in bytes, default
# "0 24 64 200 1000 4000 12345"), CC (default gcc).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run/bm-run
libbm=$build/instrument/libbm/.libs/libbm.a
pads=${BM_LAYOUT_PADS:-0 24 64 200 1000 4000 12345}
cc=${CC:-gcc}
command -v perl >/dev/null || { echo "layout.sh: perl not found" >&2; exit 2; }
[ -x "$bmrun" ] && [ -f "$libbm" ] || { echo "layout.sh: build bm first (make)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-layout.XXXXXX")
[ -n "${BM_LAYOUT_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
examples="hashtable sort parse fileio"

# Padding: one function of N bytes of code, linked before the example.
pad_object() {
	cat >"$work/pad$1.c" <<EOC
__attribute__((used, noinline)) void bm_layout_padding(void)
{
	__asm__ volatile(".skip $1, 0x90");
}
EOC
	$cc -O2 -c -o "$work/pad$1.o" "$work/pad$1.c"
}

# build LAYOUT EXAMPLE [extra compiler and linker flags...]
build() {
	layout=$1 example=$2
	shift 2
	mkdir -p "$work/$layout"
	$cc -O2 -g -I"$top/instrument" "$@" -o "$work/$layout/$example" "$top/examples/$example.c" \
		"$libbm" -static -Wl,-z,now
}

echo "building the examples in every layout..." >&2
layouts=
for n in $pads; do
	pad_object "$n"
	for e in $examples; do build "pad$n" "$e" "$work/pad$n.o"; done
	layouts="$layouts pad$n"
done
for e in $examples; do build sorted "$e" -ffunction-sections -Wl,--sort-section=name; done
layouts="$layouts sorted"

# cycles REPORT: "id cycles" per benchmark that ran.
cycles() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		print "$_->{id} $_->{cycles}\n" for grep { $_->{status} eq "ok" } @{$j->{benchmarks}}' "$1"
}

for layout in $layouts; do
	for e in $examples; do echo "$work/$layout/$e"; done >"$work/$layout/manifest"
	for mode in cold warm; do
		echo "running layout $layout, $mode caches..." >&2
		"$bmrun" -q --no-profile "--$mode" --manifest "$work/$layout/manifest" \
			-o "$work/$layout/$mode.json" >/dev/null 2>&1 || true
		cycles "$work/$layout/$mode.json" >"$work/$layout/$mode.cycles"
	done
done

# spread MODE: "example largest median" per example, over every layout.
spread() {
	for layout in $layouts; do cat "$work/$layout/$1.cycles"; done | perl -e '
		my %c; while (<STDIN>) { my ($id, $n) = split; push @{$c{$id}}, $n }
		my %by;
		for my $id (keys %c) { my @v = sort { $a <=> $b } @{$c{$id}};
			my ($suite) = $id =~ /^([^:]+)::/; push @{$by{$suite}}, ($v[-1] - $v[0]) / $v[0] }
		for my $s (sort keys %by) { my @r = sort { $a <=> $b } @{$by{$s}};
			printf "%s %d %.3f%% %.3f%%\n", $s, scalar @r, 100 * $r[-1], 100 * $r[$#r / 2] }'
}
spread cold >"$work/cold.spread"
spread warm >"$work/warm.spread"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
cat <<EOM
## Layout noise ($(date -u +%Y-%m-%d), $cpu; layouts:$layouts)

Spread of each benchmark's cycles over the layouts, (max - min) / min; per
example the largest and the median over its benchmarks.

| example | benchmarks | cold: largest | cold: median | warm: largest | warm: median |
| --- | --- | --- | --- | --- | --- |
EOM
join "$work/cold.spread" "$work/warm.spread" | while read -r s n cmax cmed _ wmax wmed; do
	echo "| $s | $n | $cmax | $cmed | $wmax | $wmed |"
done
