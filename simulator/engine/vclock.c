/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "vclock.h"

#include "callgraph.h"
#include "guest.h"
#include "settings.h"

#include "libvex_guest_amd64.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

ULong vclock_ticks;

/* The clock counts in hundredths of a cycle ("centi"): outside the
 * measured region 100 per instruction (vclock_ticks); inside it the
 * events the translations and helpers count (the running thread's in
 * engine_total, callgraph.c), each weighed by --clock-cost, so that it
 * advances with the cost model's cycles. */

/* Fixed instants: REALTIME starts at 2020-01-01T00:00:00Z, before any
 * host's now, so that a sleep until an absolute virtual time the kernel
 * sees as past returns at once (and the clock moves to it); MONOTONIC
 * at 1 s, below any host's uptime, for the same reason. */
#define REALTIME_START_NS (VCLOCK_REALTIME_START_S * 1000000000ULL)
#define MONOTONIC_START_NS 1000000000ULL
#define TAI_OFFSET_NS (37ULL * 1000000000ULL)

/* Linux's clock ids and flags beyond the four Valgrind's headers name. */
enum {
	CLOCK_MONOTONIC_RAW = 4, CLOCK_REALTIME_COARSE = 5, CLOCK_MONOTONIC_COARSE = 6, CLOCK_BOOTTIME = 7,
	CLOCK_REALTIME_ALARM = 8, CLOCK_BOOTTIME_ALARM = 9, CLOCK_TAI = 11,
};
#define TIMER_ABSTIME 1
/* epoll_pwait2 (Linux 5.11), which Valgrind 3.19's headers lack. */
#define EPOLL_PWAIT2 441

/* What one reading of the time costs the wall clocks (not the CPU
 * clocks, which count the program's cycles only): natively a reading
 * takes 20 to 50 ns through the vDSO and 0.1 to 1 us as a system call,
 * which is what every reading is under Valgrind.  A suite that calibrates
 * by reading the clock until some time has passed (Catch2 reads it for
 * over a second of virtual time before its first benchmark) would
 * otherwise read it hundreds of millions of times at a few nanoseconds
 * each: docs/engine.md. */
#define READING_NS 1000ULL

/* The wall clocks' part beyond the cycles, in nanoseconds: what the
 * program slept or waited until a timeout, and its readings of the time
 * (READING_NS each). */
static ULong off_cpu_ns;
/* The cycles (centi) of every thread's finished run slices, and where the
 * process's CPU clock starts (a forked child's at the fork). */
static ULong done_centi, process_start_centi;
/* Each thread's cycles in the run slices it finished, and the slice in
 * progress: threads run one at a time under Valgrind.  A slice starts at
 * a tick count and at a weighed sum of the running thread's events. */
static ULong *thread_centi; /* VG_N_THREADS */
static ThreadId running;
static ULong slice_ticks;
static Long slice_events;
/* A timed wait's timeout, read before the call (the kernel may change
 * it), added when the call timed out. */
static ULong *pending_wait_ns; /* VG_N_THREADS */

/* The running thread's events so far, weighed (centi). */
static Long weighed_events(void)
{
	Long sum = 0;
	for (Int e = 0; e < EV_SYSCOUNT; e++)
		if (clo.clock_cost[e])
			sum += clo.clock_cost[e] * (Long)engine_total[e];
	return sum;
}

/* The slice in progress (0 when no thread runs). */
static ULong slice_centi(void)
{
	if (running == VG_INVALID_THREADID)
		return 0;
	Long c = (Long)(vclock_ticks - slice_ticks) * 100 + weighed_events() - slice_events;
	return c > 0 ? (ULong)c : 0;
}

static ULong total_centi(void)
{
	return done_centi + slice_centi();
}

/* Hundredths of a cycle at clock_hz (at most 10^11) as nanoseconds:
 * c * 10^9 / (100 * hz), without overflowing 64 bits. */
