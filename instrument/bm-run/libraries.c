/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "libraries.h"

#include "error.h"
#include "sandbox.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIBRARIES_MAX 4096

/* "\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)": the path. */
static char *library_path(const char *line)
{
	const char *arrow = strstr(line, " => ");
	if (!arrow || arrow[4] != '/')
		return NULL;
	const char *path = arrow + 4, *end = strstr(path, " (0x");
	return end ? xstrndup(path, (size_t)(end - path)) : NULL;
}

char **libraries_loaded(const char *program, char *const *env, size_t *n, char **err)
{
	size_t nenv = 0;
	while (env[nenv])
		nenv++;
	char **traced = xcalloc(nenv + 2, sizeof *traced);
	memcpy(traced, env, nenv * sizeof *traced);
	traced[nenv] = "LD_TRACE_LOADED_OBJECTS=1";
	int fds[2];
	if (pipe(fds) != 0) {
		free(traced);
		bm_error(err, "cannot list the libraries of '%s': %s", program, strerror(errno));
		return NULL;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(null, 2);
		sandbox_close_except(3, NULL, 0);
		char *argv[] = {(char *)program, NULL};
		execve(program, argv, traced);
		_exit(127);
	}
	free(traced);
	close(fds[1]);
	char **list = xcalloc(1, sizeof *list);
	*n = 0;
	FILE *in = pid > 0 ? fdopen(fds[0], "r") : NULL;
	char line[4096];
	while (in && fgets(line, sizeof line, in)) {
		char *path = library_path(line);
		if (!path)
			continue;
		if (*n == LIBRARIES_MAX) {
			free(path);
			continue;
		}
		list = xreallocarray(list, *n + 2, sizeof *list);
		list[(*n)++] = path;
		list[*n] = NULL;
	}
	if (in)
		fclose(in);
	else
		close(fds[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		for (size_t i = 0; i < *n; i++)
			free(list[i]);
		free(list);
		bm_error(err, "cannot list the libraries of '%s': its dynamic loader %s", program,
			 pid < 0 ? "could not start" : "failed (a library missing?)");
		return NULL;
	}
	return list;
}
