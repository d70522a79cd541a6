#!/bin/sh
# SPDX-License-Identifier: MIT
# Threads, repeatable (issue 40; docs/engine.md "Threads"): a thread pool
# over fixed chunks (tests/programs/pool.c: a mutex, a condition variable
# with a timed wait that times out, a barrier, a semaphore, a sleep, a
# yield, joins) counts the same events in ten runs, with the same order
# of work among its threads, and the right result; --verify agrees.
# Before the engine took the threads' turns, each run counted otherwise
# (Valgrind's interleaving is the kernel's).  Threads the engine cannot
# order (a pipe between them) are reported as nondeterministic.
. "$(dirname "$0")/lib.sh"

need_engine
cd "$scratch" || exit 1
pool="$PROGRAMS/pool"
"$pool" native.out || exit 1
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$BM_RUN" -q --whole -o "run$i.json" -- "$pool" "$scratch/out$i" >/dev/null 2>"err$i" || sed 's/^/# /' "err$i"
	numbers "run$i.json" >"numbers$i"
done
check "the pool ran under bm-run and counted" grep -q '^pool ok .*Ir=' numbers1
check_eq "its result is the native one" "$(cut -d' ' -f1 native.out)" "$(cut -d' ' -f1 out1)"
check "... its main thread's timed wait timed out on the virtual clock, and its workers shared the chunks" \
	sh -c "grep -q ' timed-out\$' out1 && awk '{ exit !(\$2 + \$3 + \$4 + \$5 == 64) }' out1"
same=0
for i in 2 3 4 5 6 7 8 9 10; do
	cmp -s numbers1 "numbers$i" && cmp -s out1 "out$i" && same=$((same + 1))
done
check_eq "ten runs: the same events and cycles, and the same share of the chunks in each" 9 "$same"
[ "$same" = 9 ] || { sed 's/^/# /' numbers1; sed 's/^/# /' numbers2; }
check_eq "... and says nothing of nondeterminism" "" "$(json_get run1.json '$j->{benchmarks}[0]{nondeterministic} // ""')"

# Threads that wait on each other in the kernel (a pipe): the engine
# cannot order them, and the report and bm-run say so, naming the call.
"$BM_RUN" -v --whole -o pipe.json -- "$PROGRAMS/pipe_wait" >pipe.out 2>pipe.err
check_eq "a pipe between threads: the program's own result" "0|1" "$?|$(cat pipe.out pipe.err | grep -c "| read 1 byte 'x'")"
check_eq "... and its benchmark is said to be nondeterministic, naming the call" \
	"thread 1 waited in the kernel for another thread (read, over a second)" \
	"$(json_get pipe.json '$j->{benchmarks}[0]{nondeterministic} // ""')"
check "... which bm-run says too" grep -q "^bm-run: warning: 'pipe_wait' may count otherwise in another run: thread 1 waited in the kernel" pipe.err

"$BM_RUN" -q --verify --whole -o /dev/null -- "$pool" "$scratch/verify.out" >/dev/null 2>verify.err
check_eq "--verify (its second run's mappings and environment moved): the same" "0|" "$?|$(cat verify.err)"

done_testing
