#!/bin/sh
# SPDX-License-Identifier: MIT
# The bm engine's branch simulation (--branch-sim, docs/engine.md): its
# branch counts against callgrind's --branch-sim=yes (Bc and Bi: every
# benchmark, every function and every call's inclusive counts, and whole
# processes by hand), its mispredictions (Bcm, Bim) deterministic, those
# recorded for tests/programs/branches and in the ranges a modern
# predictor gives (random data against sorted, a repeating pattern, a
# repeating sequence of indirect calls), in reports and profiles; and the
# other events unchanged by it, and nothing of it without the option.
. "$top_srcdir/tests/cli/lib.sh"

need_engine
EVENTS_PL="$top_srcdir/tests/cli/data/engine/events.pl"

cd "$scratch" || exit 1
head -c 300 "$top_srcdir/README.md" >small.txt
head -c 20000 "$top_srcdir/Makefile.am" >large.txt

# events REPORT EVENT...: "id EVENT..." per benchmark ("-": absent).
events() {
	report=$1
	shift
	json_get "$report" 'join "\n", map { my $b = $_; join " ", $b->{id}, map { $b->{events}{$_} // "-" } qw('"$*"') } @{$j->{benchmarks}}'
}

# graph DIR EVENT...: the events of each file's call graph (events.pl).
graph() {
	dir=$1
	shift
	for f in "$dir"/*.callgrind; do
		echo "== $(basename "$f")"
		perl "$EVENTS_PL" "$f" "$@"
	done
}

# both NAME PROGRAM [ARGS...]: bm-run --branch-sim with each engine; the
# events and call graphs of Bc and Bi compared.
both() {
	name=$1
	shift
	for engine in callgrind bm; do
		"$BM_RUN" -q --branch-sim --engine $engine --keep "$name.$engine.kept" -o "$name.$engine.json" \
			-- "$@" >/dev/null 2>"$name.$engine.err"
		echo $? >"$name.$engine.rc"
		events "$name.$engine.json" Ir Bc Bi >"$name.$engine.ev"
		graph "$name.$engine.kept" Ir Bc Bi >"$name.$engine.cg"
	done
	check_eq "$name: both engines ran" "0 0" "$(cat "$name.callgrind.rc") $(cat "$name.bm.rc")"
	check_eq "$name: every benchmark's Bc and Bi are callgrind's" \
		"$(cat "$name.callgrind.ev")" "$(cat "$name.bm.ev")"
	check "$name: and every function's and call's ($(grep -c '^call ' "$name.bm.cg") calls)" \
		diff "$name.callgrind.cg" "$name.bm.cg"
}

both branches "$PROGRAMS/branches"
both cases "$PROGRAMS/cases" --filter 'cases::compute*' --filter 'cases::memory*'
both inputs "$PROGRAMS/inputs"
sed 's/^/# /' branches.bm.ev

# Regions and whole processes by hand, both tools under one environment
# (one VALGRIND_LIB holding both), the bm tool answering cpuid as the host
# does, as callgrind does (tests/cli/engine.sh): each dump's Bc and Bi,
# and its call graph's.  fib recurses; syscalls' regions end in system
# calls and requests (the superblocks taken back); sort calls back through
# qsort; whole runs ld.so's and libc's start-up (PLT jumps, rep string
# instructions); signals runs handlers.
callgrind_tool=/usr/libexec/valgrind/callgrind-amd64-linux
if [ -x "$callgrind_tool" ]; then
	mkdir vglib
	ln -s "$ENGINE_DIR/bm-amd64-linux" "$ENGINE_DIR/vgpreload_core-amd64-linux.so" "$callgrind_tool" vglib/
	for run in fib:no syscalls:no sort:no whole:yes signals:yes; do
		prog=${run%:*}
		for tool in callgrind bm; do
			mkdir "$prog.$tool"
			cpu=
			[ $tool = bm ] && cpu=--cpu=host
			(cd "$prog.$tool" && env -i VALGRIND_LIB="$scratch/vglib" LD_BIND_NOW=1 "$VALGRIND" --tool=$tool \
				$cpu --cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
				--collect-systime=nsec --instr-atstart="${run#*:}" --callgrind-out-file=out \
				"$PROGRAMS/$prog" >stdout 2>log)
			for f in "$prog.$tool"/out*; do
				echo "== $(sed -n 's/^desc: Trigger: //p' "$f")"
				perl "$EVENTS_PL" "$f" Ir Bc Bi
			done >"$prog.$tool.cg"
		done
		check "$prog by hand: every part's and function's Bc and Bi are callgrind's ($(grep -c '^self ' "$prog.bm.cg") functions)" \
			diff "$prog.callgrind.cg" "$prog.bm.cg"
	done
else
	ok "# SKIP the programs by hand: no $callgrind_tool"
fi

# Without --branch-sim nothing changes: the bm engine's files name the
# events they always did (and the heap's, which bm-run counts), the report
# has no branch events; and with it, every other event is the same.
"$BM_RUN" -q --keep plain.kept -o plain.json -- "$PROGRAMS/branches" >/dev/null 2>&1
check_eq "without --branch-sim: the events the dumps always had, and the heap's" \
	"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw sysCount sysTime sysCpuTime allocCount allocBytes" \
	"$(sed -n '/^events:/p' "plain.kept/branches::random.callgrind")"
check_eq "... and with it, callgrind's events line, and the heap's" \
	"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim sysCount sysTime sysCpuTime allocCount allocBytes" \
	"$(sed -n '/^events:/p' "branches.bm.kept/branches::random.callgrind")"
check_eq "without --branch-sim: no branch events in the report" "" \
	"$(events plain.json Bc Bcm Bi Bim | grep -v ' - - - -$')"
OTHER="Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw sysCount"
check_eq "with --branch-sim: every other event the same" \
	"$(events plain.json $OTHER)" "$(events branches.bm.json $OTHER)"
"$BM_RUN" --branch-sim --print-command -- "$PROGRAMS/branches" >command.txt 2>&1
check "bm-run --branch-sim passes --branch-sim=yes to the engine" grep -q -- "--branch-sim=yes" command.txt
"$BM_RUN" --print-command -- "$PROGRAMS/branches" >command.txt 2>&1
check "... and only then" sh -c '! grep -q -- "--branch-sim" command.txt'

# Deterministic: two runs, every event equal (--verify).
"$BM_RUN" -q --verify --branch-sim -o verify.json -- "$PROGRAMS/branches" >/dev/null 2>verify.err
check_eq "the mispredictions repeat exactly (--verify)" 0 $?

# What the predictor makes of tests/programs/branches (65536 bytes, 16384
# calls; warm: the measured run follows an unmeasured one).
events branches.bm.json Bc Bcm Bi Bim >mispredicts.now
bcm() { awk -v id="branches::$1" '$1 == id { print $3 }' mispredicts.now; }
bim() { awk -v id="branches::$1" '$1 == id { print $5 }' mispredicts.now; }
cg_bcm() { events branches.callgrind.json Bcm | awk -v id="branches::$1" '$1 == id { print $2 }'; }
echo "# callgrind's predictor: every 24th $(cg_bcm 'every[period=24]'), random $(cg_bcm random); calls in a cycle Bim $(events branches.callgrind.json Bim | awk '$1 == "branches::calls_cycle" { print $2 }')"
check "a branch over random bytes: about half of them mispredicted ($(bcm random) of 65536)" \
	test "$(bcm random)" -ge 29000 -a "$(bcm random)" -le 36000
check "the same bytes sorted: next to none ($(bcm sorted))" test "$(bcm sorted)" -le 32
check "random >> sorted" test "$(bcm random)" -ge $(($(bcm sorted) * 1000))
# A 2-bit counter mispredicts every taken one: 16384 and 2731; callgrind's
# 7 bits of history learn the first, not the second.
check "taken every 4th time: learnt ($(bcm 'every[period=4]'); a 2-bit counter: 16384)" \
	test "$(bcm 'every[period=4]')" -le 32
check "taken every 24th time: learnt ($(bcm 'every[period=24]'); callgrind's: $(cg_bcm 'every[period=24]'))" \
	test "$(bcm 'every[period=24]')" -le 32 -a "$(cg_bcm 'every[period=24]')" -ge 2000
check "indirect calls in a repeating order: learnt ($(bim calls_cycle) of 16384)" test "$(bim calls_cycle)" -le 32
check "... in a random order of 4: about 3 in 4 mispredicted ($(bim calls_random))" \
	test "$(bim calls_random)" -ge 11000 -a "$(bim calls_random)" -le 13500
check "a switch over a repeating sequence: learnt ($(bim switch_cycle))" test "$(bim switch_cycle)" -le 32
check "... over a random one: mostly mispredicted ($(bim switch_random))" test "$(bim switch_random)" -ge 9000

# The exact counts, recorded with the compiler that built the program
# (its layout decides which branches share the predictor's entries): on
# another compiler a difference is shown as a TAP TODO, not a failure.
recorded="$top_srcdir/tests/cli/data/engine/branches.txt"
compiler=$($CC --version 2>/dev/null | head -n 1)
{ echo "# Bc Bcm Bi Bim of tests/programs/branches with the bm engine, built by $compiler"; cat mispredicts.now; } >mispredicts.cmp
desc="every benchmark's mispredictions are those recorded"
if [ "$(head -n 1 "$recorded")" = "$(head -n 1 mispredicts.cmp)" ]; then
	check_output "$desc" "$recorded" mispredicts.cmp
elif [ "$(sed 1d "$recorded")" = "$(sed 1d mispredicts.cmp)" ]; then
	ok "$desc (built by another compiler than the record's)"
else
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $desc # TODO built by another compiler than the record's: the differences follow"
	diff -u "$recorded" mispredicts.cmp | sed 's/^/# /'
fi

# Per function in the reports and profiles: the loop's function carries
# the branch and its mispredictions.
own=$(json_get branches.bm.json 'my ($b) = grep { $_->{id} eq "branches::random" } @{$j->{benchmarks}}; my %i = map { $b->{profile}{events}[$_] => $_ } 0 .. $#{$b->{profile}{events}}; my ($f) = grep { $_->{name} eq "over_random" } @{$b->{profile}{functions}}; "$f->{self}[$i{Bc}] $f->{self}[$i{Bcm}]"')
check "the report's profile: over_random's own Bc and Bcm ($own)" \
	test "${own% *}" -eq 131072 -a "${own#* }" -ge 29000
"$BM_PROFILE" --tsv "branches.bm.kept/branches::random.callgrind" >profile.tsv
check_eq "bm-profile --tsv: the same, in its Bc and Bcm columns" "$own" \
	"$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } $2 == "over_random" { print $col["Bc"], $col["Bcm"] }' profile.tsv)"
"$BM_PROFILE" "branches.bm.kept/branches::random.callgrind" >profile.txt
check "bm-profile: its events line shows them" \
	grep -q "Bc 131,073 Bcm $(bcm random | sed 's/\(.*\)\(...\)$/\1,\2/') Bi 1 Bim 0" profile.txt

done_testing
