/* SPDX-License-Identifier: MIT */
/* System calls from several places: write, getpid, nanosleep (argv[1]
 * milliseconds, default 1) and an open/read/close of /proc/self/stat. */
#include "region.h"

#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static NOINLINE long say_nothing(int times)
{
	long s = 0;
	for (int i = 0; i < times; i++)
		s += write(1, "", 0);
	return s;
}

static NOINLINE long ask_pid(int times)
{
	long s = 0;
	for (int i = 0; i < times; i++)
		s += getpid();
	return s;
}

static NOINLINE long read_file(void)
{
	char buf[512];
	int fd = open("/proc/self/stat", O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
	if (fd >= 0)
		close(fd);
	return n;
}

static NOINLINE long io_work(long sleep_ms)
{
	struct timespec t = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
	long s = say_nothing(5) + ask_pid(3) + read_file();
	nanosleep(&t, NULL);
	return s;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1;
	/* Resolve every libc symbol before the region (as bm-run's LD_BIND_NOW would). */
	keep(io_work(0));
	REGION("bench_io", keep(io_work(ms)));
	return 0;
}
