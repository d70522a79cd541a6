/* SPDX-License-Identifier: MIT */
/* A program that times itself, as benchmark suites do: it runs a loop
 * until a millisecond has passed by the monotonic clock, then prints, one
 * "name value" per line, what every way of reading time answered: the
 * clocks, gettimeofday, time, times, getrusage, rdtsc and rdtscp, a sleep
 * and a poll that times out as the clock saw them, sysinfo's uptime, load
 * and processes, the kernel's random bytes (AT_RANDOM, getrandom), and
 * with the argument "thread" a second thread's CPU clock.  With "cpu" it
 * walks 8 MiB, a cache line at a time, and prints only its CPU time, as
 * the last thing it does.  With "monotonic" it reads CLOCK_MONOTONIC 20,000
 * times and prints how often it went back, and its last value.  Under the bm engine's virtual clock every line is the same
 * in every run. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static long long ns_of(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static volatile double sink = 1;
static long long worker_cpu;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++)
		sink *= 1.0000001;
	worker_cpu = ns_of(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* The CPU time of a walk that misses the caches, read last. */
static int cpu_only(void)
{
	static unsigned char big[8 << 20];
	unsigned sum = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sizeof big; i += 64)
			sum += big[i] += (unsigned char)i;
	printf("sum %u\n", sum);
	printf("process_cpu %lld\n", ns_of(CLOCK_PROCESS_CPUTIME_ID));
	return 0;
}

static int monotonic_only(void)
{
	long long last = 0, back = 0;
	for (int i = 0; i < 20000; i++) {
		long long now = ns_of(CLOCK_MONOTONIC);
		back += now < last;
		last = now;
	}
	printf("backwards %lld\nlast %lld\n", back, last);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "cpu") == 0)
		return cpu_only();
	if (argc > 1 && strcmp(argv[1], "monotonic") == 0)
		return monotonic_only();
	long long start = ns_of(CLOCK_MONOTONIC), iterations = 0;
	while (ns_of(CLOCK_MONOTONIC) - start < 1000000) {
		for (int i = 0; i < 100; i++)
			sink *= 1.0000001;
		iterations++;
	}
	printf("iterations %lld\n", iterations);
	printf("realtime %lld\n", ns_of(CLOCK_REALTIME));
	printf("monotonic %lld\n", ns_of(CLOCK_MONOTONIC));
	printf("process_cpu %lld\n", ns_of(CLOCK_PROCESS_CPUTIME_ID));
	printf("thread_cpu %lld\n", ns_of(CLOCK_THREAD_CPUTIME_ID));
	struct timeval tv;
	gettimeofday(&tv, NULL);
	printf("gettimeofday %lld.%06lld\n", (long long)tv.tv_sec, (long long)tv.tv_usec);
	printf("time %lld\n", (long long)time(NULL));
	struct tms tm;
	clock_t elapsed = times(&tm);
	printf("times %lld %lld\n", (long long)elapsed, (long long)tm.tms_utime);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("getrusage %lld.%06lld\n", (long long)ru.ru_utime.tv_sec, (long long)ru.ru_utime.tv_usec);
	unsigned aux = 99;
	unsigned long long a = __rdtsc(), b = __rdtscp(&aux);
	printf("rdtsc %llu\nrdtscp %llu %u\n", a, b, aux);
	long long before = ns_of(CLOCK_MONOTONIC);
	usleep(10000);
	printf("slept %lld\n", ns_of(CLOCK_MONOTONIC) - before);
	before = ns_of(CLOCK_MONOTONIC);
	poll(NULL, 0, 5);
	printf("polled %lld\n", ns_of(CLOCK_MONOTONIC) - before);
	/* With an argument, a second thread too: Valgrind's interleaving of
	 * threads is not repeatable (docs/determinism.md), so not by default. */
	if (argc > 1) {
		pthread_t t;
		pthread_create(&t, NULL, worker, NULL);
		pthread_join(t, NULL);
		printf("worker_cpu %lld\n", worker_cpu);
		printf("main_cpu %lld\n", ns_of(CLOCK_THREAD_CPUTIME_ID));
	}
	const unsigned char *at_random = (const unsigned char *)getauxval(AT_RANDOM);
	unsigned char bytes[8] = {0};
	if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
		return 1;
	printf("at_random");
	for (int i = 0; i < 16; i++)
		printf(" %02x", at_random[i]);
	printf("\ngetrandom");
	for (int i = 0; i < 8; i++)
		printf(" %02x", bytes[i]);
	printf("\n");
	struct sysinfo si;
	sysinfo(&si);
	printf("sysinfo %ld %lu %lu %lu %u\n", si.uptime, si.loads[0], si.loads[1], si.loads[2], (unsigned)si.procs);
	return 0;
}