static ULong centi_to_ns(ULong c)
{
	ULong hz = clo.clock_hz;
	return c / hz * 10000000ULL + c % hz * 10000000ULL / hz;
}

/* The wall clocks' time since their start: the cycles, and off_cpu_ns. */
static ULong wall_ns(void)
{
	return centi_to_ns(total_centi()) + off_cpu_ns;
}

static ULong process_cpu_ns(void)
{
	return centi_to_ns(total_centi() - process_start_centi);
}

static ULong thread_now(ThreadId tid)
{
	return thread_centi[tid] + (running == tid ? slice_centi() : 0);
}

void vclock_thread_start(ThreadId tid)
{
	if (!clo.clock_virtual)
		return;
	running = tid;
	slice_ticks = vclock_ticks;
	slice_events = weighed_events();
}

void vclock_thread_stop(ThreadId tid)
{
	if (!clo.clock_virtual || running != tid)
		return;
	ULong c = slice_centi();
	thread_centi[tid] += c;
	done_centi += c;
	running = VG_INVALID_THREADID;
}

void vclock_thread_created(ThreadId child)
{
	if (clo.clock_virtual)
		thread_centi[child] = 0;
}

/* Clock id's time in nanoseconds for thread tid, or False for an id it
 * does not know (the kernel's answer stays). */
static Bool now_ns(Int id, ThreadId tid, ULong *ns)
{
	ULong wall = wall_ns();
	switch (id) {
	case VKI_CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_REALTIME_ALARM:
		*ns = REALTIME_START_NS + wall;
		return True;
	case CLOCK_TAI:
		*ns = REALTIME_START_NS + TAI_OFFSET_NS + wall;
		return True;
	case VKI_CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
	case CLOCK_BOOTTIME_ALARM:
		*ns = MONOTONIC_START_NS + wall;
		return True;
	case VKI_CLOCK_PROCESS_CPUTIME_ID:
		*ns = process_cpu_ns();
		return True;
	case VKI_CLOCK_THREAD_CPUTIME_ID:
		*ns = centi_to_ns(thread_now(tid));
		return True;
	default:
		/* Another process's or thread's CPU clock (negative ids). */
		if (id < 0) {
			*ns = process_cpu_ns();
			return True;
		}
		return False;
	}
}

Bool vclock_now(Int clock, ThreadId tid, ULong *ns)
{
	return now_ns(clock, tid, ns);
}

void vclock_wait_until(ULong monotonic_ns)
{
	ULong now = vclock_monotonic_ns();
	if (monotonic_ns > now)
		off_cpu_ns += monotonic_ns - now;
}

ULong vclock_monotonic_ns(void)
{
	return MONOTONIC_START_NS + wall_ns();
}

/* A wait's timeout (0: none readable; used only where the kernel took it). */
static ULong timespec_ns(Addr a)
{
	ULong ns;
	return guest_read_timespec(a, &ns) ? ns : 0;
}

/* select's, whose tv_usec the kernel carries over past a second. */
static ULong timeval_ns(Addr a)
{
	if (!guest_may(a, sizeof(struct vki_timeval), VKI_PROT_READ))
		return 0;
	const struct vki_timeval *tv = (const struct vki_timeval *)a;
	return tv->tv_sec < 0 || tv->tv_usec < 0 ? 0 : (ULong)tv->tv_sec * 1000000000ULL + (ULong)tv->tv_usec * 1000;
}

/* Whether the guest may write len bytes at a, or a is NULL. */
static Bool may_write(Addr a, SizeT len)
{
	return !a || guest_may(a, len, VKI_PROT_WRITE);
}

