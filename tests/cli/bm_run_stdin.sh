#!/bin/sh
# SPDX-License-Identifier: MIT
# What the measured program reads on standard input (issue 23): bm-run's
# own standard input when it is a file or a pipe, read once, fed the same
# way to every run as a regular file, its size and SHA-256 in the report
# and in the series identity, so that runs on other input never compare;
# --stdin FILE; a terminal, /dev/null and an empty input give /dev/null.
. "$(dirname "$0")/lib.sh"

BM_CHECK="$top_builddir/uploader/bm-check"
wc=$(command -v wc)
printf 'hello world\n' >"$scratch/in.txt"
digest=$(sha256sum "$scratch/in.txt" | cut -d' ' -f1)
stdin_of() { json_get "$1" 'my $s = $j->{stdin}; $s ? "$s->{bytes} $s->{sha256}" : "none"'; }
cycles_of() { json_get "$1" '$j->{benchmarks}[0]{cycles}'; }

# -- a pipe --
printf 'hello world\n' | "$BM_RUN" -v --whole -o "$scratch/piped.json" -- "$wc" -c >/dev/null 2>"$scratch/err"
check_eq "a pipe: exit 0, the program read what was piped" "0 12" "$? $(sed -n 's/^  | //p' "$scratch/err")"
check_eq "a pipe: its size and SHA-256 in the report" "12 $digest" "$(stdin_of "$scratch/piped.json")"

# -- --stdin FILE, whatever bm-run's own standard input is --
"$BM_RUN" -q --whole --stdin "$scratch/in.txt" -o "$scratch/file.json" -- "$wc" -c </dev/null
check_eq "--stdin FILE: exit 0, the same input recorded" "0 12 $digest" "$? $(stdin_of "$scratch/file.json")"
check_eq "--stdin FILE and the same bytes piped: the same cycles (the program reads a regular file either way)" \
	"$(cycles_of "$scratch/piped.json")" "$(cycles_of "$scratch/file.json")"

# -- none --
"$BM_RUN" -q --whole -o "$scratch/null.json" -- "$wc" -c </dev/null
check_eq "/dev/null: nothing recorded" "0 none" "$? $(stdin_of "$scratch/null.json")"
check "/dev/null: other cycles than with input" test "$(cycles_of "$scratch/null.json")" != "$(cycles_of "$scratch/file.json")"
printf '' | "$BM_RUN" -q --whole -o "$scratch/empty.json" -- "$wc" -c
check_eq "an empty pipe: as /dev/null, the same cycles" "0 none $(cycles_of "$scratch/null.json")" \
	"$? $(stdin_of "$scratch/empty.json") $(cycles_of "$scratch/empty.json")"
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$BM_RUN' --whole -o '$scratch/tty.json' -- '$wc' -c" /dev/null >"$scratch/tty.out" 2>&1
	check_eq "a terminal: /dev/null, and a word saying so" "0 none $(cycles_of "$scratch/null.json")" \
		"$? $(stdin_of "$scratch/tty.json") $(cycles_of "$scratch/tty.json")"
	check "a terminal: the word" grep -q "standard input is a terminal: the program reads /dev/null" "$scratch/tty.out"
else
	ok "# SKIP a terminal: no script(1)"
fi

# -- every run gets all of it --
printf 'hello world\n' | "$BM_RUN" -q --verify --whole -o "$scratch/verify.json" -- "$wc" -c 2>"$scratch/err"
check_eq "--verify: both runs read the same input" "0 $(cycles_of "$scratch/piped.json")" \
	"$? $(cycles_of "$scratch/verify.json")"

# -- a pipe that stays open a while: said, then read --
# The writer waits for bm-run's word (a minute at most), however long
# bm-run takes to start.
said() { grep -q "waiting for standard input to end" "$scratch/slow.err" 2>/dev/null; }
(tries=0; until said || [ $tries -ge 600 ]; do sleep 0.1; tries=$((tries + 1)); done; printf 'hello world\n') |
	"$BM_RUN" -q --whole -o "$scratch/slow.json" -- "$wc" -c 2>"$scratch/slow.err"
check_eq "a slow pipe: read to its end" "0 12 $digest" "$? $(stdin_of "$scratch/slow.json")"
check "a slow pipe: bm-run says what it waits for" said

# -- errors: exit 2, nothing written --
"$BM_RUN" -q --whole --stdin "$scratch/missing" -o "$scratch/missing.json" -- "$wc" -c 2>"$scratch/err"
check_eq "--stdin of a missing file: exit 2, said" \
	"2 bm-run: cannot read --stdin '$scratch/missing': No such file or directory" "$? $(cat "$scratch/err")"
check "--stdin of a missing file: no report" test ! -e "$scratch/missing.json"
"$BM_RUN" -q --whole --stdin "$scratch" -o "$scratch/dir.json" -- "$wc" -c 2>"$scratch/err"
check_eq "--stdin of a directory: exit 2, said" \
	"2 bm-run: cannot read '$scratch': Is a directory" "$? $(cat "$scratch/err")"

# -- libbm programs read nothing, and bm-run leaves its input to the
# script that runs it (a while-read loop keeps its list) --
cases="$PROGRAMS/cases"
printf '1\n2\n' | { read -r first; "$BM_RUN" -q -o "$scratch/harness.json" -- "$cases" --filter 'cases::compute*' >/dev/null 2>&1; read -r second; echo "$first $second"; } >"$scratch/loop"
check_eq "a libbm program: bm-run reads none of its standard input, records none" "1 2 none" \
	"$(cat "$scratch/loop") $(stdin_of "$scratch/harness.json")"
"$BM_RUN" -q --stdin "$scratch/in.txt" -- "$cases" --filter 'cases::compute*' >/dev/null 2>"$scratch/err"
check_eq "--stdin with a libbm program: exit 2, said" \
	"2 bm-run: --stdin feeds a program measured as it runs (whole-process or symbol mode); the benchmarks of a program that links libbm read no standard input (read the file in a setup)" \
	"$? $(cat "$scratch/err")"

# -- runs on other input never compare --
"$BM_CHECK" --base "$scratch/null.json" --head "$scratch/piped.json" >"$scratch/out" 2>"$scratch/err"
check_eq "bm-check: other input, exit 2" 2 $?
check "bm-check: says which field differs" grep -q "standard input: none in '$scratch/null.json', '$(echo "$digest" | cut -c1-16)' in" "$scratch/err"
"$BM_CHECK" --base "$scratch/file.json" --head "$scratch/piped.json" >/dev/null 2>&1
check_eq "bm-check: the same input compares" 0 $?

# -- --print-command: runs as printed, as often as wanted --
"$BM_RUN" --print-command --whole --stdin "$scratch/in.txt" -- "$wc" -c >"$scratch/cmd.sh"
check "--print-command: the input as a redirection" grep -q "<$scratch/in.txt >program.out" "$scratch/cmd.sh"
sed "s|mktemp -d /tmp/|mktemp -d $scratch/|" "$scratch/cmd.sh" >"$scratch/cmd-here.sh"
(sh "$scratch/cmd-here.sh" && sh "$scratch/cmd-here.sh") >/dev/null 2>&1
check_eq "--print-command: run twice as printed, both read the input" "12 12" \
	"$(cat "$scratch"/bm-run.*/program.out | tr '\n' ' ' | sed 's/ $//')"
"$BM_RUN" --print-command --whole -- "$wc" -c </dev/null >"$scratch/cmd.sh"
check "--print-command: /dev/null as bm-run would" grep -q "</dev/null >program.out" "$scratch/cmd.sh"

done_testing
