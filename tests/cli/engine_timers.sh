#!/bin/sh
# SPDX-License-Identifier: MIT
# Time beyond reading it, on the virtual clock (issue 41; docs/engine.md
# "The virtual clock"): tests/programs/timers.c's timers (an itimer, a
# POSIX timer and a profiling itimer that end a loop, a timerfd armed at
# an absolute deadline), timed waits on absolute realtime deadlines and
# relative ones (sem_timedwait, pthread_cond_timedwait,
# pthread_mutex_timedlock, sigtimedwait, epoll_pwait2) and rdtsc read
# three times in a row: under bm-run each counts the same cycles in two
# runs and sees what it sees natively (the timer's time left, one
# expiration after the 30 ms it waited, every wait timed out after its
# time, the TSC increasing).  Before, the timers fired on the host's
# time (other cycles in each run), the timerfd counted 218 billion
# expirations, the absolute waits ended at once, and rdtsc read the same
# value twice.  A timerfd's numbers follow dup, dup2 and close_range
# (before, a file dup2'd over one read EAGAIN, and a fork's child had its
# parent's itimer).
. "$(dirname "$0")/lib.sh"

need_engine
cd "$scratch" || exit 1
prog="$PROGRAMS/timers"
expected() {
	case $1 in
	alarm | posix | prof) echo "left 1 ms, signalled after a loop" ;;
	timerfd) echo "left 29 ms, read 8 bytes, 1 expirations, waited 30 ms" ;;
	waits) printf '%s\n' "sem_timedwait timed out after 5 ms" "pthread_cond_timedwait timed out after 3 ms" \
		"pthread_mutex_timedlock timed out after 2 ms" "sigtimedwait timed out after 4 ms" \
		"epoll_pwait2 timed out after 6 ms" ;;
	tsc) echo increasing ;;
	descriptors) printf '%s\n' "dup: read 8 bytes, 1 expirations, waited 10 ms" \
		"dup2 over the copy: 8 bytes 'abcdefgh'" "dup2 over a timerfd: 8 bytes 'abcdefgh'" \
		"close_range: the same number" "close_range, then open: 8 bytes 'abcdefgh'" \
		"fork: the child's itimer 0 s" ;;
	esac
}
printf 'abcdefghij' >data
for mode in alarm posix prof timerfd waits tsc descriptors; do
	for run in 1 2; do
		"$BM_RUN" -q --whole -o "$mode.$run.json" -- "$prog" "$mode" "$scratch/$mode.$run.out" "$scratch/data" \
			>/dev/null 2>"$mode.err" ||
			sed 's/^/# /' "$mode.err"
	done
	check_eq "$mode: what it saw" "$(expected $mode)" "$(cat "$mode.1.out")"
	check_eq "$mode: the same cycles in two runs" "$(json_get "$mode.1.json" '$j->{benchmarks}[0]{cycles}')" \
		"$(json_get "$mode.2.json" '$j->{benchmarks}[0]{cycles}')"
done
check "... which are cycles" test "$(json_get alarm.1.json '$j->{benchmarks}[0]{cycles}')" -gt 0
# Natively the same behaviour, but for what the kernel rounds (its
# profiling timer counts in ticks of the scheduler: 6 ms left of 2) and
# what a busy machine delays: time left may be less, a wait longer.
native_pattern() {
	case $1 in
	alarm | posix) echo '^left [01] ms, signalled after a loop$' ;;
	timerfd) echo '^left (29|2[0-8]|1?[0-9]) ms, read 8 bytes, 1 expirations, waited ([3-9][0-9]|[0-9]{3,}) ms$' ;;
	tsc) echo '^increasing$' ;;
	esac
}
for mode in alarm posix timerfd tsc; do
	"$prog" "$mode" "$scratch/$mode.native"
	check "$mode natively: the same" grep -Eq "$(native_pattern $mode)" "$mode.native"
	grep -Eq "$(native_pattern $mode)" "$mode.native" || sed 's/^/# natively: /' "$mode.native"
done

done_testing
