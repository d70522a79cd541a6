#!/bin/sh
# SPDX-License-Identifier: MIT
# The virtual clock (issue 24; docs/engine.md): a program that times
# itself (tests/programs/clocks) reads the same time in every run and
# counts the same, by every way of reading time; bm-run's --clock and
# BM_CLOCK, the report's model.clock, callgrind's host clock; the clock
# advancing with the model's cycles; the host's load, uptime, CPU frequency
# and random bytes, fixed with the clock.  (A Google Benchmark binary:
# bm_run_gbench.sh.)
. "$(dirname "$0")/lib.sh"

need_engine
CLOCKS="$PROGRAMS/clocks"
cd "$scratch" || exit 1

# engine OUT [OPTIONS...] [-- ARG]: the clocks program under the engine by
# hand, its output in OUT.
engine() {
	out=$1
	shift
	opts=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086
	env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm $opts --callgrind-out-file=/dev/null "$CLOCKS" "$@" \
		>"$out" 2>"$out.err"
}
value() { sed -n "s/^$1 //p" "$2"; }

engine one.out --clock=virtual
engine two.out --clock=virtual
check_eq "virtual: every answer the same in two runs" "" "$(diff one.out two.out)"
check "... and the loop ran until its millisecond passed" test "$(value iterations one.out)" -gt 0
# A reading of the time costs the wall clocks a microsecond (natively 20
# ns to 1 us): a loop that runs until some time has passed, as a suite's
# calibration does, reads the clock a few times, not millions.
check "... reading the clock once an iteration, at most 1,000 times ($(value iterations one.out))" \
	test "$(value iterations one.out)" -le 1000
check "REALTIME starts at 2020-01-01T00:00:00Z: a second or less later" \
	sh -c "[ $(value realtime one.out) -ge 1577836800000000000 ] && [ $(value realtime one.out) -lt 1577836801000000000 ]"
check_eq "gettimeofday and time agree with it" "1577836800 1577836800" \
	"$(value gettimeofday one.out | cut -d. -f1) $(value time one.out)"
check "MONOTONIC starts at 1 s" sh -c "[ $(value monotonic one.out) -ge 1000000000 ] && [ $(value monotonic one.out) -lt 2000000000 ]"
check "the process's CPU clock: the time of its instructions, under the wall clock's by a microsecond a reading" \
	sh -c "[ $(value process_cpu one.out) -gt 100000 ] && [ $(($(value process_cpu one.out) + 1000 * $(value iterations one.out))) -le $(($(value monotonic one.out) - 1000000000)) ]"
check "rdtsc: cycles at 3 GHz, three per nanosecond of CPU time" \
	sh -c "[ $(value rdtsc one.out) -ge $(($(value process_cpu one.out) * 3)) ]"
check_eq "rdtscp: TSC_AUX is 0" "0" "$(value rdtscp one.out | cut -d' ' -f2)"
slept=$(value slept one.out)
check "a 10 ms sleep moves the clock by 10 ms and the few instructions around it" \
	sh -c "[ $slept -ge 10000000 ] && [ $slept -lt 10100000 ]"
polled=$(value polled one.out)
check "a poll that times out after 5 ms moves it by 5 ms" sh -c "[ $polled -ge 5000000 ] && [ $polled -lt 5100000 ]"
engine thread.out --clock=virtual -- thread
check "a thread's CPU clock counts its own instructions only" \
	sh -c "[ $(value worker_cpu thread.out) -gt 0 ] && [ $(value worker_cpu thread.out) -lt $(value main_cpu thread.out) ]"
check_eq "sysinfo: the virtual uptime, no load, one process" "1 0 0 0 1" "$(value sysinfo one.out)"
# The host's state that changes with time, fixed with the clock.
vg() { env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm --clock=virtual --callgrind-out-file=/dev/null "$@" 2>/dev/null; }
check_eq "/proc/loadavg: no load" "0.00 0.00 0.00 1/1 1" "$(vg /bin/cat /proc/loadavg)"
check_eq "/proc/uptime: the virtual uptime" "1.00 0.00" "$(vg /bin/cat /proc/uptime)"
check "/proc/cpuinfo: every cpu MHz value reads 3 and zeros, its width kept" \
	sh -c "vg_out=\$(env -i VALGRIND_LIB='$ENGINE_DIR' '$VALGRIND' --tool=bm --clock=virtual --callgrind-out-file=/dev/null /bin/grep '^cpu MHz' /proc/cpuinfo 2>/dev/null); [ -z \"\$(grep '^cpu MHz' /proc/cpuinfo)\" ] || { [ -n \"\$vg_out\" ] && ! echo \"\$vg_out\" | grep -v -q ': 30*\\.0*\$'; }"
check_eq "/dev/urandom: the same bytes in two runs" "$(vg /usr/bin/head -c 16 /dev/urandom | od -An -tx1)" \
	"$(vg /usr/bin/head -c 16 /dev/urandom | od -An -tx1)"
engine host.out --clock=host
check "--clock=host: the kernel's random bytes (AT_RANDOM differs from the virtual run's)" \
	test "$(value at_random host.out)" != "$(value at_random one.out)"
check "--clock=host: the kernel's time (after 2025)" test "$(value time host.out)" -gt 1735689600
engine hz.out --clock=virtual --clock-hz=1000000000
check "--clock-hz: at 1 GHz the same loop passes its millisecond in fewer iterations" \
	test "$(value iterations hz.out)" -lt "$(value iterations one.out)"

