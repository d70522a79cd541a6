/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The program's timers on the virtual clock: see timers.h.
 *
 * Notes (the assumptions, each with its reason):
 *
 * - A timer the kernel armed would expire on the host's time, at a
 *   moment of the program that differs in every run (an alarm that ends
 *   a loop counted 2,214,514 and 2,064,514 cycles in two runs), and an
 *   absolute deadline of the virtual clock is years in the host's past
 *   (a timerfd reported 218 billion expirations).  So the kernel arms
 *   none of them: every call on them is the engine's.
 * - A POSIX timer's id is the engine's (TIMER_ID_BASE and up, above the
 *   kernel's, which start at 0); the kernel's answer to a clock the
 *   engine does not know stands, and its ids are passed on untouched.
 * - A timerfd is the kernel's descriptor (so that close, dup and exec
 *   treat it as theirs), never armed: its expirations are counted here
 *   and read here.  Its numbers follow what the kernel does with them
 *   (dup, dup2, dup3, F_DUPFD, close, close_range), as the open file
 *   they name, and a read is the timer's only where the descriptor is a
 *   timerfd still: a number that became a program's own file is never
 *   answered for.  poll, select and epoll on it still ask the kernel,
 *   for which it never expires, and one inherited through exec, or
 *   numbered past TIMERFD_FDS, is the kernel's: outside the promise.
 * - A fork's child has none of its parent's itimers and POSIX timers
 *   (as the kernel's has none), and its parent's timerfds.
 * - The signal goes where the engine next sees the clock (the running
 *   thread's return to the scheduler, or the moment every thread waits):
 *   deterministic points, later than the deadline by at most a time
 *   slice of the running thread, as a host's timer is late by its
 *   scheduler's tick.  It is queued with the kernel's siginfo (SI_TIMER,
 *   the timer's id, value and overrun) to the thread the sigevent names,
 *   else to the running one, which for one thread is the process's.
 * - CPU-time timers run on the process's CPU clock: ITIMER_VIRTUAL and
 *   ITIMER_PROF alike (the virtual clock has no system time), and a
 *   POSIX timer on a thread's CPU clock on the process's. */
#include "timers.h"

#include "guest.h"
#include "settings.h"
#include "threads.h"
#include "vclock.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define TIMERS 64
#define TIMER_ID_BASE 0x4000
#define ITIMERS 3 /* ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF */
#define CLOCK_BOOTTIME 7
#define TIMER_ABSTIME 1
#define TFD_NONBLOCK 04000
#define SIGEV_SIGNAL 0
#define SIGEV_NONE 1
#define SI_TIMER (-2)
#define SI_KERNEL 0x80
#define E_INVAL 22
#define E_AGAIN 11
#define E_INTR 4

enum kind { T_FREE, T_ITIMER, T_POSIX, T_TIMERFD };

struct vtimer {
	enum kind kind;
	Int id;          /* the POSIX timer's id, the itimer's which */
	Int fds;         /* a timerfd's: how many descriptors name it */
	Int clock;       /* what its deadline is on */
	ULong deadline;  /* ns on clock; 0: disarmed */
	ULong interval;  /* ns; 0: once */
	Int signo, notify, lwp;
	UWord value;     /* the sigevent's */
	ULong overrun, expirations;
	Bool nonblock;   /* a timerfd's O_NONBLOCK */
};

static struct vtimer timers[TIMERS];
/* Past the last slot ever used: a program without timers pays no loop
 * at each change of thread. */
static Int used;

/* Which timerfd each descriptor names: its slot + 1, or 0. */
#define TIMERFD_FDS 1024
static UChar fd_timer[TIMERFD_FDS];

/* ---- time ---- */

static ULong now_on(Int clock, ThreadId tid)
{
	ULong ns = 0;
	if (clock == CLOCK_BOOTTIME)
		clock = VKI_CLOCK_MONOTONIC;
	vclock_now(clock, tid, &ns);
	return ns;
}

static Bool wall(Int clock)
{
	return clock == VKI_CLOCK_REALTIME || clock == VKI_CLOCK_MONOTONIC || clock == CLOCK_BOOTTIME;
}

static Bool read_timeval(Addr a, ULong *ns)
{
	if (!guest_may(a, sizeof(struct vki_timeval), VKI_PROT_READ))
		return False;
	const struct vki_timeval *t = (const struct vki_timeval *)a;
	if (t->tv_sec < 0 || t->tv_usec < 0 || t->tv_usec >= 1000000L)
		return False;
	*ns = (ULong)t->tv_sec * 1000000000ULL + (ULong)t->tv_usec * 1000ULL;
	return True;
}

/* What is left of t's time, and its interval. */
static ULong remaining(const struct vtimer *t, ThreadId tid)
{
	if (!t->deadline)
		return 0;
	ULong now = now_on(t->clock, tid);
	return t->deadline > now ? t->deadline - now : 1; /* due, not yet fired: armed still */
}

/* ---- the table ---- */

static struct vtimer *find(enum kind kind, Int id)
{
	for (Int i = 0; i < used; i++)
		if (timers[i].kind == kind && timers[i].id == id)
			return &timers[i];
	return NULL;
}

static struct vtimer *add(enum kind kind, Int id)
{
	for (Int i = 0; i < TIMERS; i++)
		if (timers[i].kind == T_FREE) {
			timers[i] = (struct vtimer){.kind = kind, .id = id};
			if (i >= used)
				used = i + 1;
			return &timers[i];
		}
	return NULL;
}

static struct vtimer *itimer(Int which)
{
	static const Int signals[ITIMERS] = {VKI_SIGALRM, VKI_SIGVTALRM, VKI_SIGPROF};
	struct vtimer *t = find(T_ITIMER, which);
	if (!t && (t = add(T_ITIMER, which))) {
		t->clock = which == 0 ? VKI_CLOCK_MONOTONIC : VKI_CLOCK_PROCESS_CPUTIME_ID;
		t->signo = signals[which];
		t->notify = SIGEV_SIGNAL;
	}
	return t;
}

/* ---- a timerfd's descriptors ---- */

#define F_DUPFD 0
#define F_DUPFD_CLOEXEC 1030
#define CLOSE_RANGE_CLOEXEC 4

static struct vtimer *timerfd_of(Int fd)
{
	return fd >= 0 && fd < TIMERFD_FDS && fd_timer[fd] ? &timers[fd_timer[fd] - 1] : NULL;
}

/* fd names its timerfd no more (closed, or another file's now). */
static void unlink_fd(Int fd)
{
	struct vtimer *t = timerfd_of(fd);
	if (!t)
		return;
	fd_timer[fd] = 0;
	if (--t->fds == 0)
		t->kind = T_FREE;
}

/* fd names what old names (dup2(old, fd) and the like). */
static void copy_fd(Int old, Int fd)
{
	if (old == fd)
		return;
	unlink_fd(fd);
	struct vtimer *t = timerfd_of(old);
	if (t && fd >= 0 && fd < TIMERFD_FDS) {
		fd_timer[fd] = (UChar)(t - timers + 1);
		t->fds++;
	}
}

/* Whether fd is a timerfd now, as the kernel says. */
static Bool is_timerfd(Int fd)
{
	HChar path[32], link[32];
	VG_(sprintf)(path, "/proc/self/fd/%d", fd);
	Int n = VG_(readlink)(path, link, sizeof link - 1);
	if (n < 0)
		return False;
	link[n] = 0;
	return VG_(strcmp)(link, "anon_inode:[timerfd]") == 0;
}

/* The timerfd fd names, where it is one still: a number the engine
 * lost track of is not answered for. */
static struct vtimer *timerfd_at(Int fd)
{
	struct vtimer *t = timerfd_of(fd);
	if (t && !is_timerfd(fd)) {
		unlink_fd(fd);
		return NULL;
	}
	return t;
}

/* Arms t to expire in (or, absolute, at) value ns on its clock, then
 * every interval ns; value 0 disarms it. */
static void arm(struct vtimer *t, ThreadId tid, ULong value, ULong interval, Bool absolute)
{
	t->interval = interval;
	t->overrun = t->expirations = 0;
	if (!value)
		t->deadline = 0;
	else if (absolute)
		t->deadline = value > now_on(t->clock, tid) ? value : now_on(t->clock, tid);
	else
		t->deadline = now_on(t->clock, tid) + value;
	if (!t->deadline && value)
		t->deadline = 1;
}

/* ---- expiring ---- */

static void send(const struct vtimer *t, UInt overrun)
{
	vki_siginfo_t info;
	VG_(memset)(&info, 0, sizeof info);
	info.si_signo = t->signo;
	if (t->kind == T_POSIX) {
		info.si_code = SI_TIMER;
		info._sifields._timer._tid = t->id;
		info._sifields._timer._overrun = (Int)overrun;
		info._sifields._timer._sigval.sival_ptr = (void *)t->value;
	} else {
		info.si_code = SI_KERNEL;
	}
	Int lwp = t->notify & VKI_SIGEV_THREAD_ID ? t->lwp : VG_(gettid)();
	VG_(do_syscall)(__NR_rt_tgsigqueueinfo, (RegWord)VG_(getpid)(), (RegWord)lwp, (RegWord)t->signo,
			(RegWord)(Addr)&info, 0, 0, 0, 0);
}

void timers_fire(ThreadId tid)
{
	if (!clo.clock_virtual)
		return;
	for (Int i = 0; i < used; i++) {
		struct vtimer *t = &timers[i];
		if (t->kind == T_FREE || !t->deadline)
			continue;
		ULong now = now_on(t->clock, tid);
		if (now < t->deadline)
			continue;
		ULong n = 1 + (t->interval ? (now - t->deadline) / t->interval : 0);
		t->deadline = t->interval ? t->deadline + n * t->interval : 0;
		if (t->kind == T_TIMERFD) {
			t->expirations += n;
			continue;
		}
		t->overrun = n - 1;
		if (t->notify != SIGEV_NONE) {
			send(t, (UInt)(n - 1));
			if (!(t->notify & VKI_SIGEV_THREAD_ID))
				threads_interrupt(tid);
		}
	}
}

ULong timers_next_wall(void)
{
	ULong first = 0;
	for (Int i = 0; i < used; i++) {
		const struct vtimer *t = &timers[i];
		if (t->kind == T_FREE || !t->deadline || !wall(t->clock))
			continue;
		ULong d = t->deadline;
		if (t->clock == VKI_CLOCK_REALTIME) { /* as CLOCK_MONOTONIC's */
			ULong real = now_on(VKI_CLOCK_REALTIME, 1), mono = vclock_monotonic_ns();
			d = d > real ? mono + (d - real) : mono;
		}
		if (!first || d < first)
			first = d;
	}
	return first;
}

/* ---- the calls ---- */

static Bool answer_setitimer(ThreadId tid, const UWord a[6], ULong *res)
{
	Int which = (Int)a[0];
	struct vtimer *t = which >= 0 && which < ITIMERS ? itimer(which) : NULL;
	const struct vki_itimerval *v = (const struct vki_itimerval *)a[1];
	ULong value, interval;
	if (!t || !guest_may(a[1], sizeof *v, VKI_PROT_READ) || !read_timeval((Addr)&v->it_value, &value) ||
	    !read_timeval((Addr)&v->it_interval, &interval) ||
	    (a[2] && !guest_may(a[2], sizeof(struct vki_itimerval), VKI_PROT_WRITE))) {
		*res = (ULong)-E_INVAL;
		return True;
	}
	if (a[2]) {
		struct vki_itimerval *old = (struct vki_itimerval *)a[2];
		guest_put_timeval((Addr)&old->it_value, remaining(t, tid));
		guest_put_timeval((Addr)&old->it_interval, t->interval);
	}
	arm(t, tid, value, interval, False);
	*res = 0;
	return True;
}

static Bool answer_getitimer(ThreadId tid, const UWord a[6], ULong *res)
{
	Int which = (Int)a[0];
	struct vtimer *t = which >= 0 && which < ITIMERS ? itimer(which) : NULL;
	if (!t || !guest_may(a[1], sizeof(struct vki_itimerval), VKI_PROT_WRITE)) {
		*res = (ULong)-E_INVAL;
		return True;
	}
	struct vki_itimerval *cur = (struct vki_itimerval *)a[1];
	guest_put_timeval((Addr)&cur->it_value, remaining(t, tid));
	guest_put_timeval((Addr)&cur->it_interval, t->interval);
	*res = 0;
	return True;
}

static Bool answer_alarm(ThreadId tid, const UWord a[6], ULong *res)
{
	struct vtimer *t = itimer(0);
	if (!t)
		return False;
	ULong left = remaining(t, tid);
	*res = left ? (left + 999999999ULL) / 1000000000ULL : 0;
	arm(t, tid, (ULong)(UInt)a[0] * 1000000000ULL, 0, False);
	return True;
}

static Bool known_clock(Int clock)
{
	return wall(clock) || clock == VKI_CLOCK_PROCESS_CPUTIME_ID || clock == VKI_CLOCK_THREAD_CPUTIME_ID;
}

static Bool answer_timer_create(ThreadId tid, const UWord a[6], ULong *res)
{
	(void)tid;
	Int clock = (Int)a[0];
	if (!known_clock(clock) || !guest_may(a[2], sizeof(Int), VKI_PROT_WRITE))
		return False;
	Int id = TIMER_ID_BASE;
	while (find(T_POSIX, id))
		id++;
	struct vtimer *t = add(T_POSIX, id);
	if (!t)
		return False; /* the kernel's, past TIMERS of them */
	t->clock = clock == VKI_CLOCK_THREAD_CPUTIME_ID ? VKI_CLOCK_PROCESS_CPUTIME_ID : clock;
	t->signo = VKI_SIGALRM;
	t->notify = SIGEV_SIGNAL;
	t->value = (UWord)id;
	if (a[1]) {
		if (!guest_may(a[1], sizeof(vki_sigevent_t), VKI_PROT_READ)) {
			t->kind = T_FREE;
			*res = (ULong)-E_INVAL;
			return True;
		}
		const vki_sigevent_t *ev = (const vki_sigevent_t *)a[1];
		t->signo = ev->sigev_signo;
		t->notify = ev->sigev_notify;
		t->value = (UWord)ev->sigev_value.sival_ptr;
		t->lwp = ev->vki_sigev_notify_thread_id;
	}
	*(Int *)a[2] = id;
	*res = 0;
	return True;
}

/* timer_settime(id, flags, new, old) and timerfd_settime(fd, ...): the
 * same arguments from the second on, for timer t. */
static Bool settime(struct vtimer *t, ThreadId tid, const UWord a[6], ULong *res)
{
	if (!t)
		return False;
	const struct vki_itimerspec *v = (const struct vki_itimerspec *)a[2];
	ULong value, interval;
	if (!guest_may(a[2], sizeof *v, VKI_PROT_READ) || !guest_read_timespec((Addr)&v->it_value, &value) ||
	    !guest_read_timespec((Addr)&v->it_interval, &interval) ||
	    (a[3] && !guest_may(a[3], sizeof(struct vki_itimerspec), VKI_PROT_WRITE))) {
		*res = (ULong)-E_INVAL;
		return True;
	}
	if (a[3]) {
		struct vki_itimerspec *old = (struct vki_itimerspec *)a[3];
		guest_put_timespec((Addr)&old->it_value, remaining(t, tid));
		guest_put_timespec((Addr)&old->it_interval, t->interval);
	}
	arm(t, tid, value, interval, a[1] & TIMER_ABSTIME);
	*res = 0;
	return True;
}

/* timer_gettime(id, cur) and timerfd_gettime(fd, cur), for timer t. */
static Bool gettime(struct vtimer *t, ThreadId tid, Addr cur_at, ULong *res)
{
	if (!t)
		return False;
	if (!guest_may(cur_at, sizeof(struct vki_itimerspec), VKI_PROT_WRITE)) {
		*res = (ULong)-E_INVAL;
		return True;
	}
	struct vki_itimerspec *cur = (struct vki_itimerspec *)cur_at;
	guest_put_timespec((Addr)&cur->it_value, remaining(t, tid));
	guest_put_timespec((Addr)&cur->it_interval, t->interval);
	*res = 0;
	return True;
}

/* read(fd, buf, n) of a timerfd: its expirations since the last read,
 * waiting on the virtual clock for the first where there are none. */
static Bool timerfd_read(ThreadId tid, struct vtimer *t, const UWord a[6], ULong *res, Bool *park)
{
	ULong woken;
	if (threads_resume(tid, &woken) && woken) {
		*res = woken; /* -EINTR */
		return True;
	}
	if (a[2] < sizeof(ULong) || !guest_may(a[1], sizeof(ULong), VKI_PROT_WRITE)) {
		*res = (ULong)-E_INVAL;
		return True;
	}
	timers_fire(tid);
	if (!t->expirations) {
		if (t->nonblock || !t->deadline) {
			*res = (ULong)-E_AGAIN; /* disarmed, blocking: natively it would wait for good */
			return True;
		}
		ULong d = t->deadline;
		if (t->clock == VKI_CLOCK_REALTIME) {
			ULong real = now_on(VKI_CLOCK_REALTIME, tid), mono = vclock_monotonic_ns();
			d = d > real ? mono + (d - real) : mono;
		}
		threads_sleep(tid, d);
		*park = True;
		return True;
	}
	*(ULong *)a[1] = t->expirations;
	t->expirations = 0;
	*res = sizeof(ULong);
	return True;
}

Bool timers_answer(ThreadId tid, UWord sysno, const UWord a[6], ULong *res, Bool *park)
{
	if (!clo.clock_virtual)
		return False;
	switch (sysno) {
	case __NR_alarm:
		return answer_alarm(tid, a, res);
	case __NR_setitimer:
		return answer_setitimer(tid, a, res);
	case __NR_getitimer:
		return answer_getitimer(tid, a, res);
	case __NR_timer_create:
		return answer_timer_create(tid, a, res);
	case __NR_timer_settime:
		return settime(find(T_POSIX, (Int)a[0]), tid, a, res);
	case __NR_timer_gettime:
		return gettime(find(T_POSIX, (Int)a[0]), tid, a[1], res);
	case __NR_timer_getoverrun: {
		struct vtimer *t = find(T_POSIX, (Int)a[0]);
		if (!t)
			return False;
		*res = t->overrun;
		return True;
	}
	case __NR_timer_delete: {
		struct vtimer *t = find(T_POSIX, (Int)a[0]);
		if (!t)
			return False;
		t->kind = T_FREE;
		*res = 0;
		return True;
	}
	case __NR_timerfd_settime:
		return settime(timerfd_at((Int)a[0]), tid, a, res);
	case __NR_timerfd_gettime:
		return gettime(timerfd_at((Int)a[0]), tid, a[1], res);
	case __NR_read: {
		struct vtimer *t = timerfd_at((Int)a[0]);
		return t ? timerfd_read(tid, t, a, res, park) : False;
	}
	default:
		return False;
	}
}

void timers_post_syscall(UWord sysno, const UWord *args, SysRes res)
{
	if (!clo.clock_virtual || sr_isError(res))
		return;
	Int fd = (Int)sr_Res(res);
	switch (sysno) {
	case __NR_timerfd_create: {
		if (!wall((Int)args[0]) || fd >= TIMERFD_FDS)
			break; /* the kernel's */
		unlink_fd(fd);
		struct vtimer *t = add(T_TIMERFD, 0);
		if (t) {
			t->clock = (Int)args[0];
			t->nonblock = (args[1] & TFD_NONBLOCK) != 0;
			t->fds = 1;
			fd_timer[fd] = (UChar)(t - timers + 1);
		}
		break;
	}
	case __NR_close:
		unlink_fd((Int)args[0]);
		break;
	case __NR_dup:
		copy_fd((Int)args[0], fd);
		break;
	case __NR_dup2:
	case __NR_dup3:
		copy_fd((Int)args[0], (Int)args[1]);
		break;
	case __NR_fcntl:
		if (args[1] == F_DUPFD || args[1] == F_DUPFD_CLOEXEC)
			copy_fd((Int)args[0], fd);
		break;
	case __NR_close_range:
		if (!(args[2] & CLOSE_RANGE_CLOEXEC))
			for (UWord n = args[0]; n <= args[1] && n < TIMERFD_FDS; n++)
				unlink_fd((Int)n);
		break;
	default:
		break;
	}
}

void timers_at_fork_child(void)
{
	for (Int i = 0; i < used; i++)
		if (timers[i].kind == T_ITIMER || timers[i].kind == T_POSIX)
			timers[i].kind = T_FREE;
}