Bool vclock_answer(ThreadId tid, UWord sysno, UWord a0, UWord a1, ULong *res)
{
	ULong ns;
	switch (sysno) {
	case __NR_clock_gettime:
		if (!a1 || !may_write(a1, sizeof(struct vki_timespec)) || !now_ns((Int)a0, tid, &ns))
			return False;
		guest_put_timespec(a1, ns);
		*res = 0;
		break;
	case __NR_gettimeofday:
		if (!may_write(a0, sizeof(struct vki_timeval)) || !may_write(a1, sizeof(struct vki_timezone)))
			return False;
		now_ns(VKI_CLOCK_REALTIME, tid, &ns);
		guest_put_timeval(a0, ns);
		if (a1) /* UTC, no daylight saving time: as TZ */
			*(struct vki_timezone *)a1 = (struct vki_timezone){0, 0};
		*res = 0;
		break;
	case __NR_time:
		if (!may_write(a0, sizeof(vki_time_t)))
			return False;
		now_ns(VKI_CLOCK_REALTIME, tid, &ns);
		*res = ns / 1000000000ULL;
		if (a0)
			*(vki_time_t *)a0 = (vki_time_t)*res;
		break;
	default:
		return False;
	}
	off_cpu_ns += READING_NS;
	return True;
}

void vclock_pre_syscall(ThreadId tid, UInt sysno, const UWord *args)
{
	ULong wait = 0;
	switch (sysno) {
	case __NR_poll:
	case __NR_epoll_wait:
	case __NR_epoll_pwait: {
		/* A timeout in milliseconds; negative: none. */
		Long ms = (Long)(Int)args[sysno == __NR_poll ? 2 : 3];
		wait = ms > 0 ? (ULong)ms * 1000000ULL : 0;
		break;
	}
	case __NR_ppoll:
		wait = timespec_ns(args[2]);
		break;
	case __NR_select:
		wait = timeval_ns(args[4]);
		break;
	case __NR_pselect6:
		wait = timespec_ns(args[4]);
		break;
	case __NR_rt_sigtimedwait:
		wait = timespec_ns(args[2]);
		break;
	case EPOLL_PWAIT2:
		wait = timespec_ns(args[3]);
		break;
	default:
		break;
	}
	pending_wait_ns[tid] = wait;
}

void vclock_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res)
{
	/* A sigtimedwait that timed out waited its timeout. */
	if (sysno == __NR_rt_sigtimedwait && sr_isError(res) && sr_Err(res) == VKI_EAGAIN)
		off_cpu_ns += pending_wait_ns[tid];
	if (sr_isError(res))
		return;
	/* (clock_gettime, gettimeofday and time come here only where
	 * vclock_answer left them to the kernel, whose answer stands.) */
	ULong ns;
	switch (sysno) {
	case __NR_times: {
		/* In clock ticks of 1/100 s (sysconf(_SC_CLK_TCK) on Linux). */
		ULong cpu = process_cpu_ns() / 10000000ULL;
		if (guest_may(args[0], sizeof(struct vki_tms), VKI_PROT_WRITE)) {
			struct vki_tms *t = (struct vki_tms *)args[0];
			t->tms_utime = (vki_clock_t)cpu;
			t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
		}
		now_ns(VKI_CLOCK_MONOTONIC, tid, &ns);
		guest_set_result(tid, ns / 10000000ULL);
		break;
	}
	case __NR_getrusage: {
		/* struct rusage begins with ru_utime and ru_stime (timevals). */
		Long who = (Long)args[0];
		ULong user = who == 0	 ? process_cpu_ns()			     /* RUSAGE_SELF */
			     : who == 1 ? centi_to_ns(thread_now(tid))		     /* RUSAGE_THREAD */
					: 0;					     /* RUSAGE_CHILDREN */
		guest_put_timeval(args[1], user);
		guest_put_timeval(args[1] + sizeof(struct vki_timeval), 0);
		break;
	}
	case __NR_nanosleep:
		off_cpu_ns += timespec_ns(args[0]);
		break;
	case __NR_clock_nanosleep:
		if (args[1] & TIMER_ABSTIME) {
			ULong target = timespec_ns(args[2]);
			if (now_ns((Int)args[0], tid, &ns) && target > ns && (Int)args[0] != VKI_CLOCK_PROCESS_CPUTIME_ID &&
			    (Int)args[0] != VKI_CLOCK_THREAD_CPUTIME_ID)
				off_cpu_ns += target - ns;
		} else {
			off_cpu_ns += timespec_ns(args[2]);
		}
		break;
	case __NR_poll:
	case __NR_ppoll:
	case __NR_select:
	case __NR_pselect6:
	case __NR_epoll_wait:
	case __NR_epoll_pwait:
	case EPOLL_PWAIT2:
		if (!sr_isError(res) && sr_Res(res) == 0) /* timed out */
			off_cpu_ns += pending_wait_ns[tid];
		break;

	default:
		break;
	}
}

