#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# fake_host.pl DIR: a code host's REST API as bm-check uses it, GitHub's
# and GitLab's, on a free loopback port (written to DIR/port): who a token
# is (GET /user, /api/v4/user), comments of pull requests
# (/repos/O/R/issues/N/comments, .../issues/comments/ID) and notes of merge
# requests (/api/v4/projects/P/merge_requests/N/notes[/ID]), listed 100 a
# page, created, updated and deleted (by their writer only), each with its
# writer (GitHub's "user", GitLab's "author"); commit statuses
# (/repos/O/R/statuses/SHA), created.  Every request is recorded, as
# received, in DIR/request.N; DIR/comments.json is every thread as it
# stands after each request.  A script DIR/hook, when there is one, is run
# (then removed) when a comment is next created or updated, before the
# host answers: what another CI job does meanwhile.  DIR/plant, when there
# is one, is the body of a comment of bm-bot's that is added (then the
# file removed) just before the next comment is created: another job's,
# created at the same time.  DIR/delay, when there is one, is the seconds
# the host waits before it answers each request (one at a time): a slow
# host, on which CI jobs running at once interleave.
#
# Tokens: "t", "gh-token", "g" and "gl-token" are the user bm-bot (id 77);
# "mallory" is the user mallory (id 666); "integration" is an app's
# installation token (GitHub Actions' GITHUB_TOKEN): GET /user refuses it
# (403) and what it writes is github-actions[bot]'s.  Any other token: 401.
# Each thread starts with one comment of someone else's (GitLab's also
# with a system note); repository o/busy's with 150; o/forbidden refuses
# every write; o/locked refuses updates and deletions (a locked
# conversation).
use strict;
use warnings;
use File::Basename qw(dirname);
use JSON::PP;
use Time::HiRes qw(sleep);
use lib dirname(__FILE__);
use fake_http;

my $dir = shift or die "usage: fake_host.pl DIR\n";
my $srv = fake_http::listen_in($dir);

my %users = (
	t => { login => "bm-bot", id => 77 },
	"gh-token" => { login => "bm-bot", id => 77 },
	g => { login => "bm-bot", id => 77 },
	"gl-token" => { login => "bm-bot", id => 77 },
	mallory => { login => "mallory", id => 666 },
	integration => { login => "github-actions[bot]", id => 41898282, app => 1 },
);
my $someone = { login => "someone", id => 1 };

my (%threads, %where, $next_id, $n);
$next_id = 1000;

