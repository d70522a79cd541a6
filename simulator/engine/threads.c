/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * Threads, repeatable: see threads.h.
 *
 * Notes (the assumptions, each with its reason):
 *
 * - The turn is the engine's: every translation made after the second
 *   thread appears begins with the check (two loads and a compare), and
 *   a thread that fails it leaves at once with Ijk_Yield, having run
 *   nothing; Valgrind then lets it spin through the rest of a short time
 *   slice and hands its lock on (bm-run gives Valgrind --fair-sched=yes,
 *   whose ticket lock lets every waiting thread take it in turn).  How
 *   long that takes is the host's; what runs is not.
 * - QUANTUM superblocks a turn, counted inline by the chosen thread: as
 *   many as Valgrind's own time slice, so that threads interleave as
 *   often as under Valgrind's scheduler.
 * - A futex call is answered here whenever its word is in the program's
 *   memory: private and shared alike (glibc's pthread_join waits on a
 *   shared one, which the kernel wakes when the thread exits), since the
 *   program's waiters all wait here.  A wake that finds none of them goes
 *   to the kernel, which may hold a waiter of another kind.  The
 *   priority-inheriting operations go to the kernel.
 * - Waiters are woken in the order they began to wait (the kernel's
 *   order is its own, and FIFO among equals).
 * - A waiting thread's call is made again when it is woken and chosen:
 *   then it returns what the wake said (0, or ETIMEDOUT).
 * - Timeouts are on the virtual clock: a timed wait ends when the clock
 *   has passed its deadline at a turn's end, or at once, the clock moved
 *   to it, when no thread can run.  Sleeps are such waits on nothing.
 * - A thread the kernel holds in a system call keeps the turn (the
 *   others wait for it): a call that waits for another thread (a pipe
 *   between them) would never end, so after KERNEL_WAIT_MS of it the
 *   turn moves on as the kernel lets threads run, and the run is said to
 *   be nondeterministic. */
#include "threads.h"

#include "guest.h"
#include "settings.h"
#include "vclock.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define QUANTUM 100000
#define KERNEL_WAIT_MS 1000

/* Linux's futex operations (linux/futex.h). */
enum {
	FUTEX_WAIT = 0, FUTEX_WAKE = 1, FUTEX_REQUEUE = 3, FUTEX_CMP_REQUEUE = 4, FUTEX_WAKE_OP = 5,
	FUTEX_WAIT_BITSET = 9, FUTEX_WAKE_BITSET = 10,
	FUTEX_PRIVATE_FLAG = 128, FUTEX_CLOCK_REALTIME = 256,
};
#define CLONE_CHILD_CLEARTID 0x00200000UL
#define TIMER_ABSTIME 1
#define E_INTR 4
#define E_AGAIN 11
#define E_INVAL 22
#define E_TIMEDOUT 110

enum { T_FREE, T_RUNNABLE, T_WAITING };

struct thread {
	UChar state;
	Addr clear_tid;     /* CLONE_CHILD_CLEARTID's, or set_tid_address's */
	Addr wait_addr;     /* the futex waited on; 0: a sleep */
	UInt wait_bits;
	ULong deadline;     /* CLOCK_MONOTONIC's ns, or 0: none */
	ULong order;        /* when it began to wait */
	Bool woken;         /* the answer of its call, made again, is woken_result */
	ULong woken_result;
	Bool to_kernel;     /* its call, made again, is the kernel's (a deadlock) */
	UInt kernel_since;  /* the millisecond timer + 1 when a kernel call began, or 0 */
	UInt kernel_call;   /* that call's number */
	ULong began;        /* CLOCK_MONOTONIC's ns when it began to wait */
	ULong waited;       /* how long its last wait, answered, took */
};

static struct thread *ts;       /* VG_N_THREADS */
static Addr *clone_clear_tid;   /* of the clone in progress, by parent */
/* The timers' deadlines (threads_init). */
static ULong (*timer_next_wall)(void);
static void (*timer_fire)(ThreadId tid);
static ULong waits;

