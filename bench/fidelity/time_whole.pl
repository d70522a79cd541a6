#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Times whole processes natively for bench/fidelity_external.sh: each
# command of COMMANDS once per repeat, the commands interleaved (so that a
# slow minute of a shared machine hits all of them), after one unmeasured
# round that fills the page cache.  Writes REPEATS files OUT.R.json, each a
# report as analyze.pl collect --native-runs reads them ({"benchmarks":
# [{"id", "status": "ok", "value": wall seconds}]}), and prints their list
# (REPEAT<TAB>PATH) on standard output.  The commands get bm-run's
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
# is /dev/null), and returns its wall time; a command that fails ends the
# timing.
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
	waitpid $pid, 0;
	my $wall = clock_gettime(CLOCK_MONOTONIC) - $start;
	die "time_whole.pl: '@{$c->{argv}}' failed natively (status $?)\n" if $?;
	return $wall;
}

%ENV = (PATH => '/usr/local/bin:/usr/bin:/bin', LC_ALL => 'C', TZ => 'UTC', LD_BIND_NOW => 1);
run_once($_) for @commands;
for my $r (1 .. $repeats) {
	my @b = map { {id => $_->{id}, status => 'ok', value => run_once($_)} } @commands;
	my $path = "$out.$r.json";
	open my $o, '>', $path or die "time_whole.pl: cannot write '$path': $!\n";
	print $o encode_json({benchmarks => \@b});
	close $o or die "time_whole.pl: cannot write '$path': $!\n";
	print "$r\t$path\n";
}
