#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-run against a hostile user: program names execvp would not run, a
# benchmark that kills its harness, benchmarks that exit, close or replace
# its control descriptor or exec, programs that exec, output paths that
# cannot be written (found before any work), and programs that leave
# processes running however they detach (bm-run kills them and says so).
. "$(dirname "$0")/lib.sh"

cases="$PROGRAMS/cases"

# A Valgrind that writes down how it was started: "--version" alone means
# no program ran.
real_valgrind=$(command -v valgrind.bin || echo /usr/bin/valgrind.bin)
printf '#!/bin/sh\necho "$*" >>"%s/valgrind.calls"\nexec "%s" "$@"\n' "$scratch" "$real_valgrind" \
	>"$scratch/valgrind"
chmod +x "$scratch/valgrind"
calls() { cat "$scratch/valgrind.calls" 2>/dev/null | sed 's/ .*//' | tr '\n' ' ' | sed 's/ $//'; }

# The processes whose command line starts with "sleep SECONDS".
running() {
	for f in /proc/[0-9]*/cmdline; do
		{ tr '\0' ' ' <"$f"; } 2>/dev/null
		echo
	done | grep -c "^sleep $1 *\$"
}

# -- programs as execvp finds them --
"$BM_RUN" -- "" >"$scratch/out" 2>"$scratch/err"
check_eq "an empty program name: exit 2, one line" "2 bm-run: the program's name is empty" \
	"$? $(cat "$scratch/err")"

mkdir -p "$scratch/bin/true"
: >"$scratch/bin/echo"
PATH="$scratch/bin:$PATH" "$BM_RUN" -q -o "$scratch/path.json" -- true >/dev/null 2>"$scratch/err"
check_eq "a directory on PATH named like the program is skipped" "0 true" \
	"$? $(json_get "$scratch/path.json" '($j->{binary}{path} =~ m{^/usr/bin/|^/bin/} ? "" : "in $j->{binary}{path}: ") . $j->{benchmarks}[0]{id}')"
PATH="$scratch/bin:$PATH" "$BM_RUN" -q -o "$scratch/path.json" -- echo >/dev/null 2>"$scratch/err"
check_eq "a file on PATH without an execute bit is skipped" "0 echo" \
	"$? $(json_get "$scratch/path.json" '$j->{benchmarks}[0]{id}')"

: >"$scratch/valgrind.calls"
PATH="$scratch/bin" BM_VALGRIND="$scratch/valgrind" "$BM_RUN" -- true >/dev/null 2>"$scratch/err"
check_eq "found only as a directory on PATH: exit 2, one line" "2 bm-run: cannot run 'true': not found in PATH" \
	"$? $(cat "$scratch/err")"
BM_VALGRIND="$scratch/valgrind" "$BM_RUN" -- "$scratch/bin/true" >/dev/null 2>"$scratch/err"
check_eq "a directory as the program: exit 2, one line" "2 bm-run: cannot run '$scratch/bin/true': it is a directory" \
	"$? $(cat "$scratch/err")"
BM_VALGRIND="$scratch/valgrind" "$BM_RUN" -- "$scratch/bin/echo" >/dev/null 2>"$scratch/err"
check_eq "a program without an execute bit: exit 2, one line" \
	"2 bm-run: cannot run '$scratch/bin/echo': it is not executable (chmod +x?)" "$? $(cat "$scratch/err")"
check_eq "... and Valgrind never ran a program" "--version --version --version" "$(calls)"

# -- benchmarks that attack their harness (tests/programs/hostile.c) --
if [ -x "$PROGRAMS/hostile" ]; then
	"$BM_RUN" -o "$scratch/kill.json" -- "$PROGRAMS/hostile" --filter 'hostile::kill_harness' \
		--filter 'hostile::next' >/dev/null 2>"$scratch/err"
	check_eq "a benchmark that kills the harness fails; the next one runs" \
		"1 hostile::kill_harness failed killed by signal 9 (Killed) while it ran
