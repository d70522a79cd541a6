/* SPDX-License-Identifier: MIT */
/* Two threads that wait on each other in the kernel: the main thread
 * reads a pipe that its second thread writes to.  The bm engine cannot
 * order such threads itself (the kernel holds the reader), so bm-run
 * says the run is nondeterministic (tests/cli/bm_run_threads.sh). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];

static void *writer(void *arg)
{
	(void)arg;
	volatile unsigned long n = 0;
	for (int i = 0; i < 100000; i++)
		n += (unsigned long)i;
	char c = 'x';
	return write(fds[1], &c, 1) == 1 ? NULL : (void *)1;
}

int main(void)
{
	pthread_t t;
	char c = 0;
	if (pipe(fds) || pthread_create(&t, NULL, writer, NULL))
		return 1;
	ssize_t n = read(fds[0], &c, 1);
	pthread_join(t, NULL);
	printf("read %zd byte '%c'\n", n, c);
	return n != 1;
}
