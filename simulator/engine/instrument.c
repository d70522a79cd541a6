/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The IR pass.  The simulated caches see the same reference stream as
 * callgrind's: each instruction's fetch, then its data accesses in the
 * order of the IR.  What is counted is counted per stretch of a
 * superblock between side exits (segments below), so an exit taken
 * mid-block counts exactly the instructions before it.  */
#include "instrument.h"

#include "blockcost.h"
#include "branchsim.h"
#include "cachesim.h"
#include "callgraph.h"
#include "costs.h"
#include "cpu.h"
#include "prefetch.h"
#include "program_start.h"
#include "fn_hooks.h"
#include "helpers.h"
#include "heap.h"
#include "host_state.h"
#include "initial_stack.h"
#include "layout.h"
#include "settings.h"
#include "threads.h"
#include "vclock.h"

#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "libvex_guest_amd64.h"
#include "libvex_guest_offsets.h"

Bool engine_instrumenting = True;
Int engine_i1_line_bits = 6;

/* ---- the pass ---- */

/* A data access not yet given its call: a load waits, because a store of
 * the same size to the same address in the same instruction makes the
 * pair one write (a read-modify-write, as callgrind counts it). */
struct pending_access {
	Bool is_write;
	IRExpr *addr;
	Int size;
	IRExpr *guard;
};

struct pass {
	IRSB *out;
	struct instr *cur; /* the instruction being instrumented */
	Bool fetched;      /* its fetch has been given a call */
	Bool hit;          /* its fetch is known to hit (the same I1 line) */
	UWord line;        /* its first I1 line, */
	Bool straddles;    /* and whether it ends in the next */
	UWord prev_line;   /* the I1 line the previous instruction ended in, */
	Bool have_prev;    /* when there was one in this superblock */
	UInt slots;        /* its data accesses so far */
	UInt slot_writes, slot_guarded;
	Bool pending;
	struct pending_access ev;
	XArray *instrs;    /* of the superblock, in order */
	XArray *items;     /* of the current segment */
	XArray *segs;      /* of the superblock */
	/* --branch-sim: the superblock's exits as callgrind sees them
	 * (scan_exits), and how many the pass has gone past. */
	UInt exits, exits_seen;
	Bool last_inverted; /* VEX inverted the last one */
	Bool rep;           /* its last instruction is a rep string one, */
	Addr rep_addr;      /* at this address */
	/* --block-cost: each instruction's share of the block's core cycles
	 * (blockcost.h), and whether it loads on a loop-carried chain. */
	UInt *centi;
	Bool *chained;
	UInt ninstrs;      /* the IMarks of the superblock */
	/* --core=bm-model/3: each statement's guard wait, in cycles (for its
	 * conditional exits), and each instruction's, in hundredths. */
	UInt *stmt_waits;
	UInt *waits;
	Bool remembered;   /* the superblock is one that remember_sb keeps */
	/* The dynamic loader's, before the program starts: nothing it does
	 * counts (program_start.h), so only what the call graph and the
	 * virtual CPU need is kept. */
	Bool lean;
	struct place *from; /* where the superblock starts */
	struct block *block;
};

static void call(struct pass *p, const HChar *name, void *fn, Int nargs, IRExpr *addr, UWord how,
		 IRExpr *guard)
{
	IRExpr **args = nargs == 1 ? mkIRExprVec_1(mkIRExpr_HWord((HWord)p->cur))
				   : mkIRExprVec_3(mkIRExpr_HWord((HWord)p->cur), addr,
						   mkIRExpr_HWord((HWord)how));
	IRDirty *di = unsafeIRDirty_0_N(nargs, name, VG_(fnptr_to_fnentry)(fn), args);
	if (guard)
		di->guard = guard;
	addStmtToIRSB(p->out, IRStmt_Dirty(di));
}

/* *counter = value, or *counter += value, in the translation itself: far
 * cheaper than a helper call. */
static void store_inline(IRSB *sb, ULong *counter, ULong value, Bool add)
{
	IRExpr *addr = mkIRExpr_HWord((HWord)counter), *v = IRExpr_Const(IRConst_U64(value));
	if (add) {
		IRTemp old = newIRTemp(sb->tyenv, Ity_I64), sum = newIRTemp(sb->tyenv, Ity_I64);
		addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
		addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old), v)));
		v = IRExpr_RdTmp(sum);
		addr = mkIRExpr_HWord((HWord)counter);
	}
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, addr, v));
}