hostile::next ok" \
		"$? $(json_get "$scratch/kill.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}')"
	"$BM_RUN" --cold -o "$scratch/bdaemon.json" -- "$PROGRAMS/hostile" --filter 'hostile::daemon' \
		--filter 'hostile::next' >/dev/null 2>"$scratch/err"
	# What is killed is named as it is then: the daemon's own process
	# (Valgrind's, until it has run exec) or sleep.
	check_eq "a benchmark that leaves a daemon fails for it; the next one runs" \
		"1 hostile::daemon failed left PROCESSES running
hostile::next ok" \
		"$? $(json_get "$scratch/bdaemon.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}' |
			sed 's/left \(a process\|[0-9]* processes\) running: .*/left PROCESSES running/')"
	check_eq "... and it is not left" 0 "$(running 7265)"

	# Benchmarks that end without telling the harness: bm-run says how,
	# from what their processes left (no "not run" for what ran).
	for engine in bm callgrind; do
		"$BM_RUN" --engine $engine -o "$scratch/ends.$engine.json" -- "$PROGRAMS/hostile" \
			--filter 'hostile::exit_zero' --filter 'hostile::*_control' --filter 'hostile::exec_shell' \
			--filter 'hostile::next' >/dev/null 2>"$scratch/ends.$engine.err"
		echo $? >"$scratch/ends.$engine.rc"
	done
	check_eq "benchmarks that exit, lose fd 3 or exec fail, each saying how; the next one runs" \
		"1 hostile::close_control failed ran, but libbm's word that it was done never reached bm-run: the benchmark closed or replaced the harness's control descriptor (fd 3, BM_CONTROL), or exited in its teardown; leave fd 3 open, and return from teardown
hostile::dup2_control failed ran, but libbm's word that it was done never reached bm-run: the benchmark closed or replaced the harness's control descriptor (fd 3, BM_CONTROL), or exited in its teardown; leave fd 3 open, and return from teardown
hostile::exec_shell failed replaced its process with exec inside the benchmark (pid N), which Valgrind does not follow, so nothing was measured: a benchmark must not call exec (fork, and exec in the child); measure a program with bm-run -- PROGRAM
hostile::exit_zero failed exited (status 0) inside the benchmark, before libbm could record it: setup, run and teardown must return, not call exit or _exit
hostile::next ok" \
		"$(cat "$scratch/ends.bm.rc") $(json_get "$scratch/ends.bm.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}' |
			sed 's/(pid [0-9]*)/(pid N)/')"
	check_eq "... the same with --engine callgrind" \
		"$(cat "$scratch/ends.bm.rc") $(json_get "$scratch/ends.bm.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}' | sed 's/(pid [0-9]*)/(pid N)/')" \
		"$(cat "$scratch/ends.callgrind.rc") $(json_get "$scratch/ends.callgrind.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}' | sed 's/(pid [0-9]*)/(pid N)/')"
	check "... said on stderr too" grep -q "^bm-run: 'hostile::exit_zero' exited (status 0) inside the benchmark" \
		"$scratch/ends.bm.err"

	"$BM_RUN" --env HOSTILE_EXEC_STATUS=3 -o "$scratch/exec3.json" -- "$PROGRAMS/hostile" \
		--filter 'hostile::exec_shell' >/dev/null 2>&1
	check_eq "a benchmark that execs a program that fails: exec, and that program's status" \
		"1 replaced its process with exec inside the benchmark (pid N; what it ran exited with status 3), which Valgrind" \
		"$? $(json_get "$scratch/exec3.json" '$j->{benchmarks}[0]{reason}' | sed -e 's/(pid [0-9]*/(pid N/' -e 's/ does not follow.*//')"

	"$BM_RUN" --env HOSTILE_EXEC_MAIN=1 -o "$scratch/execmain.json" -- "$PROGRAMS/hostile" >/dev/null 2>&1
	check_eq "a program whose main execs itself: that, not 'ran no benchmark'" \
		"1 hostile failed replaced itself with exec before it ran any benchmark (pid N), which Valgrind does not follow, so nothing was measured: call bm_main in the process that bm-run starts, or measure the program it runs with bm-run -- PROGRAM" \
		"$? $(json_get "$scratch/execmain.json" 'join " ", map { @$_{qw(id status reason)} } @{$j->{benchmarks}}' | sed 's/(pid [0-9]*)/(pid N)/')"
else
	for t in "a benchmark that kills the harness" "a benchmark that leaves a daemon" "... and it is not left" \
		"benchmarks that exit, lose fd 3 or exec" "... with --engine callgrind" "... said on stderr too" \
		"a benchmark that execs a program that fails" "a program whose main execs itself"; do
		ok "$t # SKIP tests/programs/hostile is not built"
	done
fi

