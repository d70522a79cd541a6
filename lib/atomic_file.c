#include "config.h"

#include "atomic_file.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct atomic_file {
	char *path, *tmp; /* tmp is NULL for standard output */
	FILE *stream;
};

struct atomic_file *atomic_file_open(const char *path, char **err)
{
	struct atomic_file *af = xcalloc(1, sizeof *af);
	af->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		af->stream = stdout;
		return af;
	}
	af->tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkstemp(af->tmp);
	/* mkstemp makes the file private; a report is as readable as any file
	 * the user creates. */
	mode_t mask = umask(0);
	umask(mask);
	if (fd >= 0 && fchmod(fd, 0666 & ~mask) != 0) {
		close(fd);
		unlink(af->tmp);
		fd = -1;
	}
	if (fd < 0 || !(af->stream = fdopen(fd, "w"))) {
		bm_error(err, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(af->tmp);
		}
		free(af->tmp);
		free(af->path);
		free(af);
		return NULL;
	}
	return af;
}

FILE *atomic_file_stream(struct atomic_file *af)
{
	return af->stream;
}

/* Makes the rename durable: the directory entry is data too. */
static void sync_directory(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	free(af);
}

int atomic_file_commit(struct atomic_file *af, char **err)
{
	int r = 0;
	if (!af->tmp) {
		if (fflush(af->stream) != 0 || ferror(af->stream))
			r = bm_error(err, "cannot write to standard output: %s", strerror(errno));
		release(af);
		return r;
	}
	int failed = fflush(af->stream) != 0 || ferror(af->stream) || fsync(fileno(af->stream)) != 0;
	int saved = errno;
	if (fclose(af->stream) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (!failed && rename(af->tmp, af->path) != 0) {
		failed = 1;
		saved = errno;
	}
	if (!failed)
		sync_directory(af->path);
	if (failed) {
		unlink(af->tmp);
		r = bm_error(err, "cannot write '%s': %s", af->path, strerror(saved));
	}
	release(af);
	return r;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af)
		return;
	if (af->tmp) {
		fclose(af->stream);
		unlink(af->tmp);
	}
	release(af);
}
