/* SPDX-License-Identifier: MIT */
/* Benchmarks that attack the harness that measures them, for
 * tests/cli/bm_run_hostile.sh: one kills it, one leaves a daemon behind.
 * Apart from cases.c, whose recorded events must not move. */
#include <bm.h>
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

static void next(struct bm_state *s)
{
	bm_black_box(bm_id(s)[0]);
}

BM_BENCHMARK(hostile, kill_harness, .run = kill_harness);
BM_BENCHMARK(hostile, daemon, .run = daemonise);
BM_BENCHMARK(hostile, next, .run = next);

BM_MAIN()
