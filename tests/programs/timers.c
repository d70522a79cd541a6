/* SPDX-License-Identifier: MIT */
/* What a program does with time beyond reading it (tests/cli/
 * engine_timers.sh): MODE OUT writes what it saw to OUT (descriptors: MODE
 * OUT DATA, DATA a file of 8 bytes or more).
 *   alarm, posix, prof  a loop that runs until a timer's signal (an
 *                       itimer of 2 ms, a POSIX timer of 2 ms, a
 *                       profiling itimer of 2 ms of CPU), and the timer's
 *                       time left when it was set (whole milliseconds)
 *   timerfd             a timerfd armed at an absolute now + 30 ms: what
 *                       is left of it, a read's expirations, the time it
 *                       waited
 *   waits               timed waits on absolute deadlines of the
 *                       realtime clock (sem_timedwait 5 ms,
 *                       pthread_cond_timedwait 3 ms,
 *                       pthread_mutex_timedlock 2 ms), sigtimedwait 4 ms,
 *                       epoll_pwait2 6 ms: how each ended and how long
 *   tsc                 rdtsc, rdtscp, rdtsc in a row: increasing or not
 *   descriptors         a timerfd's numbers as the kernel moves them: a
 *                       dup of it, armed for 10 ms, read after the
 *                       original's close; a file dup2'd over a timerfd's
 *                       number, and one opened on a number close_range
 *                       freed, read (their own bytes); an itimer's time
 *                       left in a fork's child (none: not inherited) */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static volatile sig_atomic_t done;

static void on_signal(int s)
{
	(void)s;
	done = 1;
}

static long ms_between(struct timespec a, struct timespec b)
{
	return (long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000);
}