/* A 64-bit temporary holding e. */
static IRExpr *tmp64(IRSB *sb, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

static IRExpr *c64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

/* A prefetch's address (prefetch.h), from the guest's registers at this
 * point of out. */
static IRExpr *prefetch_address(IRSB *out, const struct prefetch_operand *op)
{
	IRExpr *sum = op->base >= 0 ? tmp64(out, IRExpr_Get(op->base, Ity_I64)) : c64(0);
	if (op->index >= 0) {
		IRExpr *index = tmp64(out, IRExpr_Get(op->index, Ity_I64));
		if (op->scale)
			index = tmp64(out, IRExpr_Binop(Iop_Shl64, index, IRExpr_Const(IRConst_U8((UChar)op->scale))));
		sum = tmp64(out, IRExpr_Binop(Iop_Add64, sum, index));
	}
	return op->disp ? tmp64(out, IRExpr_Binop(Iop_Add64, sum, c64((ULong)op->disp))) : sum;
}

/* A 1-bit temporary holding a op b. */
static IRExpr *test1(IRSB *sb, IROp op, IRExpr *a, IRExpr *b)
{
	IRTemp t = newIRTemp(sb->tyenv, Ity_I1);
	addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Binop(op, a, b)));
	return IRExpr_RdTmp(t);
}

/* The fetch helper's call, under guard (or always). */
static void call_fetch(struct pass *p, IRExpr *guard)
{
	if (p->remembered)
		call(p, "log_fetch_kept", log_fetch_kept, 1, NULL, 0, guard);
	else
		call(p, "log_fetch", log_fetch, 1, NULL, 0, guard);
}

/* Simulates the current instruction's fetch: a call, unless it is known
 * to hit (then only the record of its last execution is reset, where it
 * can be taken back).  A fetch within one line is checked inline first:
 * the line is a constant, and where it is the most recent of its I1 set
 * the fetch is a hit that changes nothing (one load and compare). */
static void log_fetch_now(struct pass *p)
{
	p->fetched = True;
	if (p->lean)
		return;
	if ((p->hit || !p->straddles) && p->remembered) {
		store_inline(p->out, &p->cur->last, 0, False);
		if (clo.l2)
			store_inline(p->out, &p->cur->last2, 0, False);
	}
	if (!p->hit && !p->straddles) {
		struct sim_layout i1;
		sim_i1_layout(&i1);
		const UWord *mru = i1.tags + (p->line & i1.sets_mask) * (UWord)i1.assoc;
		IRExpr *tag = tmp64(p->out, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)mru)));
		IRTemp other = newIRTemp(p->out->tyenv, Ity_I1);
		addStmtToIRSB(p->out, IRStmt_WrTmp(other, IRExpr_Binop(Iop_CmpNE64, tag, c64(p->line))));
		call_fetch(p, IRExpr_RdTmp(other));
	} else if (!p->hit) {
		call_fetch(p, NULL);
	}
}

static void count_in_segment(struct pass *p, UInt event)
{
	if (p->lean)
		return;
	struct item it = {p->cur, event, 0};
	UWord k = VG_(sizeXA)(p->instrs) - 1; /* the current instruction */
	if (event == EV_IR && p->centi && k < p->ninstrs)
		it.weight = p->centi[k];
	VG_(addToXA)(p->items, &it);
}

/* Ends the current segment: one inline add, where the code reaches only
 * when all of it ran. */
static void end_segment(struct pass *p)
{
	Word n = VG_(sizeXA)(p->items);
	if (!n)
		return;
	struct segment *sg = segment_new(VG_(indexXA)(p->items, 0), (UInt)n);
	VG_(addToXA)(p->segs, &sg);
	ULong counts[EV_COUNT] = {0};
	for (UInt k = 0; k < sg->n; k++) {
		counts[sg->items[k].event]++;
		counts[EV_CC] += sg->items[k].weight;
	}
	VG_(dropTailXA)(p->items, n);
	store_inline(p->out, &sg->count, 1, True);
	/* The running totals, for the call graph's inclusive costs. */
	for (Int e = 0; e < EV_COUNT; e++)
		if (counts[e])
			store_inline(p->out, &engine_total[e], counts[e], True);
}

/* Whether the access of size bytes at addr might not be a hit that
 * changes nothing: it straddles two lines, or its line is not the most
 * recent of its set in D1.  Computed in the translation, so that the
 * helper runs only then.  One comparison tells both: the most recent tag
 * of the set of the access's first byte is compared with the line of its
 * last byte.  They are equal only when that line lies in the first byte's
 * set, which (with more than one set) a straddling access's second line
 * never does: consecutive lines fall in consecutive sets. */
