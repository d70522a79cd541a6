/* SPDX-License-Identifier: MIT */
/* Two worker threads: with --separate-threads=yes callgrind writes one file
 * per thread for each dump.  The workers wait for each other before they
 * work, so both are alive at once and get thread ids 2 and 3 every time
 * (Valgrind reuses the id of a thread that has exited). */
#include "region.h"

#include <pthread.h>

static NOINLINE long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static pthread_barrier_t both_started;

static void *worker(void *arg)
{
	pthread_barrier_wait(&both_started);
	keep(spin((long)arg));
	return NULL;
}

static void run_workers(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)20000L);
	pthread_create(&b, NULL, worker, (void *)30000L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
}

int main(void)
{
	pthread_barrier_init(&both_started, NULL, 2);
	run_workers();
	REGION("bench_threads", run_workers());
	return 0;
}
