/* SPDX-License-Identifier: MIT */
/* Benchmarks that attack the harness that measures them, for
 * tests/cli/bm_run_hostile.sh: one kills it, one leaves a daemon behind,
 * others exit, close or replace the control descriptor, or exec.  Each
 * does so under bm-run only (BM_CONTROL is set).  Apart from cases.c,
 * whose recorded events must not move. */
#include <bm.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

/* Kills libbm's harness, the process that forked this benchmark's; only
 * under bm-run (BM_CONTROL is set): run natively, that is the shell. */
static void kill_harness(struct bm_state *s)
{
	(void)s;
	if (getenv("BM_CONTROL"))
		kill(getppid(), SIGKILL);
}

/* Detaches as a daemon does (fork, setsid, fork) and sleeps, under bm-run
 * only; bm-run must end it. */
static void daemonise(struct bm_state *s)
{
	(void)s;
	if (!getenv("BM_CONTROL") || fork() != 0)
		return;
	setsid();
	if (fork() == 0)
		execl("/bin/sleep", "sleep", "7265", (char *)NULL);
	_exit(0);
}

/* Leaves without returning to the harness, as a main() that ends in
 * exit(0) does. */
static void exit_zero(struct bm_state *s)
{
	(void)s;
	if (getenv("BM_CONTROL"))
		_exit(0);
}

/* Closes every descriptor above standard error, as some daemons do. */
static void close_control(struct bm_state *s)
{
	(void)s;
	if (getenv("BM_CONTROL"))
		close(3);
}

/* Puts a file of its own on descriptor 3. */
static void dup2_control(struct bm_state *s)
{
	(void)s;
	int fd = getenv("BM_CONTROL") ? open("/dev/null", O_WRONLY) : -1;
	if (fd >= 0)
		dup2(fd, 3);
}

/* Becomes a shell, which exits with the status in HOSTILE_EXEC_STATUS. */
static void exec_shell(struct bm_state *s)
{
	(void)s;
	if (getenv("BM_CONTROL"))
		execl("/bin/sh", "sh", "-c", "exit ${HOSTILE_EXEC_STATUS:-0}", (char *)NULL);
}

static void next(struct bm_state *s)
{
	bm_black_box(bm_id(s)[0]);
}

BM_BENCHMARK(hostile, kill_harness, .run = kill_harness);
BM_BENCHMARK(hostile, daemon, .run = daemonise);
BM_BENCHMARK(hostile, next, .run = next);
BM_BENCHMARK(hostile, exit_zero, .run = exit_zero);
BM_BENCHMARK(hostile, close_control, .run = close_control);
BM_BENCHMARK(hostile, dup2_control, .run = dup2_control);
BM_BENCHMARK(hostile, exec_shell, .run = exec_shell);

/* With HOSTILE_EXEC_MAIN set, main runs this program again with exec
 * before bm_main, to list its benchmarks. */
int main(int argc, char **argv)
{
	if (getenv("HOSTILE_EXEC_MAIN")) {
		char *list[] = {argv[0], "--list", NULL};
		unsetenv("HOSTILE_EXEC_MAIN");
		execv(argv[0], list);
	}
	return bm_main(argc, argv);
}
