#!/bin/sh
# SPDX-License-Identifier: MIT
# What bm-run says when something goes wrong, and the options found missing
# on first contact with real code: errors under -q, the program's own last
# error in the reason, usage errors of the program, --filter before --,
# -v, --keep, --print-command, and a start-up stack that does not move
# with the lengths of arguments and environment.
. "$(dirname "$0")/lib.sh"

cases="$PROGRAMS/cases"
whole="$PROGRAMS/whole"
cc=${CC:-cc}

# -- failures are said, even with -q --
"$BM_RUN" -q -o "$scratch/false.json" -- /bin/false >"$scratch/out" 2>"$scratch/err"
check_eq "-q: a failing program still gets an error line, and exit 1" "1 bm-run: '/usr/bin/false' exited with status 1" \
	"$? $(head -n 1 "$scratch/err")"
check_eq "-q: no table" "" "$(cat "$scratch/out")"

# A program that cannot start: its library is gone.
printf 'int lib_value(void) { return 42; }\n' >"$scratch/lib.c"
printf 'int lib_value(void);\nint main(void) { return lib_value() - 42; }\n' >"$scratch/main.c"
if $cc -shared -fPIC -o "$scratch/libgone.so" "$scratch/lib.c" &&
	$cc -o "$scratch/needs-lib" "$scratch/main.c" -L"$scratch" -lgone; then
	rm "$scratch/libgone.so"
	"$BM_RUN" -q -o "$scratch/gone.json" -- "$scratch/needs-lib" >/dev/null 2>"$scratch/err"
	check_eq "a missing library: exit 1, the loader's message in the reason" \
		"1 failed exited with status 127: $scratch/needs-lib: error while loading shared libraries: libgone.so: cannot open shared object file: No such file or directory" \
		"$? $(json_get "$scratch/gone.json" 'join " ", @{$j->{benchmarks}[0]}{qw(status reason)}')"
	check "a missing library: the loader's message on stderr, with -q" \
		grep -q "^  | $scratch/needs-lib: error while loading shared libraries: libgone.so" "$scratch/err"
	check "a missing library: what to do" grep -q "add --env LD_LIBRARY_PATH=DIR" "$scratch/err"
else
	not_ok "a C compiler ($cc) builds a program with a shared library"
fi
check_eq "no Valgrind banner or host-cache warnings next to a failure" 0 \
	"$(grep -c 'Copyright\|Callgrind, a call-graph\|L3 cache found\|LL cache:\|Command:' "$scratch/err")"

"$BM_RUN" -q -o "$scratch/cat.json" -- /bin/cat "$scratch/missing-file" >/dev/null 2>&1
check_eq "whole-process mode: the program's last error line is in the reason" \
	"exited with status 1: /usr/bin/cat: $scratch/missing-file: No such file or directory" \
	"$(json_get "$scratch/cat.json" '$j->{benchmarks}[0]{reason}')"

printf '#!/bin/sh\necho "what the program printed"\necho "it went wrong" >&2\nexit 4\n' >"$scratch/noisy.sh"
chmod +x "$scratch/noisy.sh"
"$BM_RUN" -- "$scratch/noisy.sh" >/dev/null 2>"$scratch/err"
check "a failure shows the program's standard output" grep -q '^  | what the program printed$' "$scratch/err"
check "a failure shows the program's standard error" grep -q '^  | it went wrong$' "$scratch/err"

# -- the program's usage errors are bm-run's --
"$BM_RUN" -o "$scratch/nomatch.json" -- "$cases" --filter 'no_such_benchmark*' >"$scratch/out" 2>"$scratch/err"
check_eq "--filter that matches nothing: exit 2, one line" \
	"2 bm-run: 'cases': no benchmark matches --filter 'no_such_benchmark*'; --list shows them all" \
	"$? $(cat "$scratch/err")"
check "--filter that matches nothing: no report written" test ! -e "$scratch/nomatch.json"
"$BM_RUN" -- "$cases" --no-such-option >/dev/null 2>"$scratch/err"
check_eq "an option the program does not know: exit 2" 2 $?

# -- --filter before -- --
"$BM_RUN" --filter 'cases::compute*' -o "$scratch/filtered.json" -- "$cases" >/dev/null 2>&1
check_eq "--filter before --: selects libbm benchmarks" "0 cases::compute[n=1000] cases::compute[n=4000]" \
	"$? $(json_get "$scratch/filtered.json" 'join " ", map { $_->{id} } @{$j->{benchmarks}}')"
"$BM_RUN" --filter x -- /bin/true >/dev/null 2>"$scratch/err"
check_eq "--filter with a program without libbm: exit 2" 2 $?

