/* bm-import: another suite's benchmark results as a bm-report/1 report.
 *
 *   bm-import FORMAT FILE -o REPORT.json
 *
 * FORMAT is one of import_formats (import.h); FILE "-" is standard input.
 * The report is written only when the whole input parsed, atomically.
 * Exit: 0 written; 2 a usage or environment error or input that does not
 * parse (docs/bm-import.md). */
#include "config.h"

#include "import.h"
#include "log.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads all of fd into *out (*size bytes), refusing more than
 * IMPORT_MAX_INPUT.  Returns 0, or -1 with *err set. */
static int read_all(int fd, const char *name, char **out, size_t *size, char **err)
{
	size_t len = 0, alloc = 0;
	char *buf = NULL;
	for (;;) {
		if (len > IMPORT_MAX_INPUT) {
			free(buf);
			*err = xasprintf("'%s' is larger than " IMPORT_MAX_INPUT_TEXT, name);
			return -1;
		}
		xgrow(&buf, &alloc, len + 65536, 1);
		ssize_t n = read(fd, buf + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err = xasprintf("cannot read '%s': %s", name, strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*out = buf;
	*size = len;
	return 0;
}

static void usage(FILE *to)
{
	fputs("usage: bm-import FORMAT FILE -o REPORT.json\n\nformats:\n", to);
	for (size_t i = 0; import_formats[i]; i++)
		fprintf(to, "  %-10s %s\n", import_formats[i]->name, import_formats[i]->description);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	int opt;
	log_set_progname(argv[0]);
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (opt == 'o') {
			output = optarg;
		} else if (opt == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2 || !output) {
		log_error(!output ? "missing -o REPORT.json" : "expected a format and a file");
		usage(stderr);
		return 2;
	}
	const struct import_format *f = import_find(argv[optind]);
	if (!f) {
		log_error("unknown format '%s'", argv[optind]);
		usage(stderr);
		return 2;
	}
	const char *path = argv[optind + 1];
	int is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		log_error("cannot open '%s': %s", path, strerror(errno));
		return 2;
	}
	char *data = NULL, *err = NULL;
	size_t size = 0;
	struct bm_report r;
	int rc = read_all(fd, name, &data, &size, &err);
	if (!is_stdin)
		close(fd);
	if (rc == 0)
		rc = import_parse(f, data, size, name, &r, &err);
	free(data);
	if (rc == 0) {
		size_t failed = 0;
		for (size_t i = 0; i < r.nbenchmarks; i++)
			failed += r.benchmarks[i].status != BM_STATUS_OK;
		rc = report_write_file(&r, output, &err);
		if (rc == 0 && strcmp(output, "-") != 0)
			printf("imported %zu benchmarks (%zu not ok) into '%s'\n", r.nbenchmarks, failed,
			       output);
		report_release(&r);
	}
	if (rc) {
		log_error("%s", err);
		free(err);
		return 2;
	}
	return 0;
}