Bool threads_many;
/* Why the order of turns was the kernel's since the last dump ("": it
 * was not). */
static HChar nondeterministic[160];
/* The thread whose turn it is, the one Valgrind runs, and what the
 * translations read: whether they are the same (with one thread they
 * always are: every translation, made before or after the second thread
 * appears, checks the turn). */
static ThreadId chosen = 1, running = 1;
static ULong turn_ok = 1;
/* The chosen thread's superblocks in its turn so far, and the count of
 * Valgrind's at the start of the slice it runs in. */
static ULong turn_blocks, slice_start;

/* ---- what the engine could not make repeatable ---- */

/* The name of a call that may wait for another thread, or its number. */
static const HChar *call_name(UInt sysno, HChar buf[24])
{
	static const struct {
		UInt no;
		const HChar *name;
	} names[] = {
		{__NR_read, "read"}, {__NR_write, "write"}, {__NR_readv, "readv"}, {__NR_writev, "writev"},
		{__NR_pread64, "pread64"}, {__NR_poll, "poll"}, {__NR_select, "select"}, {__NR_accept, "accept"},
		{__NR_connect, "connect"}, {__NR_sendto, "sendto"}, {__NR_recvfrom, "recvfrom"},
		{__NR_sendmsg, "sendmsg"}, {__NR_recvmsg, "recvmsg"}, {__NR_wait4, "wait4"}, {__NR_futex, "futex"},
		{__NR_epoll_wait, "epoll_wait"}, {__NR_waitid, "waitid"}, {__NR_pselect6, "pselect6"},
		{__NR_ppoll, "ppoll"}, {__NR_epoll_pwait, "epoll_pwait"}, {__NR_accept4, "accept4"},
		{__NR_semop, "semop"}, {__NR_semtimedop, "semtimedop"}, {__NR_msgrcv, "msgrcv"},
		{__NR_msgsnd, "msgsnd"}, {__NR_flock, "flock"}, {__NR_fcntl, "fcntl"},
	};
	for (UInt i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].no == sysno)
			return names[i].name;
	VG_(sprintf)(buf, "system call %u", sysno);
	return buf;
}

/* Says why (the first reason since the last dump, which the dump
 * writes). */
static void said_nondeterministic(const HChar *format, ...) PRINTF_CHECK(1, 2);
static void said_nondeterministic(const HChar *format, ...)
{
	if (nondeterministic[0])
		return;
	va_list ap;
	va_start(ap, format);
	VG_(vsnprintf)(nondeterministic, sizeof nondeterministic, format, ap);
	va_end(ap);
}

const HChar *threads_nondeterministic(void)
{
	return nondeterministic[0] ? nondeterministic : NULL;
}

void threads_nondeterministic_clear(void)
{
	nondeterministic[0] = 0;
}

/* ---- the turn ---- */

/* Wakes waiter t with result r (it runs again when chosen). */
static void wake_one(ThreadId t, ULong r)
{
	ts[t].state = T_RUNNABLE;
	ts[t].woken = True;
	ts[t].woken_result = r;
	ts[t].waited = vclock_monotonic_ns() - ts[t].began;
}

/* Ends the timed waits the virtual clock has passed. */
static void time_out(void)
{
	ULong now = vclock_monotonic_ns();
	for (ThreadId t = 1; t < VG_N_THREADS; t++)
		if (ts[t].state == T_WAITING && ts[t].deadline && ts[t].deadline <= now)
			wake_one(t, ts[t].wait_addr ? (ULong)-E_TIMEDOUT : 0);
}

/* The next runnable thread after from, round the ring; 0: none. */
static ThreadId next_after(ThreadId from)
{
	for (UInt k = 1; k < VG_N_THREADS; k++) {
		ThreadId t = (ThreadId)((from - 1 + k) % (VG_N_THREADS - 1) + 1);
		if (ts[t].state == T_RUNNABLE)
			return t;
	}
	return from < VG_N_THREADS && ts[from].state == T_RUNNABLE ? from : 0;
}

