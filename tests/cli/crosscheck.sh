#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-profile against Valgrind's own callgrind_annotate on the same files:
# the totals and every function's self cost, for every event, must be
# equal.  Functions are compared by name (summed over their entries):
# callgrind_annotate splits a function by the file of inlined code, bm
# keeps one entry per function and puts inlined files in its line costs.
#
# callgrind_annotate 3.19 reads the cost line after "calls=0" (callgrind
# writes it for frames entered before collection started) as self cost; bm
# reads it as the call's inclusive cost, as the format says.  The copy
# given to callgrind_annotate says calls=1 there (call counts are not
# compared), so both read the same costs.  Likewise callgrind_annotate
# prints a non-zero summary: line as the program totals (whole-program runs:
# it also counts the final exit system call, which no cost line carries);
# bm's totals are the totals: line, the sum of the cost lines, so that the
# functions add up to them.  The copy drops the summary: line.
. "$(dirname "$0")/lib.sh"

: "${CALLGRIND_ANNOTATE:=callgrind_annotate}"

# annotate_costs FILE: "function<TAB>event<TAB>value" from callgrind_annotate,
# plus "*totals*" rows.
annotate_costs() {
	sed -e 's/^calls=0 /calls=1 /' -e '/^summary:/d' "$1" >"$scratch/annotate.in"
	(cd "$scratch" && "$CALLGRIND_ANNOTATE" --threshold=100 --inclusive=no --auto=no annotate.in) |
		awk '
		function value(tok) { gsub(",", "", tok); return tok == "." ? 0 : tok }
		# Splits the n leading cost columns off line into col[]; returns the rest.
		function costs(line,    i) {
			gsub(/\( *[0-9.]+%\)/, "", line)
			for (i = 1; i <= n; i++) {
				sub(/^ +/, "", line)
				match(line, /^[0-9.,]+/)
				col[i] = value(substr(line, 1, RLENGTH))
				line = substr(line, RLENGTH + 1)
			}
			sub(/^ +/, "", line)
			return line
		}
		/^Events shown:/ { n = NF - 2; for (i = 3; i <= NF; i++) ev[i - 2] = $i; next }
		/PROGRAM TOTALS$/ {
			costs($0)
			for (i = 1; i <= n; i++) if (col[i] != 0) print "*totals*\t" ev[i] "\t" col[i]
			next
		}
		/file:function$/ { infns = 1; getline; next }
		infns && /^-*$/ { infns = 0 }
		infns {
			name = costs($0)
			sub(/ \[[^]]*\]$/, "", name)
			sub(/^[^:]*:/, "", name)
			for (i = 1; i <= n; i++) if (col[i] != 0) print name "\t" ev[i] "\t" col[i]
		}'
}

# bm_costs FILE: the same rows from bm-profile's --tsv and text views.
bm_costs() {
	"$BM_PROFILE" --tsv "$1" | awk -F'\t' '
		NR == 1 { for (i = 8; i <= NF; i++) ev[i] = $i; next }
		{ for (i = 8; i <= NF; i++) if ($i != "" && $i != 0) print $2 "\t" ev[i] "\t" $i }'
	"$BM_PROFILE" "$1" | awk '/^  events / {
		for (i = 2; i < NF; i += 2) { v = $(i + 1); gsub(",", "", v); if (v != 0) print "*totals*\t" $i "\t" v } }'
}

# summed FILE: rows with the same function and event added up, sorted.
summed() {
	awk -F'\t' '{ s[$1 "\t" $2] += $3 } END { for (k in s) printf "%s\t%.0f\n", k, s[k] }' "$1" | LC_ALL=C sort
}

crosscheck() {
	label=$1
	file=$2
	annotate_costs "$file" >"$scratch/a.raw"
	bm_costs "$file" >"$scratch/b.raw"
	summed "$scratch/a.raw" >"$scratch/a"
	summed "$scratch/b.raw" >"$scratch/b"
	if [ "$(grep -c '^\*totals\*' "$scratch/a")" -lt 1 ] || [ "$(wc -l <"$scratch/a")" -lt 3 ]; then
		not_ok "$label: callgrind_annotate printed no costs"
		return
	fi
	check_output "$label: totals and self costs equal callgrind_annotate's ($(wc -l <"$scratch/a") values)" \
		"$scratch/a" "$scratch/b"
}

callgrind "$scratch/fib" fib || exit 1
for f in "$scratch"/fib.*.out.[12]; do
	crosscheck "fib region $(basename "$f" | sed 's/.*\.//')" "$f"
done
callgrind "$scratch/io" syscalls 2 || exit 1
crosscheck "system calls" "$(ls "$scratch"/io.*.out.1)"
callgrind "$scratch/sort" sort || exit 1
crosscheck "qsort with callbacks and inlined code" "$(ls "$scratch"/sort.*.out.1)"
CALLGRIND_OPTS="--instr-atstart=yes --branch-sim=yes" callgrind "$scratch/whole" whole || exit 1
crosscheck "whole program with calls=0 and branch simulation" "$(ls "$scratch"/whole.*.out)"
CALLGRIND_OPTS="--dump-instr=yes --collect-jumps=yes" callgrind "$scratch/instr" sort || exit 1
crosscheck "instruction positions and jumps" "$(ls "$scratch"/instr.*.out.1)"
CALLGRIND_OPTS="--compress-strings=no --compress-pos=no" callgrind "$scratch/plain" sort || exit 1
crosscheck "no name or position compression" "$(ls "$scratch"/plain.*.out.1)"
CALLGRIND_CACHE=--cache-sim=no callgrind "$scratch/nocache" fib || exit 1
crosscheck "no cache simulation" "$(ls "$scratch"/nocache.*.out.1)"
CALLGRIND_OPTS=--separate-threads=yes callgrind "$scratch/thr" threads || exit 1
for f in "$scratch"/thr.*.out-0[23]; do
	crosscheck "thread file $(basename "$f" | sed 's/.*-//')" "$f"
done

done_testing