static IRExpr *maybe_miss(IRSB *sb, IRExpr *addr, Int size)
{
	struct sim_layout d1;
	sim_d1_layout(&d1);
	IRExpr *shift = IRExpr_Const(IRConst_U8((UChar)d1.line_bits));
	IRExpr *last = size > 1 ? tmp64(sb, IRExpr_Binop(Iop_Add64, addr, c64((ULong)size - 1))) : addr;
	IRExpr *line = tmp64(sb, IRExpr_Binop(Iop_Shr64, last, shift));
	/* The first way of the first byte's set: tags + set * assoc words.
	 * Where a set's ways take 2^k bytes, that is the address's set bits
	 * moved into place. */
	ULong set_bytes = (ULong)d1.assoc * sizeof(UWord);
	Int k = 0;
	while ((1ULL << k) < set_bytes)
		k++;
	IRExpr *offset;
	if ((1ULL << k) == set_bytes) {
		offset = tmp64(sb, IRExpr_Binop(Iop_And64, addr, c64((ULong)d1.sets_mask << d1.line_bits)));
		if (k != d1.line_bits)
			offset = tmp64(sb, IRExpr_Binop(k > d1.line_bits ? Iop_Shl64 : Iop_Shr64, offset,
							IRExpr_Const(IRConst_U8((UChar)(k > d1.line_bits ? k - d1.line_bits
													  : d1.line_bits - k)))));
	} else {
		IRExpr *set = tmp64(sb, IRExpr_Binop(Iop_And64, tmp64(sb, IRExpr_Binop(Iop_Shr64, addr, shift)),
						     c64(d1.sets_mask)));
		offset = tmp64(sb, IRExpr_Binop(Iop_Mul64, set, c64(set_bytes)));
	}
	IRExpr *way0 = tmp64(sb, IRExpr_Binop(Iop_Add64, c64((ULong)(HWord)d1.tags), offset));
	IRExpr *mru = tmp64(sb, IRExpr_Load(Iend_LE, Ity_I64, way0));
	IRTemp guard = newIRTemp(sb->tyenv, Ity_I1);
	if (!d1.sets_mask && size > 1) {
		/* One set: the first byte's line must be the last's too. */
		IRExpr *first = tmp64(sb, IRExpr_Binop(Iop_Shr64, addr, shift));
		IRExpr *diff = tmp64(sb, IRExpr_Binop(Iop_Or64, tmp64(sb, IRExpr_Binop(Iop_Xor64, mru, line)),
						      tmp64(sb, IRExpr_Binop(Iop_Xor64, first, line))));
		addStmtToIRSB(sb, IRStmt_WrTmp(guard, IRExpr_Binop(Iop_CmpNE64, diff, c64(0))));
	} else {
		addStmtToIRSB(sb, IRStmt_WrTmp(guard, IRExpr_Binop(Iop_CmpNE64, mru, line)));
	}
	return IRExpr_RdTmp(guard);
}

/* Gives the pending access its instrumentation, after the fetch's: an
 * unconditional one is counted with its segment and simulated by a call
 * only when maybe_miss; a conditional one is a call under its guard. */
static void flush_event(struct pass *p)
{
	if (!p->pending)
		return;
	p->pending = False;
	struct pending_access *e = &p->ev;
	UWord how = (UWord)e->size | (UWord)p->slots << 8 | (p->remembered ? HOW_KEEP : 0);
	UWord k = VG_(sizeXA)(p->instrs) - 1; /* the current instruction */
	if (!e->is_write && p->chained && k < p->ninstrs && p->chained[k])
		how |= HOW_CHAINED;
	/* Not an invariant: VEX writes XSAVE (the dynamic linker's
	 * _dl_runtime_resolve_xsave) as a store per register, over 32 of
	 * them.  Accesses past the 31st share the last bit of the masks, and
	 * only the first LAST_SLOTS are ever taken back (sb_apply). */
	UInt bit = 1u << (p->slots < 32 ? p->slots : 31);
	if (e->is_write)
		p->slot_writes |= bit;
	if (e->guard)
		p->slot_guarded |= bit;
	p->slots++;
	if (!p->fetched)
		log_fetch_now(p);
	if (p->lean)
		return;
	if (e->guard) {
		call(p, e->is_write ? "log_write_if" : "log_read_if",
		     e->is_write ? (void *)log_write_if : (void *)log_read_if, 3, e->addr, how, e->guard);
		return;
	}
	count_in_segment(p, e->is_write ? EV_DW : EV_DR);
	call(p, e->is_write ? "log_write" : "log_read", e->is_write ? (void *)log_write : (void *)log_read,
	     3, e->addr, how, maybe_miss(p->out, e->addr, e->size));
}

/* Ends the current instruction: its pending access and its fetch. */
static void flush_instr(struct pass *p)
{
	flush_event(p);
	if (p->cur && !p->fetched)
		log_fetch_now(p);
	if (p->cur) {
		p->cur->nslots = (UChar)(p->slots < 255 ? p->slots : 255); /* as above */
		p->cur->slot_writes = p->slot_writes;
		p->cur->slot_guarded = p->slot_guarded;
	}
}

static Bool same_atom(const IRExpr *a, const IRExpr *b)
{
	if (a->tag != b->tag)
		return False;
	if (a->tag == Iex_RdTmp)
		return a->Iex.RdTmp.tmp == b->Iex.RdTmp.tmp;
	if (a->tag == Iex_Const)
		return eqIRConst(a->Iex.Const.con, b->Iex.Const.con);
	return False;
}

/* Callgrind simulates at most a line of one access (FXSAVE's dirty
 * helper declares 512 bytes). */
#define MAX_ACCESS 64

static void data(struct pass *p, Bool is_write, IRExpr *addr, Int size, IRExpr *guard)
{
	if (size > MAX_ACCESS)
		size = MAX_ACCESS;
	if (is_write && p->pending && !p->ev.is_write && !p->ev.guard && !guard &&
	    p->ev.size == size && same_atom(p->ev.addr, addr)) {
		/* Read-modify-write: one write, where the read was. */
		p->ev.is_write = True;
		flush_event(p);
		return;
	}
	flush_event(p);
	p->ev = (struct pending_access){is_write, addr, size, guard};
	p->pending = True;
}