static struct timespec after_ns(clockid_t clock, long ns)
{
	struct timespec t;
	clock_gettime(clock, &t);
	t.tv_nsec += ns;
	while (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

static void loop_until_signal(FILE *out, long left_ms)
{
	unsigned long n = 0;
	while (!done)
		n++;
	fprintf(out, "left %ld ms, signalled after %s\n", left_ms, n > 0 ? "a loop" : "nothing");
}

static void waits(FILE *out)
{
	struct timespec t0, t1, d;
	sem_t s;
	sem_init(&s, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d = after_ns(CLOCK_REALTIME, 5000000);
	int r = sem_timedwait(&s, &d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "sem_timedwait %s after %ld ms\n", r && errno == ETIMEDOUT ? "timed out" : "returned", ms_between(t0, t1));
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d = after_ns(CLOCK_REALTIME, 3000000);
	pthread_mutex_lock(&m);
	r = pthread_cond_timedwait(&c, &m, &d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "pthread_cond_timedwait %s after %ld ms\n", r == ETIMEDOUT ? "timed out" : "returned", ms_between(t0, t1));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d = after_ns(CLOCK_REALTIME, 2000000);
	r = pthread_mutex_timedlock(&m, &d); /* held: by this thread, an error-checking-less mutex */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "pthread_mutex_timedlock %s after %ld ms\n", r == ETIMEDOUT ? "timed out" : "returned", ms_between(t0, t1));
	pthread_mutex_unlock(&m);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct timespec w = {0, 4000000};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = sigtimedwait(&set, NULL, &w);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "sigtimedwait %s after %ld ms\n", r < 0 && errno == EAGAIN ? "timed out" : "returned", ms_between(t0, t1));
	int e = epoll_create1(0);
	struct epoll_event ev;
	w = (struct timespec){0, 6000000};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = epoll_pwait2(e, &ev, 1, &w, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "epoll_pwait2 %s after %ld ms\n", r == 0 ? "timed out" : r < 0 ? strerror(errno) : "returned", ms_between(t0, t1));
}

/* What a read of 8 bytes at fd gave: the bytes, a count, or the error. */
static void read8(FILE *out, const char *what, int fd)
{
	char b[9] = "";
	ssize_t n = read(fd, b, 8);
	if (n < 0)
		fprintf(out, "%s: %s\n", what, strerror(errno));
	else
		fprintf(out, "%s: %zd bytes '%.*s'\n", what, n, (int)n, b);
}

static void descriptors(FILE *out, const char *data)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0), copy = dup(fd);
	close(fd);
	struct itimerspec its = {{0, 0}, {0, 10000000}};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	timerfd_settime(copy, 0, &its, NULL);
	uint64_t expirations = 0;
	ssize_t n = read(copy, &expirations, sizeof expirations);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "dup: read %zd bytes, %llu expirations, waited %ld ms\n", n, (unsigned long long)expirations,
		ms_between(t0, t1));
	int file = open(data, O_RDONLY);
	dup2(file, copy);
	read8(out, "dup2 over the copy", copy);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	dup2(open(data, O_RDONLY), fd);
	read8(out, "dup2 over a timerfd", fd);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	close_range((unsigned)fd, (unsigned)fd, 0);
	int again = open(data, O_RDONLY);
	fprintf(out, "close_range: %s number\n", again == fd ? "the same" : "another");
	read8(out, "close_range, then open", again);
	struct itimerval v = {{0, 0}, {5, 0}};
	setitimer(ITIMER_REAL, &v, NULL);
	fflush(out);
	pid_t child = fork();
	if (child == 0) {
		struct itimerval cur;
		getitimer(ITIMER_REAL, &cur);
		fprintf(out, "fork: the child's itimer %ld s\n", (long)cur.it_value.tv_sec);
		fflush(out);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	v = (struct itimerval){{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &v, NULL);
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4 || (!strcmp(argv[1], "descriptors") && argc != 4))
		return 2;
	FILE *out = fopen(argv[2], "w");
	if (!out)
		return 2;
	const char *mode = argv[1];
	signal(SIGALRM, on_signal);
	signal(SIGPROF, on_signal);
	if (!strcmp(mode, "alarm")) {
		struct itimerval v = {{0, 0}, {0, 2000}}, cur;
		setitimer(ITIMER_REAL, &v, NULL);
		getitimer(ITIMER_REAL, &cur);
		loop_until_signal(out, cur.it_value.tv_usec / 1000);
	} else if (!strcmp(mode, "posix")) {
		timer_t t;
		struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM};
		timer_create(CLOCK_MONOTONIC, &ev, &t);
		struct itimerspec its = {{0, 0}, {0, 2000000}}, cur;
		timer_settime(t, 0, &its, NULL);
		timer_gettime(t, &cur);
		loop_until_signal(out, cur.it_value.tv_nsec / 1000000);
	} else if (!strcmp(mode, "prof")) {
		struct itimerval v = {{0, 0}, {0, 2000}}, cur;
		setitimer(ITIMER_PROF, &v, NULL);
		getitimer(ITIMER_PROF, &cur);
		loop_until_signal(out, cur.it_value.tv_usec / 1000);
	} else if (!strcmp(mode, "timerfd")) {
		int fd = timerfd_create(CLOCK_MONOTONIC, 0);
		struct timespec t0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		struct itimerspec its = {{0, 0}, after_ns(CLOCK_MONOTONIC, 30000000)}, cur;
		timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
		timerfd_gettime(fd, &cur);
		uint64_t expirations = 0;
		ssize_t n = read(fd, &expirations, sizeof expirations);
		struct timespec t1;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		fprintf(out, "left %ld ms, read %zd bytes, %llu expirations, waited %ld ms\n", cur.it_value.tv_nsec / 1000000,
			n, (unsigned long long)expirations, ms_between(t0, t1));
	} else if (!strcmp(mode, "waits")) {
		waits(out);
	} else if (!strcmp(mode, "descriptors")) {
		descriptors(out, argv[3]);
	} else if (!strcmp(mode, "tsc")) {
		unsigned aux;
		unsigned long long x = __rdtsc(), y = __rdtscp(&aux), z = __rdtsc();
		fprintf(out, "%s\n", x < y && y < z ? "increasing" : "not increasing");
	} else {
		return 2;
	}
	return fclose(out) != 0;
}
