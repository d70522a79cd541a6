#include "config.h"

#include "launcher.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The simulation options of bm-model/1: every run passes them, so the
 * host's auto-detected caches never enter a number. */
static const char *const callgrind_options[] = {
	"--tool=callgrind",
	"--cache-sim=yes",
	"--I1=32768,8,64",
	"--D1=32768,8,64",
	"--LL=8388608,16,64",
	"--collect-systime=nsec",
};

static char *search_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin");
	char *found = NULL;
	for (char *dir = strtok(copy, ":"); dir && !found; dir = strtok(NULL, ":")) {
		char *candidate = xasprintf("%s/%s", *dir ? dir : ".", name);
		if (access(candidate, X_OK) == 0)
			found = candidate;
		else
			free(candidate);
	}
	free(copy);
	return found;
}

char *launcher_find_valgrind(char **err)
{
	const char *env = getenv("BM_VALGRIND");
	if (env && *env) {
		if (access(env, X_OK) == 0)
			return xstrdup(env);
		bm_error(err, "BM_VALGRIND='%s' is not an executable: %s", env, strerror(errno));
		return NULL;
	}
	char *v = search_path("valgrind.bin");
	if (!v && access("/usr/bin/valgrind.bin", X_OK) == 0)
		v = xstrdup("/usr/bin/valgrind.bin");
	if (!v)
		v = search_path("valgrind");
	if (!v)
		bm_error(err, "valgrind not found: install it (apt-get install valgrind) or set BM_VALGRIND");
	return v;
}

char *launcher_valgrind_version(const char *valgrind, char **err)
{
	int fds[2];
	if (pipe(fds) != 0) {
		bm_error(err, "cannot run '%s --version': %s", valgrind, strerror(errno));
		return NULL;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(valgrind, valgrind, "--version", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char buf[128] = "";
	size_t len = 0;
	ssize_t r;
	while (len < sizeof buf - 1 && (r = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)r;
	buf[len] = '\0';
	close(fds[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	/* "valgrind-3.19.0\n" */
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || strncmp(buf, "valgrind-", 9) != 0) {
		bm_error(err, "'%s --version' did not say which Valgrind it is", valgrind);
		return NULL;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf + 9);
}

char **launcher_argv(const char *valgrind, enum run_mode mode, const char *symbol,
		     const struct sandbox *sb, char *const *args, size_t nargs)
{
	size_t nopts = sizeof callgrind_options / sizeof callgrind_options[0], n = 0;
	char **argv = xcalloc(nopts + nargs + 10, sizeof *argv);
	argv[n++] = xstrdup(valgrind);
	for (size_t i = 0; i < nopts; i++)
		argv[n++] = xstrdup(callgrind_options[i]);
	switch (mode) {
	case MODE_HARNESS:
		/* libbm turns collection on around each benchmark. */
		argv[n++] = xstrdup("--instr-atstart=no");
		break;
	case MODE_SYMBOL:
		argv[n++] = xstrdup("--collect-atstart=no");
		argv[n++] = xasprintf("--toggle-collect=%s", symbol);
		break;
	case MODE_WHOLE:
		break;
	}
	argv[n++] = xasprintf("--callgrind-out-file=%s", sb->outfile);
	argv[n++] = xasprintf("--log-file=%s", sb->log);
	argv[n++] = xstrdup(sb->argv0);
	for (size_t i = 0; i < nargs; i++)
		argv[n++] = xstrdup(args[i]);
	argv[n] = NULL;
	return argv;
}

void launcher_free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