/* Superblocks that end in a client request or a system call are
 * remembered (few), by where they jump to. */
static void remember_sb(struct pass *p, const IRSB *in)
{
	if (p->lean || (in->jumpkind != Ijk_ClientReq && in->jumpkind != Ijk_Sys_syscall) ||
	    in->next->tag != Iex_Const || !VG_(sizeXA)(p->instrs))
		return;
	sb_remember((Addr)in->next->Iex.Const.con->Ico.U64, p->block);
}

/* The function a block counts for: the one whose call is in progress
 * when it is translated, which is when it is about to run for the first
 * time (callgrind gives a block's first cost centre that context too), so
 * that the check at its entry rarely fails: code without symbols, whose
 * every block callgrind names apart, is charged to the function it was
 * called as.  PLT stubs keep their own (their costs go to the call
 * sites). */
static const struct fn *home_of(const struct place *start)
{
	const struct fn *now = start->skip ? NULL : callgraph_current(NULL);
	return now ? now : start->fn;
}

/* The check at the block's entry: block_enter runs when the current
 * function is not the block's own (and always for remembered blocks,
 * whose last execution must be known; not for PLT stubs, whose costs go
 * to their call sites).  One load and compare otherwise. */
static void check_entry(struct pass *p)
{
	if (p->from->skip)
		return;
	IRDirty *di = unsafeIRDirty_0_N(1, "block_enter", VG_(fnptr_to_fnentry)(block_enter),
					mkIRExprVec_1(mkIRExpr_HWord((HWord)p->block)));
	if (!p->remembered) {
		IRExpr *now = tmp64(p->out, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&engine_expect)));
		IRTemp differs = newIRTemp(p->out->tyenv, Ity_I1);
		addStmtToIRSB(p->out, IRStmt_WrTmp(differs, IRExpr_Binop(Iop_CmpNE64, now,
									  c64((ULong)(HWord)p->block->home))));
		di->guard = IRExpr_RdTmp(differs);
	}
	addStmtToIRSB(p->out, IRStmt_Dirty(di));
}

/* ---- branches (--branch-sim=yes) ----
 *
 * Callgrind's branch events (callgrind/main.c, Valgrind 3.19): every side
 * exit of a guest jump kind (Ijk_Boring, Call, Ret) is a conditional
 * branch (Bc), the rep string instructions' included, and the final jump
 * of a superblock that ends in a jump or call to a computed address is an
 * indirect one (Bi; returns are not).  Each execution is counted with its
 * segment (the exit is reached exactly when the stretch before it ran; the
 * final jump when the whole block did); the predictor sees each branch
 * through a helper, where only its mispredictions are counted. */

/* What callgrind's collectBlockInfo sees of the superblock: how many
 * exits it has after its first instruction, and whether the last one was
 * inverted by VEX (a jcc whose taken side is the fall-through becomes an
 * exit to the next instruction on the opposite condition, and a final
 * jump to its target); and whether its last instruction is a rep string
 * one (which jumps back to itself: counted, never predicted). */
static void scan_exits(struct pass *p, const IRSB *in)
{
	Addr addr = 0;
	UInt len = 0;
	Bool seen = False, to_next = False, to_self = False;
	for (Int i = 0; i < in->stmts_used; i++) {
		const IRStmt *st = in->stmts[i];
		if (!st)
			continue;
		if (st->tag == Ist_IMark) {
			seen = True;
			addr = st->Ist.IMark.addr;
			len = st->Ist.IMark.len;
			to_next = to_self = False;
		} else if (seen && st->tag == Ist_Exit) {
			Addr dst = (Addr)st->Ist.Exit.dst->Ico.U64;
			to_next = dst == addr + len;
			to_self |= dst == addr;
			p->exits++;
		}
	}
	p->last_inverted = to_next;
	p->rep = seen && (to_self || (in->next->tag == Iex_Const && (Addr)in->next->Iex.Const.con->Ico.U64 == addr));
	p->rep_addr = addr;
}

/* At an exit of the current instruction: whether it is a conditional
 * branch, counted in the segment that ends here. */
static Bool exit_counted(struct pass *p, IRJumpKind jk)
{
	if (!clo.branch_sim || p->lean || !p->cur || (jk != Ijk_Boring && jk != Ijk_Call && jk != Ijk_Ret))
		return False;
	count_in_segment(p, EV_BC);
	p->cur->nexits++;
	return True;
}

/* The exit with guard, counted: the predictor is told whether the guest
 * branch was taken (the guard, or its opposite where VEX inverted it).  A
 * branch that has gone only this way so far is predicted so without a
 * call: its site's byte is 1 + taken (branchsim.h), one load and
 * compare. */
