/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "json_load.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IO_CHUNK (64 * 1024)

/* A buffered reader from a file descriptor for json_load_callback that
 * stops past JSON_LOAD_MAX. */
struct source {
	int fd;
	int errnum;
	int too_big;
	off_t total;
	size_t pos, len;
	char buf[IO_CHUNK];
};

static size_t source_read(void *buffer, size_t buflen, void *data)
{
	struct source *s = data;
	if (s->pos == s->len) {
		ssize_t n;
		do
			n = read(s->fd, s->buf, sizeof s->buf);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			s->errnum = errno;
			return (size_t)-1;
		}
		s->total += n;
		if (s->total > JSON_LOAD_MAX) {
			s->too_big = 1;
			return (size_t)-1;
		}
		s->pos = 0;
		s->len = (size_t)n;
	}
	size_t k = s->len - s->pos < buflen ? s->len - s->pos : buflen;
	memcpy(buffer, s->buf + s->pos, k);
	s->pos += k;
	return k;
}

json_t *json_load_fd(int fd, size_t flags, struct json_load_error *e)
{
	memset(e, 0, sizeof *e);
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > JSON_LOAD_MAX) {
		e->too_big = 1;
		return NULL;
	}
	struct source *s = xcalloc(1, sizeof *s);
	s->fd = fd;
	json_t *j = json_load_callback(source_read, s, flags, &e->json);
	e->too_big = s->too_big;
	e->errnum = s->errnum;
	free(s);
	return j;
}

json_t *json_load_path(const char *path, size_t flags, char **err)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bm_error(err, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	struct json_load_error e;
	json_t *j = json_load_fd(fd, flags, &e);
	if (!is_stdin)
		close(fd);
	if (j)
		return j;
	if (e.too_big)
		bm_error(err, "'%s' is larger than " JSON_LOAD_MAX_TEXT, name);
	else if (e.errnum)
		bm_error(err, "cannot read '%s': %s", name, strerror(e.errnum));
	else
		bm_error(err, "%s:%d:%d: %s", name, e.json.line, e.json.column, e.json.text);
	return NULL;
}