Bool vclock_answers(UInt sysno)
{
	return sysno == __NR_clock_gettime || sysno == __NR_gettimeofday || sysno == __NR_time ||
	       sysno == __NR_times || sysno == __NR_getrusage;
}

/* rdtsc: the cycles so far; rdtscp also sets TSC_AUX (rcx) to 0. */
/* The clock advances with whole superblocks' counts, so two readings in
 * one block would read the same: each reads at least one cycle more than
 * the one before (a calibration divides by their difference). */
static ULong tsc_read;

static ULong next_tsc(void)
{
	ULong now = total_centi() / 100;
	tsc_read = now > tsc_read ? now : tsc_read + 1;
	return tsc_read;
}

static ULong virtual_rdtsc(void)
{
	return next_tsc();
}

/* VEX's rdtscp helper writes rdx:rax and rcx itself (it returns
 * nothing): so does this one. */
static void virtual_rdtscp(VexGuestAMD64State *st)
{
	ULong tsc = next_tsc();
	st->guest_RAX = tsc & 0xffffffffULL;
	st->guest_RDX = tsc >> 32;
	st->guest_RCX = 0;
}

void vclock_fix_tsc(IRDirty *d)
{
	if (!clo.clock_virtual)
		return;
	if (VG_(strcmp)(d->cee->name, "amd64g_dirtyhelper_RDTSC") == 0)
		d->cee = mkIRCallee(0, "bm_virtual_rdtsc", VG_(fnptr_to_fnentry)(virtual_rdtsc));
	else if (VG_(strcmp)(d->cee->name, "amd64g_dirtyhelper_RDTSCP") == 0)
		d->cee = mkIRCallee(0, "bm_virtual_rdtscp", VG_(fnptr_to_fnentry)(virtual_rdtscp));
}

void vclock_count_block(IRSB *sb, UInt ninstrs)
{
	if (!clo.clock_virtual || !ninstrs)
		return;
	IRTemp old = newIRTemp(sb->tyenv, Ity_I64), sum = newIRTemp(sb->tyenv, Ity_I64);
	IRExpr *addr = mkIRExpr_HWord((HWord)&vclock_ticks);
	addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
	addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
							 IRExpr_Const(IRConst_U64(ninstrs)))));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&vclock_ticks), IRExpr_RdTmp(sum)));
}

void vclock_at_fork_child(ThreadId tid)
{
	/* The child goes on in the slice the fork began in. */
	done_centi += slice_centi();
	process_start_centi = done_centi;
	thread_centi[tid] = 0;
	vclock_thread_start(tid);
}

void vclock_restart(ThreadId tid)
{
	if (!clo.clock_virtual)
		return;
	done_centi = process_start_centi = 0;
	off_cpu_ns = 0;
	tsc_read = 0;
	for (UInt t = 0; t < VG_N_THREADS; t++)
		thread_centi[t] = 0;
	vclock_thread_start(tid);
}

void vclock_init(void)
{
	if (!clo.clock_virtual)
		return;
	thread_centi = VG_(calloc)("bm.vclock", VG_N_THREADS, sizeof *thread_centi);
	pending_wait_ns = VG_(calloc)("bm.vclock", VG_N_THREADS, sizeof *pending_wait_ns);
	running = VG_INVALID_THREADID;
}
