/* SPDX-License-Identifier: MIT */
/* The keeper of a program's processes: see keeper.h. */
#include "config.h"

#include "keeper.h"

#include "error.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#define SWEEP_MAX 256 /* leftover processes told apart; more are only killed */

/* The parent of pid, from /proc/PID/stat ("pid (comm) state ppid ..."),
 * or -1 when it is gone; *zombie says whether it has ended already. */
static int parent_of(int pid, int *zombie)
{
	char path[64], buf[512], state;
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ppid;
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* comm may hold ')' and spaces: the fields start after the last ')'. */
	char *paren = strrchr(buf, ')');
	if (!paren || sscanf(paren + 1, " %c %d", &state, &ppid) != 2)
		return -1;
	*zombie = state == 'Z' || state == 'X';
	return ppid;
}

/* Adds pid's command line to end->what: from argv0 on when it has that
 * argument (a process still running the program under Valgrind, whose
 * own options say nothing), else whole. */
static void describe(int pid, const char *argv0, struct keeper_end *end)
{
	char path[64], cmd[128];
	snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		n = snprintf(cmd, sizeof cmd, "process %d", pid);
	cmd[n] = '\0';
	char *from = cmd;
	for (char *a = cmd; a < cmd + n; a += strlen(a) + 1)
		if (argv0 && strcmp(a, argv0) == 0)
			from = a;
	for (char *c = from; c < cmd + n; c++)
		if (!*c)
			*c = ' ';
	while (n > 0 && cmd[n - 1] == ' ')
		cmd[--n] = '\0';
	size_t used = strlen(end->what);
	snprintf(end->what + used, sizeof end->what - used, "%s%s", used ? ", " : "", from);
}

/* SIGKILLs every live child of parent but spare; the first time one is
 * seen, it is counted and described.  Returns how many it found. */
static int kill_children(int parent, int spare, const char *argv0, struct keeper_end *end, int *seen,
			 size_t *nseen)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;
	while (d && (e = readdir(d))) {
		int pid = atoi(e->d_name), zombie = 0;
		if (pid <= 0 || pid == spare || parent_of(pid, &zombie) != parent || zombie)
			continue;
		found++;
		size_t i = 0;
		while (i < *nseen && seen[i] != pid)
			i++;
		if (i == *nseen) {
			/* Said before it is killed: its command line goes with it. */
			if (*nseen < SWEEP_MAX)
				seen[(*nseen)++] = pid;
			end->left++;
			describe(pid, argv0, end);
		}
		kill(pid, SIGKILL);
	}
	if (d)
		closedir(d);
	return found;
}

void keeper_sweep(const char *argv0, struct keeper_end *end)
{
	int seen[SWEEP_MAX];
	size_t nseen = 0;
	for (;;) {
		/* A killed child ends at once, and its children become ours;
		 * one that became ours after the look through /proc is found
		 * the next time round. */
		int found = kill_children((int)getpid(), 0, argv0, end, seen, &nseen);
		pid_t r = waitpid(-1, NULL, found ? 0 : WNOHANG);
		if (r < 0 && errno == ECHILD)
			return;
		if (r == 0) {
			struct timespec t = {0, 1000000};
			nanosleep(&t, NULL);
		}
	}
}

int keeper_kill_orphans(const struct keeper *k, int program, const char *argv0,
				struct keeper_end *end)
{
	int seen[SWEEP_MAX];
	size_t nseen = 0;
	/* A killed process's children become the keeper's as it dies: look
	 * again until none is left alive (the keeper reaps them later). */
	while (kill_children(k->pid, program, argv0, end, seen, &nseen)) {
		struct timespec t = {0, 1000000};
		nanosleep(&t, NULL);
	}
	return end->left;
}

static volatile sig_atomic_t program_pid, told_to_end;

/* SIGTERM, which the keeper also gets when bm-run dies: the program (its
 * process group, the benchmarks' processes in it) ends now, and the
 * keeper then sweeps what it leaves as after any end. */
static void end_program(int sig)
{
	(void)sig;
	told_to_end = 1;
	if (program_pid > 0) {
		kill(-program_pid, SIGKILL);
		kill(program_pid, SIGKILL); /* before it has a group of its own */
	}
}

/* The keeper's life: the program's first process, its end, the sweep,
 * and one report (smaller than PIPE_BUF: written at once).  bm_run is
 * bm-run's pid. */
static void keeper(int fd, void (*run)(void *), void *arg, const char *argv0, pid_t bm_run)
{
	/* A process group of its own, so that what ends bm-run's (a kill -9
	 * of the group) leaves it alive to end the program; and bm-run's
	 * death, however it comes, ends the program. */
	setpgid(0, 0);
	signal(SIGINT, SIG_IGN); /* bm-run ends the program on SIGINT */
	struct sigaction sa = {.sa_handler = end_program};
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != bm_run)
		_exit(1);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid_t keeper_pid = getpid(), pid = fork();
	if (pid == 0) {
		/* Should the keeper itself be killed, so is the program. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != keeper_pid)
			_exit(127);
		close(fd);
		run(arg);
		_exit(127);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		program_pid = (int)pid;
		if (told_to_end)
			end_program(SIGTERM);
	}
	int child = (int)pid;
	if (write(fd, &child, sizeof child) != sizeof child || pid < 0)
		_exit(1);
	struct keeper_end end = {0};
	while (waitpid(pid, &end.status, 0) < 0 && errno == EINTR)
		;
	keeper_sweep(argv0, &end);
	if (write(fd, &end, sizeof end) != sizeof end)
		_exit(1);
	_exit(0);
}

int keeper_start(struct keeper *k, void (*run)(void *), void *arg,
			 const char *argv0, char **err)
{
	int fds[2], child = -1;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return bm_error(err, "cannot start Valgrind: %s", strerror(errno));
	pid_t bm_run = getpid(), pid = fork();
	if (pid == 0) {
		close(fds[0]);
		keeper(fds[1], run, arg, argv0, bm_run);
	}
	int e = errno;
	close(fds[1]);
	ssize_t n = -1;
	while (pid > 0 && (n = read(fds[0], &child, sizeof child)) < 0 && errno == EINTR)
		;
	if (n != sizeof child || child < 0) {
		close(fds[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return bm_error(err, "cannot start Valgrind: %s", strerror(pid < 0 ? e : EAGAIN));
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	*k = (struct keeper){.pid = (int)pid, .fd = fds[0]};
	return child;
}

int keeper_poll(struct keeper *k, struct keeper_end *end, int wait)
{
	if (wait)
		fcntl(k->fd, F_SETFL, 0);
	ssize_t n;
	while ((n = read(k->fd, end, sizeof *end)) < 0 && errno == EINTR)
		;
	if (n < 0 && errno == EAGAIN)
		return 0;
	int status = 0;
	while (waitpid(k->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n != sizeof *end) {
		/* The keeper was killed before it could say: its status is
		 * all there is (bm-run's own sweep ends what it left). */
		memset(end, 0, sizeof *end);
		end->status = status;
	}
	end->what[sizeof end->what - 1] = '\0';
	close(k->fd);
	k->fd = -1;
	return 1;
}
