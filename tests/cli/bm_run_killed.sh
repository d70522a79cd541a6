#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-run ended from outside (issue 39).  Killed (SIGKILL), it leaves no
# process at work, with -j too: its keepers end Valgrind, the benchmarks'
# own processes and what they detach; and the next bm-run removes the
# scratch directories and the report's temporary file it left, never those
# of a run still alive.  Ended by SIGTERM, SIGHUP or SIGINT, it ends all
# of that itself, removes its files, writes no report and dies of the
# signal.
. "$(dirname "$0")/lib.sh"

cases="$PROGRAMS/cases"
# Two programs at once that never end: a libbm benchmark that spins in a
# process of its own, and a shell that detaches a sleep, then spins.
printf '%s\n' "$cases --filter cases::spin" "sh -c 'setsid sleep 7271 & while :; do :; done'" >"$scratch/manifest"

# procs PID: "pid starttime command line" of each process below PID that
# has not ended (its start time tells it from a later one given the same
# pid).
procs() {
	perl -e 'my (%kids, %start);
		for (glob "/proc/[0-9]*/stat") {
			open my $f, "<", $_ or next; my $s = <$f> // next;
			my ($pid, $rest) = $s =~ /^(\d+) \(.*\) (.*)$/s or next;
			my @f = split / /, $rest;
			next if $f[0] eq "Z";
			open my $c, "<", "/proc/$pid/cmdline" or next;
			my $cmd = join " ", split /\0/, <$c> // "";
			push @{$kids{$f[1]}}, $pid; $start{$pid} = "$f[19] $cmd";
		}
		my @todo = ($ARGV[0]);
		while (defined(my $p = shift @todo)) {
			for (@{$kids{$p} || []}) { print "$_ $start{$_}\n"; push @todo, $_ }
		}' "$1"
}

# alive FILE: the processes of FILE (procs' lines) that still run.
alive() {
	while read -r pid start rest; do
		s=$(sed -n 's/^.*) //p' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1,20)
		case $s in Z*) ;; *" $start") echo "$pid" ;; esac
	done <"$1"
}

# wait_until SECONDS COMMAND...: polls until COMMAND succeeds, at most
# SECONDS (a bound on the work, never a measure of it).
wait_until() {
	limit=$(($1 * 10))
	shift
	tries=0
	until "$@"; do
		[ $tries -ge $limit ] && return 1
		sleep 0.1
		tries=$((tries + 1))
	done
}

# Both programs at work: below bm-run its two keepers, their Valgrinds,
# the benchmark's process and the detached sleep.
at_work() { procs "$1" >"$scratch/procs" && grep -q '^[0-9]* [0-9]* sleep 7271$' "$scratch/procs" &&
	[ "$(wc -l <"$scratch/procs")" -ge 6 ]; }
none_alive() { [ -z "$(alive "$1")" ]; }
# ended PID: the process has ended (a zombie until waited for).
ended() { case $(sed -n 's/^.*) //p' "/proc/$1/stat" 2>/dev/null) in "" | Z*) return 0 ;; esac; return 1; }

# start_run OUT [WRAPPER...]: bm-run on the manifest in the background
# ($bm_run), once its programs are at work; their processes in OUT.procs,
# their scratch directories in OUT.dirs.
start_run() {
	out=$1
	shift
	"$@" "$BM_RUN" -q -j 2 --manifest "$scratch/manifest" -o "$out.json" >/dev/null 2>&1 &
	bm_run=$!
	wait_until 60 at_work $bm_run
	procs $bm_run >"$out.procs"
	tr ' ' '\n' <"$out.procs" | sed -n 's,^--log-file=\(/tmp/bm-run\.[^/]*\)/valgrind\.log$,\1,p' | sort -u >"$out.dirs"
}

