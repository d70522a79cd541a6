/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * bm-engine: bm's own Valgrind tool, counting callgrind's events (with
 * its cache simulation) for the regions bm-run measures, and callgrind's
 * call graph.  See docs/engine.md.
 *
 * The tool's glue: its start (from its settings, settings.h), callgrind's
 * client requests, system calls, threads, signals and forks. */
#include "blockcost.h"
#include "branchsim.h"
#include "cachesim.h"
#include "callgraph.h"
#include "costs.h"
#include "cpu.h"
#include "dumps.h"
#include "heap.h"
#include "host_state.h"
#include "instrument.h"
#include "layout.h"
#include "prefetch.h"
#include "guest.h"
#include "settings.h"
#include "threads.h"
#include "timers.h"
#include "vclock.h"

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_transtab.h"

#include "callgrind.h"

#include "pub_tool_vkiscnums.h"

/* Each thread's system call in progress: when it began, by the wall and
 * the thread's CPU clocks (another thread may run while one blocks). */
static ULong *sys_wall_start, *sys_cpu_start; /* VG_N_THREADS each */


static void print_debug_usage(void)
{
}

static ULong clock_ns(Int clock)
{
	struct vki_timespec ts;
	VG_(clock_gettime)(&ts, clock);
	return (ULong)ts.tv_sec * 1000000000ULL + (ULong)ts.tv_nsec;
}

/* A call the virtual clock answers is counted without its time: the
 * kernel's, in Valgrind's wrapper, is not what the program sees (natively
 * the vDSO answers it in nanoseconds), and the four readings it takes
 * would cost more than the call (suites such as Catch2 read the clock
 * millions of times). */
static Bool clock_answers(UInt sysno)
{
	return clo.clock_virtual && vclock_answers(sysno);
}

static void pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	(void)nargs;
	layout_pre_syscall(sysno);
	threads_pre_syscall(tid, sysno, args);
	if (clo.clock_virtual)
		vclock_pre_syscall(tid, sysno, args);
	/* A thread's (or the process's) last superblock, which ends in its
	 * exit call, is never committed: it never starts another.  Nor is a
	 * signal handler's, which ends in rt_sigreturn: callgrind drops the
	 * handler's state when the signal's delivery ends. */
	if ((sysno == __NR_exit_group || sysno == __NR_exit || sysno == __NR_rt_sigreturn) &&
	    engine_instrumenting) {
		if (sysno == __NR_rt_sigreturn)
			callgraph_signal_return(tid);
		struct sb *last = sb_find(VG_(get_IP)(tid));
		callgraph_settle();
		if (last)
			sb_apply(last, -1);
	}
	if (!clo.systime || !engine_instrumenting || clock_answers(sysno))
		return;
	sys_wall_start[tid] = clock_ns(VKI_CLOCK_MONOTONIC);
	sys_cpu_start[tid] = clock_ns(VKI_CLOCK_THREAD_CPUTIME_ID);
}

/* A system call of the running thread, which returns to ip (past the
 * 2-byte syscall), in the counts. */
static void count_syscall(Addr ip, ULong wall, ULong cpu)
{
	struct instr *i = instr_find(ip - 2);
	if (!i)
		i = instr_find(ip);
	/* Charged to the function the call graph says is running, as
	 * callgrind charges the block that made the call. */
	const struct fn *now = callgraph_current(place_of(ip)->fn);
	i = i ? instr_for(i, now) : instr_get(ip, 0, now);
	i->cost[EV_SYSCOUNT]++;
	i->cost[EV_SYSTIME] += wall;
	i->cost[EV_SYSCPUTIME] += cpu;
	engine_total[EV_SYSCOUNT]++;
	engine_total[EV_SYSTIME] += wall;
	engine_total[EV_SYSCPUTIME] += cpu;
}

static void post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	(void)nargs;
	layout_post_syscall(sysno);
	threads_post_syscall(tid, sysno);
	if (clo.clock_virtual) {
		vclock_post_syscall(tid, sysno, args, res);
		host_state_post_syscall(tid, sysno, args, res);
		timers_post_syscall(sysno, args, res);
	}
	if (clo.heap && engine_instrumenting)
		heap_after_syscall(sysno, args, res);
	/* The exit calls end the process (Valgrind still calls this for the
	 * one that ends it); callgrind does not count them. */
	if (!clo.systime || !engine_instrumenting || sysno == __NR_exit_group || sysno == __NR_exit)
		return;
	ULong wall = 0, cpu = 0;
	if (!clock_answers(sysno)) {
		wall = clock_ns(VKI_CLOCK_MONOTONIC) - sys_wall_start[tid];
		cpu = clock_ns(VKI_CLOCK_THREAD_CPUTIME_ID) - sys_cpu_start[tid];
	}
	/* The guest's instruction pointer is past the 2-byte syscall. */
	count_syscall(VG_(get_IP)(tid), wall, cpu);
}

