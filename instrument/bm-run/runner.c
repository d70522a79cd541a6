/* SPDX-License-Identifier: MIT */
/* The event loop that runs jobs; the contract is in runner.h. */
#include "config.h"

#include "runner.h"

#include "blame.h"
#include "error.h"
#include "interrupt.h"
#include "keeper.h"
#include "log.h"
#include "path.h"
#include "program_output.h"
#include "profile.h"
#include "sandbox.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONTROL_FD 3   /* as BM_CONTROL=3 in the sandbox environment says */
#define LINE_MAX_LEN 4096 /* a control line, as libbm's BM_CONTROL_LINE_MAX */

/* One running Valgrind process. */
struct proc {
	struct job *job;
	pid_t pid;   /* the program's first process (Valgrind's) */
	struct keeper keeper; /* its parent, which ends what it leaves */
	int control; /* our end of the control socket */
	char buf[LINE_MAX_LEN];
	size_t len;
	double since;          /* when the last benchmark (or the process) started */
	struct entry *current; /* the benchmark running now (harness mode) */
	struct entry *unreaped; /* the last benchmark started, until the program
				 * says its next word: its process may still be
				 * there (it said "done" before it ended) */
	int timed_out;         /* the whole process was killed (not harness mode) */
	int ended;             /* "end" seen */
	int execed;            /* it replaced itself with exec (see execed) */
};

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- starting a process ---- */

struct child_args {
	const struct job *job;
	const struct runner_options *o;
	char **argv, **env;
	int sock;
};

/* Valgrind's process, started by the keeper (sandbox.h). */
static void child(void *arg)
{
	const struct child_args *a = arg;
	const struct job *job = a->job;
	const struct runner_options *o = a->o;
	char **argv = a->argv, **env = a->env;
	int sock = a->sock;
	setpgid(0, 0);
	/* Valgrind places the client itself, but leave nothing to chance. */
	personality(ADDR_NO_RANDOMIZE);
	/* Out of the way of 0-3 first, whatever numbers the fds got. */
	sock = fcntl(sock, F_DUPFD, 10);
	int in = open(o->input && job->mode != MODE_HARNESS ? o->input : "/dev/null", O_RDONLY);
	int out = open(job->sb.output, O_WRONLY | O_CREAT | O_APPEND, 0644);
	int errs = open(job->sb.errors, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0 || errs < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errs, 2) < 0 ||
	    dup2(sock, CONTROL_FD) < 0)
		_exit(126);
	sandbox_close_except(CONTROL_FD + 1, NULL, 0);
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
	char *const *fns;
	size_t nfns = job_functions(job, &fns);
	char **argv = launcher_argv(o->valgrind, o->setup, job->mode, fns, nfns, &job->sb, args, nargs);
	/* The program's own argv, as Valgrind will give it. */
	char **client = xcalloc(nargs + 2, sizeof *client);
	client[0] = job->sb.argv0;
	memcpy(client + 1, args, nargs * sizeof *client);
	char **env = sandbox_environment(virtual_cpu(o->setup->cpu)->glibc_tunables, o->env, o->nenv, client, nargs + 1,
					  launcher_padding(o->setup));
	free(client);
	free(resumed);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		bm_error(err, "cannot create a control socket: %s", strerror(errno));
		goto fail;
	}
	/* dup2 in the child clears close-on-exec on the copy at fd 3. */
	struct child_args ca = {job, o, argv, env, sv[1]};
	struct keeper keeper;
	pid_t pid = keeper_start(&keeper, child, &ca, job->sb.argv0, err);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		goto fail;
	}
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	*p = (struct proc){.job = job, .pid = pid, .keeper = keeper, .control = sv[0], .since = now()};
	job->processes++;
	launcher_free_argv(argv);
	sandbox_free_environment(env);
	return 0;
fail:
	launcher_free_argv(argv);
	sandbox_free_environment(env);
	return -1;
}


/* ---- the control channel ---- */

