/* SPDX-License-Identifier: MIT */
/* bm-run's end on a signal: see interrupt.h. */
#include "config.h"

#include "interrupt.h"

#include <signal.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

void interrupt_catch(void)
{
	struct sigaction sa = {.sa_handler = on_signal}, old;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
}

int interrupt_caught(void)
{
	return caught;
}

void interrupt_exit(void)
{
	int sig = caught;
	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}
