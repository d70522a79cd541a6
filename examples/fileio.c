/* Writing a 64 KiB file and reading it back in 4 KiB blocks: the time
 * goes to system calls, which bm reports apart from speed. */
#include "bench_region.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIZE 65536
#define BLOCK 4096

static __attribute__((noinline)) long write_file(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	long n = 0;
	for (int off = 0; fd >= 0 && off < SIZE; off += BLOCK)
		n += write(fd, data + off, BLOCK);
	close(fd);
	return n;
}

static __attribute__((noinline)) long read_file(const char *path)
{
	static char buf[BLOCK];
	int fd = open(path, O_RDONLY);
	long sum = 0, n;
	while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
		for (long i = 0; i < n; i++)
			sum += (unsigned char)buf[i];
	close(fd);
	return sum;
}

int main(void)
{
	char path[] = "/tmp/bm-example-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	char *data = malloc(SIZE);
	memset(data, 'b', SIZE);
	black_box(write_file(path, data) + read_file(path)); /* binds libc first */
	BENCH("io::write[size=65536]", black_box(write_file(path, data)));
	BENCH("io::read[size=65536]", black_box(read_file(path)));
	unlink(path);
	free(data);
	return 0;
}
