#!/bin/sh
# SPDX-License-Identifier: MIT
# bm's own Valgrind tool (bm-run --engine bm) against callgrind: every
# benchmark of the test programs measured by both engines, their events
# printed side by side as a table, and each row checked equal; their call
# graphs (tests/cli/data/engine/events.pl), and symbol mode.  Whole
# processes are compared by hand, both tools under one environment: the
# bm engine's VALGRIND_LIB is an environment variable the program sees,
# whose start-up cost bm-run cannot take away (docs/engine.md).
. "$top_srcdir/tests/cli/lib.sh"

need_engine
EVENTS="Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw sysCount"
# What the call graphs are compared on: the events, without the system
# calls (whose times differ from run to run).
CACHE_EVENTS="Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"

# events REPORT: "id Ir Dr ... sysCount cycles" per benchmark.
events() {
	json_get "$1" 'join "\n", map { my $b = $_; join " ", $b->{id}, (map { $b->{events}{$_} // "-" } qw('"$EVENTS"')), $b->{cycles} // "-" } @{$j->{benchmarks}}'
}

cd "$scratch" || exit 1
head -c 300 "$top_srcdir/README.md" >small.txt
head -c 20000 "$top_srcdir/Makefile.am" >large.txt

# both NAME PROGRAM [ARGS...]: bm-run with each engine, NAME.ENGINE.ev and
# .rc; prints the table's rows.
both() {
	name=$1
	shift
	for engine in callgrind bm; do
		"$BM_RUN" -q --engine "$engine" --keep "$name.$engine.kept" -o "$name.$engine.json" -- "$@" \
			>/dev/null 2>"$name.$engine.err"
		echo $? >"$name.$engine.rc"
		events "$name.$engine.json" >"$name.$engine.ev" 2>/dev/null
	done
	paste -d '\n' "$name.callgrind.ev" "$name.bm.ev" | awk 'NR % 2 { e = "callgrind" } !(NR % 2) { e = "bm" }
		{ id = $1; $1 = ""; printf "# %-34s %-9s%s\n", id, e, $0 }'
	check_eq "$name: both engines ran" "0 0" "$(cat "$name.callgrind.rc") $(cat "$name.bm.rc")"
}

printf '# %-34s %-9s %s\n' benchmark engine "$EVENTS cycles"
both cases "$PROGRAMS/cases" --filter 'cases::compute*' --filter 'cases::memory*' --filter 'cases::limited*'
both inputs "$PROGRAMS/inputs"
check_eq "the bm engine's reports name it and its CPU; their profiles have a call graph" \
	"bm|VEX baseline x86-64|none" \
	"$(json_get inputs.bm.json '"$j->{tool}{engine}|" . substr($j->{model}{cpu}, 0, 19) . "|" . ((grep { exists $_->{profile}{call_graph} } @{$j->{benchmarks}}) ? "some" : "none")')"
