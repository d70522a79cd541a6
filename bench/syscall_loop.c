/* SPDX-License-Identifier: MIT */
/* A million system calls, for bench/engine_ab.sh: what the engine's
 * handling of a call costs (its virtual world's checks on each one).
 * usage: syscall_loop read|getppid */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CALLS 1000000

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "read") && strcmp(argv[1], "getppid"))) {
		fprintf(stderr, "usage: syscall_loop read|getppid\n");
		return 2;
	}
	long sum = 0;
	if (!strcmp(argv[1], "read")) {
		int fd = open("/dev/zero", O_RDONLY);
		char c;
		if (fd < 0)
			return perror("/dev/zero"), 1;
		for (int i = 0; i < CALLS; i++)
			sum += read(fd, &c, 1);
	} else {
		for (int i = 0; i < CALLS; i++)
			sum += getppid() > 0;
	}
	printf("%ld\n", sum);
	return sum != CALLS;
}
