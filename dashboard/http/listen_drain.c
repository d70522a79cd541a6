/* SPDX-License-Identifier: MIT */
/* Closing a listening socket resets the connections the kernel completed
 * and nobody accepted yet: their clients sent a request and see it cut
 * ("connection reset"): one request in some 34,000 of the drain test's
 * SIGTERMs under load.  So the socket first stops taking new connections (a
 * filter drops every SYN: such a client is refused when it tries again),
 * handshakes already under way complete, and everything queued is
 * accepted and served like any other connection. */
#include "config.h"

#include "listen_drain.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

/* How long the queue must stay empty: a handshake under way completes
 * within a round trip. */
#define LISTEN_DRAIN_QUIET_MS 100
/* At most this many are taken over. */
#define LISTEN_DRAIN_MAX 4096

/* Drops every TCP segment with SYN set, lets the rest through.  A socket
 * filter of a TCP socket sees the segment from its TCP header, whose
 * byte 13 holds the flags. */
static void refuse_new_connections(int fd)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x02, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffffu),
	};
	struct sock_fprog prog = {sizeof code / sizeof code[0], code};
	/* Without the filter the queue is still served; only the window
	 * before the close stays open. */
	(void)setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog);
}

void listen_drain(struct MHD_Daemon *mhd, MHD_socket listen)
{
	refuse_new_connections(listen);
	fcntl(listen, F_SETFL, fcntl(listen, F_GETFL) | O_NONBLOCK);
	struct pollfd p = {.fd = listen, .events = POLLIN};
	/* (Bounded, should the filter not hold back a stream of clients.) */
	for (int taken = 0; taken < LISTEN_DRAIN_MAX;) {
		int ready = poll(&p, 1, LISTEN_DRAIN_QUIET_MS);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			break;
		struct sockaddr_storage addr;
		socklen_t len = sizeof addr;
		int fd = accept4(listen, (struct sockaddr *)&addr, &len, SOCK_CLOEXEC);
		if (fd < 0)
			continue; /* gone meanwhile (ECONNABORTED), or taken: poll again */
		/* (On failure libmicrohttpd closes fd itself.) */
		MHD_add_connection(mhd, fd, (struct sockaddr *)&addr, len);
		taken++;
	}
	close(listen);
}
