#!/bin/sh
# SPDX-License-Identifier: MIT
# Determinism of bm-run on the examples: every benchmark's events (all but
# the system-call times, which are clock readings) and cycles across 10
# runs and under environment variations must be identical.  Then what each
# of bm-run's defences buys: the same examples with one of them undone.
#
# usage: bench/determinism.sh [BUILD_DIR]   (default: build)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bmrun=$build/instrument/bm-run/bm-run
runs=${BM_BENCH_RUNS:-10}
command -v perl >/dev/null || { echo "determinism.sh: perl not found" >&2; exit 2; }
[ -x "$bmrun" ] && [ -x "$build/examples/sort" ] ||
	{ echo "determinism.sh: build bm and its examples first (make && make examples)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-determinism.XXXXXX")
trap 'rm -rf "$work"' EXIT
for e in hashtable sort parse fileio; do echo "$build/examples/$e"; done >"$work/manifest"

# numbers REPORT: "id cycles events..." per benchmark that ran.
numbers() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		for my $b (@{$j->{benchmarks}}) { next if $b->{status} ne "ok"; my $e = $b->{events};
			print join(" ", $b->{id}, "cycles=$b->{cycles}", map { "$_=$e->{$_}" } grep { !/^sys(Cpu)?Time$/ } sort keys %$e), "\n" }' "$1"
}

# run LABEL [bm-run options] : the examples, into $work/LABEL.numbers
run() {
	label=$1
	shift
	"$bmrun" -q --no-profile "$@" --manifest "$work/manifest" -o "$work/$label.json" >/dev/null 2>&1 || true
	numbers "$work/$label.json" >"$work/$label.numbers"
}

echo "running the examples $runs times and under variations..." >&2
i=1
while [ "$i" -le "$runs" ]; do
	run "run$i"
	i=$((i + 1))
done
big=$(head -c 100000 /dev/zero | tr '\0' x)
(export HUGE="$big" LC_ALL=C.UTF-8 TZ=Asia/Tokyo && run bigenv)
long=$work/a/working/directory/much/longer/than/the/others/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
mkdir -p "$long"
(cd "$long" && run longcwd)
mkdir -p "$work/deeper/path/to/the/programs/zzzzzzzzzzzzzzzzzzzz"
for e in hashtable sort parse fileio; do
	cp "$build/examples/$e" "$work/deeper/path/to/the/programs/zzzzzzzzzzzzzzzzzzzz/"
	echo "$work/deeper/path/to/the/programs/zzzzzzzzzzzzzzzzzzzz/$e"
done >"$work/manifest.deep"
cp "$work/manifest" "$work/manifest.keep"
cp "$work/manifest.deep" "$work/manifest"
run longargv0
cp "$work/manifest.keep" "$work/manifest"
run parallel -j 4

benchmarks=$(wc -l <"$work/run1.numbers")
# distinct LABEL...: how many benchmarks differ from run1 in any of them.
differing() {
	n=0
	for label in "$@"; do
		if ! cmp -s "$work/run1.numbers" "$work/$label.numbers"; then
			n=$((n + $(diff "$work/run1.numbers" "$work/$label.numbers" | grep -c '^>' || true)))
		fi
	done
	echo "$n"
}
all_runs=$(i=2; while [ "$i" -le "$runs" ]; do printf 'run%d ' "$i"; i=$((i + 1)); done)

echo "undoing one defence at a time..." >&2
run nomask --env GLIBC_TUNABLES=
cycles_changed() {
	perl -e 'sub load { my ($path) = @_; my %c; open my $f, "<", $path or die;
			while (my $l = <$f>) { $c{$1} = $2 if $l =~ /^(\S+) cycles=(\d+)/ } return %c }
		my %a = load($ARGV[0]); my %b = load($ARGV[1]); my ($n, $max) = (0, 0);
		for my $id (keys %a) { next if !exists $b{$id} || $a{$id} == $b{$id};
			$n++; my $r = abs($b{$id} - $a{$id}) / $a{$id}; $max = $r if $r > $max }
		printf "%d of %d | %.1f%%\n", $n, scalar keys %a, 100 * $max' "$work/run1.numbers" "$work/$1.numbers"
}

cat <<EOM
## Determinism of the examples ($(date -u +%Y-%m-%d), $benchmarks benchmarks, events and cycles compared)

| condition | benchmarks that differ from run 1 |
| --- | --- |
| $runs runs in a row | $(differing $all_runs) |
| 100 KB extra environment variable, other locale and TZ | $(differing bigenv) |
| working directory of another length | $(differing longcwd) |
| programs at a longer path (argv[0]) | $(differing longargv0) |
| -j 4 (four Valgrind processes at once) | $(differing parallel) |

What each defence buys (the same examples with it undone; changed cycles against run 1):

| undone | benchmarks whose cycles change | largest change |
| --- | --- | --- |
| GLIBC_TUNABLES (the host's CPU features choose memcpy, strlen, ...) | $(cycles_changed nomask) |
EOM
