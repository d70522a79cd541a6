/* SPDX-License-Identifier: MIT */
/* A thread pool over fixed chunks of work, with every kind of wait
 * glibc's threads make: four workers take chunks from a counter under a
 * mutex (which worker gets which depends on the order they run), sum
 * them, and meet at a barrier; the main thread waits on a condition
 * variable until every chunk is done, with a timed wait that times out
 * first and a semaphore; one worker sleeps, one yields.  The result is
 * the same whatever the order; which worker summed how many chunks is
 * the order's.  tests/cli/bm_run_threads.sh measures it: the same events
 * in every run.  Writes "SUM chunks-of-each-worker" to argv[1]. */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { WORKERS = 4, CHUNKS = 64, CHUNK = 4096 };

static unsigned data[CHUNKS * CHUNK];
static unsigned long sums[CHUNKS];
static int next_chunk, done_chunks, taken[WORKERS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_done = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t met;
static sem_t started;

static unsigned long sum_chunk(int c)
{
	unsigned long s = 0;
	for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++)
		s += (unsigned long)data[i] * (unsigned)(i | 1);
	return s;
}

static void *worker(void *arg)
{
	int me = (int)(long)arg;
	sem_post(&started);
	if (me == 1) {
		struct timespec nap = {0, 200000};
		nanosleep(&nap, NULL);
	}
	for (;;) {
		pthread_mutex_lock(&lock);
		int c = next_chunk < CHUNKS ? next_chunk++ : -1;
		pthread_mutex_unlock(&lock);
		if (c < 0)
			break;
		sums[c] = sum_chunk(c);
		if (me == 2)
			sched_yield();
		pthread_mutex_lock(&lock);
		taken[me]++;
		if (++done_chunks == CHUNKS)
			pthread_cond_signal(&all_done);
		pthread_mutex_unlock(&lock);
	}
	pthread_barrier_wait(&met);
	return NULL;
}

int main(int argc, char **argv)
{
	for (int i = 0; i < CHUNKS * CHUNK; i++)
		data[i] = (unsigned)i * 2654435761u;
	pthread_barrier_init(&met, NULL, WORKERS);
	sem_init(&started, 0, 0);
	pthread_t t[WORKERS];
	for (long k = 0; k < WORKERS; k++)
		pthread_create(&t[k], NULL, worker, (void *)k);
	for (int k = 0; k < WORKERS; k++)
		sem_wait(&started);
	/* A wait that times out first (1 us from now), then the real one. */
	struct timespec soon;
	clock_gettime(CLOCK_REALTIME, &soon);
	soon.tv_nsec += 1000;
	if (soon.tv_nsec >= 1000000000L) {
		soon.tv_sec++;
		soon.tv_nsec -= 1000000000L;
	}
	int timed_out = 0;
	pthread_mutex_lock(&lock);
	while (done_chunks < CHUNKS) {
		if (!timed_out && pthread_cond_timedwait(&all_done, &lock, &soon))
			timed_out = 1;
		else if (timed_out)
			pthread_cond_wait(&all_done, &lock);
	}
	pthread_mutex_unlock(&lock);
	for (int k = 0; k < WORKERS; k++)
		pthread_join(t[k], NULL);
	unsigned long total = 0;
	for (int c = 0; c < CHUNKS; c++)
		total += sums[c];
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;
	if (!out)
		return 2;
	fprintf(out, "%lu", total);
	for (int k = 0; k < WORKERS; k++)
		fprintf(out, " %d", taken[k]);
	fprintf(out, " %s\n", timed_out ? "timed-out" : "no-timeout");
	return fclose(out) != 0;
}
