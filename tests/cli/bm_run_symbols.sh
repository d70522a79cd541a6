#!/bin/sh
# SPDX-License-Identifier: MIT
# Symbol mode (--bench GLOB): every matching function, numbers and profile,
# from one Valgrind run (the program executes once), with the same events as
# callgrind's --toggle-collect; functions never called are "not-run";
# functions in the shared libraries the program loads; numbers per call;
# recursion through other functions.
. "$(dirname "$0")/lib.sh"

whole="$PROGRAMS/whole"
cc=${CC:-cc}

# -- one run, never-called functions, per call --
"$BM_RUN" --no-profile --keep "$scratch/kept" --bench 'checksum*' --bench main --bench '_fini' \
	-o "$scratch/sym.json" -- "$whole" >"$scratch/sym.out" 2>"$scratch/sym.err"
check_eq "symbol mode: exit 0 with a function never called" 0 $?
check_eq "symbol mode: a function never called is not-run, without numbers" \
	"whole::checksum ok
whole::main ok
whole::_fini not-run - never called" "$(report_rows "$scratch/sym.json" | sed 's/ ok [0-9]* *$/ ok/')"
check_eq "symbol mode: one Valgrind run, its file and each called function's kept" \
	"whole.callgrind whole::checksum.callgrind whole::main.callgrind" \
	"$(ls "$scratch/kept" | tr '\n' ' ' | sed 's/ $//')"
check_eq "... a function's file loads in callgrind_annotate, with the report's totals" \
	"$(json_get "$scratch/sym.json" 'my $e = $j->{benchmarks}[0]{events}; join " ", map { $e->{$_} } qw(Ir Dr Dw)')" \
	"$(callgrind_annotate "$scratch/kept/whole::checksum.callgrind" 2>/dev/null | sed -n 's/ *PROGRAM TOTALS.*//p' | awk '{ gsub(/,/, ""); print $1, $3, $5 }')"
check_eq "symbol mode: calls, cycles per call and speed per call" "1 yes yes" \
	"$(json_get "$scratch/sym.json" 'my $b = $j->{benchmarks}[0]; join " ", $b->{calls}, ($b->{cycles_per_call} == $b->{cycles} / $b->{calls} ? "yes" : "no"), (abs($b->{speed_per_call} - $b->{speed} * $b->{calls}) < 1e-6 * $b->{speed_per_call} ? "yes" : "no")')"
check "symbol mode: the table has calls and cycles per call, then the heap's columns (main allocates): none here, no peak" \
	grep -q '^whole::checksum .* 1  *[0-9,][0-9,]*  *0  *0  *-$' "$scratch/sym.out"
check "symbol mode: the table says not-run and why" grep -q '^whole::_fini  *not-run: never called$' "$scratch/sym.out"

# The same events as callgrind's --toggle-collect, run by hand as bm-run
# runs the program (--print-command), per function.
"$BM_RUN" --print-command -- "$whole" >"$scratch/cmd.sh"
for fn in checksum main; do
	# (in a directory of its own, as long as the printed one: tests run in parallel)
	dir=$(mktemp -u /tmp/bm-run.XXXXXX)
	# (callgrind's guest sees the host's CPU: the engine's --cpu, --clock
	# and --heap are not its options)
	sed "s/--tool=[a-z]*/--tool=callgrind --collect-atstart=no --toggle-collect=$fn/; s/ --cpu=[^ ]*//; s/ --clock[-a-z]*=[^ ]*//g; s/ --heap=[^ ]*//; s/ --layout=[^ ]*//; s/ --skip-loader=[^ ]*//; s|mktemp -d /tmp/bm-run.XXXXXX|mkdir $dir \&\& echo $dir|" \
		"$scratch/cmd.sh" >"$scratch/toggle.sh"
	(sh "$scratch/toggle.sh" >/dev/null 2>&1)
	# callgrind leaves out trailing zero columns
	# (bm-run's engine empties the caches where the dynamic loader
	# leaves off, callgrind keeps the loader's lines: main's misses
	# differ.)
	n=9
	[ $fn = main ] && n=3
	sed -n 's/^totals: //p' "$dir"/cg.*.out | awk -v n=$n '{ for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), ($i == "" ? 0 : $i); print "" }'
	rm -rf "$dir"