# Callgrind's guest sees a CPU derived from the host's: the report names
# the host's (its runs are a series of their own: series_identity.h).
host_cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1 | sed 's/[[:space:]]*$//')
[ -n "$host_cpu" ] || host_cpu=$(sed -n 's/^vendor_id[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
check_eq "callgrind's name callgrind, and the host's CPU, which its guest saw" "callgrind|host: ${host_cpu:-unknown}" \
	"$(json_get inputs.callgrind.json '"$j->{tool}{engine}|" . ($j->{model}{cpu} // "null")')"

# The examples (the demo's benchmarks), built as `make examples` builds them.
make -C "$top_builddir" examples >examples.log 2>&1
check_eq "the examples build" 0 $?
for ex in hashtable sort parse fileio; do
	both "$ex" "$top_builddir/examples/$ex"
done
for name in cases inputs hashtable sort parse fileio; do
	check_eq "$name: every benchmark has the same events and cycles with either engine" \
		"$(cat "$name.callgrind.ev")" "$(cat "$name.bm.ev")"
done

# Their call graphs: every function's self cost, and every pair of caller
# and callee with its calls and inclusive cost, the same in both engines'
# files (--keep).
callgraph() {
	for f in "$1"/*.callgrind; do
		echo "== $(basename "$f")"
		perl "$top_srcdir/tests/cli/data/engine/events.pl" "$f" $CACHE_EVENTS
	done
}
for name in cases inputs hashtable sort parse fileio; do
	callgraph "$name.callgrind.kept" >"$name.callgrind.cg"
	callgraph "$name.bm.kept" >"$name.bm.cg"
	check "$name: every benchmark's call graph is callgrind's ($(grep -c '^call ' "$name.bm.cg") calls)" \
		diff "$name.callgrind.cg" "$name.bm.cg"
done

# libbm's warm default and --cold, on a program with data misses.
for mode in --cold --warm; do
	for engine in callgrind bm; do
		"$BM_RUN" -q $mode --engine "$engine" --filter 'cases::memory*' -o "mem$mode.$engine.json" \
			-- "$PROGRAMS/cases" >/dev/null 2>&1
		events "mem$mode.$engine.json" >"mem$mode.$engine.ev"
	done
	check_eq "cases::memory $mode: the same events with either engine" \
		"$(cat "mem$mode.callgrind.ev")" "$(cat "mem$mode.bm.ev")"
done

# The region programs (REGION: zero, start, stop, dump) and a whole
# process, both tools run by hand under one environment: one VALGRIND_LIB
# holding both tools.  Each dump's totals, compared.  Without bm-run's
# glibc mask, glibc picks its string functions by what cpuid says, so the
# bm tool answers cpuid as the host does here (--cpu=host), as
# callgrind does.
callgrind_tool=/usr/libexec/valgrind/callgrind-amd64-linux
mkdir vglib
ln -s "$ENGINE_DIR/bm-amd64-linux" "$ENGINE_DIR/vgpreload_core-amd64-linux.so" "$callgrind_tool" vglib/
# by_hand NAME ATSTART PROGRAM: NAME.TOOL.totals, "trigger: totals" a dump.
by_hand() {
	for tool in callgrind bm; do
		mkdir "$1.$tool"
		fixed=
		[ $tool = bm ] && fixed=--cpu=host
		(cd "$1.$tool" && env -i VALGRIND_LIB="$scratch/vglib" LD_BIND_NOW=1 "$VALGRIND" --tool=$tool $fixed \
			--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec \
			--instr-atstart="$2" --callgrind-out-file=out "$3" >stdout 2>log)
		for f in "$1.$tool"/out*; do
			printf '%s: %s\n' "$(sed -n 's/^desc: Trigger: //p' "$f")" \
				"$(sed -n 's/^totals: //p' "$f" | cut -d' ' -f1-10)"
			perl "$top_srcdir/tests/cli/data/engine/events.pl" "$f" $CACHE_EVENTS >>"$1.$tool.cg"
		done | sort >"$1.$tool.totals"
		sed "s/^/# $1 $tool: /" "$1.$tool.totals"
	done
}
if [ -x "$callgrind_tool" ]; then
	for prog in fib syscalls sort; do
		by_hand $prog no "$PROGRAMS/$prog"
		check_eq "$prog: every region has the same events with either tool" \
			"$(cat $prog.callgrind.totals)" "$(cat $prog.bm.totals)"
		check "$prog: and the same call graph (recursion in fib, qsort calling back in sort)" \
			diff $prog.callgrind.cg $prog.bm.cg
	done
	by_hand whole yes "$PROGRAMS/whole"
	check_eq "a whole process: the same events with either tool" \
		"$(cat whole.callgrind.totals)" "$(cat whole.bm.totals)"
	check "a whole process: the same call graph (ld.so and libc's start-up included)" \
		diff whole.callgrind.cg whole.bm.cg
	# Signal handlers return to the kernel's trampoline, which no call
	# made (the bm engine crashed there once: any shell that forks).
	by_hand signals yes "$PROGRAMS/signals"
	check_eq "signal handlers: the program runs to its end under the bm engine" \
		"handled 2, child 3" "$(cat signals.bm/stdout)"
	check_eq "signal handlers: the same events with either tool" \
		"$(cat signals.callgrind.totals)" "$(cat signals.bm.totals)"
	check "signal handlers: the same call graph" diff signals.callgrind.cg signals.bm.cg
	# Valgrind serialises threads, and their interleaving is not
	# reproducible (docs/determinism.md): from run to run of either tool
	# the accesses move by a few percent; the instructions within 0.1%.
	by_hand threads no "$PROGRAMS/threads"
	check "threads: the instructions within 0.1% with either tool" \
		perl -e 'my @a = split " ", $ARGV[0]; my @b = split " ", $ARGV[1];
			exit(abs($a[3] - $b[3]) > $a[3] * 1e-3)' \
		"$(grep bench_threads threads.callgrind.totals)" "$(grep bench_threads threads.bm.totals)"
else
	ok "# SKIP the programs by hand: no $callgrind_tool"
fi

# The fixed virtual CPU: what a program that dispatches on the CPU sees
# under the bm engine, and the path it takes, are the same on every host.
mkdir cpu.bm
(cd cpu.bm && env -i VALGRIND_LIB="$ENGINE_DIR" LD_BIND_NOW=1 "$VALGRIND" --tool=bm --instr-atstart=no \
	--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec \
	--callgrind-out-file=out "$PROGRAMS/cpu" >stdout 2>log)
check_output "the bm engine's CPU: cpuid leaves 0, 1 and 7, __builtin_cpu_supports, the SSE2 path" \
	"$top_srcdir/tests/cli/data/engine/cpu.out" cpu.bm/stdout
echo "# natively this host says: $("$PROGRAMS/cpu" | tr '\n' ';')"

# The events of every benchmark above with the bm engine, against those
# recorded in tests/cli/data/engine/events.txt (with the CPU that made
# them): run on another vendor, this proves or disproves that the numbers
# do not depend on the host.
# (Not tests/programs/cpu's: it runs by hand, without bm-run's padded
# environment, so its stack moves with the length of the build
# directory's path, and a write miss with it: distcheck's deep tree.)
cat cases.bm.ev inputs.bm.ev hashtable.bm.ev sort.bm.ev parse.bm.ev fileio.bm.ev | cut -d' ' -f1-11 >events.now
# The record holds wherever the tree was checked out (__FILE__ is
# relative to it: BM_PREFIX_MAP in Makefile.am), and in a sanitizer or
# coverage build too: the test programs and libbm are never built with
# either.  glibc's string functions count a few instructions more or less
# by where their strings lie, so a change to libbm's code or data can
# move a count: then the record is made again (BM_UPDATE_GOLDEN=1).
recorded="$top_srcdir/tests/cli/data/engine/events.txt"
# The same on every host: the engine's CPU is fixed, and so are the
# programs' environment and layout (docs/determinism.md), so a difference
# on any host, the record's or another, AMD or Intel, fails; the host's
# particulars are printed beside the record's to say where it was seen.
host="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r)"
{ grep '^#' "$recorded"; cat events.now; } >events.cmp
echo "# $(head -n 1 "$recorded" | sed 's/^# //')"
echo "# this host: $host; glibc $(getconf GNU_LIBC_VERSION | sed 's/glibc //')"
check_output "every benchmark's events with the bm engine are those recorded" "$recorded" events.cmp

# Symbol mode: every function's cost over its calls, from one run, with
# either engine (bm's collects in each function itself, callgrind's call
# graph gives inclusive costs).
for engine in callgrind bm; do
	"$BM_RUN" -q --no-profile --engine $engine --bench 'checksum' --bench 'main' \
		-o sym.$engine.json -- "$PROGRAMS/whole" >/dev/null 2>&1
	events sym.$engine.json | sed "s/^/# $engine: /"
done
check "symbol mode: functions measured and called" \
	json_get sym.bm.json '(grep { $_->{status} ne "ok" || !$_->{calls} } @{$j->{benchmarks}}) ? die : 1'
# (The bm engine's caches start empty where the dynamic loader leaves
# off, as bm-run has it count from there (--skip-loader), callgrind's
# hold what the loader touched: main's misses differ; its instructions
# and accesses, and checksum's every event, do not.)
sym_events() {
	json_get "$1" 'join "\n", map { my $b = $_; my @e = map { $_ // 0 } @{$b->{events}}{qw('"$EVENTS"')};
		@e = @e[0 .. 2] if $b->{id} =~ /::main$/; join " ", $b->{id}, $b->{calls}, $b->{id} =~ /::main$/ ? () : $b->{cycles}, @e } @{$j->{benchmarks}}'
}
check_eq "symbol mode: the same events, calls and cycles with either engine (main's accesses only)" \
	"$(sym_events sym.callgrind.json)" "$(sym_events sym.bm.json)"

# Collecting in functions (--collect-in) changes nothing else: the run's
# own file counts what a run without it counts.
"$BM_RUN" -q --keep kept.sym --bench 'checksum' --bench 'main' -o /dev/null -- "$PROGRAMS/whole" >/dev/null 2>&1
"$BM_RUN" -q --keep kept.whole --whole -o /dev/null -- "$PROGRAMS/whole" >/dev/null 2>&1
check_eq "symbol mode: the run's own file has the events of a run that collects in no function" \
	"$(sed -n 's/^totals: //p' kept.whole/whole.callgrind | cut -d' ' -f1-9)" \
	"$(sed -n 's/^totals: //p' kept.sym/whole.callgrind | cut -d' ' -f1-9)"

# Errors: a missing tool is exit 2 with what to do.
BM_ENGINE_DIR="$scratch/nowhere" "$BM_RUN" -q --engine bm -- "$PROGRAMS/fib" >/dev/null 2>missing.err
check_eq "the tool not installed: exit 2" 2 $?
check "... saying where it looked and what to do" \
	grep -q "bm's Valgrind tool is not in '$scratch/nowhere' (BM_ENGINE_DIR): build bm with it" missing.err
"$BM_RUN" -q --engine cachegrind -- "$PROGRAMS/fib" >/dev/null 2>bad.err
check_eq "an unknown engine: exit 2" 2 $?

done_testing
