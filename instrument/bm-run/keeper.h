/* SPDX-License-Identifier: MIT */
/* The keeper: a process of bm-run's own between bm-run and the program's first
 * process, and a child subreaper (prctl PR_SET_CHILD_SUBREAPER): whatever
 * the program starts, however it detaches (fork, setsid, fork), stays its
 * descendant rather than init's, and is known to be this program's even
 * when several run at once.  When the program's first process ends, the
 * keeper kills (SIGKILL) and reaps every process still left, then tells
 * bm-run the wait status and what it had to kill.
 *
 * Nothing outlives bm-run either.  The keeper is in a process group of
 * its own, and gets SIGTERM when bm-run dies (PR_SET_PDEATHSIG), however
 * it dies (kill -9 of it or of its group included); SIGTERM kills the
 * program's process group at once, with the benchmarks' processes in it,
 * and the sweep then ends what detached from it.  The program's first
 * process (Valgrind) gets SIGKILL should the keeper itself die. */
#ifndef BM_KEEPER_H
#define BM_KEEPER_H

struct keeper {
	int pid; /* the keeper's */
	int fd;  /* where its report comes from */
};

/* What the keeper saw. */
struct keeper_end {
	int status;     /* the program's first process's, as waitpid gives it */
	int left;       /* how many processes were still running after it */
	char what[240]; /* their command lines ("sleep 30, ..."), from argv0 on
			 * for a process that still runs the program under
			 * Valgrind */
};

/* Starts the keeper, which forks run(arg) (run must exec or _exit) in a
 * process group of its own.  argv0 is the sandbox's argv[0], which
 * describes leftover Valgrind processes.  Returns the pid of run's process,
 * or -1 with *err set. */
int keeper_start(struct keeper *k, void (*run)(void *), void *arg,
			 const char *argv0, char **err);

/* Whether the program ended: 1 with *end filled in (the keeper exited and
 * was reaped), 0 while it runs.  Never blocks unless wait is set. */
int keeper_poll(struct keeper *k, struct keeper_end *end, int wait);

/* While the program runs: kills (SIGKILL) every process the keeper has
 * inherited (its children but program, the program's first process), and
 * what they leave in turn; describes them in end (zeroed by the caller).
 * In harness mode, once the program has reaped a benchmark's process,
 * they are what that benchmark left running.  Returns how many. */
int keeper_kill_orphans(const struct keeper *k, int program, const char *argv0,
				struct keeper_end *end);

/* Kills and reaps the children of the calling process (a subreaper's
 * orphans), and their children that become its own, until none is left;
 * describes them in end.  The keeper's end; bm-run's own, after its runs,
 * should a keeper have died first. */
void keeper_sweep(const char *argv0, struct keeper_end *end);

#endif
