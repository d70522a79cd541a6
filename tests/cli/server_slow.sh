#!/bin/sh
# SPDX-License-Identifier: MIT
# Slow and greedy clients (docs/bm-server.md): a request must be read and
# answered within --request-timeout however slowly its headers or body
# come (libmicrohttpd's own timeout restarts with every byte); one address
# holds at most --per-address connections, so that one client opening
# hundreds of connections that each send a header line now and then does
# not shut everyone else out; a keep-alive connection whose requests are
# each quick is never cut.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
trap 'server_cleanup; rm -rf "$scratch"' EXIT

db=$(test_db slow)
token=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
start_server "$db" --request-timeout 2 --per-address 8 || exit 1
port=${server_url##*:}

# client MODE: what one slow client sees, "closed after N s" (rounded).
client() {
	perl -MIO::Socket::INET -MTime::HiRes=time,sleep -e '
		my ($port, $mode, $token) = @ARGV;
		my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $port) or die "connect: $!";
		$SIG{PIPE} = "IGNORE";
		my $t0 = time;
		if ($mode eq "headers") {
			print $s "GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n";
		} else {
			print $s "POST /api/v1/projects/demo/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $token\r\n",
				"Content-Length: 1000\r\n\r\n";
		}
		$s->autoflush(1);
		# A byte every 0.3 s, for at most 20 s, until the server closes.
		$s->blocking(0);
		while (time - $t0 < 20) {
			last unless defined(syswrite($s, "x"));
			my $got = sysread($s, my $buf, 4096);
			last if defined $got && $got == 0;
			sleep 0.3;
		}
		printf "closed after %d s\n", time - $t0 + 0.5;
	' "$port" "$1" "$token"
}
out=$(client headers)
check "headers a byte at a time: cut within --request-timeout 2 (the watcher looks every second; at most 6 s on a loaded machine)" \
	sh -c 'case "$1" in "closed after "[2-6]" s") exit 0 ;; *) exit 1 ;; esac' - "$out"
echo "# headers: $out"
out=$(client body)
check "a body a byte at a time: cut within --request-timeout 2" \
	sh -c 'case "$1" in "closed after "[2-6]" s") exit 0 ;; *) exit 1 ;; esac' - "$out"
echo "# body: $out"

# A keep-alive connection making a quick request every second for 5 s.
out=$(perl -MIO::Socket::INET -e '
	my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $ARGV[0]) or die "connect: $!";
	my $n = 0;
	for (1 .. 5) {
		print $s "GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n";
		my ($len, $status) = (0, "");
		while (my $l = <$s>) {
			$status = $1 if $l =~ m{^HTTP/1.1 (\d+)};
			$len = $1 if $l =~ /^Content-Length:\s*(\d+)/i;
			last if $l eq "\r\n";
		}
		read $s, my $body, $len;
		$n++ if $status eq "200";
		sleep 1;
	}
	print "$n\n";
' "$port")
check_eq "a keep-alive connection of quick requests, longer than the timeout: every request answered" 5 "$out"

# greedy ADDRESS N SECONDS EXPECTED: N connections from ADDRESS (a loopback
# address of its own) that each send a header line every second, held for
# SECONDS; prints how many the server closed at once (waiting for
# EXPECTED), then keeps them.
greedy() {
	perl -MIO::Socket::INET -MTime::HiRes=sleep -e '
		my ($port, $from, $n, $secs, $expected) = @ARGV;
		$SIG{PIPE} = "IGNORE";
		my @s;
		for (1 .. $n) {
			my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $port, LocalAddr => $from)
				or die "connect: $!";
			print $s "GET /api/v1/projects HTTP/1.1\r\n";
			push @s, $s;
		}
		# The server closes what is over its limit as it accepts them:
		# counted until EXPECTED are closed (a loaded machine accepts
		# late), for at most 10 s.
		$_->blocking(0) for @s;
		my ($closed, %gone) = (0);
		for (1 .. 50) {
			for my $i (0 .. $#s) {
				next if $gone{$i};
				# End of file, or reset (a request line was left unread).
				my $got = sysread($s[$i], my $buf, 1);
				$gone{$i} = 1 if defined $got ? $got == 0 : !$!{EAGAIN};
			}
			$closed = keys %gone;
			last if $closed >= $expected;
			sleep 0.2;
		}
		print "$closed\n";
		close STDOUT;
		for (1 .. $secs) {
			print $_ "X-Slow: 1\r\n" for @s;
			sleep 1;
		}
	' "$port" "$@"
}
greedy 127.0.0.2 20 4 12 >"$scratch/greedy" &
greedy_pid=$!
for _ in $(seq 150); do [ -s "$scratch/greedy" ] && break; sleep 0.1; done
check_eq "--per-address 8: of 20 connections from one address, 12 are closed at once" 12 "$(cat "$scratch/greedy")"
check_eq "... while another address is answered" 200 \
	"$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$server_url/api/v1/projects")"
wait $greedy_pid
stop_server

# The attack as it was made: hundreds of connections from one address,
# each sending a header line now and then, with the default limits.
start_server "$db" || exit 1
port=${server_url##*:}
greedy 127.0.0.3 300 8 236 >"$scratch/greedy2" &
greedy_pid=$!
for _ in $(seq 150); do [ -s "$scratch/greedy2" ] && break; sleep 0.1; done
answered=0
for _ in 1 2 3 4 5 6 7 8; do
	[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$server_url/api/v1/projects")" = 200 ] &&
		answered=$((answered + 1))
done
check_eq "300 slow connections from one address: the default limit (64) closes 236 of them" 236 \
	"$(cat "$scratch/greedy2")"
check_eq "... and 8 of 8 requests from another address are answered (within 5 s each)" 8 "$answered"
wait $greedy_pid

done_testing