/* epoll_pwait2 (Linux 5.11), which Valgrind 3.19 lacks (ENOSYS): the
 * kernel gets it as epoll_pwait, its timeout rounded up to milliseconds. */
#define EPOLL_PWAIT2 441
static void as_epoll_pwait(VexGuestAMD64State *gst)
{
	Long ms = -1;
	if (gst->guest_R10) {
		if (!guest_may(gst->guest_R10, sizeof(struct vki_timespec), VKI_PROT_READ))
			return; /* ENOSYS stands: the kernel's EFAULT is not to be had */
		const struct vki_timespec *t = (const struct vki_timespec *)gst->guest_R10;
		ms = t->tv_sec < 0 ? 0 : (Long)t->tv_sec * 1000 + (t->tv_nsec + 999999) / 1000000;
		if (ms > 0x7fffffff)
			ms = 0x7fffffff;
	}
	gst->guest_RAX = __NR_epoll_pwait;
	gst->guest_R10 = (ULong)ms;
}

ULong engine_syscall_in_guest(VexGuestAMD64State *gst, Addr after)
{
	if (gst->guest_RAX == EPOLL_PWAIT2) {
		as_epoll_pwait(gst);
		return ENGINE_TO_KERNEL;
	}
	ThreadId tid = VG_(get_running_tid)();
	UWord sysno = gst->guest_RAX;
	const UWord a[6] = {gst->guest_RDI, gst->guest_RSI, gst->guest_RDX, gst->guest_R10, gst->guest_R8, gst->guest_R9};
	ULong res;
	Bool park = False;
	if (timers_answer(tid, sysno, a, &res, &park) || threads_answer(tid, sysno, a, &res, &park)) {
		if (park)
			return ENGINE_PARK;
	} else if (!vclock_answer(tid, sysno, a[0], a[1], &res) && !host_state_answer(tid, sysno, a, &res)) {
		return ENGINE_TO_KERNEL;
	}
	/* Counted as the kernel's answer would be; its time is the virtual
	 * clock's, for a wait (a sleep's, a timed out futex's), else none. */
	ULong waited = threads_waited(tid);
	if (clo.systime && engine_instrumenting)
		count_syscall(after, waited, 0);
	return res;
}

static void set_instrumenting(Bool on)
{
	if (on == engine_instrumenting)
		return;
	engine_instrumenting = on;
	/* Calls in progress end here (their costs so far count), as
	 * callgrind's call stacks are unwound. */
	callgraph_unwind_all();
	/* Every translation is made again, with or without the counting
	 * calls; the caches start empty, as callgrind's do. */
	VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "bm-engine");
	if (on) {
		sim_clear();
		branch_clear();
	}
}

static Bool client_request(ThreadId tid, UWord *args, UWord *ret)
{
	if (!VG_IS_TOOL_USERREQ('C', 'T', args[0]))
		return False;
	/* What waits to move moves before anything below reads the counts
	 * (no client code runs until this request returns). */
	callgraph_settle();
	/* The superblock that ends in this request is not committed yet (as
	 * callgrind counts): out of what is dumped, zeroed or stopped now;
	 * back after a dump or zeroing, for the next part. */
	struct sb *pending = engine_instrumenting ? sb_find(VG_(get_IP)(tid)) : NULL;
	if (pending)
		sb_apply(pending, -1);
	if (args[0] == VG_USERREQ__STOP_INSTRUMENTATION || args[0] == VG_USERREQ__START_INSTRUMENTATION)
		pending = NULL;
	switch (args[0]) {
	case VG_USERREQ__DUMP_STATS:
		dumps_write("Client Request", NULL);
		break;
	case VG_USERREQ__DUMP_STATS_AT:
		dumps_write("Client Request", (const HChar *)args[1]);
		break;
	case VG_USERREQ__ZERO_STATS:
		dumps_zero();
		break;
	case VG_USERREQ__START_INSTRUMENTATION:
		set_instrumenting(True);
		break;
	case VG_USERREQ__STOP_INSTRUMENTATION:
		set_instrumenting(False);
		break;
	case VG_USERREQ__TOGGLE_COLLECT:
	default:
		VG_(umsg)("bm-engine: client request 0x%lx is not supported\n", args[0]);
		if (pending)
			sb_apply(pending, 1);
		return False;
	}
	if (pending)
		sb_apply(pending, 1);
	*ret = 0;
	return True;
}

/* Valgrind keeps one function per tracked event: the thread switches
 * reach the call graph (first: its totals become the running thread's)
 * and the virtual clock from here. */
static void start_client_code(ThreadId tid, ULong blocks)
{
	callgraph_thread_start(tid);
	vclock_thread_start(tid);
	threads_start(tid, blocks);
}

static void stop_client_code(ThreadId tid, ULong blocks)
{
	vclock_thread_stop(tid);
	threads_stop(tid, blocks);
}

static void thread_created(ThreadId parent, ThreadId child)
{
	vclock_thread_created(child);
	threads_created(parent, child);
}

static void thread_exiting(ThreadId tid)
{
	threads_exiting(tid);
}

