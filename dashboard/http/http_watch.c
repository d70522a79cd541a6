/* SPDX-License-Identifier: MIT */
/* Deadlines for connections: see http_watch.h. */
#include "config.h"

#include "http_watch.h"

#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

/* One open connection: in a list the watcher walks once a second. */
struct watched {
	struct watched *prev, *next;
	int fd;
	double since; /* when its request's time began */
	int cut;      /* shut down already */
};

struct http_watch {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	struct watched head; /* the list's sentinel */
	double seconds;
	int stopping;
};

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Shuts down what is over its time.  Under the lock, which libmicrohttpd's
 * close notification also takes before it closes the descriptor, so that
 * a descriptor number is never shut down once another connection may have
 * it. */
static void cut_late(struct http_watch *w)
{
	double t = now();
	for (struct watched *c = w->head.next; c != &w->head; c = c->next)
		if (!c->cut && t - c->since > w->seconds) {
			shutdown(c->fd, SHUT_RDWR);
			c->cut = 1;
		}
}

static void *watch(void *arg)
{
	struct http_watch *w = arg;
	pthread_mutex_lock(&w->lock);
	while (!w->stopping) {
		cut_late(w);
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&w->wake, &w->lock, &until);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct http_watch *http_watch_start(unsigned seconds)
{
	struct http_watch *w = xcalloc(1, sizeof *w);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	w->head.next = w->head.prev = &w->head;
	w->seconds = seconds;
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

void http_watch_stop(struct http_watch *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	/* (Connections still listed were closed by MHD_stop_daemon, which
	 * notified each one.) */
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

void http_watch_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		       enum MHD_ConnectionNotificationCode code)
{
	struct http_watch *w = cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct watched *c = xcalloc(1, sizeof *c);
		c->fd = info ? info->connect_fd : -1;
		c->since = now();
		pthread_mutex_lock(&w->lock);
		c->next = w->head.next;
		c->prev = &w->head;
		c->next->prev = c;
		w->head.next = c;
		pthread_mutex_unlock(&w->lock);
		*socket_context = c;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
		struct watched *c = *socket_context;
		pthread_mutex_lock(&w->lock);
		c->prev->next = c->next;
		c->next->prev = c->prev;
		pthread_mutex_unlock(&w->lock);
		free(c);
		*socket_context = NULL;
	}
}

void http_watch_answered(struct http_watch *w, struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct watched *c = info ? info->socket_context : NULL;
	if (!c)
		return;
	pthread_mutex_lock(&w->lock);
	c->since = now();
	pthread_mutex_unlock(&w->lock);
}

double http_watch_youngest(struct http_watch *w)
{
	double t = now(), youngest = -1;
	pthread_mutex_lock(&w->lock);
	for (struct watched *c = w->head.next; c != &w->head; c = c->next)
		if (!c->cut && (youngest < 0 || t - c->since < youngest))
			youngest = t - c->since;
	pthread_mutex_unlock(&w->lock);
	return youngest;
}
