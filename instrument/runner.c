/* SPDX-License-Identifier: MIT */
/* The event loop that runs jobs; the contract is in runner.h. */
#include "config.h"

#include "runner.h"

#include "error.h"
#include "keeper.h"
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
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONTROL_FD 3   /* as BM_CONTROL=3 in the sandbox environment says */
#define LINE_MAX_LEN 4096 /* a control line, as libbm's BM_CONTROL_LINE_MAX */
#define TAIL_LINES 20

/* One running Valgrind process. */
struct proc {
	struct job *job;
	pid_t pid;   /* the program's first process (Valgrind's) */
	struct keeper keeper; /* its parent, which ends what it leaves */
	int control; /* our end of the control socket */
	char buf[LINE_MAX_LEN];
	size_t len;
	double since;          /* when the current benchmark (or the process) started */
	struct entry *current; /* the benchmark running now (harness mode) */
	struct entry *unreaped; /* the last benchmark started, until the program
				 * says its next word: its process may still be
				 * there (it said "done" before it ended) */
	int timed_out;         /* the whole process was killed (not harness mode) */
	int ended;             /* "end" seen */
	int execed;            /* it replaced itself with exec (see execed) */
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

void job_add_symbol(struct job *job, const char *fn)
{
	for (size_t i = 0; i < job->nsymbols; i++)
		if (strcmp(job->symbols[i], fn) == 0)
			return;
	job->symbols = xreallocarray(job->symbols, job->nsymbols + 1, sizeof *job->symbols);
	job->symbols[job->nsymbols++] = xstrdup(fn);
}

void job_release(struct job *job)
{
	for (size_t i = 0; i < job->nsymbols; i++)
		free(job->symbols[i]);
	free(job->symbols);
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
	free(job->usage_error);
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
	int in = open("/dev/null", O_RDONLY);
	int out = open(job->sb.output, O_WRONLY | O_CREAT | O_APPEND, 0644);
	int errs = open(job->sb.errors, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0 || errs < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errs, 2) < 0 ||
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
	char **argv = launcher_argv(o->valgrind, o->setup, job->mode, job->symbol,
				    &job->sb, args, nargs);
	/* The program's own argv, as Valgrind will give it. */
	char **client = xcalloc(nargs + 2, sizeof *client);
	client[0] = job->sb.argv0;
	memcpy(client + 1, args, nargs * sizeof *client);
	char **env = sandbox_environment(virtual_cpu(o->setup->cpu)->glibc_tunables, o->env, o->nenv, client, nargs + 1);
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

static void show_output(const struct job *job, const char *what, int pid);
static char *program_text(const char *line, const struct sandbox *sb, const char *program);

/* ---- a process that ended without saying how ---- */

/* Whether process pid of the job ran exec.  Valgrind does not follow
 * exec: the new program runs natively, so callgrind never writes the dump
 * of the process's end (cg.PID.out, which callgrind makes empty at the
 * start), as it does at every exit and fatal signal.  Nor did Valgrind
 * fail to start it: its log has the program's "Command:" line when forked
 * is 0 (the program's own process), and nothing at all about the process
 * when forked is 1 (a benchmark's process, forked from a running program:
 * a panic of Valgrind would be there). */
static int execed(const struct job *job, int pid, int forked)
{
	char *path = xasprintf("%s/cg.%d.out", job->sb.dir, pid), line[512], mine[2][32];
	struct stat st;
	int ended = stat(path, &st) == 0 && st.st_size > 0, started = 0, said = 0;
	free(path);
	FILE *in = ended || pid <= 0 ? NULL : fopen(job->sb.log, "r");
	if (!in)
		return 0;
	snprintf(mine[0], sizeof mine[0], "==%d== ", pid);
	snprintf(mine[1], sizeof mine[1], "--%d-- ", pid);
	while (fgets(line, sizeof line, in)) {
		int own = strncmp(line, mine[0], strlen(mine[0])) == 0;
		said |= own || strncmp(line, mine[1], strlen(mine[1])) == 0;
		started |= own && strncmp(line + strlen(mine[0]), "Command: ", 9) == 0;
	}
	fclose(in);
	return forked ? !said : started;
}

/* Why a process replaced itself with exec: what (it did), and what to do.
 * code is the exit status of what it ran, when the parent saw one.  Newly
 * allocated. */
static char *exec_reason(const char *what, int pid, int code, const char *todo)
{
	char status[64] = "";
	if (code)
		snprintf(status, sizeof status, "; what it ran exited with status %d", code);
	return xasprintf("%s (pid %d%s), which Valgrind does not follow, so nothing was measured: %s",
			 what, pid, status, todo);
}

/* Whether process pid wrote the dump of benchmark id, whose name is the id
 * (CALLGRIND_DUMP_STATS_AT): one of cg.PID.out.1, .2, ... */
static int dumped(const struct job *job, int pid, const char *id)
{
	char *want = xasprintf("desc: Trigger: Client Request: %s\n", id), line[LINE_MAX_LEN];
	int found = 0;
	for (int n = 1; !found; n++) {
		char *path = xasprintf("%s/cg.%d.out.%d", job->sb.dir, pid, n);
		FILE *in = fopen(path, "r");
		free(path);
		if (!in)
			break;
		/* The trigger is in the header, which ends at "events:". */
		while (!found && fgets(line, sizeof line, in) && strncmp(line, "events:", 7) != 0)
			found = strcmp(line, want) == 0;
		fclose(in);
	}
	free(want);
	return found;
}

/* Why benchmark e failed whose process ended (the program reaped it)
 * without a "done" (code: the status of the program's "fail", 0 when it
 * said none, the process having exited 0).  The files of the process tell
 * whether it ran exec, exited before its dump was written, or after (its
 * "done" was lost).  Newly allocated. */
static char *lost_reason(const struct job *job, const struct entry *e, int code)
{
	if (execed(job, e->pid, 1))
		return exec_reason("replaced its process with exec inside the benchmark", e->pid, code,
				   "a benchmark must not call exec (fork, and exec in the child); "
				   "measure a program with bm-run -- PROGRAM");
	if (dumped(job, e->pid, e->id))
		return xstrdup("ran, but libbm's word that it was done never reached bm-run: the "
			       "benchmark closed or replaced the harness's control descriptor (fd 3, "
			       "BM_CONTROL), or exited in its teardown; leave fd 3 open, and return "
			       "from teardown");
	return xstrdup("exited (status 0) inside the benchmark, before libbm could record it: "
		       "setup, run and teardown must return, not call exit or _exit");
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
		char *why = lost_reason(job, e, 0);
		entry_set(e, ENTRY_FAILED, why);
		char *what = xasprintf("'%s' %s", e->id, why);
		show_output(job, what, e->pid);
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
		entry_get(job, arg);
	} else if (strcmp(line, "start") == 0) {
		p->current = p->unreaped = entry_get(job, arg);
		p->current->pid = rest ? atoi(rest) : 0;
		entry_set(p->current, ENTRY_RUNNING, NULL);
		p->since = now();
	} else if (strcmp(line, "done") == 0) {
		struct entry *e = entry_get(job, arg);
		free(e->dump);
		/* "done ID N": the measurement is the process's dump N (a warm
		 * run's first dump is its warm-up); an older libbm says no N. */
		int n = rest ? atoi(rest) : 1;
		e->dump = xasprintf("%s/cg.%d.out.%d", job->sb.dir, e->pid, n > 0 ? n : 1);
		entry_set(e, ENTRY_DONE, NULL);
		p->current = NULL;
		p->since = now();
	} else if (strcmp(line, "fail") == 0) {
		struct entry *e = entry_get(job, arg);
		/* "exited with status N" from what the benchmark's process ran
		 * with exec, or from the process itself. */
		int code = rest && strncmp(rest, "exited with status ", 19) == 0 ? atoi(rest + 19) : 0;
		char *why = e->timed_out ? xasprintf("timed out after %g s", o->timeout_s)
			    : code && execed(job, e->pid, 1) ? lost_reason(job, e, code)
							      : xstrdup(rest ? rest : "failed");
		entry_set(e, ENTRY_FAILED, why);
		char *what = xasprintf("'%s' %s", e->id, why);
		show_output(job, what, e->pid);
		free(what);
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

/* ---- what the program said ---- */

/* A line the program or Valgrind wrote, for people: the sandbox's argv[0]
 * ("/tmp/bm-run.XXXXXX/p", which the loader names in its errors) given as
 * the program's path, and control characters shown as '?'.  Newly
 * allocated. */
static char *program_text(const char *line, const struct sandbox *sb, const char *program)
{
	size_t len = strlen(sb->argv0), plen = strlen(program), n = 0;
	for (const char *c = strstr(line, sb->argv0); c; c = strstr(c + len, sb->argv0))
		n++;
	char *out = xmalloc(strlen(line) + n * plen + 1), *o = out;
	for (const char *c = line; *c;) {
		if (strncmp(c, sb->argv0, len) == 0) {
			memcpy(o, program, plen);
			o += plen;
			c += len;
		} else {
			unsigned char ch = (unsigned char)*c++;
			*o++ = (ch == '\n' || ch >= 0x20) && ch != 0x7f ? (char)ch : '?';
		}
	}
	*o = '\0';
	return out;
}

/* The last non-empty line of a file (at most 200 characters), newly
 * allocated, or NULL. */
static char *last_line(const char *path, const struct sandbox *sb, const char *program)
{
	FILE *in = fopen(path, "r");
	char buf[512], last[201] = "";
	while (in && fgets(buf, sizeof buf, in)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[strspn(buf, " \t")]) {
			buf[sizeof last - 1] = '\0';
			memcpy(last, buf, strlen(buf) + 1);
		}
	}
	if (in)
		fclose(in);
	return *last ? program_text(last, sb, program) : NULL;
}

/* ---- a process ends ---- */

/* Valgrind's lines that say nothing about a failure: its banner, and the
 * warnings about the host's caches, which the pinned geometry overrides. */
static int valgrind_noise(const char *text)
{
	static const char *const noise[] = {
		"Callgrind, a call-graph",  "Copyright (C)",    "Using Valgrind-",
		"Command: ",                "Parent PID: ",     "For interactive control",
		"warning: L3 cache found",  "warning: specified LL cache",
		"warning: simulated LL cache",
	};
	while (*text == ' ')
		text++;
	if (!*text || *text == '\n')
		return 1;
	for (size_t i = 0; i < sizeof noise / sizeof noise[0]; i++)
		if (strncmp(text, noise[i], strlen(noise[i])) == 0)
			return 1;
	return 0;
}

/* The last lines of a file, indented, or nothing when it is empty.  With
 * a pid, only Valgrind's lines about that process ("==PID==", "--PID--")
 * that say something, and only those before its closing statistics: that
 * is where a crash's stack trace is. */
static void show_tail(const char *path, int pid, const char *title, const struct sandbox *sb,
		      const char *program)
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
		if (pid && valgrind_noise(buf + strlen(mine[0])))
			continue;
		free(lines[n % TAIL_LINES]);
		lines[n++ % TAIL_LINES] = program_text(buf, sb, program);
	}
	if (in)
		fclose(in);
	if (n)
		fprintf(stderr, "  %s%s:\n", n > TAIL_LINES ? "the last lines of " : "", title);
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
	log_error("%s", what);
	show_tail(job->sb.output, 0, "its output", &job->sb, job->program);
	show_tail(job->sb.errors, 0, "its errors", &job->sb, job->program);
	show_tail(job->sb.log, pid, "Valgrind's log", &job->sb, job->program);
	char *last = last_line(job->sb.errors, &job->sb, job->program);
	if (last && strstr(last, "error while loading shared libraries"))
		fprintf(stderr, "bm-run: the program runs in a fixed environment, without the caller's "
				"LD_LIBRARY_PATH: link it with -Wl,-rpath,DIR or add --env "
				"LD_LIBRARY_PATH=DIR\n");
	free(last);
}

