#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# coverage.pl FILE.info: lcov's tracefile summed per directory of bm's
# code (lib/, simulator/, ...), as the Markdown table docs/testing.md
# holds: lines and branches hit, in per cent.
use strict;
use warnings;

my $info = shift or die "usage: coverage.pl FILE.info\n";
open(my $in, '<', $info) or die "coverage.pl: $info: $!\n";
my (%sum, $dir);
while (<$in>) {
	if (/^SF:(.*)$/) {
		my $f = $1;
		$f =~ s{^.*?/((?:lib|simulator|instrument|uploader|dashboard)/)}{$1};
		($dir) = $f =~ m{^((?:simulator/engine|[^/]+))/};
		$dir //= '.';
	} elsif (/^(LF|LH|BRF|BRH):(\d+)$/) {
		$sum{$dir}{$1} += $2;
	}
}
close $in;
my $pct = sub { my ($hit, $all) = @_; $all ? sprintf('%.1f', 100 * $hit / $all) : '-' };
print "| directory | lines | lines % | branches | branches % |\n";
print "| --- | ---: | ---: | ---: | ---: |\n";
my %all;
for my $d (sort keys %sum) {
	my $s = $sum{$d};
	$all{$_} += $s->{$_} // 0 for qw(LF LH BRF BRH);
	printf "| %s/ | %d of %d | %s | %d of %d | %s |\n", $d, $s->{LH} // 0, $s->{LF} // 0,
		$pct->($s->{LH} // 0, $s->{LF} // 0), $s->{BRH} // 0, $s->{BRF} // 0, $pct->($s->{BRH} // 0, $s->{BRF} // 0);
}
printf "| all | %d of %d | %s | %d of %d | %s |\n", $all{LH}, $all{LF}, $pct->($all{LH}, $all{LF}),
	$all{BRH}, $all{BRF}, $pct->($all{BRH}, $all{BRF});
