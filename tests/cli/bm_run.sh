#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-run in its three modes, with benchmarks that succeed, fail every way
# they can, sleep and are skipped, and the errors a user can meet.
. "$(dirname "$0")/lib.sh"

cases="$PROGRAMS/cases"

# -- harness mode --
"$BM_RUN" -o "$scratch/ok.json" -- "$cases" --filter 'cases::compute*' --filter 'cases::memory*' \
	>"$scratch/ok.out" 2>"$scratch/ok.err"
check_eq "harness mode: exit 0 when every benchmark ran" 0 $?
check_eq "harness mode: one result per benchmark, in order" \
	"cases::compute[n=1000] ok
cases::compute[n=4000] ok
cases::memory[kib=64] ok
cases::memory[kib=1024] ok" "$(json_get "$scratch/ok.json" 'join "\n", map { "$_->{id} $_->{status}" } @{$j->{benchmarks}}')"
check "harness mode: a table with cycles, time, speed and system calls (no heap columns: nothing allocated)" \
	grep -q '^benchmark  *cycles  *time  *speed  *syscalls  *sys time$' "$scratch/ok.out"
check "harness mode: the table has every benchmark" grep -q '^cases::memory\[kib=1024\]  *[0-9,]* ' "$scratch/ok.out"
check_eq "the table has no colours off a terminal" "" "$(grep -c "$(printf '\033')" "$scratch/ok.out" | grep -v '^0$')"
check_eq "the report records tool, Valgrind, model and feature mask" "bm-run 3.19.0 bm-model/1 8388608 yes" \
	"$(json_get "$scratch/ok.json" 'join " ", $j->{tool}{name}, $j->{tool}{valgrind}, $j->{model}{id}, $j->{model}{cache}{LL}[0], ($j->{model}{cpu_features} =~ /glibc\.cpu\.hwcaps=-AVX,/ ? "yes" : "no")')"
check_eq "the report records compiler, OS, arch, binary and build-id" "GCC yes x86_64 cases 40" \
	"$(json_get "$scratch/ok.json" 'my $c = $j->{context}{platform}; join " ", ($c->{compiler} =~ /^(GCC|clang)/)[0], ($c->{os} ? "yes" : "no"), $c->{arch}, ($j->{binary}{path} =~ m{([^/]+)$})[0], length $j->{binary}{build_id}')"
check_eq "speed is frequency / cycles and time is cycles / frequency" "ok" \
	"$(json_get "$scratch/ok.json" 'my $b = $j->{benchmarks}[0]; abs($b->{speed} * $b->{cycles} - 3e9) < 1e-3 * 3e9 && abs($b->{time_s} * 3e9 - $b->{cycles}) < 1e-3 * $b->{cycles} ? "ok" : "off"')"
check_eq "a report's profile is there" "yes" \
	"$(json_get "$scratch/ok.json" 'scalar @{$j->{benchmarks}[0]{profile}{functions}} > 0 ? "yes" : "no"')"

# -- failures --
# Only cases::spin, which never ends, may time out: the others take a
# hundredth of that even on a loaded machine.
"$BM_RUN" --timeout 5 -o "$scratch/fail.json" -- "$cases" --filter 'cases::c*' --filter 'cases::e*' \
	--filter 'cases::spin' >"$scratch/fail.out" 2>"$scratch/fail.err"
check_eq "a failed benchmark: exit 1" 1 $?
check_eq "crash, exit and timeout fail with their reason; the others keep their numbers" \
	"cases::compute[n=1000] ok
cases::compute[n=4000] ok
cases::crash failed killed by signal 11 (Segmentation fault)
cases::exit failed exited with status 3
cases::spin failed timed out after 5 s" \
	"$(json_get "$scratch/fail.json" 'join "\n", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}')"
check_eq "a failed benchmark has no numbers" "null null null {}" \
	"$(json_get "$scratch/fail.json" 'my $b = $j->{benchmarks}[2]; join " ", map({ $b->{$_} // "null" } qw(cycles speed time_s)), (%{$b->{events}} ? "events" : "{}")')"
check "a crash shows Valgrind's stack trace" grep -q 'at 0x[0-9A-F]*: crash (cases.c:' "$scratch/fail.err"
check "the table says FAILED and why" grep -q '^cases::crash  *FAILED: killed by signal 11' "$scratch/fail.out"
# A benchmark's time starts with the benchmark: Valgrind that takes longer
# to start than the timeout (as on a loaded machine) fails nothing.
printf '#!/bin/sh\n[ "$1" = --version ] || sleep 6\nexec "%s" "$@"\n' "$(command -v "$VALGRIND")" >"$scratch/slow-valgrind"
chmod +x "$scratch/slow-valgrind"
BM_VALGRIND="$scratch/slow-valgrind" "$BM_RUN" -q --timeout 5 -o "$scratch/slow.json" -- "$cases" \
	--filter 'cases::compute[[]n=1000]' >/dev/null 2>&1
