#!/bin/sh
# SPDX-License-Identifier: MIT
# Parser throughput: bm-profile against callgrind_annotate on the same large
# callgrind file, side by side in one hyperfine run, reported as a ratio,
# with a check that both print the same totals.  Then peak memory on two
# files of the same program (same functions) whose sizes differ 5x, to show
# that memory follows the number of functions, not the file size.
#
# The large file is made here: callgrind on gcc's cc1 compiling one of bm's
# sources, with instruction positions, jumps and call-chain contexts
# (--separate-callers=2), which gives about 57 MB and 56,000 functions.
#
# usage: bench/parser.sh [BUILD_DIR]   (default: build, as ./quickstart makes)
# Needs: valgrind, gcc, hyperfine, GNU time (apt-get install hyperfine time).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
profile=$build/simulator/bm-profile
runs=${BM_BENCH_RUNS:-5}
for tool in valgrind.bin callgrind_annotate hyperfine gcc; do
	command -v "$tool" >/dev/null || { echo "parser.sh: '$tool' not found (apt-get install valgrind hyperfine gcc)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "parser.sh: GNU time not found (apt-get install time)" >&2; exit 2; }
[ -x "$profile" ] || { echo "parser.sh: no bm-profile in '$build' (run ./quickstart test or make first)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-parser.XXXXXX")
trap 'rm -rf "$work"' EXIT

# cc1 FILE_PREFIX [CALLGRIND OPTIONS]: the largest file callgrind writes
# while gcc compiles simulator/callgrind.c.
cc1() {
	prefix=$1
	shift
	valgrind.bin --tool=callgrind --trace-children=yes --cache-sim=yes \
		--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 "$@" \
		--callgrind-out-file="$work/$prefix.%p.out" \
		gcc -O2 -I"$build" -I"$top/lib" -c -o "$work/x.o" "$top/simulator/callgrind.c" >/dev/null 2>&1
	ls -S "$work/$prefix".*.out | head -n 1
}

echo "making the large callgrind file (about a minute)..." >&2
big=$(cc1 big --dump-instr=yes --collect-jumps=yes --separate-callers=2)
size_mb=$(awk -v b="$(wc -c <"$big")" 'BEGIN { printf "%.1f", b / 1048576 }')
functions=$("$profile" --tsv "$big" | tail -n +2 | wc -l)

# Identical totals: callgrind_annotate's PROGRAM TOTALS (from the totals:
# line, as the summary: line is dropped) against bm-profile's events.
sed '/^summary:/d' "$big" >"$work/annotate-input.out"
a_tot=$(callgrind_annotate --threshold=100 --auto=no "$work/annotate-input.out" |
	awk '/PROGRAM TOTALS$/ { gsub(/\( *[0-9.]+%\)/, ""); gsub(",", ""); NF -= 2; print }')
b_tot=$("$profile" --top 1 "$big" | awk '/^  events / { s = ""; for (i = 3; i <= NF; i += 2) { v = $i; gsub(",", "", v); s = s (s ? " " : "") v } print s }')
[ "$a_tot" = "$b_tot" ] && same=yes || same=NO

hyperfine --style basic --warmup 1 --runs "$runs" --export-json "$work/parse.json" \
	-n bm-profile "'$profile' --tsv '$big' >/dev/null" \
	-n callgrind_annotate "callgrind_annotate --threshold=100 --auto=no '$work/annotate-input.out' >/dev/null" >&2
ratio=$(awk '/"command": "bm-profile"/ { b = 1 } /"command": "callgrind_annotate"/ { a = 1 }
	/"mean":/ { gsub(/[ ,"a-z:]/, ""); if (a) am = $0; else if (b) bm = $0; a = b = 0 }
	END { printf "%.1f %.3f %.3f", am / bm, bm, am }' "$work/parse.json")
set -- $ratio

echo "making a smaller file of the same program (no instruction positions)..." >&2
small=$(cc1 small --separate-callers=2)
small_mb=$(awk -v b="$(wc -c <"$small")" 'BEGIN { printf "%.1f", b / 1048576 }')
small_functions=$("$profile" --tsv "$small" | tail -n +2 | wc -l)
rss_big=$(/usr/bin/time -f %M "$profile" --tsv "$big" 2>&1 >/dev/null | tail -n 1)
rss_small=$(/usr/bin/time -f %M "$profile" --tsv "$small" 2>&1 >/dev/null | tail -n 1)

cat <<EOM
## Parser throughput ($(date -u +%Y-%m-%d), $(nproc) cores)

| file | size | functions | bm-profile --tsv | callgrind_annotate | ratio | same totals |
| --- | --- | --- | --- | --- | --- | --- |
| cc1 compiling callgrind.c, --dump-instr=yes --collect-jumps=yes --separate-callers=2 | $size_mb MB | $functions | $2 s | $3 s | **$1x** | $same |

Peak memory of bm-profile (max RSS), same program and functions, different file sizes:

| file | size | functions | max RSS |
| --- | --- | --- | --- |
| with instruction positions and jumps | $size_mb MB | $functions | $((rss_big / 1024)) MB |
| without | $small_mb MB | $small_functions | $((rss_small / 1024)) MB |
EOM
[ "$same" = yes ]