/* Everything the program wrote to standard output (bm-run -v). */
static void show_all(const struct job *job)
{
	FILE *in = fopen(job->sb.output, "r");
	char buf[4096];
	int first = 1;
	while (in && fgets(buf, sizeof buf, in)) {
		if (first)
			fprintf(stderr, "bm-run: the output of '%s':\n", job->program);
		first = 0;
		char *l = program_text(buf, &job->sb, job->program);
		fprintf(stderr, "  | %s%s", l, strchr(l, '\n') ? "" : "\n");
		free(l);
	}
	if (in)
		fclose(in);
}

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
	char *last = last_line(job->sb.errors, &job->sb, job->program);
	char *why = last ? xasprintf("%s: %s", reason, last) : xstrdup(reason);
	free(last);
	return why;
}

/* The dump callgrind wrote at the end of a symbol or whole-process run.
 * left: the processes the keeper had to kill, which fail it too. */
static void finish_single(struct proc *p, char *reason, const char *left)
{
	struct job *job = p->job;
	struct entry *e = &job->entries[0];
	if (reason || left) {
		char *why = !reason			  ? xstrdup(left)
			    : p->timed_out || p->execed ? xstrdup(reason)
							  : with_last_error(job, reason);
		entry_set(e, ENTRY_FAILED, why);
		free(why);
		return;
	}
	free(e->dump);
	e->dump = xasprintf("%s/cg.%d.out", job->sb.dir, (int)p->pid);
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
		if (has_planned(job) && job->processes <= (int)job->nentries) {
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
		char *last = last_line(job->sb.errors, &job->sb, job->program);
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
	    execed(job, (int)p->pid, 0)) {
		p->execed = 1;
		free(reason);
		reason = job->mode == MODE_HARNESS
				 ? exec_reason("replaced itself with exec before it ran any benchmark",
					       (int)p->pid, WEXITSTATUS(status),
					       "call bm_main in the process that bm-run starts, or measure "
					       "the program it runs with bm-run -- PROGRAM")
				 : exec_reason("replaced itself with exec", (int)p->pid, WEXITSTATUS(status),
					       "measure the program it runs with bm-run -- PROGRAM ARGS "
					       "(sh -c 'PROGRAM ARGS' may exec it)");
	}
	char *left = left_reason(end, job);
	if (reason || (left && job->mode != MODE_HARNESS)) {
		char *what = blamed(p) ? xasprintf("'%s' %s", blamed(p)->id, reason)
				       : xasprintf("'%s' %s", job->program, reason ? reason : left);
		show_output(job, what, (int)p->pid);
		free(what);
	} else if (o->verbose) {
		show_all(job);
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
			entry_get(&jobs[j], jobs[j].name);
	}
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	signal(SIGPIPE, SIG_IGN);
	/* Orphans of a keeper that died become bm-run's, not init's. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int r = 0;
	/* Progress on a terminal, for runs longer than a second. */
	double started = now(), last_progress = 0;
	int shown = 0;

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
		for (size_t i = 0; i < nprocs; i++) {
			fds[2 * i] = (struct pollfd){.fd = procs[i].control, .events = POLLIN};
			fds[2 * i + 1] = (struct pollfd){.fd = procs[i].keeper.fd, .events = POLLIN};
		}
		poll(fds, 2 * nprocs, 100);
		for (size_t i = 0; i < nprocs;) {
			struct proc *p = &procs[i];
			struct keeper_end end;
			read_control(p, o);
			if (o->timeout_s > 0 && now() - p->since > o->timeout_s)
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
	if (interrupted) {
		bm_error(err, "interrupted by signal %d", (int)interrupted);
		r = -1;
	}
out:
	stop_all(procs, nprocs);
	sweep_strays();
	if (shown)
		fprintf(stderr, "\r\033[K");
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	interrupted = 0;
	free(procs);
	free(fds);
	free(queue);
	return r;
}
