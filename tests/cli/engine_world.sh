#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest's world (issue 41; docs/engine.md, "What the program sees"):
# what a program reads of the host that changes between runs is the
# engine's, by every way of reading it, and a program's own files are
# never touched.  tests/programs/world, by mode, under bm-run (--whole,
# the default model) twice: the same cycles and the same output each
# time, and natively the same bytes of its own files.
. "$(dirname "$0")/lib.sh"

need_engine
# The default model (make check's is bm-model/1), on its CPU, x86-64-v3
# where the host can run it (tests/cli/cpu.sh).
unset BM_MODEL BM_CPU
v3=
[ -z "$(host_lacks_v3)" ] && grep -q '^flags.* rdrand\( \|$\)' /proc/cpuinfo && v3=yes
[ -n "$v3" ] || export BM_CPU=x86-64-v1
WORLD="$PROGRAMS/world"
cd "$scratch" || exit 1

# measure MODE: the program under bm-run twice: MODE.1.out and MODE.2.out
# (what it printed), MODE.1.json and MODE.2.json; natively: MODE.native.
measure() {
	for i in 1 2; do
		"$BM_RUN" -q -v --whole -o "$1.$i.json" -- "$WORLD" "$1" >"$1.$i.log" 2>&1
		sed -n 's/^  | //p' "$1.$i.log" >"$1.$i.out"
	done
	"$WORLD" "$1" >"$1.native" 2>&1
}
cycles() { json_get "$1" '$j->{benchmarks}[0]{cycles}'; }
# same MODE: the two runs counted and printed the same.
same() {
	check_eq "$1: the same cycles in two runs ($(cycles "$1.1.json"))" "$(cycles "$1.1.json")" "$(cycles "$1.2.json")"
	check_output "... and the same output" "$1.1.out" "$1.2.out"
}

# -- 1: a descriptor's number that was a host file's, now the program's
# own file's: its bytes, as natively (the engine remembered numbers, and
# rewrote what the next file with that number read) --
measure descriptors
same descriptors
cat >descriptors.expected <<'EOF'
dup2 over /dev/urandom: 39 the program's own data, not the host's
dup3 over /proc/loadavg: 39 the program's own data, not the host's
the same number again: 1
after close_range: 39 the program's own data, not the host's
F_DUPFD onto /dev/urandom's number: 39 the program's own data, not the host's
EOF
check_output "descriptors: the program's own file's bytes through every number" descriptors.expected descriptors.1.out
check_output "... as natively" descriptors.native descriptors.1.out

# -- 5: /proc/loadavg and /proc/uptime by every path the kernel resolves
# to them and every way of reading them --
measure reads
same reads
load="0.00 0.00 0.00 1/1 1"
{
	for path in /proc/loadavg /proc//loadavg /proc/self/../loadavg; do
		echo "$path: 21 $load"
		echo "... lseek and read: 21 $load"
		echo "... pread: $load"
		echo "... dup: 21 $load"
	done
	echo "readv: 21 0.00| 0.00 0.00 1/1 1"
	echo "preadv at 5: 16 0.00| 0.00 1/1 1"
	echo "sendfile: 21"
	echo "... through a pipe: 21 $load"
	echo "openat(/proc, uptime): 10 1.00 0.00"
	echo "load 0.00, none"
} >reads.expected
check_output "reads: no load and the virtual uptime, by every path and every read" reads.expected reads.1.out
check_eq "... natively every read ran" 0 "$(grep -c ': -1' reads.native)"

# -- the random devices, by every read: the fixed stream; sendfile from
# one is refused --
measure random
same random
check "random: every read gave bytes" sh -c "! grep -v '^sendfile' random.1.out | grep -q ': 0 \|: -1 '"
check "... natively too" sh -c "! grep -q ': 0 \|: -1 ' random.native"
check_eq "... sendfile from /dev/urandom: refused as older kernels refuse it" "sendfile: -1 Invalid argument" \
	"$(grep '^sendfile' random.1.out)"
sed 's/^/# /' random.1.out

# -- 6: the host's state that changes between runs --
touch -d 2010-06-01T00:00:00Z from-2010
touch -d 2024-06-01T00:00:00Z from-2024
measure state
same state
check_eq "state: /proc/self/stat: no system time, started at the virtual clock's start" \
	"stime 0 starttime 100" "$(sed -n 's/.* \(stime .*\)/\1/p' state.1.out)"
check "... /proc/self/schedstat: the virtual CPU time, no wait, one slice" grep -q '^/proc/self/schedstat: [0-9]* 0 1$' state.1.out
check_eq "... /proc/stat: booted a second before 2020, one process" "btime 1577836799|processes 1" \
	"$(sed 's/^\.\.\. //' state.1.out | grep -e '^btime' -e '^processes' | paste -sd'|' -)"
check_eq "... /proc/meminfo and sysinfo: all memory free" "1 1" \
	"$(sed -n 's/.*: all free //p' state.1.out | paste -sd' ' -)"
check "... a UUID" grep -q '^uuid: [0-9a-f]\{8\}-[0-9a-f]\{4\}-4[0-9a-f]\{3\}-[89ab][0-9a-f]\{3\}-[0-9a-f]\{12\}$' state.1.out
check_eq "... adjtimex and ntp_gettime: the virtual time, synchronised, no error" \
	"adjtimex: 0, 0 s from time(), offset 0, maxerror 0|ntp_gettime: 0, 0 s from time()" \
	"$(grep -e '^adjtimex' -e '^ntp_gettime' state.1.out | paste -sd'|' -)"
check "... a new file's times: the virtual clock's (2020), as time() says, the same by every stat" \
	grep -q "^a new file: mtime 15778368[0-9][0-9]\.[0-9]*, 0 s before time(); the same in stat, fstatat and statx: 1$" \
	state.1.out
check "... natively: the file's times agree with time() too" \
	grep -q "^a new file: mtime [0-9.]*, 0 s before time(); the same in stat, fstatat and statx: 1$" state.native
check_eq "... a file from before 2020: its date; one from after: the virtual clock's start, before what the program makes" \
	"from-2010: mtime 1275350400.000000000|from-2024: mtime 1577836800.000000000" \
	"$(grep '^from-' state.1.out | paste -sd'|' -)"

# -- 7: rdrand and rdseed: the fixed stream; x86-64-v3 offers RDRAND --
if grep -q '^flags.* rdrand .*rdseed' /proc/cpuinfo; then
	measure rdrand
	same rdrand
	if [ -n "$v3" ]; then
		check_eq "rdrand: x86-64-v3 (the default model's CPU) offers RDRAND, not RDSEED" "cpuid: rdrand 1 rdseed 0" \
			"$(head -n 1 rdrand.1.out)"
	else
		ok "# SKIP this host cannot run x86-64-v3"
	fi
	check "... every one carries a number" grep -q 'carry 1 1 1$' rdrand.1.out
	env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm --clock=virtual --cpu=x86-64-v1 \
		--callgrind-out-file=/dev/null "$WORLD" rdrand >rdrand.v1 2>/dev/null
	check_eq "... x86-64-v1 offers neither, and the instructions answer the same" \
		"cpuid: rdrand 0 rdseed 0|$(sed 1d rdrand.1.out | paste -sd'|' -)" "$(paste -sd'|' - <rdrand.v1)"
	sed 's/^/# /' rdrand.1.out
else
	for i in 1 2 3 4 5; do ok "# SKIP this host has no rdrand or rdseed"; done
fi

done_testing
