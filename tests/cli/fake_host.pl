#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# fake_host.pl DIR: a code host's REST API as bm-check uses it, GitHub's
# and GitLab's, on a free loopback port (written to DIR/port): comments of
# pull requests (/repos/O/R/issues/N/comments, .../issues/comments/ID) and
# notes of merge requests (/api/v4/projects/P/merge_requests/N/notes[/ID]),
# listed 100 a page, created, updated; commit statuses
# (/repos/O/R/statuses/SHA), created.  Every request is recorded, as
# received, in DIR/request.N.  Each thread starts with one comment of
# someone else's; repository o/busy's with 150; o/forbidden refuses writes.
use strict;
use warnings;
use File::Basename qw(dirname);
use JSON::PP;
use lib dirname(__FILE__);
use fake_http;

my $dir = shift or die "usage: fake_host.pl DIR\n";
my $srv = fake_http::listen_in($dir);

my (%threads, %where, $next_id, $n);
$next_id = 1000;
sub thread {
	my ($key, $busy) = @_;
	$threads{$key} //= [map { { id => $next_id++, body => "someone else's comment $_" } } 1 .. ($busy ? 150 : 1)];
	return $threads{$key};
}
sub answer {
	my ($c, $status, $data) = @_;
	my $body = encode_json($data);
	my %text = (200 => "OK", 201 => "Created", 403 => "Forbidden", 404 => "Not Found");
	print $c "HTTP/1.1 $status $text{$status}\r\nContent-Type: application/json\r\nContent-Length: ", length($body),
		"\r\nConnection: close\r\n\r\n", $body;
}
while (my $c = $srv->accept) {
	my ($req, $body) = fake_http::read_request($c);
	fake_http::record($dir, ++$n, $req, $body);
	my ($method, $path) = $req =~ /^(\S+) (\S+)/;
	my ($route, $query) = split /\?/, $path, 2;
	my %q = map { split /=/, $_, 2 } split /&/, $query // "";
	my $in = length $body ? eval { decode_json($body) } : undef;
	if ($route =~ m{^(/repos/([^/]+/[^/]+)/issues/\d+/comments|/api/v4/projects/\w+/merge_requests/\d+/notes)$}) {
		my ($key, $repo) = ($1, $2 // "");
		my $list = thread($key, $repo eq "o/busy");
		if ($method eq "GET") {
			my ($page, $last) = ($q{page} // 1, $#$list);
			my $end = 100 * $page - 1 < $last ? 100 * $page - 1 : $last;
			answer($c, 200, [@$list[100 * ($page - 1) .. $end]]);
		} elsif ($method eq "POST" && $repo eq "o/forbidden") {
			answer($c, 403, { message => "Resource not accessible by integration" });
		} elsif ($method eq "POST") {
			my $new = { id => $next_id++, body => $in->{body} };
			push @$list, $new;
			$where{$new->{id}} = $new;
			answer($c, 201, $new);
		} else {
			answer($c, 404, { message => "Not Found" });
		}
	} elsif ($route =~ m{^/repos/[^/]+/[^/]+/statuses/[0-9a-f]{40}$} && $method eq "POST") {
		answer($c, 201, { id => 1, state => $in->{state} });
	} elsif ($route =~ m{^(?:/repos/[^/]+/[^/]+/issues/comments|/api/v4/projects/\w+/merge_requests/\d+/notes)/(\d+)$}
		 && ($method eq "PATCH" || $method eq "PUT") && $where{$1}) {
		$where{$1}{body} = $in->{body};
		answer($c, 200, $where{$1});
	} else {
		answer($c, 404, { message => "Not Found" });
	}
	close $c;
}