check_eq "--timeout counts from the benchmark's start, not Valgrind's" "0 cases::compute[n=1000] ok" \
	"$? $(json_get "$scratch/slow.json" 'join " ", map { grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}')"

# -- time-bounded ranges and system calls --
"$BM_RUN" -o "$scratch/sleep.json" -- "$cases" --filter 'cases::limited*' --filter 'cases::sleep*' \
	>"$scratch/sleep.out" 2>&1
check_eq "time-bounded range: the values after a too slow one are skipped, and reported as such" \
	"cases::limited[n=1000000] skipped cases::limited[n=100000] took 0.0003 s, over the 2e-05 s limit of range 'n'" \
	"$(json_get "$scratch/sleep.json" 'join "\n", map { "$_->{id} $_->{status} $_->{reason}" } grep { $_->{status} ne "ok" } @{$j->{benchmarks}}')"
check_eq "sleeping 10 ms or 200 ms: the same cycles and speed" "same" \
	"$(json_get "$scratch/sleep.json" 'my %b = map { $_->{id} => $_ } @{$j->{benchmarks}}; my ($a, $c) = @b{"cases::sleep[ms=10]", "cases::sleep[ms=200]"}; $a->{cycles} == $c->{cycles} && $a->{speed} == $c->{speed} ? "same" : "$a->{cycles} vs $c->{cycles}"')"
# A sleep lasts at least as long as asked, and longer on a loaded machine.
check_eq "sleeping 10 ms or 200 ms: the system calls' wall time covers the sleep" "yes yes" \
	"$(json_get "$scratch/sleep.json" 'my %b = map { $_->{id} => $_ } @{$j->{benchmarks}}; join " ", map { my $w = $b{"cases::sleep[ms=$_]"}{syscalls}{wall_ns}; $w >= $_ * 1e6 ? "yes" : "no: $w ns" } 10, 200')"
check_eq "the sleep is recorded by function: clock_nanosleep, called by nanosleep" "1 nanosleep" \
	"$(json_get "$scratch/sleep.json" 'my ($b) = grep { $_->{id} eq "cases::sleep[ms=200]" } @{$j->{benchmarks}}; my ($f) = grep { $_->{function} =~ /^clock_nanosleep/ } @{$b->{syscalls}{by_function}}; "$f->{count} $f->{callers}[0]{function}"')"

# -- whole-process and symbol mode --
"$BM_RUN" --name greeting -o "$scratch/whole.json" -- /bin/echo hello >"$scratch/whole.out" 2>&1
check_eq "whole-process mode: one benchmark named by --name" "greeting ok" \
	"$(json_get "$scratch/whole.json" 'join " ", $j->{benchmarks}[0]{id}, $j->{benchmarks}[0]{status}')"
"$BM_RUN" -o "$scratch/false.json" -- /bin/false >/dev/null 2>&1
check_eq "whole-process mode: a program that exits non-zero fails" "1 false failed exited with status 1" \
	"$? $(json_get "$scratch/false.json" 'join " ", @{$j->{benchmarks}[0]}{qw(id status reason)}')"
"$BM_RUN" --bench 'checksum*' --bench main -o "$scratch/sym.json" -- "$PROGRAMS/whole" >/dev/null 2>&1
check_eq "symbol mode: each matching function is a benchmark" "whole::checksum ok
whole::main ok" "$(json_get "$scratch/sym.json" 'join "\n", map { "$_->{id} $_->{status}" } @{$j->{benchmarks}}')"
check_eq "symbol mode: a function includes its callees" "yes" \
	"$(json_get "$scratch/sym.json" '$j->{benchmarks}[1]{cycles} > $j->{benchmarks}[0]{cycles} ? "yes" : "no"')"
strip -o "$scratch/stripped" "$PROGRAMS/whole"
"$BM_RUN" --bench checksum -- "$scratch/stripped" >/dev/null 2>"$scratch/err"
check_eq "symbol mode on a stripped binary: exit 2" 2 $?
check "symbol mode on a stripped binary: says why" grep -q "is stripped: it has no symbol table" "$scratch/err"
"$BM_RUN" --bench nothing_like_this -- "$PROGRAMS/whole" >/dev/null 2>"$scratch/err"
check "symbol mode: a glob that matches nothing is an error" grep -q "no function of '.*whole'.* matches 'nothing_like_this'" "$scratch/err"

# -- several programs --
cat >"$scratch/manifest" <<EOM
# a comment, then two programs
$cases --filter 'cases::compute*'
/bin/echo "two words"
EOM
"$BM_RUN" -j 2 --manifest "$scratch/manifest" -o "$scratch/many.json" >/dev/null 2>&1
check_eq "--manifest with -j 2: one report for all programs" "cases::compute[n=1000] cases::compute[n=4000] echo" \
	"$(json_get "$scratch/many.json" 'join " ", map { $_->{id} } @{$j->{benchmarks}}')"