static void predict_exit(struct pass *p, IRExpr *guard, UInt wait)
{
	Bool inverted = p->exits_seen + 1 == p->exits && p->last_inverted;
	if (p->rep && p->cur->addr == p->rep_addr)
		return;
	UChar *site = branch_cond_site(p->cur->addr);
	IRExpr *taken = tmp64(p->out, IRExpr_Unop(Iop_1Uto64, guard));
	if (inverted)
		taken = tmp64(p->out, IRExpr_Binop(Iop_Xor64, taken, c64(1)));
	IRTemp byte = newIRTemp(p->out->tyenv, Ity_I8);
	addStmtToIRSB(p->out, IRStmt_WrTmp(byte, IRExpr_Load(Iend_LE, Ity_I8, mkIRExpr_HWord((HWord)site))));
	IRExpr *state = tmp64(p->out, IRExpr_Unop(Iop_8Uto64, IRExpr_RdTmp(byte)));
	IRExpr *expected = tmp64(p->out, IRExpr_Binop(Iop_Add64, taken, c64(1)));
	IRTemp other = newIRTemp(p->out->tyenv, Ity_I1);
	addStmtToIRSB(p->out, IRStmt_WrTmp(other, IRExpr_Binop(Iop_CmpNE64, state, expected)));
	ULong flags = (ULong)wait << 1 | (p->remembered ? HOW_COND_KEEP : 0);
	IRExpr *how = flags ? tmp64(p->out, IRExpr_Binop(Iop_Or64, taken, c64(flags))) : taken;
	call(p, "log_cond", (void *)log_cond, 3, how, (UWord)site, IRExpr_RdTmp(other));
}

/* Whether the superblock ends in an indirect jump or call, counted in
 * its last segment. */
static Bool final_counted(struct pass *p, const IRSB *in)
{
	if (!clo.branch_sim || p->lean || !p->cur || (in->jumpkind != Ijk_Boring && in->jumpkind != Ijk_Call) ||
	    in->next->tag != Iex_RdTmp)
		return False;
	count_in_segment(p, EV_BI);
	return True;
}

/* Likewise: a jump that has gone to this target only is predicted
 * without a call. */
static void predict_final(struct pass *p, IRExpr *target)
{
	Addr *site = branch_indirect_site(p->cur->addr);
	IRExpr *only = tmp64(p->out, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)site)));
	IRTemp other = newIRTemp(p->out->tyenv, Ity_I1);
	addStmtToIRSB(p->out, IRStmt_WrTmp(other, IRExpr_Binop(Iop_CmpNE64, only, target)));
	call(p, "log_indirect", (void *)log_indirect, 3, target, (UWord)site, IRExpr_RdTmp(other));
}

/* ---- the call graph's helpers ---- */

/* Calls and jumps to a constant target pass its place, looked up once
 * in the translation; indirect ones the target. */
static VG_REGPARM(3) void log_call(struct instr *site, Addr target, Addr sp)
{
	callgraph_call(site, target, NULL, sp);
}

static VG_REGPARM(3) void log_call_to(struct instr *site, struct place *to, Addr sp)
{
	callgraph_call(site, to->addr, to, sp);
}

static void log_return(struct instr *site, Addr target, Addr sp, struct place *from)
{
	callgraph_return(site, target, sp, from);
}

/* --heap=yes: a return may end an allocation function's call, whose
 * result is in RAX; it counts in that call's cost. */
static void log_return_heap(struct instr *site, Addr target, Addr sp, struct place *from, ULong rax)
{
	heap_at_return(sp, target, rax);
	callgraph_return(site, target, sp, from);
}

static void log_jump(struct instr *site, Addr target, Addr sp, struct place *from)
{
	callgraph_jump(site, target, NULL, sp, from);
}

static void log_jump_to(struct instr *site, struct place *to, Addr sp, struct place *from)
{
	callgraph_jump(site, to->addr, to, sp, from);
}

/* A call of the call graph's helper for a jump of kind jk to target
 * (guarded, for a side exit): calls and returns always, other jumps when
 * they may be calls for callgrind (to a function's first instruction,
 * another object or another kind of section), which an indirect jump
 * learns when it runs. */