# A program measured whole that runs exec (as sh -c does with its last
# command): what it ran is not measured, and bm-run says so.
for engine in bm callgrind; do
	"$BM_RUN" --engine $engine -o "$scratch/exec.$engine.json" -- sh -c 'exec /bin/true' >/dev/null 2>"$scratch/exec.$engine.err"
	check_eq "whole-process mode, --engine $engine: a program that execs fails, saying so" \
		"1 dash failed replaced itself with exec (pid N), which Valgrind does not follow, so nothing was measured: measure the program it runs with bm-run -- PROGRAM ARGS (sh -c 'PROGRAM ARGS' may exec it)" \
		"$? $(json_get "$scratch/exec.$engine.json" 'join " ", map { @$_{qw(id status reason)} } @{$j->{benchmarks}}' | sed 's/(pid [0-9]*)/(pid N)/')"
done

# -- output paths, checked before any work --
rm -f "$scratch/valgrind.calls"
BM_VALGRIND="$scratch/valgrind" "$BM_RUN" -o "$scratch" -- "$cases" >/dev/null 2>"$scratch/err"
check_eq "-o DIRECTORY: exit 2, one line" "2 bm-run: cannot write '$scratch': Is a directory" "$? $(cat "$scratch/err")"
BM_VALGRIND="$scratch/valgrind" "$BM_RUN" --keep /proc/self -- "$cases" >/dev/null 2>"$scratch/err"
check_eq "--keep into a directory that takes no files: exit 2, one line" \
	"2 1 bm-run: --keep: cannot write in '/proc/self'" "$? $(wc -l <"$scratch/err") $(sed 's/: [^:]*$//' "$scratch/err")"
BM_VALGRIND="$scratch/valgrind" "$BM_RUN" --keep "$scratch/bin/echo/x" -- "$cases" >/dev/null 2>"$scratch/err"
check_eq "--keep under a file: exit 2, one line" "2 bm-run: --keep: '$scratch/bin/echo' is not a directory" \
	"$? $(cat "$scratch/err")"
check_eq "... before Valgrind started at all" "" "$(calls)"
"$BM_RUN" -q --keep "$scratch/kept" -o "$scratch/kept.json" -- /bin/true >/dev/null 2>&1
check_eq "--keep: only the callgrind file is left in DIR" "true.callgrind" "$(ls -A "$scratch/kept" | tr '\n' ' ' | sed 's/ $//')"

# -- processes left running --
"$BM_RUN" --whole -o "$scratch/daemon.json" -- \
	sh -c 'setsid sleep 7261 & (cd / && setsid sleep 7261 </dev/null >/dev/null 2>&1 &); echo started' \
	>"$scratch/out" 2>"$scratch/err"
check_eq "a program that leaves daemons: exit 1, failed, and what bm-run killed" \
	"1 failed left 2 processes running" \
	"$? $(json_get "$scratch/daemon.json" 'join " ", @{$j->{benchmarks}[0]}{qw(status reason)}' | sed 's/: .*//')"
check_eq "... none of them is left" 0 "$(running 7261)"
check "... said on stderr" grep -q "^bm-run: '/usr/bin/dash' left 2 processes running: " "$scratch/err"

printf '%s\n' "sh -c 'setsid sleep 7262 &'" /bin/true "sh -c 'setsid sleep 7262 & sleep 1'" >"$scratch/manifest"
"$BM_RUN" -q -j 3 -o "$scratch/parallel.json" --manifest "$scratch/manifest" \
	>/dev/null 2>&1
check_eq "-j 3: each leftover is its own program's" \
	"dash failed left a process running
true ok
dash#2 failed left a process running" \
	"$(json_get "$scratch/parallel.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}' |
		sed 's/ running: .*/ running/')"
check_eq "-j 3: none left" 0 "$(running 7262)"

"$BM_RUN" -q --whole -- sh -c 'setsid sleep 7263 & sleep 7264' >/dev/null 2>&1 &
bm_run=$!
tries=0
while [ "$(running 7263)" = 0 ] && [ $tries -lt 600 ]; do
	sleep 0.1
	tries=$((tries + 1))
done
kill -INT $bm_run
wait $bm_run
check_eq "interrupted: it dies of SIGINT (exit 130 in the shell)" 130 $?
check_eq "interrupted: nothing left" "0 0" "$(running 7263) $(running 7264)"

done_testing