# A comment as the host shows it: GitHub names its writer "user" (login),
# GitLab "author" (username).
sub shown {
	my ($c, $gitlab) = @_;
	my %s = (id => $c->{id}, body => $c->{body});
	$s{system} = $c->{system} ? JSON::PP::true : JSON::PP::false if $gitlab;
	$s{ $gitlab ? "author" : "user" } = { id => $c->{by}{id}, ($gitlab ? "username" : "login") => $c->{by}{login} };
	return \%s;
}
sub thread {
	my ($key, $busy, $gitlab) = @_;
	$threads{$key} //= [
		($gitlab ? ({ id => $next_id++, body => "added 1 commit", by => $someone, system => 1 }) : ()),
		map { { id => $next_id++, body => "someone else's comment $_", by => $someone } } 1 .. ($busy ? 150 : 1)
	];
	$where{ $_->{id} } //= $_ for @{ $threads{$key} };
	return $threads{$key};
}
sub answer {
	my ($c, $status, $data) = @_;
	my $body = defined $data ? encode_json($data) : "";
	my %text = (200 => "OK", 201 => "Created", 204 => "No Content", 401 => "Unauthorized", 403 => "Forbidden",
		404 => "Not Found");
	print $c "HTTP/1.1 $status $text{$status}\r\nContent-Type: application/json\r\nContent-Length: ", length($body),
		"\r\nConnection: close\r\n\r\n", $body;
}
sub save {
	my %all = map { $_ => [ map { { id => $_->{id}, body => $_->{body}, by => $_->{by}{login} } } @{ $threads{$_} } ] }
		keys %threads;
	open my $f, ">", "$dir/comments.tmp" or die;
	print $f JSON::PP->new->utf8->canonical->encode(\%all);
	close $f;
	rename "$dir/comments.tmp", "$dir/comments.json" or die;
}
while (my $c = $srv->accept) {
	my ($req, $body) = fake_http::read_request($c);
	fake_http::record($dir, ++$n, $req, $body);
	if (open my $d, "<", "$dir/delay") {
		my $s = <$d>;
		sleep($s) if $s && $s =~ /^[0-9.]+$/;
	}
	my ($method, $path) = $req =~ /^(\S+) (\S+)/;
	my ($route, $query) = split /\?/, $path, 2;
	my %q = map { split /=/, $_, 2 } split /&/, $query // "";
	my $in = length $body ? eval { decode_json($body) } : undef;
	my ($token) = $req =~ /^(?:Authorization: Bearer |PRIVATE-TOKEN: )(\S+)\r?$/mi;
	my $me = $users{ $token // "" };
	my $gitlab = $route =~ m{^/api/v4/};
	if (-e "$dir/hook" && $method =~ /^(POST|PATCH|PUT)$/ && $route =~ m{/(comments|notes)(/\d+)?$}) {
		system("sh", "$dir/hook");
		unlink "$dir/hook";
	}
	if (!$me) {
		answer($c, 401, { message => "Bad credentials" });
	} elsif ($route =~ m{^(?:/api/v4)?/user$} && $method eq "GET") {
		if ($me->{app} && !$gitlab) {
			answer($c, 403, { message => "Resource not accessible by integration" });
		} else {
			answer($c, 200, { id => $me->{id}, ($gitlab ? "username" : "login") => $me->{login} });
		}
	} elsif ($route =~ m{^(/repos/([^/]+/[^/]+)/issues/\d+/comments|/api/v4/projects/\w+/merge_requests/\d+/notes)$}) {
		my ($key, $repo) = ($1, $2 // "");
		my $list = thread($key, $repo eq "o/busy", $gitlab);
		if ($method eq "GET") {
			my ($page, $last) = ($q{page} // 1, $#$list);
			my $end = 100 * $page - 1 < $last ? 100 * $page - 1 : $last;
			answer($c, 200, [ map { shown($_, $gitlab) } @$list[ 100 * ($page - 1) .. $end ] ]);
		} elsif ($method eq "POST" && $repo eq "o/forbidden") {
			answer($c, 403, { message => "Resource not accessible by integration" });
		} elsif ($method eq "POST") {
			if (open my $p, "<", "$dir/plant") {
				my $other = { id => $next_id++, body => do { local $/; <$p> }, by => $users{t} };
				push @$list, $other;
				$where{ $other->{id} } = $other;
				unlink "$dir/plant";
			}
			my $new = { id => $next_id++, body => $in->{body}, by => $me };
			push @$list, $new;
			$where{ $new->{id} } = $new;
			answer($c, 201, shown($new, $gitlab));
		} else {
			answer($c, 404, { message => "Not Found" });
		}
	} elsif ($route =~ m{^/repos/[^/]+/[^/]+/statuses/[0-9a-f]{40}$} && $method eq "POST") {
		answer($c, 201, { id => 1, state => $in->{state}, context => $in->{context} });
	} elsif ($route =~ m{^(?:/repos/([^/]+/[^/]+)/issues/comments|/api/v4/projects/\w+/merge_requests/\d+/notes)/(\d+)$}
		 && ($method eq "PATCH" || $method eq "PUT" || $method eq "DELETE") && $where{$2}) {
		my ($repo, $id) = ($1 // "", $2);
		if ($repo eq "o/locked" || $where{$id}{by}{id} != $me->{id}) {
			answer($c, 403, { message => $repo eq "o/locked" ? "Unable to update: the conversation is locked"
				: "You can only edit your own comments" });
		} elsif ($method eq "DELETE") {
			@$_ = grep { $_->{id} != $id } @$_ for values %threads;
			delete $where{$id};
			answer($c, 204, undef);
		} else {
			$where{$id}{body} = $in->{body};
			answer($c, 200, shown($where{$id}, $gitlab));
		}
	} else {
		answer($c, 404, { message => "Not Found" });
	}
	close $c;
	save();
}