# -- bm-run --
"$BM_RUN" -q --whole -o a.json -- "$CLOCKS" >/dev/null 2>a.err
"$BM_RUN" -q --whole -o b.json -- "$CLOCKS" >/dev/null 2>b.err
check_eq "bm-run: the virtual clock by default, in the report" "virtual virtual" \
	"$(json_get a.json '$j->{model}{clock}') $(json_get b.json '$j->{model}{clock}')"
check_eq "... and a program that times itself counts the same in two runs" \
	"$(json_get a.json '$j->{benchmarks}[0]{events}{Ir} . " " . $j->{benchmarks}[0]{cycles}')" \
	"$(json_get b.json '$j->{benchmarks}[0]{events}{Ir} . " " . $j->{benchmarks}[0]{cycles}')"
"$BM_RUN" -q --whole --verify -o v.json -- "$CLOCKS" >/dev/null 2>v.err
check_eq "... and --verify agrees" 0 $?
"$BM_RUN" -q --whole --clock host -o h.json -- "$CLOCKS" >/dev/null 2>h.err
check_eq "--clock host: the report says host" "0 host" "$? $(json_get h.json '$j->{model}{clock}')"
BM_CLOCK=host "$BM_RUN" -q --whole -o e.json -- "$CLOCKS" >/dev/null 2>e.err
check_eq "BM_CLOCK=host: the same" "host" "$(json_get e.json '$j->{model}{clock}')"
"$BM_RUN" -q --whole --clock wall -- "$CLOCKS" >/dev/null 2>bad.err
check_eq "--clock wall: exit 2, naming the two" "2|bm-run: --clock is virtual or host, not 'wall'" "$?|$(cat bad.err)"
"$BM_RUN" -q --whole --engine callgrind -o c.json -- "$CLOCKS" >/dev/null 2>c.err
check_eq "callgrind: the host's clock, and the report says so" "0 host" "$? $(json_get c.json '$j->{model}{clock}')"
"$BM_RUN" -q --whole --engine callgrind --clock virtual -- "$CLOCKS" >/dev/null 2>cv.err
check_eq "callgrind with --clock virtual: exit 2 and why" \
	"2|bm-run: --clock virtual is the bm engine's clock, and callgrind's program reads the host's: measure with --engine bm, or with --clock host" \
	"$?|$(cat cv.err)"
"$BM_RUN" --print-command --whole -- "$CLOCKS" >cmd.out 2>&1
check "--print-command shows the clock at the model's frequency" grep -q -- "--clock=virtual --clock-hz=3000000000" cmd.out

# Billions of cycles (10,000 an instruction, at 100 GHz): the clock counts
# hundredths of a cycle, and converts them to time without overflow (it
# wrapped every 180 million cycles once).
engine mono.out --clock=virtual --clock-hz=100000000000 --clock-cost=Ir:1000000 -- monotonic
check_eq "monotonic over hours of virtual time: never back" "0" "$(value backwards mono.out)"
check "... over 5 billion cycles ($(value last mono.out) ns from 1 s)" test "$(value last mono.out)" -gt 1050000000
# A clock read is counted, without the kernel's time, which the program
# never sees (and measuring it cost more than the call).
"$BM_RUN" -q --whole -o mono.json -- "$CLOCKS" monotonic
check_eq "clock_gettime under the virtual clock: 20,000 calls, 0 ns" "20000 0 0" \
	"$(json_get mono.json 'my ($f) = grep { $_->{function} =~ /^clock_gettime/ } @{$j->{benchmarks}[0]{syscalls}{by_function}}; "$f->{count} $f->{wall_ns} $f->{cpu_ns}"')"
# ... answered without the kernel, as the vDSO answers natively: under
# Valgrind a system call costs most of a microsecond, a reading a few
# instructions.
if strace -f -c -o strace.out true 2>/dev/null; then
	strace -f -c -e trace=clock_gettime -o strace.out env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm \
		--clock=virtual --callgrind-out-file=/dev/null "$CLOCKS" monotonic >/dev/null 2>&1
	kernel=$(awk '$NF == "clock_gettime" { print $4 }' strace.out)
	check "... 20,000 readings, of which the kernel answered ${kernel:-0} (strace)" test "${kernel:-0}" -lt 100
else
	ok "... answered without the kernel # SKIP strace cannot trace here"
fi
check_eq "--clock-cost with an unknown event: refused" "1" \
	"$(engine bad.out --clock=virtual --clock-cost=Xx:1 -- monotonic; grep -c 'expected EVENT:HUNDREDTHS' bad.out.err)"

# -- the clock advances with the model's cycles: a program that reads its
# CPU time last reads what the report estimates, misses included --
for model in bm-model/1 bm-model/2 bm-model/3; do
	"$BM_RUN" -q -v --whole --model "$model" -o cpu.json -- "$CLOCKS" cpu >cpu.out 2>&1
	read_ns=$(sed -n 's/^  | process_cpu //p' cpu.out)
	cycles=$(json_get cpu.json '$j->{benchmarks}[0]{cycles}')
	instructions=$(json_get cpu.json '$j->{benchmarks}[0]{events}{Ir}')
	check "$model: the program's CPU time is the report's cycles at 3 GHz (to its last printf: $read_ns ns, $cycles cycles)" \
		sh -c "[ $((read_ns * 3)) -le $cycles ] && [ $((cycles - read_ns * 3)) -lt $((cycles / 200 + 20000)) ]"
	[ "$model" != bm-model/1 ] ||
		check "... which its cache misses take well past its instructions ($instructions)" \
			test "$((read_ns * 3))" -gt "$((instructions * 2))"
done

done_testing
