/* SPDX-License-Identifier: MIT */
/* Closing a listening socket without cutting the connections queued on it. */
#ifndef BM_LISTEN_DRAIN_H
#define BM_LISTEN_DRAIN_H

#include <microhttpd.h>

/* Hands every connection waiting on listen (a socket mhd no longer
 * accepts from: MHD_quiesce_daemon's) to mhd to be served, then closes
 * listen.  Clients that try to connect from then on are refused. */
void listen_drain(struct MHD_Daemon *mhd, MHD_socket listen);

#endif