/* The first deadline of a waiting thread, or 0: none waits with one. */
static ThreadId first_deadline(void)
{
	ThreadId best = 0;
	for (ThreadId t = 1; t < VG_N_THREADS; t++)
		if (ts[t].state == T_WAITING && ts[t].deadline &&
		    (!best || ts[t].deadline < ts[best].deadline ||
		     (ts[t].deadline == ts[best].deadline && ts[t].order < ts[best].order)))
			best = t;
	return best;
}

/* Gives the turn to the next thread after from that can run: with none,
 * the clock moves to the first timeout; with none of those either,
 * every thread waits for good, as natively: the turn goes to the thread
 * that waited first, whose call goes to the kernel. */
static void pass_turn(ThreadId from)
{
	time_out();
	ThreadId t = next_after(from);
	/* None can run: the clock moves to the first deadline, a wait's or a
	 * timer's (whose signal may wake a waiter). */
	while (!t) {
		ThreadId w = first_deadline();
		ULong timer = timer_next_wall();
		if (!w && !timer)
			break;
		vclock_wait_until(w && (!timer || ts[w].deadline <= timer) ? ts[w].deadline : timer);
		timer_fire(from);
		time_out();
		t = next_after(from);
	}
	if (!t) {
		for (ThreadId w = 1; w < VG_N_THREADS; w++)
			if (ts[w].state == T_WAITING && (!t || ts[w].order < ts[t].order))
				t = w;
		if (t) {
			if (threads_many) {
				VG_(umsg)("bm-engine: every thread waits (a deadlock?): thread %u waits in the kernel\n", t);
				said_nondeterministic("every thread waited on another: thread %u's futex wait went to the kernel", t);
			}
			ts[t].state = T_RUNNABLE;
			ts[t].to_kernel = True;
		}
	}
	chosen = t;
	turn_blocks = 0;
	turn_ok = running == chosen;
}

void threads_at_block(IRSB *sb, Addr a)
{
	if (!clo.clock_virtual)
		return;
	IRTemp ok = newIRTemp(sb->tyenv, Ity_I64), other = newIRTemp(sb->tyenv, Ity_I1);
	addStmtToIRSB(sb, IRStmt_WrTmp(ok, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&turn_ok))));
	addStmtToIRSB(sb, IRStmt_WrTmp(other, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(ok), IRExpr_Const(IRConst_U64(0)))));
	addStmtToIRSB(sb, IRStmt_Exit(IRExpr_RdTmp(other), Ijk_Yield, IRConst_U64(a), OFFSET_amd64_RIP));
}

/* ---- Valgrind's events ---- */

void threads_init(ULong (*next_wall)(void), void (*fire)(ThreadId tid))
{
	timer_next_wall = next_wall;
	timer_fire = fire;
	ts = VG_(calloc)("bm.threads", VG_N_THREADS, sizeof *ts);
	clone_clear_tid = VG_(calloc)("bm.threads", VG_N_THREADS, sizeof *clone_clear_tid);
}

void threads_created(ThreadId parent, ThreadId child)
{
	if (!clo.clock_virtual || child >= VG_N_THREADS)
		return;
	if (parent == VG_INVALID_THREADID) { /* the main thread, at the start */
		ts[child] = (struct thread){.state = T_RUNNABLE};
		return;
	}
	if (!threads_many) {
		/* From now on the turns matter. */
		threads_many = True;
		ts[parent].state = T_RUNNABLE;
		chosen = parent;
		turn_blocks = 0;
	}
	ts[child] = (struct thread){.state = T_RUNNABLE, .clear_tid = clone_clear_tid[parent]};
	clone_clear_tid[parent] = 0;
}

