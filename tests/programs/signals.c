/* SPDX-License-Identifier: MIT */
/* Signal handlers, measured as a whole process by tests/cli/engine.sh:
 * a handler returns to the kernel's trampoline, a return that matches no
 * call, and a shell does the same on every child it waits for.  Both
 * engines must run it to its end with the same events and call graph. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

int main(void)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	raise(SIGUSR1);
	pid_t child = fork();
	if (child == 0)
		_exit(3);
	int status;
	while (waitpid(child, &status, 0) < 0)
		;
	printf("handled %d, child %d\n", (int)handled, WEXITSTATUS(status));
	return 0;
}
