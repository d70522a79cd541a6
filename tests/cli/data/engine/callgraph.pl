#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# callgraph.pl FILE: a callgrind-format file's call graph as lines that
# compare between engines: "self FN COSTS" per function and "call CALLER >
# CALLEE CALLS COSTS" per pair of functions, in sorted order.  Callgrind's
# recursion levels (fib'2) are one function with the function they
# separate, as bm reads them; costs are the first nine events (without
# the times).
use strict;
use warnings;

my (%names, %self, %calls, %inc);
my ($fn, $cfn, $pending, $npos) = ('', '', 0, 1);
sub name {
	my ($kind, $v) = @_;
	if ($v =~ /^\((\d+)\)(?: (.*))?$/) {
		$names{$kind}{$1} = $2 if defined $2;
		$v = $names{$kind}{$1};
	}
	$v =~ s/'\d+$//;
	return $v;
}
sub add {
	my ($h, $k, @c) = @_;
	$h->{$k}[$_] += $c[$_] // 0 for 0 .. 8;
}
open my $in, '<', $ARGV[0] or die "$ARGV[0]: $!\n";
while (<$in>) {
	chomp;
	if (/^positions:\s*(.*)/) { $npos = () = split ' ', $1; next }
	if (/^fn=(.*)/) { $fn = name('fn', $1); next }
	if (/^cfn=(.*)/) { $cfn = name('fn', $1); next }
	if (/^calls=(\d+)/) { $pending = $1; next }
	next unless /^[0-9+*-]/;
	my @f = split ' ';
	my @c = @f[$npos .. $#f];
	if ($pending) {
		add(\%inc, "$fn > $cfn", @c);
		$calls{"$fn > $cfn"} += $pending;
		$pending = 0;
	} else {
		add(\%self, $fn, @c);
	}
}
printf "self %s %s\n", $_, join ' ', map { $_ // 0 } @{$self{$_}}[0 .. 8] for sort keys %self;
printf "call %s %d %s\n", $_, $calls{$_}, join ' ', map { $_ // 0 } @{$inc{$_}}[0 .. 8] for sort keys %inc;