void threads_exiting(ThreadId tid)
{
	if (!threads_many || tid >= VG_N_THREADS)
		return;
	Addr word = ts[tid].clear_tid;
	ts[tid].state = T_FREE;
	/* The kernel's CLONE_CHILD_CLEARTID, here, where the thread ends. */
	if (word && guest_may(word, sizeof(UInt), VKI_PROT_WRITE)) {
		*(UInt *)word = 0;
		ULong order = ~0ULL;
		ThreadId first = 0;
		for (ThreadId t = 1; t < VG_N_THREADS; t++)
			if (ts[t].state == T_WAITING && ts[t].wait_addr == word && ts[t].order < order) {
				first = t;
				order = ts[t].order;
			}
		if (first)
			wake_one(first, 0);
	}
	if (chosen == tid)
		pass_turn(tid);
}

/* Valgrind gives thread tid its lock (blocks: its count of superblocks
 * run).  Not its turn: whether the chosen one can still run (it may have
 * exited, or wait in the kernel for too long). */
void threads_start(ThreadId tid, ULong blocks)
{
	running = tid;
	slice_start = blocks;
	if (!threads_many)
		chosen = tid;
	ThreadId c = chosen;
	if (threads_many && c != tid) {
		if (!c || c >= VG_N_THREADS || ts[c].state != T_RUNNABLE) {
			pass_turn(c ? c : tid);
		} else if (ts[c].kernel_since &&
			   VG_(read_millisecond_timer)() + 1 - ts[c].kernel_since > KERNEL_WAIT_MS) {
			HChar call[24];
			said_nondeterministic("thread %u waited in the kernel for another thread (%s, over a second)", c,
					      call_name(ts[c].kernel_call, call));
			chosen = tid;
			turn_blocks = 0;
		}
	}
	turn_ok = running == chosen;
}

/* ... and takes it back: the chosen thread's turn ends after QUANTUM of
 * its superblocks, where it next stops (which is its own doing: its time
 * slice, a system call, a translation to make). */
void threads_stop(ThreadId tid, ULong blocks)
{
	timer_fire(tid);
	if (!threads_many || tid != chosen)
		return;
	turn_blocks += blocks - slice_start;
	slice_start = blocks;
	if (turn_blocks >= QUANTUM)
		pass_turn(tid);
}

void threads_pre_syscall(ThreadId tid, UInt sysno, const UWord *args)
{
	if (!clo.clock_virtual || tid >= VG_N_THREADS)
		return;
	if (sysno == __NR_clone)
		clone_clear_tid[tid] = args[0] & CLONE_CHILD_CLEARTID ? args[3] : 0;
	else if (sysno == __NR_set_tid_address)
		ts[tid].clear_tid = args[0];
	if (threads_many) {
		ts[tid].kernel_since = VG_(read_millisecond_timer)() + 1;
		ts[tid].kernel_call = sysno;
	}
}

void threads_post_syscall(ThreadId tid, UInt sysno)
{
	(void)sysno;
	if (tid < VG_N_THREADS)
		ts[tid].kernel_since = 0;
}

/* ---- waits ---- */

/* The monotonic deadline of a wait until ns on clock (absolute). */
static ULong monotonic_deadline(Int clock, ThreadId tid, ULong ns)
{
	ULong now_clock, now = vclock_monotonic_ns();
	if (clock == VKI_CLOCK_MONOTONIC || !vclock_now(clock, tid, &now_clock))
		return ns ? ns : 1;
	ULong d = ns > now_clock ? now + (ns - now_clock) : now;
	return d ? d : 1;
}

/* Thread tid waits on addr (0: sleeps) until woken or deadline: its turn
 * goes on to the next. */
static void wait_on(ThreadId tid, Addr addr, UInt bits, ULong deadline)
{
	ts[tid].state = T_WAITING;
	ts[tid].wait_addr = addr;
	ts[tid].wait_bits = bits;
	ts[tid].deadline = deadline;
	ts[tid].order = ++waits;
	ts[tid].woken = False;
	ts[tid].began = vclock_monotonic_ns();
	pass_turn(tid);
}

/* Wakes up to n of the threads waiting on addr for bits, the first to
 * wait first; returns how many. */
