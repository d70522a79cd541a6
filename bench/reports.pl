#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# bench/reports.pl DIR N BENCHMARKS: the reports the server benches upload,
# DIR/r/1.json ... N.json: commit i of a linear main-branch history (its sha
# the SHA-1 of "commit i", committed a minute after commit i - 1, its ten
# nearest ancestors listed), BENCHMARKS benchmarks whose numbers drift a
# little from commit to commit; DIR/shas and DIR/benchmarks list them.
use strict;
use warnings;
use Digest::SHA qw(sha1_hex);

my ($dir, $n, $nb) = @ARGV;
mkdir "$dir/r";
srand(1);
my @sha = map { sha1_hex("commit $_") } 0 .. $n;
my $base = 1795341600 - 60 * $n; # the last commit at 2026-11-22T10:00:00Z
sub ts { my @t = gmtime($_[0]); sprintf "%04d-%02d-%02dT%02d:%02d:%02dZ", $t[5] + 1900, $t[4] + 1, @t[3, 2, 1, 0] }
my @bench = map { my $s = "suite" . int($_ / 10); my $b = sprintf "bench_%02d", $_; [ "$s\::$b", $s, $b ] } 0 .. $nb - 1;
my @ir = map { 1000 + int(rand(10_000_000)) } 0 .. $nb - 1;
for my $i (1 .. $n) {
	my $t = $base + 60 * $i;
	my $anc = "[" . join(",", map { "\"$sha[$_]\"" } grep { $_ >= 1 } reverse($i - 10 .. $i - 1)) . "]";
	my @b;
	for my $k (0 .. $nb - 1) {
		$ir[$k] += int(rand(21)) - 10;
		my ($ir, $dr, $dw) = ($ir[$k], int($ir[$k] / 4), int($ir[$k] / 8));
		my ($i1, $d1r, $d1w, $il, $dlr, $dlw) = (int($ir / 1000), int($dr / 100), int($dw / 100), 5, int($dr / 1000), int($dw / 1000));
		my $cyc = $ir + $dr + $dw + 4 * ($i1 + $d1r + $d1w) + 34 * ($il + $dlr + $dlw);
		push @b, sprintf q({"id":"%s","suite":"%s","name":"%s","tag":null,"status":"ok","reason":null,) .
			q("events":{"Ir":%d,"Dr":%d,"Dw":%d,"I1mr":%d,"D1mr":%d,"D1mw":%d,"ILmr":%d,"DLmr":%d,"DLmw":%d,"sysCount":0,"sysTime":0,"sysCpuTime":0},) .
			q("cycles":%d,"time_s":%.17g,"speed":%.17g,"syscalls":{"count":0,"wall_ns":0,"cpu_ns":0,"by_function":[]},"profile":null}),
			@{$bench[$k]}, $ir, $dr, $dw, $i1, $d1r, $d1w, $il, $dlr, $dlw, $cyc, $cyc / 3e9, 3e9 / $cyc;
	}
	open my $f, ">", "$dir/r/$i.json" or die;
	print $f q({"schema":"bm-report/1","run_id":"), sprintf("bench-run-%06d", $i), q(","created_at":"), ts($t + 600), q(",),
		q("tool":{"name":"bm-run","version":"0.1.0","valgrind":"3.19.0"},),
		q("model":{"id":"bm-model/1","frequency_hz":3e9,"weights":{"l1_hit":1,"ll_hit":5,"ram":35},),
		q("cache":{"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64]}},),
		q("context":{"platform":{"compiler":"GCC 12","os":"Debian 12","arch":"x86_64"},"host":"ci","branch":"main",),
		q("commit":{"sha":"), $sha[$i], q(","timestamp":"), ts($t), q(","ancestors":), $anc, q(},"pr":null},),
		q("binary":{"path":"/ci/build/bench","build_id":"ab"},"benchmarks":[), join(",", @b), "]}\n";
	close $f or die;
}
open my $l, ">", "$dir/shas" or die;
print $l "$sha[$_]\n" for 1 .. $n;
open $l, ">", "$dir/benchmarks" or die;
print $l "$_->[0]\n" for @bench;
