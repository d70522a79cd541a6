#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Times whole processes natively for bench/fidelity_external.sh: each
# command of COMMANDS once per repeat, the commands interleaved (so that a
# slow minute of a shared machine hits all of them), after one unmeasured
# round that fills the page cache.  Writes REPEATS files OUT.R.json, each a
# report as analyze.pl collect --native-runs reads them ({"benchmarks":
# [{"id", "status": "ok", "value": user seconds, "wall_s", "system_s"}]}),
# and prints their list (REPEAT<TAB>PATH) on standard output.
#
# The value is the process's user CPU time (wait4's rusage), because bm's
# estimate leaves the kernel out: a whole process's wall time also holds
# its page faults, which zstd's fresh multi-megabyte tables make 40% of
# its run.  The kernel splits a process's CPU time between user and
# system by its timer ticks, so a run of a few milliseconds has a coarse
# split: repeats even it out.  The commands get bm-run's
# environment (instrument/bm-run/sandbox.c) but for its glibc tunables:
# the C locale above all, under which grep, wc and sort take other paths
# than under a UTF-8 one (grep -c ^ ran 18 times longer); natively the
# host's CPU features are used, as a user's run uses them.
#
# usage: time_whole.pl COMMANDS REPEATS OUT
#   COMMANDS: ID<TAB>STDIN<TAB>ARGV lines (STDIN a file or -, ARGV words
#   split at spaces, no shell)
use strict;
use warnings;
use JSON::PP;
use POSIX qw(_exit);
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

my $SYS_wait4 = 61; # x86-64, as bm

die "usage: time_whole.pl COMMANDS REPEATS OUT\n" unless @ARGV == 3;
my ($list, $repeats, $out) = @ARGV;
open my $f, '<', $list or die "time_whole.pl: cannot open '$list': $!\n";
my @commands;
while (<$f>) {
	chomp;
	next if /^#/ || !/\S/;
	my ($id, $stdin, $argv) = split /\t/;
	push @commands, {id => $id, stdin => $stdin, argv => [split / /, $argv]};
}

# Runs one command with its standard input and its output into a file (as
# bm-run gives it one: GNU grep stops at its first match when its output
# is /dev/null), and returns its user, wall and system seconds; a command
# that fails ends the timing.
sub run_once
{
	my ($c) = @_;
	my $start = clock_gettime(CLOCK_MONOTONIC);
	my $pid = fork // die "time_whole.pl: fork: $!\n";
	if (!$pid) {
		open STDIN, '<', $c->{stdin} eq '-' ? '/dev/null' : $c->{stdin} or _exit(126);
		open STDOUT, '>', "$out.stdout" or _exit(126);
		exec { $c->{argv}[0] } @{$c->{argv}} or _exit(127);
	}
	my ($status, $usage) = (pack('i', 0), "\0" x 144); # int, struct rusage
	syscall($SYS_wait4, $pid, $status, 0, $usage) == $pid or die "time_whole.pl: wait4: $!\n";
	my $wall = clock_gettime(CLOCK_MONOTONIC) - $start;
	$status = unpack 'i', $status;
	die "time_whole.pl: '@{$c->{argv}}' failed natively (status $status)\n" if $status;
	my ($us, $uus, $ss, $sus) = unpack 'q4', $usage;
	return ($us + $uus / 1e6, $wall, $ss + $sus / 1e6);
}

%ENV = (PATH => '/usr/local/bin:/usr/bin:/bin', LC_ALL => 'C', TZ => 'UTC', LD_BIND_NOW => 1);
run_once($_) for @commands;
for my $r (1 .. $repeats) {
	my @b = map {
		my ($user, $wall, $system) = run_once($_);
		{id => $_->{id}, status => 'ok', value => $user, wall_s => $wall, system_s => $system}
	} @commands;
	my $path = "$out.$r.json";
	open my $o, '>', $path or die "time_whole.pl: cannot write '$path': $!\n";
	print $o encode_json({benchmarks => \@b});
	close $o or die "time_whole.pl: cannot write '$path': $!\n";
	print "$r\t$path\n";
}