static void pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
	(void)sig, (void)alt_stack;
	callgraph_signal_start(tid);
}

static void post_deliver_signal(ThreadId tid, Int sig)
{
	(void)sig;
	callgraph_signal_end(tid);
}

/* A forked child (without exec) goes on under the engine and writes a
 * file of its own: it counts from the fork, so that each process's file
 * holds what that process executed and the files of a program's processes
 * add up (callgrind's children count their parent's costs up to the fork
 * again).  Its caches and predictor stay as the parent left them, as a
 * child's share the core's.  The fork's own time in the child counts from
 * here: its thread's CPU clock starts at zero. */
static void at_fork_child(ThreadId tid)
{
	dumps_at_fork();
	if (clo.clock_virtual) {
		vclock_at_fork_child(tid);
		timers_at_fork_child();
	}
	if (!engine_instrumenting)
		return;
	callgraph_settle();
	dumps_zero();
	sys_wall_start[tid] = clock_ns(VKI_CLOCK_MONOTONIC);
	sys_cpu_start[tid] = clock_ns(VKI_CLOCK_THREAD_CPUTIME_ID);
}

static void post_clo_init(void)
{
	/* Callgrind's translation settings: superblocks end at every branch
	 * and are not unrolled, and only the stack pointer is exact at memory
	 * accesses.  Where blocks end decides which loads the optimiser
	 * deletes and which block a request's pending costs belong to, so
	 * these are part of counting what callgrind counts. */
	VG_(clo_vex_control).iropt_register_updates_default = VG_(clo_px_file_backed) =
		VexRegUpdSpAtMemAccess;
	VG_(clo_vex_control).iropt_unroll_thresh = 0;
	VG_(clo_vex_control).guest_chase = False;
	engine_instrumenting = clo.instr_atstart;
	const HChar *why;
	/* (fmsg_bad_option would not end the run once the options are read.) */
	if (!sim_init(&clo.i1, &clo.d1, &clo.ll, &why) || (clo.l2 && !sim_init_l2(&clo.l2_geometry, &why))) {
		VG_(fmsg)("--I1/--D1/--L2/--LL: %s\n", why);
		VG_(exit)(1);
	}
	if ((why = cpu_cannot(&clo.i1, &clo.d1, clo.l2 ? &clo.l2_geometry : NULL, &clo.ll))) {
		VG_(fmsg)("--cpu=x86-64-v3: %s\n", why);
		VG_(exit)(1);
	}
	/* An L1 set lies within a page only where a way is at most a page:
	 * otherwise L1 too would have to look up canonical addresses. */
	if (clo.layout_canonical && (clo.i1.size / clo.i1.assoc > 4096 || clo.d1.size / clo.d1.assoc > 4096)) {
		VG_(fmsg)("--layout=canonical: a way of I1 or D1 larger than a page (size / assoc > 4096)\n");
		VG_(exit)(1);
	}
	layout_init(clo.layout_canonical);
	engine_i1_line_bits = 0;
	while ((1 << engine_i1_line_bits) < clo.i1.line)
		engine_i1_line_bits++;
	instr_table_init();
	branch_clear();
	events_enable(clo.branch_sim, clo.l2, clo.block_cost, clo.heap);
	block_cost_core(clo.core >= CORE_BM_MODEL_3, clo.core >= CORE_BM_MODEL_4);
	if (clo.core >= CORE_BM_MODEL_4)
		prefetch_init();
	callgraph_init();
	vclock_init();
	threads_init(timers_next_wall, timers_fire);
	sys_wall_start = VG_(calloc)("bm.sys", VG_N_THREADS, sizeof *sys_wall_start);
	sys_cpu_start = VG_(calloc)("bm.sys", VG_N_THREADS, sizeof *sys_cpu_start);
	dumps_init();
	VG_(atfork)(NULL, NULL, at_fork_child);
	VG_(track_start_client_code)(start_client_code);
	VG_(track_stop_client_code)(stop_client_code);
	VG_(track_pre_thread_ll_create)(thread_created);
	VG_(track_pre_thread_ll_exit)(thread_exiting);
	VG_(track_pre_deliver_signal)(pre_deliver_signal);
	VG_(track_post_deliver_signal)(post_deliver_signal);
}

static void fini(Int exitcode)
{
	(void)exitcode;
	dumps_final();
}

static void pre_clo_init(void)
{
	VG_(details_name)("bm");
	VG_(details_version)(NULL);
	VG_(details_description)("callgrind's events and call graph for bm");
	VG_(details_copyright_author)("Copyright (C) 2026 the bm authors; GPL-2.0-or-later");
	VG_(details_bug_reports_to)("the bm project");
	VG_(details_avg_translation_sizeB)(500);
	VG_(basic_tool_funcs)(post_clo_init, engine_instrument, fini);
	VG_(needs_command_line_options)(settings_option, settings_usage, print_debug_usage);
	VG_(needs_client_requests)(client_request);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