printf '%s\n' "/bin/echo 'unterminated" >"$scratch/bad-manifest"
"$BM_RUN" --manifest "$scratch/bad-manifest" >/dev/null 2>"$scratch/err"
check_eq "a manifest with an unterminated quote: exit 2 and where" "2 bm-run: $scratch/bad-manifest:1: unterminated ' quote" \
	"$? $(cat "$scratch/err")"

# -- warm caches (the default) and --cold --
"$BM_RUN" --verify -o "$scratch/warm.json" -- "$cases" --filter 'cases::compute*' \
	--filter 'cases::memory[[]kib=64]' >/dev/null 2>"$scratch/err"
check_eq "warm (the default): deterministic too (--verify)" "0 bm-run: verify: two runs gave identical numbers" \
	"$? $(cat "$scratch/err")"
"$BM_RUN" --cold -o "$scratch/cold.json" -- "$cases" --filter 'cases::compute*' \
	--filter 'cases::memory[[]kib=64]' >/dev/null 2>&1
check_eq "warm by default, --cold on request: the report says which" "true false" \
	"$(json_get "$scratch/warm.json" '$j->{model}{warm_caches} ? "true" : "false"') $(json_get "$scratch/cold.json" '$j->{model}{warm_caches} ? "true" : "false"')"
check_eq "warm: the same instructions, no instruction misses, fewer cycles than cold" "same none fewer" \
	"$(perl -MJSON::PP -e 'local $/; my @r = map { open my $f, "<", $_ or die; decode_json(<$f>) } @ARGV;
		my %cold = map { $_->{id} => $_ } @{$r[0]{benchmarks}}; my $w = $r[1]{benchmarks}[0]; my $c = $cold{$w->{id}};
		print abs($w->{events}{Ir} - $c->{events}{Ir}) <= 16 ? "same" : "differ", " ",
			$w->{events}{I1mr} == 0 ? "none" : "some", " ", $w->{cycles} < $c->{cycles} ? "fewer" : "more"' \
		"$scratch/cold.json" "$scratch/warm.json")"
check_eq "warm: the warm-up's system calls are not counted" "1 1" \
	"$(json_get "$scratch/sleep.json" 'my %b = map { $_->{id} => $_ } @{$j->{benchmarks}}; join " ", map { $b{$_}{events}{sysCount} } "cases::sleep[ms=10]", "cases::sleep[ms=200]"')"
"$BM_RUN" --warm -- "$PROGRAMS/whole" >/dev/null 2>"$scratch/err"
check_eq "--warm on a program without libbm: exit 2 and why" \
	"2 bm-run: --warm needs a program that links libbm; '$PROGRAMS/whole' does not (symbol and whole-process mode measure the program as it runs)" "$? $(cat "$scratch/err")"
"$BM_RUN" -o "$scratch/whole-default.json" -- "$PROGRAMS/whole" >/dev/null 2>&1
check_eq "whole-process mode without --warm or --cold: runs, and is not called warm" "ok false" \
	"$(json_get "$scratch/whole-default.json" 'join " ", $j->{benchmarks}[0]{status}, $j->{model}{warm_caches} ? "true" : "false"')"

# -- verify, keep, colours --
"$BM_RUN" --verify -- "$cases" --filter 'cases::memory*' >/dev/null 2>"$scratch/err"
check_eq "--verify: two runs, identical numbers, exit 0" "0 bm-run: verify: two runs gave identical numbers" \
	"$? $(cat "$scratch/err")"
mkdir "$scratch/kept"
"$BM_RUN" -q --keep "$scratch/kept" -- "$cases" --filter 'cases::compute*' >/dev/null 2>&1
check "--keep: the callgrind files are kept for KCachegrind" test -s "$scratch/kept/cases::compute[n=4000].callgrind"
# callgrind's summary of a part dumped after a zeroing (libbm's warm run)
# wraps below zero: kept files say their totals, for callgrind_annotate.
mkdir "$scratch/kept-cg"
"$BM_RUN" -q --engine callgrind --keep "$scratch/kept-cg" -o "$scratch/kept-cg.json" -- "$cases" \
	--filter 'cases::compute*' >/dev/null 2>&1
