#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-profile from the command line: each output mode on real callgrind
# files, and the errors a user can meet.
. "$(dirname "$0")/lib.sh"

callgrind "$scratch/fib" fib || exit 1
callgrind "$scratch/io" syscalls 5 || exit 1
fib1=$(ls "$scratch"/fib.*.out.1)
fib2=$(ls "$scratch"/fib.*.out.2)
fibend=$(ls "$scratch"/fib.*.out)

# -- the text view --
"$BM_PROFILE" "$scratch"/fib.*.out* >"$scratch/text" 2>"$scratch/text.err"
check_eq "text: exits 0" 0 $?
check_eq "text: one section per region, the empty termination dump left out" \
	"== bench_fib
== bench_sum" "$(grep '^== ' "$scratch/text")"
check_eq "text: no warnings for a pinned, cache-simulated run" "" "$(cat "$scratch/text.err")"

# cycles = (Ir + Dr + Dw) + 4 * L1 misses + 30 * LL misses (bm-model/1: 1, 5, 35)
expected=$(awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
	/^totals:/ { for (i = 2; i <= NF; i++) v[i - 1] = $i
		a = v[col["Ir"]] + v[col["Dr"]] + v[col["Dw"]]
		l1 = v[col["I1mr"]] + v[col["D1mr"]] + v[col["D1mw"]]
		ll = v[col["ILmr"]] + v[col["DLmr"]] + v[col["DLmw"]]
		printf "%d\n", a + 4 * l1 + 30 * ll }' "$fib1")
actual=$(sed -n 's/^  cycles *\([0-9,]*\) .*/\1/p' "$scratch/text" | head -n 1 | tr -d ,)
check_eq "text: cycles follow bm-model/1 from the totals line" "$expected" "$actual"
check "text: time and speed at 3.0 GHz" grep -q "(bm-model/1 at 3.0 GHz)" "$scratch/text"

"$BM_PROFILE" --top 2 "$fib1" >"$scratch/top2"
check_eq "--top 2: two functions and a note about the rest" 2 \
	"$(grep -c '[0-9]%  ' "$scratch/top2")"
check "--top 2: says how to see all" grep -q -- "more functions\{0,1\} (--top 0 shows all)" "$scratch/top2"

"$BM_PROFILE" "$scratch"/io.*.out.1 >"$scratch/io.text"
check "text: system calls are listed by function, with callers" \
	grep -q '^ *5 .* write  *say_nothing (5)' "$scratch/io.text"
check "text: system calls are said not to be part of speed" \
	grep -q 'system calls by function (not part of cycles, time or speed)' "$scratch/io.text"

# -- JSON --
"$BM_PROFILE" --json "$scratch"/fib.*.out* >"$scratch/report.json"
check_eq "--json: a bm-report/1 with one benchmark per dump" "bm-report/1 2 bench_fib bench_sum" \
	"$(json_get "$scratch/report.json" 'join " ", $j->{schema}, scalar @{$j->{benchmarks}}, map { $_->{id} } @{$j->{benchmarks}}')"
check_eq "--json: cycles as in the text view" "$expected" \
	"$(json_get "$scratch/report.json" '$j->{benchmarks}[0]{cycles}')"
check_eq "--json: speed = frequency / cycles" "ok" \
	"$(json_get "$scratch/report.json" 'my $b = $j->{benchmarks}[0]; abs($b->{speed} - 3e9 / $b->{cycles}) < 1e-6 * $b->{speed} ? "ok" : "off"')"
check_eq "--json: the model and Valgrind's version are recorded" "bm-model/1 1 5 35 8388608 3.19.0" \
	"$(json_get "$scratch/report.json" 'my $m = $j->{model}; join " ", $m->{id}, @{$m->{weights}}{qw(l1_hit ll_hit ram)}, $m->{cache}{LL}[0], $j->{tool}{valgrind}')"
check_eq "--json: the profile lists functions with self and inclusive cycles" "fib'2" \
	"$(json_get "$scratch/report.json" 'my @f = sort { $b->{self_cycles} <=> $a->{self_cycles} } @{$j->{benchmarks}[0]{profile}{functions}}; $f[0]{name}')"
"$BM_PROFILE" --json --no-profile "$fib1" >"$scratch/small.json"
check_eq "--json --no-profile: no profile" "null" "$(json_get "$scratch/small.json" '$j->{benchmarks}[0]{profile}')"

"$BM_PROFILE" --json "$scratch"/io.*.out.1 >"$scratch/io.json"
check_eq "--json: system calls with count, wall and CPU time per function" "write 5 say_nothing 5" \
	"$(json_get "$scratch/io.json" 'my ($w) = grep { $_->{function} eq "write" } @{$j->{benchmarks}[0]{syscalls}{by_function}}; join " ", $w->{function}, $w->{count}, $w->{callers}[0]{function}, $w->{callers}[0]{calls}')"
check_eq "--json: system-call wall time covers the 5 ms sleep" "ok" \
	"$(json_get "$scratch/io.json" '$j->{benchmarks}[0]{syscalls}{wall_ns} >= 5e6 ? "ok" : "short"')"

# -- folded stacks, TSV --
"$BM_PROFILE" --folded "$fib1" >"$scratch/folded"
check_eq "--folded: the stacks add up to the cycles" "$expected" \
	"$(awk '{ s += $NF } END { print s }' "$scratch/folded")"
check "--folded: recursion shows as nested frames" grep -q "^main;fib;fib'2 " "$scratch/folded"
"$BM_PROFILE" --folded "$fib1" "$fib2" >"$scratch/folded2"
check_eq "--folded with several dumps: each stack starts with its benchmark" \
	"bench_fib bench_sum" "$(cut -d';' -f1 "$scratch/folded2" | sort -u | tr '\n' ' ' | sed 's/ $//')"
"$BM_PROFILE" --tsv "$fib1" >"$scratch/tsv"
check_eq "--tsv: a header and one row per function" \
	"benchmark function file object calls self_cycles inclusive_cycles Ir" \
	"$(head -n 1 "$scratch/tsv" | cut -f1-8 | tr '\t' ' ')"
check_eq "--tsv: self cycles add up to the cycles" "$expected" \
	"$(awk -F'\t' 'NR > 1 { s += $6 } END { print s }' "$scratch/tsv")"

# -- diff --
"$BM_PROFILE" --diff "$fib1" "$fib1" >"$scratch/same"
check "--diff of a profile with itself: nothing changed" grep -q "no function changed" "$scratch/same"
"$BM_PROFILE" --diff "$fib1" "$fib2" >"$scratch/diff"
check "--diff: the total change in percent" grep -q '^  cycles .* -> .* ([-+][0-9.]*%)' "$scratch/diff"
check "--diff: functions only in one side are marked" grep -q "fib'2 (gone)" "$scratch/diff"
"$BM_PROFILE" --diff --folded "$fib1" "$fib2" >"$scratch/diff.folded"
check_eq "--diff --folded: STACK BASE HEAD lines whose columns add up to each side" \
	"$expected $(sed -n 's/^  cycles *\([0-9,]*\) .*/\1/p' "$scratch/text" | sed -n 2p | tr -d ,)" \
	"$(awk '{ b += $(NF - 1); h += $NF } END { print b, h }' "$scratch/diff.folded")"

# -- output files --
"$BM_PROFILE" --json -o "$scratch/out.json" "$fib1" >"$scratch/stdout"
check "-o: the report is written to the file" grep -q '"schema": "bm-report/1"' "$scratch/out.json"
check_eq "-o: nothing on stdout" "" "$(cat "$scratch/stdout")"
"$BM_PROFILE" -o "$scratch/no/such/dir/x" "$fib1" 2>"$scratch/err"
check_eq "-o into a missing directory: exit 2" 2 $?
check "-o into a missing directory: says so" grep -q "^bm-profile: cannot write '$scratch/no/such/dir/x': No such file or directory" "$scratch/err"
"$BM_PROFILE" - <"$fib1" >"$scratch/stdin.text"
check "'-' reads standard input" grep -q '^== bench_fib' "$scratch/stdin.text"

# -- inputs that need a word --
CALLGRIND_OPTS=--separate-threads=yes callgrind "$scratch/thr" threads || exit 1
"$BM_PROFILE" "$scratch"/thr.*.out-0* >"$scratch/thr.text" 2>"$scratch/thr.err"
check "threads of one dump are joined" grep -q "threads (Program termination)" "$scratch/thr.text"
check "joined threads are flagged as approximate" grep -q "multi-threaded counts vary slightly" "$scratch/thr.err"
thrmain=$(ls "$scratch"/thr.*.out)
"$BM_PROFILE" "$thrmain" "$scratch"/thr.*.out.1-01 >/dev/null 2>"$scratch/empty.err"
check_eq "an empty file (as --separate-threads leaves) is skipped with a warning" \
	"bm-profile: warning: '$thrmain' is empty; skipped (callgrind leaves the main file empty with --separate-threads=yes)" \
	"$(head -n 1 "$scratch/empty.err")"
"$BM_PROFILE" "$thrmain" >/dev/null 2>"$scratch/empty.err"
check_eq "only empty files: exit 2" 2 $?

CALLGRIND_CACHE=--cache-sim=no callgrind "$scratch/nocache" fib || exit 1
"$BM_PROFILE" "$scratch"/nocache.*.out.1 >/dev/null 2>"$scratch/nocache.err"
check "no cache simulation: a warning" grep -q "has no cache simulation: cycles count every access as an L1 hit" "$scratch/nocache.err"
CALLGRIND_CACHE="--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=4194304,16,64" callgrind "$scratch/ll4" fib || exit 1
"$BM_PROFILE" "$scratch"/ll4.*.out.1 >/dev/null 2>"$scratch/ll4.err"
check "other cache geometry: a warning" grep -q "was simulated with other caches than bm-model/1 assumes" "$scratch/ll4.err"

# -- usage errors --
"$BM_PROFILE" >/dev/null 2>"$scratch/err"
check_eq "no file: exit 2" 2 $?
check "no file: says so" grep -q "^bm-profile: no callgrind file given" "$scratch/err"
"$BM_PROFILE" --top x "$fib1" >/dev/null 2>"$scratch/err"
check_eq "--top x: exit 2" 2 $?
"$BM_PROFILE" --json --folded "$fib1" >/dev/null 2>"$scratch/err"
check_eq "--json with --folded: exit 2" 2 $?
"$BM_PROFILE" --diff "$fib1" >/dev/null 2>"$scratch/err"
check "--diff with one file: says it needs two" grep -q "needs two files" "$scratch/err"
"$BM_PROFILE" --help >"$scratch/help"
check "--help: usage on stdout" grep -q "^usage: bm-profile" "$scratch/help"

done_testing
