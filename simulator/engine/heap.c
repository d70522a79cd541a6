/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * --heap=yes: see heap.h.
 *
 * Notes (the assumptions, each with its reason):
 *
 * - The allocator is the program's own, never replaced (DHAT and memcheck
 *   replace it): every instruction it runs is counted as without --heap,
 *   so the cycles and events stay those of a run without it.  What the
 *   engine adds is a helper call at the allocation functions' entries and
 *   a look at every return, which run no guest code.
 * - A function is one by its name at its first instruction (malloc,
 *   calloc, realloc, memalign, aligned_alloc, valloc, pvalloc,
 *   posix_memalign, free and their __libc_ names; C++'s operator new and
 *   delete in every form, mangled or not, but placement new and delete,
 *   which allocate nothing), so that a program's own allocator under
 *   those names (jemalloc linked in, say) is counted the same way.
 * - The call ends at the first return whose stack pointer is above the
 *   one at the entry: a tail call (malloc jumping into another function)
 *   ends where that one returns.  It returned, and RAX is its result,
 *   only if that return goes to the call's return address (read at the
 *   entry); any other left its frame by unwinding (operator new throwing
 *   bad_alloc, whose unwinder returns to the catch's landing pad, with
 *   the stack pointer of a return from new where new's caller catches)
 *   or a longjmp, and allocated nothing.  Calls made within it are not
 *   counted (realloc's call of malloc, operator new's of malloc, the
 *   exception new throws), and a pending call whose end was never seen
 *   (a longjmp out of it, which returns nowhere) is dropped at the next
 *   entry from the same or an outer frame.
 * - The guest's memory is read only where guest_may allows it: a
 *   program's own allocator may return without writing what glibc's
 *   writes, and under --heap the program runs exactly as without.
 * - Beside the blocks, what the allocator took from the kernel: the break
 *   moved up (brk) and anonymous memory mapped (mmap), but for threads'
 *   stacks (MAP_STACK) and PROT_NONE reservations (glibc reserves 64 MB
 *   per thread arena so and makes it usable piece by piece with mprotect,
 *   which is not counted); what is given back is not taken off.
 * - A block is known from its allocation to its free while the engine
 *   instruments (outside a region, libbm's setup, nothing is seen): a
 *   free of a block it does not know changes nothing, and the peak and
 *   leaks of a dump are those of the blocks allocated since its zero.
 *   Within one process; each forked process counts its own.
 */
#include "heap.h"

#include "callgraph.h"
#include "costs.h"
#include "guest.h"

#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "libvex_guest_offsets.h"

enum heap_kind {
	HEAP_MALLOC,         /* size in the first argument (and new) */
	HEAP_CALLOC,         /* count and size */
	HEAP_REALLOC,        /* block and size */
	HEAP_MEMALIGN,       /* alignment and size */
	HEAP_POSIX_MEMALIGN, /* where the block goes, alignment and size */
	HEAP_FREE,           /* the block (and delete) */
};

static const struct {
	const HChar *name;
	enum heap_kind kind;
} heap_names[] = {
	{"malloc", HEAP_MALLOC},        {"__libc_malloc", HEAP_MALLOC},   {"valloc", HEAP_MALLOC},
	{"__libc_valloc", HEAP_MALLOC}, {"pvalloc", HEAP_MALLOC},         {"__libc_pvalloc", HEAP_MALLOC},
	{"calloc", HEAP_CALLOC},        {"__libc_calloc", HEAP_CALLOC},   {"realloc", HEAP_REALLOC},
	{"__libc_realloc", HEAP_REALLOC}, {"memalign", HEAP_MEMALIGN},    {"__libc_memalign", HEAP_MEMALIGN},
	{"aligned_alloc", HEAP_MEMALIGN}, {"posix_memalign", HEAP_POSIX_MEMALIGN},
	{"free", HEAP_FREE},            {"__libc_free", HEAP_FREE},       {"cfree", HEAP_FREE},
};

static Bool starts(const HChar *s, const HChar *prefix)
{
	return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

/* The allocation function called name, in *kind. */
static Bool heap_kind_of(const HChar *name, enum heap_kind *kind)
{
	for (UInt k = 0; k < sizeof heap_names / sizeof heap_names[0]; k++)
		if (VG_(strcmp)(name, heap_names[k].name) == 0) {
			*kind = heap_names[k].kind;
			return True;
		}
	/* C++: placement new and delete (a pointer after the size) take
	 * nothing from the allocator. */
	Bool placement = VG_(strstr)(name, "void*)") && !starts(name, "operator delete(void*)") &&
			 !starts(name, "operator delete[](void*)");
	if (starts(name, "_ZnwmPv") || starts(name, "_ZnamPv") || starts(name, "_ZdlPvS_") ||
	    starts(name, "_ZdaPvS_") || placement)
		return False;
	if (starts(name, "operator new") || starts(name, "_Znw") || starts(name, "_Zna")) {
		*kind = HEAP_MALLOC;
		return True;
	}
	if (starts(name, "operator delete") || starts(name, "_Zdl") || starts(name, "_Zda")) {
		*kind = HEAP_FREE;
		return True;
	}
	return False;
}

/* ---- the calls in progress: one per thread, the outermost ---- */

struct heap_call {
	Bool active;
	enum heap_kind kind;
	ULong arg[3];
	Addr sp;            /* at the entry: the return address's slot */
	Addr ret;           /* the return address: a return there ends it */
	Int depth;          /* the call graph's then (its frame is the top) */
	struct instr *site; /* the entry's record in the call's context */
};
static struct heap_call *calls; /* by ThreadId */

static struct heap_call *call_of_running_thread(void)
{
	if (!calls)
		calls = VG_(calloc)("bm.heap.calls", VG_N_THREADS, sizeof *calls);
	return &calls[VG_(get_running_tid)()];
}

UInt heap_calls;

static VG_REGPARM(0) void heap_enter(ULong kind, struct instr *first, ULong a0, ULong a1, ULong a2, Addr sp)
{
	struct heap_call *c = call_of_running_thread();
	if (c->active && sp < c->sp)
		return; /* within an allocation function's call */
	if (!guest_may(sp, sizeof(Addr), VKI_PROT_READ))
		return; /* no return address: the call cannot return */
	if (!c->active)
		heap_calls++;
	*c = (struct heap_call){True, (enum heap_kind)kind, {a0, a1, a2}, sp, *(const Addr *)sp, callgraph_depth(),
				instr_for(first, callgraph_current(NULL))};
}

void heap_at_entry(IRSB *sb, struct instr *first)
{
	const HChar *name;
	enum heap_kind kind;
	if (!VG_(get_fnname)(VG_(current_DiEpoch)(), first->addr, &name) || !heap_kind_of(name, &kind))
		return;
	static const Int regs[4] = {OFFSET_amd64_RDI, OFFSET_amd64_RSI, OFFSET_amd64_RDX, OFFSET_amd64_RSP};
	IRExpr *reg[4];
	for (Int k = 0; k < 4; k++) {
		IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
		addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Get(regs[k], Ity_I64)));
		reg[k] = IRExpr_RdTmp(t);
	}
	IRExpr **args = mkIRExprVec_6(mkIRExpr_HWord(kind), mkIRExpr_HWord((HWord)first), reg[0], reg[1], reg[2], reg[3]);
	IRDirty *di = unsafeIRDirty_0_N(0, "heap_enter", VG_(fnptr_to_fnentry)(heap_enter), args);
	addStmtToIRSB(sb, IRStmt_Dirty(di));
}

/* ---- the blocks ---- */

struct block_info {
	struct block_info *next; /* VgHashNode, keyed by */
	Addr addr;
	ULong size;
	UInt epoch; /* of the dump part it was allocated in */
};
static VgHashTable *blocks;
static struct block_info *spare; /* freed records, for the next blocks */
static UInt epoch;
static struct heap_part part;

/* The block at p is gone: freed (counted), or found replaced by a new
 * one where the engine did not see its free. */
static void forget(Addr p, Bool counted)
{
	struct block_info *b = p && blocks ? VG_(HT_remove)(blocks, p) : NULL;
	if (!b)
		return;
	if (counted) {
		part.freed_bytes += b->size;
		part.freed_blocks++;
	}
	if (b->epoch == epoch) {
		part.live_bytes -= b->size;
		part.live_blocks--;
	}
	b->next = spare;
	spare = b;
}

static void allocated(Addr p, ULong size, const struct heap_call *c)
{
	if (!p)
		return;
	if (!size)
		size = 1; /* as DHAT counts it */
	if (!blocks)
		blocks = VG_(HT_construct)("bm.heap");
	forget(p, False);
	struct block_info *b = spare;
	if (b)
		spare = b->next;
	else
		b = VG_(malloc)("bm.heap.block", sizeof *b);
	*b = (struct block_info){NULL, p, size, epoch};
	VG_(HT_add_node)(blocks, b);
	part.live_bytes += size;
	part.live_blocks++;
	if (part.live_bytes > part.peak_bytes)
		part.peak_bytes = part.live_bytes;
	if (c->site) {
		c->site->cost[EV_ALLOC_COUNT]++;
		c->site->cost[EV_ALLOC_BYTES] += size;
	}
	ULong delta[EV_COUNT] = {[EV_ALLOC_COUNT] = 1, [EV_ALLOC_BYTES] = size};
	engine_total[EV_ALLOC_COUNT]++;
	engine_total[EV_ALLOC_BYTES] += size;
	callgraph_charge_at(c->depth, delta);
}

static void ended(const struct heap_call *c, ULong result)
{
	switch (c->kind) {
	case HEAP_MALLOC:
		allocated(result, c->arg[0], c);
		break;
	case HEAP_CALLOC:
		allocated(result, c->arg[0] * c->arg[1], c);
		break;
	case HEAP_MEMALIGN:
		allocated(result, c->arg[1], c);
		break;
	case HEAP_POSIX_MEMALIGN:
		if ((UInt)result == 0 && guest_may(c->arg[0], sizeof(Addr), VKI_PROT_READ))
			allocated(*(const Addr *)c->arg[0], c->arg[2], c);
		break;
	case HEAP_REALLOC:
		/* glibc frees the block on a request of 0 bytes; a failure
		 * (NULL otherwise) leaves it as it was. */
		if (c->arg[0] && (c->arg[1] == 0 || result))
			forget(c->arg[0], True);
		if (c->arg[1] || !c->arg[0])
			allocated(result, c->arg[1], c);
		break;
	case HEAP_FREE:
		forget(c->arg[0], True);
		break;
	}
}

void heap_returned(Addr sp, Addr target, ULong result)
{
	struct heap_call *c = call_of_running_thread();
	if (!c->active || sp <= c->sp)
		return;
	c->active = False;
	heap_calls--;
	if (target == c->ret)
		ended(c, result);
}

/* Linux's MAP_STACK, which Valgrind's amd64 headers lack. */
#define MAP_STACK_FLAG 0x20000

static Addr brk_now; /* the break, since the first brk seen */

void heap_after_syscall(UInt sysno, const UWord *args, SysRes res)
{
	if (sr_isError(res))
		return;
	if (sysno == __NR_brk) {
		Addr now = sr_Res(res);
		if (brk_now && now > brk_now)
			part.system_bytes += now - brk_now;
		brk_now = now;
	} else if (sysno == __NR_mmap && (args[3] & VKI_MAP_ANONYMOUS) && !(args[3] & MAP_STACK_FLAG) &&
		   args[2] != VKI_PROT_NONE) {
		part.system_bytes += args[1];
	}
}

void heap_zero(void)
{
	epoch++;
	part = (struct heap_part){0};
}

const struct heap_part *heap_part(void)
{
	return &part;
}
