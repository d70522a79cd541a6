# SPDX-License-Identifier: MIT
# What the tests' fake HTTP servers share (listen.pl, fake_host.pl): a
# socket on a free loopback port, reading one request, and recording it
# as received in DIR/request.N.
package fake_http;
use strict;
use warnings;
use IO::Socket::INET;

# listen_in DIR: the listening socket; its port is written to DIR/port
# (whole, by a rename: tests wait for the file).
sub listen_in {
	my ($dir) = @_;
	my $srv = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 16, ReuseAddr => 1)
		or die "listen: $!";
	open my $p, ">", "$dir/port.tmp" or die "$dir/port.tmp: $!";
	print $p $srv->sockport;
	close $p;
	rename "$dir/port.tmp", "$dir/port" or die "$dir/port: $!";
	return $srv;
}

# read_request CONNECTION: the request line with its headers, and the body.
sub read_request {
	my ($c) = @_;
	my ($head, $len, $body) = ("", 0, "");
	while (my $line = <$c>) {
		$head .= $line;
		$len = $1 if $line =~ /^Content-Length:\s*(\d+)/i;
		last if $line eq "\r\n";
	}
	read $c, $body, $len if $len;
	return ($head, $body);
}

# record DIR N TEXT...: DIR/request.N, written whole.
sub record {
	my ($dir, $n, @text) = @_;
	open my $f, ">", "$dir/request.tmp" or die "$dir/request.tmp: $!";
	print $f @text;
	close $f;
	rename "$dir/request.tmp", "$dir/request.$n" or die "$dir/request.$n: $!";
}

1;