# -- -v and --keep --
"$BM_RUN" -v -- /bin/echo "hello from echo" >"$scratch/out" 2>"$scratch/err"
check "-v: the program's standard output is shown" grep -q '^  | hello from echo$' "$scratch/err"
"$BM_RUN" -- /bin/echo "hello from echo" >/dev/null 2>"$scratch/err"
check_eq "without -v: not shown" 0 "$(grep -c 'hello from echo' "$scratch/err")"
"$BM_RUN" -q --keep "$scratch/made/for/keep" -- "$whole" >/dev/null 2>&1
check "--keep DIR: DIR is made" test -s "$scratch/made/for/keep/whole.callgrind"
: >"$scratch/a-file"
"$BM_RUN" -q --keep "$scratch/a-file" -- "$whole" >/dev/null 2>"$scratch/err"
check_eq "--keep on a file: exit 2 and why" "2 bm-run: --keep: '$scratch/a-file' is not a directory" "$? $(cat "$scratch/err")"

# -- whole-process mode: the start-up stack --
for arg in aaaaaa aaaaaaaa aaaaaaaaa aaaaaaaaaa; do
	"$BM_RUN" -q -o "$scratch/arg.json" -- "$whole" "$arg" >/dev/null 2>&1
	json_get "$scratch/arg.json" '$j->{benchmarks}[0]{cycles}'
done >"$scratch/cycles"
check_eq "whole process: arguments of 6, 8, 9 and 10 bytes give the same cycles" 1 "$(sort -u "$scratch/cycles" | wc -l)"
cat >"$scratch/where.c" <<'EOC'
#include <stdio.h>
#include <string.h>
extern char **environ;
int main(void)
{
	int on_stack = 0;
	printf("stack %p", (void *)&on_stack);
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0 || strncmp(*e, "LC_ALL=", 7) == 0)
			printf(" %p", (void *)*e);
	printf("\n");
	return 0;
}
EOC
if $cc -O2 -o "$scratch/where" "$scratch/where.c"; then
	# (As many arguments and variables in each: each is one pointer more
	# below the strings, which moves the stack by 16 bytes or not.)
	for run in "--env A=x -- $scratch/where" "--env A=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx -- $scratch/where" \
		"-- $scratch/where argument" "-- $scratch/where a-much-longer-argument-than-the-other-one"; do
		# shellcheck disable=SC2086
		"$BM_RUN" -v $run 2>&1 >/dev/null | sed -n 's/^  | stack /stack /p'
	done >"$scratch/where.out"
	# And Valgrind's own directory, named in the LD_PRELOAD it adds.
	ln -s "$top_builddir/simulator/engine" "$scratch/engine-in-a-directory-with-a-much-longer-name"
	BM_ENGINE_DIR="$scratch/engine-in-a-directory-with-a-much-longer-name" \
		"$BM_RUN" -v -- "$scratch/where" argument 2>&1 >/dev/null | sed -n 's/^  | stack /stack /p' >>"$scratch/where.out"
	check_eq "whole process: the stack and the fixed variables sit at the same addresses whatever the lengths of arguments, added variables and Valgrind's directory" \
		"5 1" "$(wc -l <"$scratch/where.out") $(sort -u "$scratch/where.out" | wc -l)"
fi
"$BM_RUN" -- "$whole" >"$scratch/out" 2>/dev/null
check "whole process: the table says what its sys time includes" grep -q "includes Valgrind's own work" "$scratch/out"

# -- --print-command --
"$BM_RUN" --print-command -- "$cases" --filter 'cases::compute*' >"$scratch/cmd" 2>&1
check_eq "--print-command: exit 0, nothing run" 0 $?
check "--print-command: the environment from scratch" grep -q '^env -i' "$scratch/cmd"
check "--print-command: libbm programs start with instrumentation off" grep -q -- '--instr-atstart=no' "$scratch/cmd"
check "--print-command: the pinned caches" grep -q -- '--LL=8388608,16,64' "$scratch/cmd"
# Run as printed, by hand: the same events as bm-run's.
# (in a directory of its own, as long as the printed one: tests run in parallel)
dir=$(mktemp -u /tmp/bm-run.XXXXXX)
"$BM_RUN" --print-command -- "$whole" | sed "s|mktemp -d /tmp/bm-run.XXXXXX|mkdir $dir \&\& echo $dir|" >"$scratch/cmd.sh"
(sh "$scratch/cmd.sh" >/dev/null 2>&1)
"$BM_RUN" -q -o "$scratch/by-bm-run.json" -- "$whole" >/dev/null 2>&1
check_eq "--print-command: run by hand, the same instructions and misses as bm-run" \
	"$(json_get "$scratch/by-bm-run.json" 'my $e = $j->{benchmarks}[0]{events}; join " ", map { $e->{$_} } qw(Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw)')" \
	"$(sed -n 's/^totals: //p' "$dir"/cg.*.out | cut -d' ' -f1-9)"
rm -rf "$dir"

done_testing
