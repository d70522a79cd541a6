/* Two worker threads: with --separate-threads=yes callgrind writes one file
 * per thread for each dump. */
#include "region.h"

#include <pthread.h>

static NOINLINE long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static void *worker(void *arg)
{
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
	run_workers();
	REGION("bench_threads", run_workers());
	return 0;
}
