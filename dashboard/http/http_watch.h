/* SPDX-License-Identifier: MIT */
/* Deadlines for connections: every request must be read and answered
 * within a bound, however slowly a client sends or reads it.
 * libmicrohttpd's own timeout restarts with every byte, so a client that
 * sends a header line every 20 s (or a body a byte a second) would hold
 * its connection for ever; enough of them fill the server.  A watcher
 * thread shuts down (shutdown(2): libmicrohttpd then closes it as a
 * connection the client dropped) any connection whose request has taken
 * longer than the bound; a request's time starts when its connection
 * opens or its previous request was answered. */
#ifndef BM_HTTP_WATCH_H
#define BM_HTTP_WATCH_H

#include <microhttpd.h>

struct http_watch;

/* Starts the watcher: requests over `seconds` are cut. */
struct http_watch *http_watch_start(unsigned seconds);
void http_watch_stop(struct http_watch *w);

/* MHD_OPTION_NOTIFY_CONNECTION's callback, with the watch as cls. */
void http_watch_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		       enum MHD_ConnectionNotificationCode code);

/* Conn's request was answered: the next one's time starts now. */
void http_watch_answered(struct http_watch *w, struct MHD_Connection *conn);

/* Seconds since the most recent start of a request time among the open
 * connections (a connection opened, or a request answered), or -1 when
 * none is open: how the drain at shutdown tells a connection that may
 * still send a request from an idle one. */
double http_watch_youngest(struct http_watch *w);

#endif