done >"$scratch/toggled"
check_eq "symbol mode: one run counts what --toggle-collect counts (Ir ... DLmw; main's Ir Dr Dw)" "$(cat "$scratch/toggled")" \
	"$(json_get "$scratch/sym.json" 'join "\n", map { my $e = $_->{events}; join " ", map { $e->{$_} } $_->{id} =~ /::main$/ ? qw(Ir Dr Dw) : qw(Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw) } @{$j->{benchmarks}}[0, 1]')"

# With profiles: each called function's, from the same run.
"$BM_RUN" -q --keep "$scratch/kept2" --bench 'checksum*' --bench '_fini' -o "$scratch/prof.json" -- "$whole" >/dev/null 2>&1
check_eq "symbol mode with profiles: a profile per called function, from the one run" \
	"whole.callgrind whole::checksum.callgrind yes" \
	"$(ls "$scratch/kept2" | tr '\n' ' ' | sed 's/ $//') $(json_get "$scratch/prof.json" '$j->{benchmarks}[0]{profile}{functions} ? "yes" : "no"')"
check_eq "symbol mode with profiles: the same numbers" \
	"$(json_get "$scratch/sym.json" '$j->{benchmarks}[0]{cycles}')" "$(json_get "$scratch/prof.json" '$j->{benchmarks}[0]{cycles}')"

# -- recursion through another function --
cat >"$scratch/mutual.c" <<'EOC'
#include <stdio.h>
__attribute__((noinline)) int is_odd(unsigned n);
__attribute__((noinline)) int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
int main(void) { printf("%d\n", is_even(1000)); return 0; }
EOC
if $cc -O1 -fno-optimize-sibling-calls -o "$scratch/mutual" "$scratch/mutual.c"; then
	"$BM_RUN" -q --no-profile --bench is_even -o "$scratch/mutual.json" -- "$scratch/mutual" >/dev/null 2>&1
	env -i "$VALGRIND" --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
		--collect-atstart=no --toggle-collect=is_even --callgrind-out-file="$scratch/mutual.out" \
		"$scratch/mutual" >/dev/null 2>&1
	check_eq "recursion through another function: counted once, as --toggle-collect counts" \
		"$(sed -n 's/^totals: //p' "$scratch/mutual.out" | cut -d' ' -f1)" \
		"$(json_get "$scratch/mutual.json" '$j->{benchmarks}[0]{events}{Ir}')"
	"$BM_RUN" -q --no-profile --model bm-model/2 --bench is_even -o "$scratch/mutual2.json" -- "$scratch/mutual" >/dev/null 2>&1
	rc=$?
	check_eq "... under bm-model/2 too (the same instructions)" \
		"0 ok $(json_get "$scratch/mutual.json" '$j->{benchmarks}[0]{events}{Ir}')" \
		"$rc $(json_get "$scratch/mutual2.json" 'join " ", @{$j->{benchmarks}[0]}{qw(status)}, $j->{benchmarks}[0]{events}{Ir}')"
else
	not_ok "a C compiler ($cc) builds a test program"
fi

# -- the program executes once: a program that counts its own executions
# (in a file beside it), measured with profiles --
cat >"$scratch/counts.c" <<'EOC'
#include <stdio.h>
__attribute__((noinline)) unsigned work(unsigned n) { return n < 2 ? n : work(n - 1) + work(n - 2); }
int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "a") : NULL; /* one x per execution */
	if (f)
		fclose((fputs("x", f), f));
	return work(15) == 42;
}
EOC
if $cc -O1 -o "$scratch/counts" "$scratch/counts.c"; then
	"$BM_RUN" -q --bench work --bench main -o "$scratch/counts.json" -- "$scratch/counts" "$scratch/executions" >/dev/null 2>&1
	check_eq "symbol mode with profiles: the program executes once, every function measured" "0 x ok ok" \
		"$? $(cat "$scratch/executions") $(json_get "$scratch/counts.json" 'join " ", map { $_->{status} } @{$j->{benchmarks}}')"