# What is left of them: "N processes, N directories, N temporary files,
# report or no report".
left() {
	printf '%s processes, %s directories, %s temporary files, %s\n' "$(alive "$1.procs" | wc -l)" \
		"$(while read -r d; do [ -e "$d" ] && echo "$d"; done <"$1.dirs" | wc -l)" \
		"$(ls "$1.json".tmp.* 2>/dev/null | wc -l)" "$([ -e "$1.json" ] && echo report || echo no report)"
}

# Ends what a run left at work (a bm-run without the fix leaves it all).
reap() {
	for pid in $(alive "$1.procs"); do kill -9 "$pid" 2>/dev/null; done
}

# -- SIGKILL --
start_run "$scratch/kill"
check_eq "before SIGKILL: both programs at work, each in a scratch directory of its own" \
	"yes 2" "$(at_work $bm_run && echo yes || echo no) $(wc -l <"$scratch/kill.dirs")"
kill -KILL $bm_run
wait $bm_run
wait_until 30 none_alive "$scratch/kill.procs"
check_eq "SIGKILL: no process of it is left (keepers, Valgrinds, the benchmark's process, the detached sleep)" \
	"" "$(alive "$scratch/kill.procs" | tr '\n' ' ')"
reap "$scratch/kill"
check_eq "... Valgrind made no vgdb FIFO that it would leave in /tmp" "" \
	"$(cut -d' ' -f1 "$scratch/kill.procs" | while read -r pid; do
		find /tmp -maxdepth 1 -name "vgdb-pipe-*-$pid-*" -newer "$scratch/manifest"; done)"
# (Its directories, unless another bm-run on this machine, such as a
# test running beside this one, has swept them already.)
check_eq "... what it left on disk: its scratch directories and the report's temporary file" \
	"0 processes, 2 directories, 1 temporary files, no report" "$(left "$scratch/kill" | sed 's/ 0 directories/ 2 directories/')"

# SIGKILL of bm-run's whole process group: its keepers have groups of
# their own.
start_run "$scratch/group" perl -e 'setpgrp(0, 0); exec @ARGV'
perl -e 'kill "KILL", -$ARGV[0]' $bm_run
wait $bm_run
wait_until 30 none_alive "$scratch/group.procs"
check_eq "SIGKILL of its process group: no process of it is left either" "" \
	"$(alive "$scratch/group.procs" | tr '\n' ' ')"
reap "$scratch/group"

# What a run still at work has is never taken for a dead one's.
start_run "$scratch/live"
"$BM_RUN" -q -o "$scratch/kill.json" -- /bin/true >/dev/null 2>&1
check_eq "the next bm-run removes what the killed one left, and writes its report" \
	"0 processes, 0 directories, 0 temporary files, report" "$(left "$scratch/kill")"
"$BM_RUN" -q -o "$scratch/live.json" -- /bin/true >/dev/null 2>&1
check_eq "... and leaves the files of a run still at work, its temporary file beside the same report too" \
	"2 directories, 1 temporary files, report" "$(left "$scratch/live" | sed 's/^[^,]*, //')"
kill -TERM $bm_run
wait $bm_run
reap "$scratch/live"

# -- SIGTERM, SIGHUP, SIGINT: bm-run ends it all itself --
for sig in TERM:15 HUP:1 INT:2; do
	n=${sig#*:}
	sig=${sig%:*}
	# SIGHUP as a terminal sends it (a test may run under nohup).
	start_run "$scratch/$sig" perl -e '$SIG{HUP} = "DEFAULT"; exec @ARGV'
	kill -$sig $bm_run
	# A bm-run that does not end of it is ended, and fails the check.
	wait_until 60 ended $bm_run || kill -KILL $bm_run
	wait $bm_run
	rc=$?
	check_eq "SIG$sig: bm-run dies of it, with nothing of it left" \
		"$((128 + n)) 0 processes, 0 directories, 0 temporary files, no report" \
		"$rc $(left "$scratch/$sig")"
	reap "$scratch/$sig"
done

done_testing
