/* SPDX-License-Identifier: MIT */
/* Writing a file and reading it back in 4 KiB blocks: most of the time
 * goes to system calls, which bm reports apart from speed. */
#include <bm.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 4096

struct file {
	char path[32];
	char *data;
	size_t size;
};

static void make_file(struct bm_state *s)
{
	struct file *f = malloc(sizeof *f);
	strcpy(f->path, "/tmp/bm-example-XXXXXX");
	int fd = mkstemp(f->path);
	if (fd >= 0)
		close(fd);
	f->size = (size_t)bm_param(s, "size");
	f->data = malloc(f->size);
	memset(f->data, 'b', f->size);
	bm_set_data(s, f);
}

static void remove_file(struct bm_state *s)
{
	struct file *f = bm_data(s);
	unlink(f->path);
	free(f->data);
	free(f);
}

static void write_file(struct bm_state *s)
{
	struct file *f = bm_data(s);
	int fd = open(f->path, O_WRONLY | O_TRUNC);
	long n = 0;
	for (size_t off = 0; fd >= 0 && off < f->size; off += BLOCK)
		n += write(fd, f->data + off, BLOCK);
	if (fd >= 0)
		close(fd);
	bm_black_box(n);
}

static void write_then_read(struct bm_state *s)
{
	static char buf[BLOCK];
	struct file *f = bm_data(s);
	write_file(s);
	int fd = open(f->path, O_RDONLY);
	long sum = 0, n;
	while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
		for (long i = 0; i < n; i++)
			sum += (unsigned char)buf[i];
	if (fd >= 0)
		close(fd);
	bm_black_box(sum);
}

BM_BENCHMARK(io, write, .run = write_file, .setup = make_file, .teardown = remove_file,
	     .params = BM_PARAMS(BM_RANGE("size", 65536)));
BM_BENCHMARK(io, write_read, .run = write_then_read, .setup = make_file, .teardown = remove_file,
	     .params = BM_PARAMS(BM_RANGE("size", 65536)));

BM_MAIN()