else
	not_ok "a C compiler ($cc) builds a test program"
fi

# -- functions in shared libraries --
printf 'int lib_value(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }\n' >"$scratch/lib.c"
printf 'int lib_value(int);\nint main(void) { return lib_value(1000) == 42; }\n' >"$scratch/main.c"
mkdir -p "$scratch/libdir"
if $cc -O1 -shared -fPIC -o "$scratch/libdir/libsample.so" "$scratch/lib.c" &&
	$cc -o "$scratch/uses-lib" "$scratch/main.c" -L"$scratch/libdir" -lsample -Wl,-rpath,"$scratch/libdir"; then
	strip "$scratch/uses-lib"
	"$BM_RUN" --no-profile --bench 'lib_*' -o "$scratch/lib.json" -- "$scratch/uses-lib" >/dev/null 2>"$scratch/err"
	check_eq "a function of a shared library the (stripped) program loads" "0 uses-lib::lib_value ok 1" \
		"$? $(json_get "$scratch/lib.json" 'my $b = $j->{benchmarks}[0]; join " ", $b->{id}, $b->{status}, $b->{calls}')"
	"$BM_RUN" -q --no-profile --bench 'libsample:lib_*' -o "$scratch/lib2.json" -- "$scratch/uses-lib" >/dev/null 2>&1
	check_eq "LIB:GLOB: only in that library, the same numbers" "$(json_get "$scratch/lib.json" '$j->{benchmarks}[0]{cycles}')" \
		"$(json_get "$scratch/lib2.json" '$j->{benchmarks}[0]{cycles}')"
	"$BM_RUN" --bench 'libnothing:lib_*' -- "$scratch/uses-lib" >/dev/null 2>"$scratch/err"
	check_eq "LIB:GLOB that matches no library: exit 2, the libraries it loads" \
		"2 bm-run: no library matching 'libnothing*' is loaded by '$scratch/uses-lib' (it loads libsample.so, libc.so.6)" \
		"$? $(cat "$scratch/err")"
else
	not_ok "a C compiler ($cc) builds a program with a shared library"
fi
"$BM_RUN" --bench 'libsample:checksum*' -- "$whole" >/dev/null 2>"$scratch/err"
check_eq "LIB:GLOB where the program has the code itself: exit 2, said" \
	"2 bm-run: no library matching 'libsample*' is loaded by '$whole', but 1 of its own functions matches 'checksum*': it links that code statically (drop 'libsample:' to measure it)" \
	"$? $(cat "$scratch/err")"