/* The estimated time of a dump under the model, for "ask ID". */
static void answer_time(struct proc *p, const char *dump, const struct runner_options *o)
{
	struct bm_profile **parts;
	size_t n;
	char *err = NULL, reply[64];
	double t = -1;
	if (dump && profile_load(dump, o->setup->model, &parts, &n, &err) == 0) {
		if (n >= 1)
			t = model_time_s(o->setup->model, parts[0]->cycles);
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

/* "left a process running: sleep 30", or NULL when the keeper killed
 * nothing.  Newly allocated. */
static char *left_reason(const struct keeper_end *end, const struct job *job)
{
	if (!end->left)
		return NULL;
	char *what = program_text(end->what, &job->sb, job->program);
	char *why = end->left == 1 ? xasprintf("left a process running: %s", what)
				   : xasprintf("left %d processes running: %s", end->left, what);
	free(what);
	return why;
}

/* The program has reaped the process of p->unreaped: whatever that left
 * running is now the keeper's, and is killed; a benchmark that was done
 * fails for it. */
static void settle(struct proc *p)
{
	struct job *job = p->job;
	struct entry *e = p->unreaped;
	struct keeper_end end = {0};
	p->unreaped = NULL;
	if (job->mode != MODE_HARNESS)
		return;
	if (e->state == ENTRY_RUNNING) {
		/* Neither "done" nor "fail": see lost_reason. */
		char *why = blame_lost(job, e, 0);
		entry_set(e, ENTRY_FAILED, why);
		char *what = xasprintf("'%s' %s", e->id, why);
		program_show_output(job, what, e->pid);
		free(what);
		free(why);
		if (p->current == e)
			p->current = NULL;
	}
	if (!keeper_kill_orphans(&p->keeper, (int)p->pid, job->sb.argv0, &end))
		return;
	char *why = left_reason(&end, job);
	if (e->state == ENTRY_DONE) {
		entry_set(e, ENTRY_FAILED, why);
		char *what = xasprintf("'%s' %s", e->id, why);
		log_error("%s", what);
		free(what);
	}
	free(why);
}

static void handle_line(struct proc *p, char *line, const struct runner_options *o)
{
	struct job *job = p->job;
	char *arg = split(line);
	/* Any word but "done" (which the benchmark's process says) means the
	 * program has reaped the process of the benchmark before. */
	if (strcmp(line, "done") != 0 && p->unreaped)
		settle(p);
	if (strcmp(line, "end") == 0)
		p->ended = 1;
	/* A libbm program measured by symbol or as a whole process still
	 * asks for its time-bounded ranges; it waits for an answer. */
	if (job->mode != MODE_HARNESS && strcmp(line, "ask") == 0)
		answer_time(p, NULL, o);
	if (job->mode != MODE_HARNESS || !arg)
		return;
	char *rest = split(arg);
	if (strcmp(line, "plan") == 0) {
		job_entry(job, arg);
	} else if (strcmp(line, "start") == 0) {
		p->current = p->unreaped = job_entry(job, arg);
		p->current->pid = rest ? atoi(rest) : 0;
		entry_set(p->current, ENTRY_RUNNING, NULL);
		p->since = now();
	} else if (strcmp(line, "done") == 0) {
		struct entry *e = job_entry(job, arg);
		free(e->dump);
		/* "done ID N": the measurement is the process's dump N (a warm
		 * run's first dump is its warm-up); an older libbm says no N. */
		int n = rest ? atoi(rest) : 1;
		e->dump = xasprintf("%s/cg.%d.out.%d", job->sb.dir, e->pid, n > 0 ? n : 1);
		entry_set(e, ENTRY_DONE, NULL);
		p->current = NULL;
	} else if (strcmp(line, "fail") == 0) {
		struct entry *e = job_entry(job, arg);
		/* "exited with status N" from what the benchmark's process ran
		 * with exec, or from the process itself. */
		int code = rest && strncmp(rest, "exited with status ", 19) == 0 ? atoi(rest + 19) : 0;
		char *why = e->timed_out ? xasprintf("timed out after %g s", o->timeout_s)
			    : code && blame_execed(job, e->pid, 1) ? blame_lost(job, e, code)
							      : xstrdup(rest ? rest : "failed");
		entry_set(e, ENTRY_FAILED, why);
		char *what = xasprintf("'%s' %s", e->id, why);
		program_show_output(job, what, e->pid);
		free(what);
		free(why);
		p->current = NULL;
	} else if (strcmp(line, "skip") == 0) {
		entry_set(job_entry(job, arg), ENTRY_SKIPPED, rest ? rest : "skipped");
	} else if (strcmp(line, "ask") == 0) {
		struct entry *e = job_entry_find(job, arg);
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

/* reason, then the last line the program wrote to standard error (the
 * loader's "error while loading shared libraries: ...", a usage error),
 * which is what says why.  Newly allocated. */
static char *with_last_error(const struct job *job, const char *reason)
{
	char *last = program_last_line(job->sb.errors, &job->sb, job->program);
	char *why = last ? xasprintf("%s: %s", reason, last) : xstrdup(reason);
	free(last);
	return why;
}

/* The dump callgrind wrote at the end of a symbol or whole-process run
 * (named even when the run failed: a Google Benchmark suite's parts
 * before it hold the benchmarks it finished).  left: the processes the
 * keeper had to kill, which fail it too. */
static void finish_single(struct proc *p, char *reason, const char *left)
{
	struct job *job = p->job;
	struct entry *e = &job->entries[0];
	free(e->dump);
	e->dump = xasprintf("%s/cg.%d.out", job->sb.dir, (int)p->pid);
	if (reason || left) {
		char *why = !reason			  ? xstrdup(left)
			    : p->timed_out || p->execed ? xstrdup(reason)
							  : with_last_error(job, reason);
		entry_set(e, ENTRY_FAILED, why);
		free(why);
		return;
	}
	entry_set(e, ENTRY_DONE, NULL);
}

/* The benchmark to blame for the program's end: the one running, or the
 * one whose process the program had not reaped yet (it said "done", then
 * killed the program). */
static struct entry *blamed(const struct proc *p)
{
	return p->current ? p->current : p->unreaped;
}

/* Returns 1 when the job needs another process (to resume after a
 * benchmark that failed).  left: what the keeper had to kill, after a
 * program that ended well otherwise. */
static int finish_harness(struct proc *p, char *reason, const char *left)
{
	struct job *job = p->job;
	struct entry *e = blamed(p);
	if (e) {
		char *why = xasprintf("%s while it ran", reason ? reason : "the program stopped");
		entry_set(e, ENTRY_FAILED, why);
		free(why);
		if (job_has_planned(job) && job->processes <= (int)job->nentries) {
			free(job->resume_after);
			job->resume_after = xstrdup(e->id);
			return 1;
		}
	} else if (!reason && left) {
		/* One of its benchmarks, or the program itself: bm-run cannot
		 * say which started it. */
		free(job->warning);
		job->warning = xasprintf("'%s' %s (killed by bm-run)", job->program, left);
	} else if (reason && job->nentries == 0) {
		char *before = xasprintf("%s before it ran any benchmark", reason);
		char *why = p->execed ? xstrdup(reason) : with_last_error(job, before);
		free(before);
		entry_set(job_entry(job, path_basename(job->program)), ENTRY_FAILED, why);
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

static int finish(struct proc *p, const struct keeper_end *end, const struct runner_options *o)
{
	/* The keeper has killed what the program left: all it said is here. */
	read_control(p, o);
	close(p->control);
	int status = end->status;
	char *reason = exit_reason(p, status, o);
	int again = 0;
	struct job *job = p->job;
	if (job->mode == MODE_HARNESS && !blamed(p) && job->nentries == 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 2 && !p->timed_out) {
		/* libbm's exit status for a usage error (an unknown option, a
		 * --filter that matches nothing): bm-run's usage error too. */
		char *last = program_last_line(job->sb.errors, &job->sb, job->program);
		const char *text = last ? last : "it refused its arguments";
		free(job->usage_error);
		job->usage_error = xasprintf("'%s': %s", path_basename(job->program),
					     strncmp(text, "bm: ", 4) == 0 ? text + 4 : text);
		free(last);
		free(reason);
		return 0;
	}
	/* A program that ran exec measured nothing after it (a libbm program
	 * that ran its benchmarks first is fine). */
	if (WIFEXITED(status) && !p->timed_out && (job->mode != MODE_HARNESS || job->nentries == 0) &&
	    blame_execed(job, (int)p->pid, 0)) {
		p->execed = 1;
		free(reason);
		reason = job->mode == MODE_HARNESS
				 ? blame_exec("replaced itself with exec before it ran any benchmark",
					       (int)p->pid, WEXITSTATUS(status),
					       "call bm_main in the process that bm-run starts, or measure "
					       "the program it runs with bm-run -- PROGRAM")
				 : blame_exec("replaced itself with exec", (int)p->pid, WEXITSTATUS(status),
					       "measure the program it runs with bm-run -- PROGRAM ARGS "
					       "(sh -c 'PROGRAM ARGS' may exec it)");
	}
	char *left = left_reason(end, job);
	if (reason || (left && job->mode != MODE_HARNESS)) {
		char *what = blamed(p) ? xasprintf("'%s' %s", blamed(p)->id, reason)
				       : xasprintf("'%s' %s", job->program, reason ? reason : left);
		program_show_output(job, what, (int)p->pid);
		free(what);
	} else if (o->verbose) {
		program_show_all(job);
	}
	if (p->job->mode == MODE_HARNESS)
		again = finish_harness(p, reason, left);
	else
		finish_single(p, reason, left);
	free(reason);
	free(left);
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

/* Whether p runs past the timeout.  In harness mode a benchmark's time is
 * its own, from its "start" until the program has reaped its process: the
 * program's start under Valgrind and the harness's work between benchmarks
 * are no benchmark's, and are not limited.  In the other modes the program
 * is the benchmark: its whole run under Valgrind (docs/bm-run.md). */
static int past_timeout(const struct proc *p, const struct runner_options *o)
{
	if (o->timeout_s <= 0 || (p->job->mode == MODE_HARNESS && !p->unreaped))
		return 0;
	return now() - p->since > o->timeout_s;
}

/* Kills what ran too long: the benchmark's own process in harness mode
 * (the program then reports it and goes on), else the whole process. */
static void enforce_timeout(struct proc *p)
{
	struct entry *e = p->unreaped;
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
	struct keeper_end end;
	for (size_t i = 0; i < n; i++)
		kill(-procs[i].pid, SIGKILL);
	for (size_t i = 0; i < n; i++) {
		keeper_poll(&procs[i].keeper, &end, 1);
		close(procs[i].control);
	}
}

/* Ends what a keeper that died early left (its orphans became bm-run's,
 * a subreaper too): nothing bm-run started outlives its run. */
static void sweep_strays(void)
{
	struct keeper_end end = {0};
	keeper_sweep(NULL, &end);
	if (end.left)
		log_warn("killed %d process%s left running: %s", end.left, end.left == 1 ? "" : "es",
			 end.what);
}

int runner_run(struct job *jobs, size_t njobs, const struct runner_options *o, char **err)
{
	size_t parallel = o->parallel > 0 ? (size_t)o->parallel : 1;
	struct proc *procs = xcalloc(parallel, sizeof *procs);
	struct pollfd *fds = xcalloc(2 * parallel, sizeof *fds);
	/* Jobs waiting for a process, as a queue of indices. */
	size_t *queue = xcalloc(njobs + 1, sizeof *queue), qhead = 0, qlen = 0, nprocs = 0;
	for (size_t j = 0; j < njobs; j++) {
		queue[qlen++] = j;
		if (jobs[j].mode != MODE_HARNESS)
			job_entry(&jobs[j], jobs[j].name);
	}
	signal(SIGPIPE, SIG_IGN);
	/* Orphans of a keeper that died become bm-run's, not init's. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int r = 0;
	/* Progress on a terminal, for runs longer than a second. */
	double started = now(), last_progress = 0;
	int shown = 0;

	while ((qlen > 0 || nprocs > 0) && !interrupt_caught()) {
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
		for (size_t i = 0; i < nprocs; i++) {
			fds[2 * i] = (struct pollfd){.fd = procs[i].control, .events = POLLIN};
			fds[2 * i + 1] = (struct pollfd){.fd = procs[i].keeper.fd, .events = POLLIN};
		}
		poll(fds, 2 * nprocs, 100);
		for (size_t i = 0; i < nprocs;) {
			struct proc *p = &procs[i];
			struct keeper_end end;
			read_control(p, o);
			if (past_timeout(p, o))
				enforce_timeout(p);
			if (!keeper_poll(&p->keeper, &end, 0)) {
				i++;
				continue;
			}
			size_t job_index = (size_t)(p->job - jobs);
			if (finish(p, &end, o)) {
				queue[(qhead + qlen) % (njobs + 1)] = job_index;
				qlen++;
			}
			procs[i] = procs[--nprocs];
		}
		if (o->progress && now() - started > 1.0 && now() - last_progress > 0.25) {
			show_progress(procs, nprocs, jobs, njobs);
			last_progress = now();
			shown = 1;
		}
	}
	if (interrupt_caught()) {
		bm_error(err, "interrupted by signal %d", interrupt_caught());
		r = -1;
	}
out:
	stop_all(procs, nprocs);
	sweep_strays();
	if (shown)
		fprintf(stderr, "\r\033[K");
	free(procs);
	free(fds);
	free(queue);
	return r;
}
