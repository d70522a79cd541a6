#!/bin/sh
# SPDX-License-Identifier: MIT
# Programs that fork (issue 23): whole-process and symbol mode measure
# every process of the program, each forked child's own work added to the
# parent's (the bm engine's child counts from the fork); callgrind, whose
# children count their parent's work again, refuses such a run.
. "$(dirname "$0")/lib.sh"

cc=${CC:-cc}
cat >"$scratch/forks.c" <<'EOC'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
__attribute__((noinline)) unsigned long work(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}
int main(int argc, char **argv)
{
	/* forks: the parent works a little, a child more; else both here.
	 * child-only: only a child works (as dpkg-deb compresses). */
	int fork_it = argc > 1, parent_works = argc < 3;
	unsigned long s = parent_works ? work(1000) : 0;
	pid_t p = fork_it ? fork() : 0;
	if (p == 0) {
		s += work(3000);
		if (fork_it)
			_exit((int)(s & 1));
	} else {
		waitpid(p, NULL, 0);
	}
	return (int)(s == 42);
}
EOC
if ! $cc -O1 -g -o "$scratch/forks" "$scratch/forks.c"; then
	not_ok "a C compiler ($cc) builds the test program"
	done_testing
	exit 0
fi
work_of() { json_get "$1" 'my ($b) = grep { $_->{id} =~ /::work$/ } @{$j->{benchmarks}}; join " ", $b->{status}, $b->{calls} // "-", $b->{events}{Ir} // "-"'; }

"$BM_RUN" -q --no-profile --bench work -o "$scratch/alone.json" -- "$scratch/forks" >/dev/null 2>&1
"$BM_RUN" -q --bench work --keep "$scratch/kept" -o "$scratch/forked.json" -- "$scratch/forks" fork >/dev/null 2>&1
check_eq "symbol mode: a function called in the parent and in a forked child, both calls, the same instructions as in one process" \
	"0 $(work_of "$scratch/alone.json")" "$? $(work_of "$scratch/forked.json")"
check_eq "... each process's file kept, and each process's file of the function's calls" \
	"forks.2.callgrind forks.callgrind forks::work.2.callgrind forks::work.callgrind" "$(ls "$scratch/kept" | tr '\n' ' ' | sed 's/ $//')"
check_eq "... the function's files add up to its numbers" \
	"$(sed -n 's/^totals: //p' "$scratch/kept"/forks::work*.callgrind | awk '{ s += $1 } END { print s }')" \
	"$(json_get "$scratch/forked.json" 'my ($b) = grep { $_->{id} =~ /::work$/ } @{$j->{benchmarks}}; $b->{events}{Ir}')"
"$BM_RUN" -q --no-profile --bench work -o "$scratch/child.json" -- "$scratch/forks" fork child-only >/dev/null 2>&1
check_eq "symbol mode: a function called only in a forked child is measured (it was not-run)" "0 ok 1" \
	"$? $(work_of "$scratch/child.json" | cut -d' ' -f1,2)"

"$BM_RUN" -q --whole --keep "$scratch/kept-whole" -o "$scratch/whole.json" -- "$scratch/forks" fork >/dev/null 2>&1
check_eq "whole process: the parent's and the child's files added up" \
	"$(sed -n 's/^totals: //p' "$scratch/kept-whole"/*.callgrind | awk '{ s += $1 } END { print s }')" \
	"$(json_get "$scratch/whole.json" '$j->{benchmarks}[0]{events}{Ir}')"
# The child's own work is its call of work (child.json measured it);
# beside it, the child counts the return from fork and its exit, far less
# than the half of what the parent counts that a count from the parent's
# start would add.
child_ir=$(sed -n 's/^totals: //p' "$scratch/kept-whole/forks.2.callgrind" | cut -d' ' -f1)
parent_ir=$(sed -n 's/^totals: //p' "$scratch/kept-whole/forks.callgrind" | cut -d' ' -f1)
work_ir=$(json_get "$scratch/child.json" 'my ($b) = grep { $_->{id} =~ /::work$/ } @{$j->{benchmarks}}; $b->{events}{Ir}')
check "whole process: the child counted its own work only (it was the parent's too: $child_ir instructions, $work_ir in work, the parent's $parent_ir)" \
	test "$((child_ir - work_ir))" -lt "$((parent_ir / 2))"
"$BM_RUN" -q --verify --whole -o /dev/null -- "$scratch/forks" fork >/dev/null 2>&1
check_eq "whole process that forks: --verify finds the same numbers" 0 $?

"$BM_RUN" -q --engine callgrind --whole -o "$scratch/cg.json" -- "$scratch/forks" fork >/dev/null 2>&1
check_eq "--engine callgrind, a program that forks: exit 1, failed, and why" \
	"1 failed it forked 1 process, whose work callgrind counts with their parent's up to the fork (added up, it would count twice): measure with --engine bm, which counts each process's own" \
	"$? $(json_get "$scratch/cg.json" 'join " ", @{$j->{benchmarks}[0]}{qw(status reason)}')"

done_testing
