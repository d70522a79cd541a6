#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# events.pl FILE EVENT...: the named events of a callgrind-format file's
# call graph, as lines that compare between engines: "self FN COUNTS" per
# function and "call CALLER > CALLEE CALLS COUNTS" per pair of functions,
# in sorted order ("-" for an event the file does not have).  Callgrind's
# recursion levels (fib'2) are one function, as bm reads them.
use strict;
use warnings;

my ($file, @want) = @ARGV;
my (%names, %self, %calls, %inc, @col);
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
	for my $i (0 .. $#want) {
		$h->{$k}[$i] += defined $col[$i] ? $c[$col[$i]] // 0 : 0;
	}
}
open my $in, '<', $file or die "$file: $!\n";
while (<$in>) {
	chomp;
	if (/^events:\s*(.*)/) {
		my @ev = split ' ', $1;
		my %at = map { $ev[$_] => $_ } 0 .. $#ev;
		@col = map { $at{$_} } @want;
		next;
	}
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
my $counts = sub { join ' ', map { defined $col[$_] ? $_[0][$_] // 0 : '-' } 0 .. $#want };
printf "self %s %s\n", $_, $counts->($self{$_}) for sort keys %self;
printf "call %s %d %s\n", $_, $calls{$_}, $counts->($inc{$_}) for sort keys %inc;
