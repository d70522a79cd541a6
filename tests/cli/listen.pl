#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# listen.pl DIR STATUS [HEADER_FILE BODY_FILE]: a one-thread HTTP listener
# on a free loopback port (written to DIR/port) that records each request
# in DIR/request.N and answers STATUS with the extra headers and body
# given; STATUS "hang" accepts, reads the request and never answers.
use strict;
use warnings;
use File::Basename qw(dirname);
use lib dirname(__FILE__);
use fake_http;
my ($dir, $status, $hfile, $bfile) = @ARGV;
sub slurp { my $f = shift; return "" unless defined $f; local $/; open my $h, "<", $f or die "$f: $!"; my $t = <$h>; return $t }
my ($headers, $body) = (slurp($hfile), slurp($bfile));
my $srv = fake_http::listen_in($dir);
my ($n, @held) = (0);
while (my $c = $srv->accept) {
	fake_http::record($dir, ++$n, fake_http::read_request($c));
	if ($status eq "hang") {
		push @held, $c; # open, and never a word
		next;
	}
	print $c "HTTP/1.1 $status Status\r\n$headers", "Content-Length: ", length($body), "\r\nConnection: close\r\n\r\n", $body;
	close $c;
}