# -- a stripped library: only what it exports has a name, until its debug
# symbols are found (by .gnu_debuglink here; by build-id under
# /usr/lib/debug for Debian's -dbgsym packages), as Valgrind finds them --
cat >"$scratch/hidden.c" <<'EOC'
static __attribute__((noinline)) int hidden_work(int x) { int s = 0; for (int i = 0; i < x; i++) s += i ^ x; return s; }
int exported_entry(int x) { return hidden_work(x) + hidden_work(x + 1); }
EOC
printf 'int exported_entry(int);\nint main(void) { return exported_entry(500) == 42; }\n' >"$scratch/hmain.c"
mkdir -p "$scratch/hdir"
if $cc -O1 -g -shared -fPIC -o "$scratch/hdir/libhidden.so" "$scratch/hidden.c" &&
	$cc -o "$scratch/uses-hidden" "$scratch/hmain.c" -L"$scratch/hdir" -lhidden -Wl,-rpath,"$scratch/hdir" &&
	objcopy --only-keep-debug "$scratch/hdir/libhidden.so" "$scratch/hdir/libhidden.so.debug" &&
	strip --strip-unneeded "$scratch/hdir/libhidden.so"; then
	"$BM_RUN" --no-profile --bench 'libhidden:hidden_*' -- "$scratch/uses-hidden" >/dev/null 2>"$scratch/err"
	check_eq "a stripped library: exit 2, which one, and where names would come from" \
		"2 bm-run: no function of 'libhidden.so' matches 'hidden_*': it is stripped, so only the functions it exports have names; install the debug symbols (Debian: the -dbgsym package; Valgrind and bm-run find them by build-id under /usr/lib/debug, or by .gnu_debuglink beside the file) or build with -g and without -s" \
		"$? $(cat "$scratch/err")"
	"$BM_RUN" -q --no-profile --bench 'libhidden:exported_*' -o "$scratch/exported.json" -- "$scratch/uses-hidden" >/dev/null 2>&1
	check_eq "a stripped library: what it exports is measured" "0 ok 1" \
		"$? $(json_get "$scratch/exported.json" 'join " ", @{$j->{benchmarks}[0]}{qw(status calls)}')"
	"$BM_RUN" --bench 'libhidden:exported_*' --keep "$scratch/hkept" -- "$scratch/uses-hidden" >/dev/null 2>"$scratch/err"
	check "a stripped library: bm-run says that most of the cycles are in code without symbols, where, and what to do" \
		grep -q "^bm-run: 1 benchmark spends a tenth of its cycles or more in code without symbols, in libhidden.so (.*): for names, install the debug symbols" "$scratch/err"
	"$BM_PROFILE" "$scratch/hkept/uses-hidden::exported_entry.callgrind" >"$scratch/hprof" 2>&1
	check "... bm-profile lists that code by address in its object, and says the same" \
		sh -c "grep -q '  0x0*[0-9a-f]* (???) \\[libhidden.so\\]\$' '$scratch/hprof' && grep -q '% of the cycles are in code without symbols (functions named by their address), in libhidden.so: for names' '$scratch/hprof'"
	objcopy --add-gnu-debuglink="$scratch/hdir/libhidden.so.debug" "$scratch/hdir/libhidden.so"
	"$BM_RUN" -q --bench 'libhidden:hidden_*' -o "$scratch/hidden.json" -- "$scratch/uses-hidden" >/dev/null 2>&1
	check_eq "... with its debug file beside it (.gnu_debuglink): its own functions by name, measured" \
		"0 uses-hidden::hidden_work ok 2" \
		"$? $(json_get "$scratch/hidden.json" 'join " ", @{$j->{benchmarks}[0]}{qw(id status calls)}')"
else
	not_ok "a C compiler ($cc) and binutils build a stripped library with a debug file"
fi

# C++: --bench matches the symbols' (mangled) names, and the run names
# functions the same way (the engine's --demangle=no), so a C++ function
# is measured, not "never called".
cat >"$scratch/cxx.cc" <<'EOC'
namespace work {
__attribute__((noinline)) unsigned long mix(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}
}
int main() { return (int)((work::mix(1000) + work::mix(2000)) == 42); }
EOC
if ${CXX:-g++} -O1 -g -o "$scratch/cxx" "$scratch/cxx.cc" 2>"$scratch/cxx.err"; then
	"$BM_RUN" -q --no-profile --bench '*4work3mix*' -o "$scratch/cxx.json" -- "$scratch/cxx" >/dev/null 2>"$scratch/cxx.run.err"
	check_eq "C++: a function found by its mangled name is measured, over its two calls" \
		"0 cxx::_ZN4work3mixEm ok 2" \
		"$? $(json_get "$scratch/cxx.json" 'join " ", @{$j->{benchmarks}[0]}{qw(id status calls)}')"
else
	not_ok "a C++ compiler builds the test program (./quickstart test installs g++): $(head -n 1 "$scratch/cxx.err")"
fi

done_testing