"$BM_RUN" -q --keep "$scratch/kept-bm" -o "$scratch/kept-bm.json" -- "$cases" --filter 'cases::compute*' >/dev/null 2>&1
for engine in cg bm; do
	"${CALLGRIND_ANNOTATE:-callgrind_annotate}" "$scratch/kept-$engine/cases::compute[n=1000].callgrind" \
		>"$scratch/annotated" 2>/dev/null
	check_eq "--keep, $engine, warm: callgrind_annotate's PROGRAM TOTALS are the report's instructions" \
		"$(json_get "$scratch/kept-$engine.json" '$j->{benchmarks}[0]{events}{Ir}')" \
		"$(sed -n 's/^ *\([0-9,]*\) (100.0%).*PROGRAM TOTALS$/\1/p' "$scratch/annotated" | tr -d ,)"
done
if command -v script >/dev/null 2>&1; then
	script -qec "'$BM_RUN' -- '$cases' --filter 'cases::compute*'" /dev/null >"$scratch/tty.out" 2>&1
	check "on a terminal: colours" grep -q "$(printf '\033\\[1m')benchmark" "$scratch/tty.out"
	NO_COLOR=1 script -qec "'$BM_RUN' -- '$cases' --filter 'cases::compute*'" /dev/null >"$scratch/tty.out" 2>&1
	check "on a terminal with NO_COLOR: no colours" test "$(grep -c "$(printf '\033\\[1m')" "$scratch/tty.out")" = 0
fi

# -- errors: one line, exit 2, nothing written --
"$BM_RUN" >/dev/null 2>"$scratch/err"
check_eq "no program: exit 2" "2 bm-run: no program to run" "$? $(head -n 1 "$scratch/err")"
"$BM_RUN" -- "$scratch/nothing" >/dev/null 2>"$scratch/err"
check_eq "a missing program: exit 2 and why" "2 bm-run: cannot run '$scratch/nothing': No such file or directory" \
	"$? $(cat "$scratch/err")"
printf 'x' >"$scratch/plain"
"$BM_RUN" -- "$scratch/plain" >/dev/null 2>"$scratch/err"
check_eq "a program that is not executable: exit 2 and why" \
	"2 bm-run: cannot run '$scratch/plain': it is not executable (chmod +x?)" "$? $(cat "$scratch/err")"
"$BM_RUN" -o "$scratch/no/dir/r.json" -- "$cases" --filter 'cases::compute*' >/dev/null 2>"$scratch/err"
check_eq "an unwritable report path: exit 2 before running anything" \
	"2 bm-run: cannot write '$scratch/no/dir/r.json': No such file or directory" "$? $(cat "$scratch/err")"
BM_VALGRIND=/nonexistent/valgrind "$BM_RUN" -- "$cases" >/dev/null 2>"$scratch/err"
check_eq "no Valgrind: exit 2 and what to do" \
	"2 bm-run: BM_VALGRIND='/nonexistent/valgrind' is not an executable: No such file or directory" \
	"$? $(cat "$scratch/err")"
"$BM_RUN" -j 0 -- "$cases" >/dev/null 2>"$scratch/err"
check_eq "a bad option value: exit 2" "2 bm-run: --jobs needs a number from 1 to 256, not '0'" "$? $(cat "$scratch/err")"
"$BM_RUN" -j 4294967297 -- "$cases" >/dev/null 2>"$scratch/err"
check_eq "a number past the range is refused, never wrapped (once one job)" \
	"2 bm-run: --jobs needs a number from 1 to 256, not '4294967297'" "$? $(cat "$scratch/err")"
"$BM_RUN" --name x -- "$cases" >/dev/null 2>"$scratch/err"
check "--name on a libbm program: says to add --whole" grep -q "links libbm: its benchmarks name themselves; add --whole" "$scratch/err"
printf '#!/bin/sh\necho "$0" >"$1"\n' >"$scratch/where.sh"
chmod +x "$scratch/where.sh"
"$BM_RUN" -q -- "$scratch/where.sh" "$scratch/where" >/dev/null 2>&1
check "the program ran from bm-run's scratch directory" grep -q '^/tmp/bm-run\.[A-Za-z0-9]*/p$' "$scratch/where"
check "the scratch directory is removed afterwards" test ! -e "$(dirname "$(cat "$scratch/where")")"

# -- the benchmark binary on its own --
"$cases" --list >"$scratch/list"
check_eq "--list: every benchmark id, sorted" "cases::compute[n=1000] cases::compute[n=4000] cases::crash" \
	"$(head -n 3 "$scratch/list" | tr '\n' ' ' | sed 's/ $//')"
"$cases" --filter 'cases::compute*' --min-time 0.01 >"$scratch/native"
check "natively: median and spread per benchmark" grep -q '^cases::compute\[n=4000\]  *[0-9.]* [nu]s  *[0-9.]*%  *[0-9]*$' "$scratch/native"
"$cases" --bogus >/dev/null 2>&1
check_eq "natively: an unknown option exits 2" 2 $?
"$cases" --help | head -n 1 >"$scratch/help"
check "natively: --help" grep -q "^usage: .*cases \[--list\] \[--filter GLOB\]" "$scratch/help"

done_testing
