/* SPDX-License-Identifier: MIT */
/* libbm's once-per-benchmark setup and string parameters: benchmarks that
 * read an input file (named by a BM_VALUES parameter, relative to the
 * current directory) once, in setup_once, and checksum it in every run.
 *
 * inputs::checksum runs over the shared input itself; inputs::copy's
 * per-execution setup copies it first (shared and per-execution data
 * together).  Both runs execute the same loop over the same bytes, so
 * their simulated instructions are equal, and neither counts the file
 * reading.  With INPUTS_LOG set, every once-callback appends a line to
 * that file, so that the tests can count them. */
#include <bm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct input {
	unsigned char *bytes;
	size_t len;
};

static void log_call(const char *what, struct bm_state *s)
{
	const char *path = getenv("INPUTS_LOG");
	FILE *f = path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "%s %s\n", what, bm_id(s));
		fclose(f);
	}
}

static void read_input(struct bm_state *s)
{
	const char *path = bm_param_str(s, "input");
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	struct input *in = calloc(1, sizeof *in);
	size_t alloc = 0, n;
	unsigned char chunk[4096];
	while (in && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (in->len + n > alloc) {
			alloc = 2 * (in->len + n);
			in->bytes = realloc(in->bytes, alloc);
		}
		memcpy(in->bytes + in->len, chunk, n);
		in->len += n;
	}
	fclose(f);
	bm_set_shared(s, in);
	log_call("setup_once", s);
}

static void free_input(struct bm_state *s)
{
	struct input *in = bm_shared(s);
	log_call("teardown_once", s);
	free(in->bytes);
	free(in);
}

static __attribute__((noinline)) void checksum_bytes(const struct input *in)
{
	unsigned long sum = 0;
	for (size_t i = 0; i < in->len; i++)
		sum = sum * 31 + in->bytes[i];
	bm_black_box(sum);
}

static void checksum(struct bm_state *s)
{
	checksum_bytes(bm_shared(s));
}

static void make_copy(struct bm_state *s)
{
	const struct input *in = bm_shared(s);
	struct input *copy = malloc(sizeof *copy);
	copy->len = in->len;
	copy->bytes = malloc(in->len ? in->len : 1);
	memcpy(copy->bytes, in->bytes, in->len);
	bm_set_data(s, copy);
}

static void checksum_copy(struct bm_state *s)
{
	checksum_bytes(bm_data(s));
}

static void free_copy(struct bm_state *s)
{
	struct input *copy = bm_data(s);
	free(copy->bytes);
	free(copy);
}

BM_BENCHMARK(inputs, checksum, .run = checksum, .setup_once = read_input,
	     .teardown_once = free_input,
	     .params = BM_PARAMS(BM_VALUES("input", "small.txt", "large.txt")));
BM_BENCHMARK(inputs, copy, .run = checksum_copy, .setup_once = read_input,
	     .teardown_once = free_input, .setup = make_copy, .teardown = free_copy,
	     .params = BM_PARAMS(BM_VALUES("input", "small.txt", "large.txt")));

BM_MAIN()