static void callgraph_at(struct pass *p, IRJumpKind jk, IRExpr *target, IRExpr *guard)
{
	if (!p->cur || !p->from)
		return;
	if (jk != Ijk_Boring && jk != Ijk_Call && jk != Ijk_Ret)
		return;
	struct place *to = NULL;
	if (jk != Ijk_Ret && target->tag == Iex_Const) {
		Addr a = (Addr)target->Iex.Const.con->Ico.U64;
		if (jk == Ijk_Boring && !callgraph_jump_is_call(p->from, a))
			return;
		to = place_of(a);
	}
	IRExpr *sp = tmp64(p->out, IRExpr_Get(OFFSET_amd64_RSP, Ity_I64));
	IRExpr *site = mkIRExpr_HWord((HWord)p->cur), *from = mkIRExpr_HWord((HWord)p->from);
	IRDirty *di;
	if (jk == Ijk_Call && to)
		di = unsafeIRDirty_0_N(3, "log_call_to", VG_(fnptr_to_fnentry)(log_call_to),
				       mkIRExprVec_3(site, mkIRExpr_HWord((HWord)to), sp));
	else if (jk == Ijk_Call)
		di = unsafeIRDirty_0_N(3, "log_call", VG_(fnptr_to_fnentry)(log_call), mkIRExprVec_3(site, target, sp));
	else if (jk == Ijk_Ret && clo.heap)
		di = unsafeIRDirty_0_N(0, "log_return_heap", VG_(fnptr_to_fnentry)(log_return_heap),
				       mkIRExprVec_5(site, target, sp, from, tmp64(p->out, IRExpr_Get(OFFSET_amd64_RAX, Ity_I64))));
	else if (jk == Ijk_Ret)
		di = unsafeIRDirty_0_N(0, "log_return", VG_(fnptr_to_fnentry)(log_return),
				       mkIRExprVec_4(site, target, sp, from));
	else if (to)
		di = unsafeIRDirty_0_N(0, "log_jump_to", VG_(fnptr_to_fnentry)(log_jump_to),
				       mkIRExprVec_4(site, mkIRExpr_HWord((HWord)to), sp, from));
	else
		di = unsafeIRDirty_0_N(0, "log_jump", VG_(fnptr_to_fnentry)(log_jump), mkIRExprVec_4(site, target, sp, from));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(p->out, IRStmt_Dirty(di));
}

/* ---- the virtual CPU ---- */

/* What every translation changes in the guest's code: cpuid asks the
 * helper of the CPU --cpu names (cpu.c), rdtsc the virtual clock, rdrand
 * and rdseed the random stream (host_state.h). */
static void fix_dirty(const IRSB *in, Int i)
{
	IRStmt *st = in->stmts[i];
	Addr at = 0;
	for (Int k = i; k >= 0 && !at; k--)
		if (in->stmts[k] && in->stmts[k]->tag == Ist_IMark)
			at = in->stmts[k]->Ist.IMark.addr;
	cpu_fix_cpuid(st->Ist.Dirty.details, at);
	vclock_fix_tsc(st->Ist.Dirty.details);
	host_state_fix_dirty(st->Ist.Dirty.details);
}

static UInt count_instrs(const IRSB *in)
{
	UInt n = 0;
	for (Int i = 0; i < in->stmts_used; i++)
		n += in->stmts[i] && in->stmts[i]->tag == Ist_IMark;
	return n;
}

/* A superblock that ends in a system call, under the virtual clock: the
 * guest goes on past the call, with its result in rax, where the clock
 * answers it without the kernel (engine_syscall_in_guest), as the vDSO
 * answers the time natively.  (Such a reading costs a few guest
 * instructions, a system call under Valgrind several microseconds.) */
static void answer_in_guest(IRSB *out, const IRSB *in)
{
	if (!clo.clock_virtual || in->jumpkind != Ijk_Sys_syscall || in->next->tag != Iex_Const)
		return;
	IRConst *after = in->next->Iex.Const.con;
	/* The syscall instruction: a thread that waits makes it again. */
	Addr at = 0;
	for (Int i = 0; i < in->stmts_used; i++)
		if (in->stmts[i] && in->stmts[i]->tag == Ist_IMark)
			at = in->stmts[i]->Ist.IMark.addr;
	IRTemp res = newIRTemp(out->tyenv, Ity_I64), answered = newIRTemp(out->tyenv, Ity_I1);
	IRDirty *d = unsafeIRDirty_1_N(res, 0, "engine_syscall_in_guest", VG_(fnptr_to_fnentry)(engine_syscall_in_guest),
				       mkIRExprVec_2(IRExpr_GSPTR(), IRExpr_Const(after)));
	/* It reads rax to r10, the number and the arguments, and may rewrite
	 * them. */
	d->nFxState = 1;
	d->fxState[0].fx = Ifx_Modify;
	d->fxState[0].offset = OFFSET_amd64_RAX;
	d->fxState[0].size = OFFSET_amd64_R10 + 8 - OFFSET_amd64_RAX;
	d->fxState[0].nRepeats = d->fxState[0].repeatLen = 0;
	addStmtToIRSB(out, IRStmt_Dirty(d));
	addStmtToIRSB(out, IRStmt_Exit(test1(out, Iop_CmpEQ64, IRExpr_RdTmp(res), c64(ENGINE_PARK)), Ijk_Yield,
				       IRConst_U64(at), OFFSET_amd64_RIP));
	addStmtToIRSB(out, IRStmt_WrTmp(answered, IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(res), c64(ENGINE_TO_KERNEL))));
	IRExpr *sysno = tmp64(out, IRExpr_Get(OFFSET_amd64_RAX, Ity_I64));
	IRExpr *rax = tmp64(out, IRExpr_ITE(IRExpr_RdTmp(answered), IRExpr_RdTmp(res), sysno));
	addStmtToIRSB(out, IRStmt_Put(OFFSET_amd64_RAX, rax));
	addStmtToIRSB(out, IRStmt_Exit(IRExpr_RdTmp(answered), Ijk_Boring, after, OFFSET_amd64_RIP));
}

