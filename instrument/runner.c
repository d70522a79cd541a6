/* The event loop that runs jobs; the contract is in runner.h. */
#include "config.h"

#include "runner.h"

#include "error.h"
#include "fmt.h"
#include "log.h"
#include "path.h"
#include "profile.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONTROL_FD 3   /* as BM_CONTROL=3 in the sandbox environment says */
#define LINE_MAX_LEN 4096
#define TAIL_LINES 20

/* One running Valgrind process. */
struct proc {
	struct job *job;
	pid_t pid;
	int control; /* our end of the control socket */
	char buf[LINE_MAX_LEN];
	size_t len;
	double since;          /* when the current benchmark (or the process) started */
	struct entry *current; /* the benchmark running now (harness mode) */
	int timed_out;         /* the whole process was killed (not harness mode) */
	int ended;             /* "end" seen */
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void job_init(struct job *job, const char *program, char *const *args, size_t nargs,
	      enum run_mode mode, const char *symbol, const char *name)
{
	memset(job, 0, sizeof *job);
	job->program = xstrdup(program);
	job->args = xcalloc(nargs + 1, sizeof *job->args);
	for (size_t i = 0; i < nargs; i++)
		job->args[i] = xstrdup(args[i]);
	job->nargs = nargs;
	job->mode = mode;
	job->symbol = symbol ? xstrdup(symbol) : NULL;
	job->name = name ? xstrdup(name) : NULL;
}

void job_release(struct job *job)
{
	free(job->program);
	for (size_t i = 0; i < job->nargs; i++)
		free(job->args[i]);
	free(job->args);
	free(job->symbol);
	free(job->name);
	for (size_t i = 0; i < job->nentries; i++) {
		free(job->entries[i].id);
		free(job->entries[i].reason);
		free(job->entries[i].dump);
	}
	free(job->entries);
	free(job->warning);
	free(job->resume_after);
	if (job->sb.dir)
		sandbox_remove(&job->sb);
	memset(job, 0, sizeof *job);
}

static struct entry *entry_find(struct job *job, const char *id)
{
	for (size_t i = 0; i < job->nentries; i++)
		if (strcmp(job->entries[i].id, id) == 0)
			return &job->entries[i];
	return NULL;
}

static struct entry *entry_get(struct job *job, const char *id)
{
	struct entry *e = entry_find(job, id);
	if (e)
		return e;
	xgrow(&job->entries, &job->entries_alloc, job->nentries + 1, sizeof *job->entries);
	e = &job->entries[job->nentries++];
	*e = (struct entry){.id = xstrdup(id), .state = ENTRY_PLANNED};
	return e;
}

static void entry_set(struct entry *e, enum entry_state state, const char *reason)
{
	e->state = state;
	free(e->reason);
	e->reason = reason ? xstrdup(reason) : NULL;
}

static int has_planned(const struct job *job)
{
	for (size_t i = 0; i < job->nentries; i++)
		if (job->entries[i].state == ENTRY_PLANNED)
			return 1;
	return 0;
}

/* ---- starting a process ---- */

static void child(const struct job *job, const struct runner_options *o, char **argv, char **env,
		  int sock)
{
	setpgid(0, 0);
	/* Valgrind places the client itself, but leave nothing to chance. */
	personality(ADDR_NO_RANDOMIZE);
	/* Out of the way of 0-3 first, whatever numbers the fds got. */
	sock = fcntl(sock, F_DUPFD, 10);
	int in = open("/dev/null", O_RDONLY);
	int out = open(job->sb.output, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
	    dup2(sock, CONTROL_FD) < 0)
		_exit(126);
	for (int fd = CONTROL_FD + 1; fd < 1024; fd++)
		close(fd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execve(o->valgrind, argv, env);
	dprintf(2, "bm-run: cannot run '%s': %s\n", o->valgrind, strerror(errno));
	_exit(127);
}

static int spawn(struct proc *p, struct job *job, const struct runner_options *o, char **err)
{
	if (!job->sb.dir && sandbox_create(&job->sb, job->program, err) < 0)
		return -1;
	char **args = job->args;
	size_t nargs = job->nargs;
	char **resumed = NULL;
	if (job->resume_after) {
		resumed = xcalloc(nargs + 3, sizeof *resumed);
		memcpy(resumed, job->args, nargs * sizeof *resumed);
		resumed[nargs] = "--resume-after";
		resumed[nargs + 1] = job->resume_after;
		args = resumed;
		nargs += 2;
	}
	char **argv = launcher_argv(o->valgrind, job->mode, job->symbol, &job->sb, args, nargs);
	char **env = sandbox_environment(o->env, o->nenv);
	free(resumed);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		bm_error(err, "cannot create a control socket: %s", strerror(errno));
		goto fail;
	}
	pid_t pid = fork();
	if (pid < 0) {
		bm_error(err, "cannot start Valgrind: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		goto fail;
	}
	if (pid == 0) {
		/* dup2 in the child clears close-on-exec on the copy at fd 3. */
		child(job, o, argv, env, sv[1]);
	}
	close(sv[1]);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	setpgid(pid, pid);
	*p = (struct proc){.job = job, .pid = pid, .control = sv[0], .since = now()};
	job->processes++;
	launcher_free_argv(argv);
	sandbox_free_environment(env);
	return 0;
fail:
	launcher_free_argv(argv);
	sandbox_free_environment(env);
	return -1;
}

static void show_output(const struct job *job, const char *what, int pid);

/* ---- the control channel ---- */

/* The estimated time of a dump under the model, for "ask ID". */
static void answer_time(struct proc *p, const char *dump, const struct runner_options *o)
{
	struct bm_profile **parts;
	size_t n;
	char *err = NULL, reply[64];
	double t = -1;
	if (dump && profile_load(dump, o->model, &parts, &n, &err) == 0) {
		if (n >= 1)
			t = model_time_s(o->model, parts[0]->cycles);
		for (size_t i = 0; i < n; i++)
			profile_free(parts[i]);
		free(parts);
	}
	free(err);
	if (t >= 0)
		snprintf(reply, sizeof reply, "time %.9g\n", t);
	else
		snprintf(reply, sizeof reply, "time -\n");
	if (send(p->control, reply, strlen(reply), MSG_NOSIGNAL) < 0) {
		/* The program went away; its exit tells the rest. */
	}
}

/* Splits "WORD REST" in place; returns REST (or NULL). */
static char *split(char *s)
{
	char *rest = s ? strchr(s, ' ') : NULL;
	if (rest)
		*rest++ = '\0';
	return rest;
}

static void handle_line(struct proc *p, char *line, const struct runner_options *o)
{
	struct job *job = p->job;
	char *arg = split(line);
	if (strcmp(line, "end") == 0)
		p->ended = 1;
	if (job->mode != MODE_HARNESS || !arg)
		return;
	char *rest = split(arg);
	if (strcmp(line, "plan") == 0) {
		entry_get(job, arg);
	} else if (strcmp(line, "start") == 0) {
		p->current = entry_get(job, arg);
		p->current->pid = rest ? atoi(rest) : 0;
		entry_set(p->current, ENTRY_RUNNING, NULL);
		p->since = now();
	} else if (strcmp(line, "done") == 0) {
		struct entry *e = entry_get(job, arg);
		free(e->dump);
		e->dump = xasprintf("%s/cg.%d.out.1", job->sb.dir, e->pid);
		entry_set(e, ENTRY_DONE, NULL);
		p->current = NULL;
		p->since = now();
	} else if (strcmp(line, "fail") == 0) {
		struct entry *e = entry_get(job, arg);
		char *why = e->timed_out ? xasprintf("timed out after %g s", o->timeout_s)
					 : xstrdup(rest ? rest : "failed");
		entry_set(e, ENTRY_FAILED, why);
		if (!o->quiet) {
			char *what = xasprintf("'%s' %s", e->id, why);
			show_output(job, what, e->pid);
			free(what);
		}
		free(why);
		p->current = NULL;
		p->since = now();
	} else if (strcmp(line, "skip") == 0) {
		entry_set(entry_get(job, arg), ENTRY_SKIPPED, rest ? rest : "skipped");
	} else if (strcmp(line, "ask") == 0) {
		struct entry *e = entry_find(job, arg);
		answer_time(p, e && e->state == ENTRY_DONE ? e->dump : NULL, o);
	}
}

static void read_control(struct proc *p, const struct runner_options *o)
{
	for (;;) {
		ssize_t r = read(p->control, p->buf + p->len, sizeof p->buf - 1 - p->len);
		if (r <= 0)
			return;
		p->len += (size_t)r;
		char *start = p->buf, *nl;
		while ((nl = memchr(start, '\n', p->len - (size_t)(start - p->buf)))) {
			*nl = '\0';
			handle_line(p, start, o);
			start = nl + 1;
		}
		p->len -= (size_t)(start - p->buf);
		memmove(p->buf, start, p->len);
		if (p->len == sizeof p->buf - 1)
			p->len = 0; /* a line longer than any libbm writes: drop it */
	}
}

/* ---- a process ends ---- */

/* Why the process ended badly, or NULL when it exited 0. */
static char *exit_reason(const struct proc *p, int status, const struct runner_options *o)
{
	if (p->timed_out)
		return xasprintf("timed out after %g s", o->timeout_s);
	if (WIFSIGNALED(status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return xasprintf("exited with status %d", WEXITSTATUS(status));
	return NULL;
}

/* Prints the last lines of a file, indented.  With a pid, only Valgrind's
 * lines about that process ("==PID==", "--PID--"), and only those before
 * its closing statistics: that is where a crash's stack trace is. */
static void show_tail(const char *path, int pid)
{
	FILE *in = fopen(path, "r");
	char *lines[TAIL_LINES] = {0}, buf[512], mine[2][32];
	size_t n = 0;
	snprintf(mine[0], sizeof mine[0], "==%d==", pid);
	snprintf(mine[1], sizeof mine[1], "--%d--", pid);
	while (in && fgets(buf, sizeof buf, in)) {
		if (pid && strncmp(buf, mine[0], strlen(mine[0])) != 0 &&
		    strncmp(buf, mine[1], strlen(mine[1])) != 0)
			continue;
		if (pid && strstr(buf, "Events    :"))
			break;
		free(lines[n % TAIL_LINES]);
		lines[n++ % TAIL_LINES] = xstrdup(buf);
	}
	if (in)
		fclose(in);
	for (size_t i = n > TAIL_LINES ? n - TAIL_LINES : 0; i < n; i++) {
		const char *l = lines[i % TAIL_LINES];
		fprintf(stderr, "  | %s%s", l, strchr(l, '\n') ? "" : "\n");
	}
	for (size_t i = 0; i < TAIL_LINES; i++)
		free(lines[i]);
}

/* What the program wrote, then what Valgrind said about process pid. */
static void show_output(const struct job *job, const char *what, int pid)
{
	log_error("%s; the last lines of its output and of Valgrind's log:", what);
	show_tail(job->sb.output, 0);
	show_tail(job->sb.log, pid);
}

/* The dump callgrind wrote at the end of a symbol or whole-process run. */
static void finish_single(struct proc *p, char *reason)
{
	struct job *job = p->job;
	struct entry *e = &job->entries[0];
	if (reason) {
		entry_set(e, ENTRY_FAILED, reason);
		return;
	}
	free(e->dump);
	e->dump = xasprintf("%s/cg.%d.out", job->sb.dir, (int)p->pid);
	entry_set(e, ENTRY_DONE, NULL);
}

/* Returns 1 when the job needs another process (to resume after a
 * benchmark that failed). */
static int finish_harness(struct proc *p, char *reason)
{
	struct job *job = p->job;
	if (p->current) {
		char *why = xasprintf("%s while it ran", reason ? reason : "the program stopped");
		entry_set(p->current, ENTRY_FAILED, why);
		free(why);
		if (has_planned(job) && job->processes <= (int)job->nentries) {
			free(job->resume_after);
			job->resume_after = xstrdup(p->current->id);
			return 1;
		}
	} else if (reason && job->nentries == 0) {
		char *why = xasprintf("%s before it ran any benchmark", reason);
		entry_set(entry_get(job, path_basename(job->program)), ENTRY_FAILED, why);
		free(why);
	} else if (reason && p->ended) {
		free(job->warning);
		job->warning = xasprintf("'%s' %s after its benchmarks", job->program, reason);
	}
	for (size_t i = 0; i < job->nentries; i++)
		if (job->entries[i].state == ENTRY_PLANNED)
			entry_set(&job->entries[i], ENTRY_FAILED,
				  reason ? reason : "not run: the program ended before it");
	return 0;
}

static int finish(struct proc *p, int status, const struct runner_options *o)
{
	read_control(p, o);
	close(p->control);
	kill(-p->pid, SIGKILL); /* a benchmark's process the program left behind */
	char *reason = exit_reason(p, status, o);
	int again = 0;
	if (reason && !o->quiet) {
		char *what = p->current ? xasprintf("'%s' %s", p->current->id, reason)
					: xasprintf("'%s' %s", p->job->program, reason);
		show_output(p->job, what, (int)p->pid);
		free(what);
	}
	if (p->job->mode == MODE_HARNESS)
		again = finish_harness(p, reason);
	else
		finish_single(p, reason);
	free(reason);
	return again;
}

/* ---- progress ---- */

static void show_progress(const struct proc *procs, size_t nprocs, const struct job *jobs,
			  size_t njobs)
{
	size_t total = 0, finished = 0;
	for (size_t j = 0; j < njobs; j++) {
		total += jobs[j].nentries ? jobs[j].nentries : 1;
		for (size_t i = 0; i < jobs[j].nentries; i++)
			finished += jobs[j].entries[i].state >= ENTRY_DONE;
	}
	fprintf(stderr, "\r\033[K[%zu/%zu]", finished, total);
	double t = now();
	for (size_t i = 0; i < nprocs; i++) {
		const struct proc *p = &procs[i];
		const char *what = p->current ? p->current->id
				   : p->job->nentries ? p->job->entries[0].id
						      : path_basename(p->job->program);
		fprintf(stderr, " %s %.0fs", what, t - p->since);
	}
	fflush(stderr);
}

/* ---- the loop ---- */

/* Kills what ran too long: the benchmark's own process in harness mode
 * (the program then reports it and goes on), else the whole process. */
static void enforce_timeout(struct proc *p)
{
	struct entry *e = p->current;
	if (e && e->pid > 0 && e->pid != p->pid) {
		if (!e->timed_out) {
			e->timed_out = 1;
			kill(e->pid, SIGKILL);
		}
	} else if (!p->timed_out) {
		p->timed_out = 1;
		kill(-p->pid, SIGKILL);
	}
}

static void stop_all(struct proc *procs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kill(-procs[i].pid, SIGKILL);
	for (size_t i = 0; i < n; i++) {
		waitpid(procs[i].pid, NULL, 0);
		close(procs[i].control);
	}
}

int runner_run(struct job *jobs, size_t njobs, const struct runner_options *o, char **err)
{
	size_t parallel = o->parallel > 0 ? (size_t)o->parallel : 1;
	struct proc *procs = xcalloc(parallel, sizeof *procs);
	struct pollfd *fds = xcalloc(parallel, sizeof *fds);
	/* Jobs waiting for a process, as a queue of indices. */
	size_t *queue = xcalloc(njobs + 1, sizeof *queue), qhead = 0, qlen = 0, nprocs = 0;
	for (size_t j = 0; j < njobs; j++) {
		queue[qlen++] = j;
		if (jobs[j].mode != MODE_HARNESS)
			entry_get(&jobs[j], jobs[j].name);
	}
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	signal(SIGPIPE, SIG_IGN);
	int r = 0;
	double last_progress = 0;

	while ((qlen > 0 || nprocs > 0) && !interrupted) {
		while (qlen > 0 && nprocs < parallel) {
			struct job *job = &jobs[queue[qhead]];
			qhead = (qhead + 1) % (njobs + 1);
			qlen--;
			if (spawn(&procs[nprocs], job, o, err) < 0) {
				r = -1;
				goto out;
			}
			nprocs++;
		}
		for (size_t i = 0; i < nprocs; i++)
			fds[i] = (struct pollfd){.fd = procs[i].control, .events = POLLIN};
		poll(fds, nprocs, 100);
		for (size_t i = 0; i < nprocs;) {
			struct proc *p = &procs[i];
			int status;
			read_control(p, o);
			if (o->timeout_s > 0 && now() - p->since > o->timeout_s)
				enforce_timeout(p);
			if (waitpid(p->pid, &status, WNOHANG) != p->pid) {
				i++;
				continue;
			}
			size_t job_index = (size_t)(p->job - jobs);
			if (finish(p, status, o)) {
				queue[(qhead + qlen) % (njobs + 1)] = job_index;
				qlen++;
			}
			procs[i] = procs[--nprocs];
		}
		if (o->progress && now() - last_progress > 0.25) {
			show_progress(procs, nprocs, jobs, njobs);
			last_progress = now();
		}
	}
	if (interrupted) {
		bm_error(err, "interrupted by signal %d", (int)interrupted);
		r = -1;
	}
out:
	stop_all(procs, nprocs);
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	interrupted = 0;
	free(procs);
	free(fds);
	free(queue);
	return r;
}