static UInt wake(Addr addr, UInt n, UInt bits)
{
	UInt woken = 0;
	while (woken < n) {
		ThreadId first = 0;
		for (ThreadId t = 1; t < VG_N_THREADS; t++)
			if (ts[t].state == T_WAITING && ts[t].wait_addr == addr && (ts[t].wait_bits & bits) &&
			    (!first || ts[t].order < ts[first].order))
				first = t;
		if (!first)
			break;
		wake_one(first, 0);
		woken++;
	}
	return woken;
}

/* Moves up to n of addr's waiters to wait on to; returns how many. */
static UInt requeue(Addr addr, Addr to, UInt n)
{
	UInt moved = 0;
	for (ThreadId t = 1; t < VG_N_THREADS && moved < n; t++)
		if (ts[t].state == T_WAITING && ts[t].wait_addr == addr) {
			ts[t].wait_addr = to;
			moved++;
		}
	return moved;
}

static Int sign12(UInt v)
{
	return (Int)(v << 20) >> 20;
}

/* FUTEX_WAKE_OP's change of the word at a2 and its condition. */
static Bool wake_op(Addr a2, UInt val3, Bool *cond)
{
	if (!guest_may(a2, sizeof(Int), VKI_PROT_READ | VKI_PROT_WRITE))
		return False;
	UInt op = val3 >> 28 & 0xf, cmp = val3 >> 24 & 0xf;
	Int oparg = sign12(val3 >> 12 & 0xfff), cmparg = sign12(val3 & 0xfff);
	if (op & 8) {
		oparg = 1 << (oparg & 31);
		op &= 7;
	}
	Int *w = (Int *)a2, old = *w;
	switch (op) {
	case 0: *w = oparg; break;
	case 1: *w = old + oparg; break;
	case 2: *w = old | oparg; break;
	case 3: *w = old & ~oparg; break;
	case 4: *w = old ^ oparg; break;
	default: return False;
	}
	switch (cmp) {
	case 0: *cond = old == cmparg; break;
	case 1: *cond = old != cmparg; break;
	case 2: *cond = old < cmparg; break;
	case 3: *cond = old <= cmparg; break;
	case 4: *cond = old > cmparg; break;
	case 5: *cond = old >= cmparg; break;
	default: return False;
	}
	return True;
}

static Bool futex(ThreadId tid, const UWord a[6], ULong *res, Bool *park)
{
	UInt op = (UInt)a[1], cmd = op & ~(UInt)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	Addr addr = a[0];
	UInt val = (UInt)a[2];
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET: {
		if (ts[tid].to_kernel) {
			ts[tid].to_kernel = False;
			return False;
		}
		if (ts[tid].woken) {
			ts[tid].woken = False;
			*res = ts[tid].woken_result;
			return True;
		}
		if (!guest_may(addr, sizeof(UInt), VKI_PROT_READ))
			return False;
		UInt bits = cmd == FUTEX_WAIT ? ~0U : (UInt)a[5];
		ULong ns = 0, deadline = 0;
		if (!bits || (a[3] && !guest_read_timespec(a[3], &ns))) {
			*res = (ULong)-E_INVAL;
			return True;
		}
		if (*(const UInt *)addr != val) {
			*res = (ULong)-E_AGAIN;
			return True;
		}
		if (a[3])
			deadline = cmd == FUTEX_WAIT ? vclock_monotonic_ns() + ns
						     : monotonic_deadline(op & FUTEX_CLOCK_REALTIME ? VKI_CLOCK_REALTIME
												    : VKI_CLOCK_MONOTONIC,
									  tid, ns);
		if (deadline && deadline <= vclock_monotonic_ns()) {
			*res = (ULong)-E_TIMEDOUT;
			return True;
		}
		wait_on(tid, addr, bits, deadline);
		*park = True;
		return True;
	}
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET: {
		UInt bits = cmd == FUTEX_WAKE ? ~0U : (UInt)a[5];
		if (!bits) {
			*res = (ULong)-E_INVAL;
			return True;
		}
		UInt n = wake(addr, val, bits);
		if (!n)
			return False; /* a waiter of the kernel's, if any */
		*res = n;
		return True;
	}
	case FUTEX_CMP_REQUEUE:
		if (!guest_may(addr, sizeof(UInt), VKI_PROT_READ))
			return False;
		if (*(const UInt *)addr != (UInt)a[5]) {
			*res = (ULong)-E_AGAIN;
			return True;
		}
		/* fall through */
	case FUTEX_REQUEUE: {
		UInt n = wake(addr, val, ~0U), m = requeue(addr, a[4], (UInt)a[3]);
		*res = cmd == FUTEX_CMP_REQUEUE ? n + m : n;
		return True;
	}
	case FUTEX_WAKE_OP: {
		Bool cond;
		if (!wake_op(a[4], (UInt)a[5], &cond))
			return False;
		UInt n = wake(addr, val, ~0U);
		if (cond)
			n += wake(a[4], (UInt)a[3], ~0U);
		*res = n;
		return True;
	}
	default:
		return False; /* the priority-inheriting ones: the kernel's */
	}
}