/* Outside the region: the guest's code as it is, but for fix_dirty, and
 * the virtual clock's count. */
static IRSB *uninstrumented(IRSB *in)
{
	Addr start = 0;
	for (Int i = 0; i < in->stmts_used && !start; i++)
		if (in->stmts[i] && in->stmts[i]->tag == Ist_IMark)
			start = in->stmts[i]->Ist.IMark.addr;
	if (!clo.clock_virtual && !program_start_is(start)) {
		for (Int i = 0; i < in->stmts_used; i++)
			if (in->stmts[i] && in->stmts[i]->tag == Ist_Dirty)
				fix_dirty(in, i);
		return in;
	}
	IRSB *out = deepCopyIRSBExceptStmts(in);
	threads_at_block(out, start);
	program_start_at_block(out, start);
	if (!clo.clock_virtual) {
		for (Int i = 0; i < in->stmts_used; i++) {
			if (in->stmts[i] && in->stmts[i]->tag == Ist_Dirty)
				fix_dirty(in, i);
			addStmtToIRSB(out, in->stmts[i]);
		}
		return out;
	}
	vclock_count_block(out, count_instrs(in));
	for (Int i = 0; i < in->stmts_used; i++) {
		if (in->stmts[i] && in->stmts[i]->tag == Ist_Dirty)
			fix_dirty(in, i);
		addStmtToIRSB(out, in->stmts[i]);
	}
	answer_in_guest(out, in);
	return out;
}

