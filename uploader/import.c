/* SPDX-License-Identifier: MIT */
/* The importers' table and what they share; the contract is in import.h. */
#include "config.h"

#include "import.h"

#include "error.h"
#include "read_all.h"
#include "strpool.h"
#include "utf8.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct import_format *const import_formats[] = {
	&import_qtestlib,
	&import_gbench,
	&import_chromium,
	NULL,
};

const struct import_format *import_find(const char *name)
{
	for (size_t i = 0; import_formats[i]; i++)
		if (strcmp(import_formats[i]->name, name) == 0)
			return import_formats[i];
	return NULL;
}

int import_parse(const struct import_format *f, const char *data, size_t size, const char *name,
		 struct bm_report *r, char **err)
{
	if (size > IMPORT_MAX_INPUT) {
		memset(r, 0, sizeof *r);
		return bm_error(err, "'%s' is larger than " IMPORT_MAX_INPUT_TEXT, name);
	}
	if (f->parse(data, size, name, r, err)) {
		bm_error_escape(err); /* messages quote the input */
		return -1;
	}
	/* No cycle model made these numbers: the model's id names the source,
	 * so that nothing compares them with simulated ones, and its frequency
	 * is the placeholder 1 Hz that the reader requires to be positive. */
	r->tool_name = xstrdup("bm-import");
	r->tool_version = xstrdup(PACKAGE_VERSION);
	r->model.id = xasprintf("import/%s", f->name);
	r->model.frequency_hz = 1;
	return 0;
}

int import_file(const struct import_format *f, const char *path, struct bm_report *r, char **err)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	memset(r, 0, sizeof *r);
	if (fd < 0)
		return bm_error(err, "cannot open '%s': %s", path, strerror(errno));
	char *data = NULL;
	size_t size = 0;
	int rc = read_all(fd, IMPORT_MAX_INPUT, &data, &size);
	if (rc && errno == EFBIG)
		bm_error(err, "'%s' is larger than " IMPORT_MAX_INPUT_TEXT, name);
	else if (rc)
		bm_error(err, "cannot read '%s': %s", name, strerror(errno));
	if (!is_stdin)
		close(fd);
	if (rc == 0)
		rc = import_parse(f, data, size, name, r, err);
	free(data);
	return rc;
}

/* Ids -------------------------------------------------------------------- */

/* The pool gives each id an index in the order added, which is its
 * benchmark's index in the report. */
struct import_ids {
	struct strpool *pool;
};

struct import_ids *import_ids_new(void)
{
	struct import_ids *ids = xmalloc(sizeof *ids);
	ids->pool = strpool_new();
	return ids;
}

void import_ids_free(struct import_ids *ids)
{
	if (!ids)
		return;
	strpool_free(ids->pool);
	free(ids);
}

#define QUOTE_MAX 200 /* bytes of an id shown in a message */

/* Adds id (valid UTF-8, len bytes) unless it is there. */
static struct bm_result *add(struct bm_report *r, struct import_ids *ids, const char *id, size_t len, char **err)
{
	uint32_t idx;
	if (len > IMPORT_MAX_ID) {
		bm_error(err, "benchmark id longer than %d bytes", IMPORT_MAX_ID);
		return NULL;
	}
	if (strpool_find(ids->pool, id, len, &idx)) {
		/* One line, however the id was spelt: controls become '?'. */
		char shown[QUOTE_MAX + 1];
		size_t n = len < QUOTE_MAX ? len : QUOTE_MAX;
		for (size_t i = 0; i < n; i++)
			shown[i] = (unsigned char)id[i] < 0x20 || id[i] == 0x7f ? '?' : id[i];
		shown[n] = '\0';
		bm_error(err, "duplicate benchmark '%s%s'", shown, len > n ? "..." : "");
		return NULL;
	}
	if (r->nbenchmarks >= IMPORT_MAX_BENCHMARKS) {
		bm_error(err, "more than %d benchmarks", IMPORT_MAX_BENCHMARKS);
		return NULL;
	}
	idx = strpool_intern(ids->pool, id, len);
	struct bm_result *b = report_add_benchmark(r);
	benchmark_set_id(b, strpool_get(ids->pool, idx));
	return b;
}

struct bm_result *import_add(struct bm_report *r, struct import_ids *ids, const char *raw, size_t raw_len,
				char **err)
{
	if (memchr(raw, '\0', raw_len)) {
		bm_error(err, "NUL byte in a benchmark name");
		return NULL;
	}
	/* As the report will write it: two names that differ only in bytes
	 * that are not UTF-8 are one id there. */
	size_t len;
	char *id = utf8_repaired(raw, raw_len, &len);
	struct bm_result *b = add(r, ids, id, len, err);
	free(id);
	return b;
}

long import_lookup(const struct import_ids *ids, const char *raw, size_t raw_len)
{
	uint32_t idx;
	size_t len;
	char *id = utf8_repaired(raw, raw_len, &len);
	long found = strpool_find(ids->pool, id, len, &idx) ? (long)idx : -1;
	free(id);
	return found;
}

/* Numbers ------------------------------------------------------------- */

#define NUMBER_MAX 64 /* bytes of a number's text */

static size_t digits(const char *s, size_t i, size_t len)
{
	size_t start = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i - start;
}

int import_number(const char *s, size_t len, double *out)
{
	size_t i = 0, n;
	char buf[NUMBER_MAX + 1];
	if (len == 0 || len > NUMBER_MAX)
		return -1;
	if (s[i] == '-' || s[i] == '+')
		i++;
	n = digits(s, i, len);
	i += n;
	if (i < len && s[i] == '.') {
		size_t f = digits(s, i + 1, len);
		if (n == 0 && f == 0)
			return -1;
		i += 1 + f;
	} else if (n == 0) {
		return -1;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		n = digits(s, i, len);
		if (n == 0)
			return -1;
		i += n;
	}
	if (i != len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	return isfinite(*out) ? 0 : -1;
}