/* nanosleep(req, rem) and clock_nanosleep(clock, flags, req, rem): a
 * wait on nothing until the virtual clock has moved past it. */
static Bool sleep_wait(ThreadId tid, UWord sysno, const UWord a[6], ULong *res, Bool *park)
{
	Int clock = sysno == __NR_nanosleep ? VKI_CLOCK_MONOTONIC : (Int)a[0];
	Bool absolute = sysno == __NR_clock_nanosleep && (a[1] & TIMER_ABSTIME);
	Addr req = sysno == __NR_nanosleep ? a[0] : a[2], rem = sysno == __NR_nanosleep ? a[1] : a[3];
	if (ts[tid].woken) {
		/* Interrupted: what was left of a relative sleep, in rem. */
		ts[tid].woken = False;
		*res = ts[tid].woken_result;
		ULong now = vclock_monotonic_ns();
		if (*res && !absolute && rem)
			guest_put_timespec(rem, ts[tid].deadline > now ? ts[tid].deadline - now : 0);
		return True;
	}
	ULong ns;
	if ((clock != VKI_CLOCK_MONOTONIC && clock != VKI_CLOCK_REALTIME) || !guest_read_timespec(req, &ns))
		return False;
	ULong deadline = absolute ? monotonic_deadline(clock, tid, ns) : vclock_monotonic_ns() + ns;
	if (deadline <= vclock_monotonic_ns()) {
		*res = 0;
		return True;
	}
	wait_on(tid, 0, 0, deadline);
	*park = True;
	return True;
}

void threads_interrupt(ThreadId tid)
{
	if (tid < VG_N_THREADS && ts[tid].state == T_WAITING)
		wake_one(tid, (ULong)-E_INTR);
}

void threads_sleep(ThreadId tid, ULong deadline)
{
	wait_on(tid, 0, 0, deadline ? deadline : 1);
}

Bool threads_resume(ThreadId tid, ULong *res)
{
	if (tid >= VG_N_THREADS || !ts[tid].woken)
		return False;
	ts[tid].woken = False;
	*res = ts[tid].woken_result;
	return True;
}

ULong threads_waited(ThreadId tid)
{
	if (tid >= VG_N_THREADS)
		return 0;
	ULong w = ts[tid].waited;
	ts[tid].waited = 0;
	return w;
}

Bool threads_answer(ThreadId tid, UWord sysno, const UWord a[6], ULong *res, Bool *park)
{
	if (!clo.clock_virtual || tid >= VG_N_THREADS)
		return False;
	switch (sysno) {
	case __NR_futex:
		return futex(tid, a, res, park);
	case __NR_sched_yield:
		pass_turn(tid);
		*res = 0;
		return True;
	case __NR_nanosleep:
	case __NR_clock_nanosleep:
		return sleep_wait(tid, sysno, a, res, park);
	default:
		return False;
	}
}