IRSB *engine_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy)
{
	(void)closure, (void)layout, (void)vge, (void)archinfo_host;
	if (gWordTy != hWordTy)
		VG_(tool_panic)("bm-engine: host and guest word sizes differ");
	static Bool started;
	if (!started) {
		/* The first translation: nothing ran yet. */
		program_start_init(1);
		layout_stack_known(clo.layout_canonical ? initial_stack_pin(1) : VG_(get_SP)(1));
		if (clo.clock_virtual)
			host_state_program_start();
	}
	started = True;
	if (!engine_instrumenting)
		return uninstrumented(in);
	struct pass p = {.out = deepCopyIRSBExceptStmts(in), .fetched = True};
	/* Before anything of the block: a thread whose turn it is not runs
	 * none of it. */
	for (Int k = 0; k < in->stmts_used; k++)
		if (in->stmts[k] && in->stmts[k]->tag == Ist_IMark) {
			Addr a = in->stmts[k]->Ist.IMark.addr;
			p.lean = program_start_in_loader(a);
			if (p.lean)
				program_start_lean_entry(p.out, a);
			threads_at_block(p.out, a);
			break;
		}
	p.instrs = VG_(newXA)(VG_(malloc), "bm.pass", VG_(free), sizeof(struct instr *));
	p.items = VG_(newXA)(VG_(malloc), "bm.pass", VG_(free), sizeof(struct item));
	p.segs = VG_(newXA)(VG_(malloc), "bm.pass", VG_(free), sizeof(struct segment *));
	p.remembered = in->jumpkind == Ijk_ClientReq || in->jumpkind == Ijk_Sys_syscall;
	if (clo.branch_sim && !p.lean)
		scan_exits(&p, in);
	if (clo.block_cost && !p.lean) {
		p.ninstrs = count_instrs(in);
		p.centi = VG_(malloc)("bm.pass.cost", (p.ninstrs ? p.ninstrs : 1) * sizeof *p.centi);
		p.chained = VG_(malloc)("bm.pass.cost", (p.ninstrs ? p.ninstrs : 1) * sizeof *p.chained);
		if (clo.core >= CORE_BM_MODEL_3 && clo.branch_sim) {
			p.stmt_waits = VG_(malloc)("bm.pass.cost", (in->stmts_used ? in->stmts_used : 1) * sizeof(UInt));
			p.waits = VG_(calloc)("bm.pass.cost", p.ninstrs ? p.ninstrs : 1, sizeof(UInt));
		}
		block_cost(in, p.ninstrs, p.centi, p.chained, p.stmt_waits);
	}
	Int i = 0;
	for (; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(p.out, in->stmts[i]);
	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		switch (st->tag) {
		case Ist_IMark: {
			flush_instr(&p);
			Addr a = st->Ist.IMark.addr;
			UInt len = st->Ist.IMark.len ? st->Ist.IMark.len : 1;
			if (!p.from) {
				p.from = place_of(a);
				p.block = block_new(home_of(p.from), p.from->fn);
				if (p.from->is_entry)
					fn_hooks_at_entry(p.out, p.from->fn);
				program_start_at_block(p.out, a);
				check_entry(&p);
			}
			Bool at_start = !VG_(sizeXA)(p.instrs);
			p.cur = instr_get(a, st->Ist.IMark.len, p.block->home);
			p.cur->canonical = layout_canonical(a);
			if (at_start && p.from->is_entry && clo.heap)
				heap_at_entry(p.out, p.cur);
			if (clo.branch_sim)
				p.cur->nexits = 0; /* exit_counted counts them again */
			p.fetched = False;
			/* Within one execution of a superblock its instructions run
			 * one after the other, and only fetches touch I1: one that
			 * lies wholly in the line the previous one ended in finds that
			 * line most recent in its set, a hit that changes nothing. */
			UWord first = a >> engine_i1_line_bits, last = (a + len - 1) >> engine_i1_line_bits;
			p.hit = p.have_prev && first == last && first == p.prev_line;
			p.line = first;
			p.straddles = first != last;
			p.prev_line = last;
			p.have_prev = True;
			p.slots = p.slot_writes = p.slot_guarded = 0;
			VG_(addToXA)(p.instrs, &p.cur);
			count_in_segment(&p, EV_IR);
			/* bm-model/4: a software prefetch loads its line. */
			struct prefetch_operand op;
			if (clo.core >= CORE_BM_MODEL_4 && !p.lean && prefetch_operand(a, len, &op))
				data(&p, False, prefetch_address(p.out, &op), 1, NULL);
			break;
		}
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load)
				data(&p, False, st->Ist.WrTmp.data->Iex.Load.addr,
				     sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), NULL);
			break;
		case Ist_Store:
			data(&p, True, st->Ist.Store.addr,
			     sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.Store.data)), NULL);
			break;
		case Ist_LoadG: {
			IRLoadG *lg = st->Ist.LoadG.details;
			IRType ty = Ity_INVALID, widened = Ity_INVALID;
			typeOfIRLoadGOp(lg->cvt, &widened, &ty);
			data(&p, False, lg->addr, sizeofIRType(ty), lg->guard);
			break;
		}
		case Ist_StoreG: {
			IRStoreG *sg = st->Ist.StoreG.details;
			data(&p, True, sg->addr, sizeofIRType(typeOfIRExpr(in->tyenv, sg->data)), sg->guard);
			break;
		}
		case Ist_Dirty: {
			fix_dirty(in, i);
			IRDirty *d = st->Ist.Dirty.details;
			/* The dirty call's own guard is not the access's (callgrind). */
			if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
				data(&p, False, d->mAddr, d->mSize, NULL);
			if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
				data(&p, True, d->mAddr, d->mSize, NULL);
			break;
		}
		case Ist_CAS: {
			IRCAS *cas = st->Ist.CAS.details;
			Int size = sizeofIRType(typeOfIRExpr(in->tyenv, cas->dataLo)) * (cas->dataHi ? 2 : 1);
			data(&p, False, cas->addr, size, NULL);
			data(&p, True, cas->addr, size, NULL);
			break;
		}
		case Ist_LLSC:
			if (st->Ist.LLSC.storedata == NULL)
				data(&p, False, st->Ist.LLSC.addr,
				     sizeofIRType(typeOfIRTemp(in->tyenv, st->Ist.LLSC.result)), NULL);
			else
				data(&p, True, st->Ist.LLSC.addr,
				     sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.LLSC.storedata)), NULL);
			break;
		case Ist_Exit: {
			flush_instr(&p);
			Bool branch = exit_counted(&p, st->Ist.Exit.jk);
			end_segment(&p);
			UInt wait = p.stmt_waits ? p.stmt_waits[i] : 0;
			UWord k = VG_(sizeXA)(p.instrs) - 1;
			if (branch && wait && k < p.ninstrs)
				p.waits[k] = 100 * wait;
			if (branch)
				predict_exit(&p, st->Ist.Exit.guard, wait);
			p.exits_seen++;
			callgraph_at(&p, st->Ist.Exit.jk, IRExpr_Const(st->Ist.Exit.dst), st->Ist.Exit.guard);
			break;
		}
		default:
			break;
		}
		addStmtToIRSB(p.out, st);
	}
	flush_instr(&p);
	Bool indirect = final_counted(&p, in);
	end_segment(&p);
	if (indirect)
		predict_final(&p, in->next);
	callgraph_at(&p, in->jumpkind, in->next, NULL);
	if (p.block)
		block_set(p.block, VG_(sizeXA)(p.instrs) ? VG_(indexXA)(p.instrs, 0) : NULL,
			  (UWord)VG_(sizeXA)(p.instrs) == p.ninstrs ? p.centi : NULL,
			  (UWord)VG_(sizeXA)(p.instrs) == p.ninstrs ? p.waits : NULL, (UInt)VG_(sizeXA)(p.instrs),
			  VG_(sizeXA)(p.segs) ? VG_(indexXA)(p.segs, 0) : NULL, (UInt)VG_(sizeXA)(p.segs));
	remember_sb(&p, in);
	answer_in_guest(p.out, in);
	if (p.centi) {
		VG_(free)(p.centi);
		VG_(free)(p.chained);
	}
	if (p.waits) {
		VG_(free)(p.stmt_waits);
		VG_(free)(p.waits);
	}
	VG_(deleteXA)(p.items);
	VG_(deleteXA)(p.instrs);
	VG_(deleteXA)(p.segs);
	return p.out;
}
