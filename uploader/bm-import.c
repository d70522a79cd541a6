/* SPDX-License-Identifier: MIT */
/* bm-import: another suite's benchmark results as a bm-report/1 report.
 *
 *   bm-import FORMAT FILE -o REPORT.json
 *
 * FORMAT is one of import_formats (import.h); FILE "-" is standard input.
 * The report is written only when the whole input parsed, atomically.
 * Exit: 0 written; 2 a usage or environment error or input that does not
 * parse (docs/bm-import.md). */
#include "config.h"

#include "atomic_file.h"
#include "import.h"
#include "log.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *to)
{
	fputs("usage: bm-import FORMAT FILE -o REPORT.json\n"
	      "       bm-import --help | --version\n\nformats:\n",
	      to);
	for (size_t i = 0; import_formats[i]; i++)
		fprintf(to, "  %-10s %s\n", import_formats[i]->name, import_formats[i]->description);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	int opt;
	log_take_progname(argv);
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (opt == 'o') {
			output = optarg;
		} else if (opt == 'h') {
			usage(stdout);
			return 0;
		} else if (opt == 'V') {
			printf("bm-import %s\n", PACKAGE_VERSION);
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
	char *err = NULL;
	struct bm_report r;
	int rc = import_file(f, argv[optind + 1], &r, &err);
	if (rc == 0) {
		size_t failed = 0;
		for (size_t i = 0; i < r.nbenchmarks; i++)
			failed += r.benchmarks[i].status != BM_STATUS_OK;
		rc = report_write_file(&r, output, &err);
		if (rc == 0 && !atomic_file_is_stdout(output))
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
