/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * A superblock's cost on a modern core: see blockcost.h.
 *
 * Notes (the assumptions, each with its reason):
 *
 * - The core is a generic modern x86-64 one, its numbers rounded from the
 *   published measurements of AMD Zen 4 and Intel Golden Cove (uops.info,
 *   Agner Fog's instruction tables: facts taken, no table copied) to one
 *   value for both, so that the model favours neither vendor.
 * - Issue: 4 instructions a cycle.  Both cores dispatch 6 macro-ops, but
 *   real loops rarely sustain more than 4 (decode, rename and retirement
 *   limits this model does not see).
 * - Execution ports, per cycle: 4 integer ALU operations, 3 loads, 2
 *   stores, 2 branches, 1 integer multiply, 1 divider, 2 FP adds, 2 FP
 *   multiplies or FMAs, 3 vector ALU operations, 2 vector multiplies, 2
 *   shuffles.  A division and an FP division or square root hold their
 *   unit for several cycles (their reciprocal throughput below).
 * - Latencies (cycles): integer ALU 1; integer multiply 3; division, in
 *   bm-model/2's core, 25 (32-bit) and 40 (64-bit), a new one every 15
 *   and 30 (what the fidelity corpus's first machine, an AMD Zen 1,
 *   measures for the dividends programs divide), and in bm-model/3's, a
 *   current core's, 12 and 15, a new one every 6 and 9 (within the 10 to
 *   18 cycles that Zen 4, Zen 5 and Golden Cove take; docs/fidelity.md);
 *   a load 5 (an L1
 *   hit: what a miss adds is the memory model's); FP add 3, multiply 3,
 *   FMA 4, divide 13 (every 4), square root 18 (every 6); FP <-> integer
 *   conversion 4; vector ALU 1, vector multiply 4, shuffle 1, a shuffle
 *   across 128-bit lanes 3; a locked read-modify-write 18; a helper
 *   (cpuid, rdtsc, x87 transcendental...) 20.
 * - An x86 instruction is one operation on each kind of port its IR
 *   touches, at most once per kind: VEX may split a 256-bit operation in
 *   two 128-bit ones, which both cores execute as one.  Register moves,
 *   widening, narrowing and reinterpretation are free (renamed), as is
 *   the arithmetic that only computes an address (the load's own AGU,
 *   within its latency), and so is the stack pointer's update (the
 *   cores' stack engine).
 * - One execution of the block costs the largest of: its instructions
 *   over the issue width; each port kind's operations over its width; and
 *   the longest chain from a register read to the same register's write
 *   (a loop's carried dependency: executions of the block overlap
 *   otherwise, as an out-of-order core overlaps a loop's iterations).  The
 *   front end (decode, the uop cache, taken-branch bubbles) is not
 *   modelled; mispredicted branches and cache misses are charged apart.
 * - bm-model/4 only: a chain through memory, from a load to a later store
 *   of the block to an address that is the same in every execution (a
 *   constant, or a register the block does not write plus a constant: a
 *   global, a field, a spilled or volatile variable), whose value the next
 *   execution's load reads back by store-to-load forwarding: the store
 *   data's distance from the loaded value plus the forwarding's 4 cycles
 *   (Zen 4 and Golden Cove forward in 4 to 5 cycles where the addresses
 *   match; uops.info, Agner Fog), in a block that can jump to its own
 *   start (a loop of one superblock).  A chain whose store and load are
 *   in different superblocks is not seen, nor one in a block that is not
 *   such a loop (a function's last block that updates its state: the
 *   next execution is a call away).
 * - bm-model/3 only: a mispredicted conditional branch also waits for its
 *   guard, which the core computes before it learns that it guessed
 *   wrong: the longest chain from the block's entry (every register
 *   ready there) to the guard, by the same latencies (block_cost's
 *   waits).  A chain that starts in an earlier block is not seen: VEX
 *   ends a loop's superblock at its branch, and values from before the
 *   block are mostly ready by then.
 */
#include "blockcost.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "libvex_guest_amd64.h"
#include "libvex_guest_offsets.h"

#define ISSUE_WIDTH 4

enum port { P_NONE, P_ALU, P_MUL, P_DIV, P_LOAD, P_STORE, P_BRANCH, P_FADD, P_FMUL, P_FDIV, P_VALU, P_VMUL,
	    P_SHUF, P_COUNT };

/* Operations each kind of port takes a cycle. */
static const UInt port_width[P_COUNT] = {
	[P_ALU] = 4, [P_MUL] = 1, [P_DIV] = 1, [P_LOAD] = 3, [P_STORE] = 2, [P_BRANCH] = 2, [P_FADD] = 2,
	[P_FMUL] = 2, [P_FDIV] = 1, [P_VALU] = 3, [P_VMUL] = 2, [P_SHUF] = 2,
};

/* What an operation costs: its latency, the port kind it takes and for
 * how many cycles (its reciprocal throughput there). */
struct op_cost {
	UChar latency;
	UChar port;
	UChar hold;
};

static const struct op_cost FREE = {0, P_NONE, 0}, ALU = {1, P_ALU, 1}, MUL = {3, P_MUL, 1},
			    LOAD = {5, P_LOAD, 1},
			    STORE = {0, P_STORE, 1}, BRANCH = {0, P_BRANCH, 1}, FADD = {3, P_FADD, 1},
			    FMUL = {3, P_FMUL, 1}, FMA = {4, P_FMUL, 1}, FDIV = {13, P_FDIV, 4},
			    FSQRT = {18, P_FDIV, 6}, CVT = {4, P_FADD, 1}, VALU = {1, P_VALU, 1},
			    VMUL = {4, P_VMUL, 1}, SHUF = {1, P_SHUF, 1}, XSHUF = {3, P_SHUF, 1},
			    ATOMIC = {18, P_STORE, 1}, HELPER = {20, P_ALU, 4};

/* A store's data to a load of the same address, where they match. */
#define STORE_FORWARD 4

/* The division of the core block_cost_core chose, and whether stores
 * carry chains to the next execution's loads. */
static struct op_cost DIV32 = {25, P_DIV, 15}, DIV64 = {40, P_DIV, 30};
static Bool memory_chains;

void block_cost_core(Bool current, Bool chains)
{
	if (current) {
		DIV32 = (struct op_cost){12, P_DIV, 6};
		DIV64 = (struct op_cost){15, P_DIV, 9};
	}
	memory_chains = chains;
}

static Bool is_float(IRType t)
{
	return t == Ity_F16 || t == Ity_F32 || t == Ity_F64 || t == Ity_F128 || t == Ity_D32 || t == Ity_D64 ||
	       t == Ity_D128;
}

static Bool is_vector(IRType t)
{
	return t == Ity_V128 || t == Ity_V256;
}

/* The cost of a primitive operation: named where it is not its result
 * type's default (integer ALU, vector ALU, FP add). */
static struct op_cost op_cost(IROp op)
{
	switch (op) {
	/* Renamed or free: moves between widths and register files. */
	case Iop_128HIto64: case Iop_128to64: case Iop_16HIto8: case Iop_16HLto32: case Iop_16Sto32:
	case Iop_16Sto64: case Iop_16Uto32: case Iop_16Uto64: case Iop_16to8: case Iop_1Sto16: case Iop_1Sto32:
	case Iop_1Sto64: case Iop_1Sto8: case Iop_1Uto32: case Iop_1Uto64: case Iop_1Uto8: case Iop_32HIto16:
	case Iop_32HLto64: case Iop_32Sto64: case Iop_32Uto64: case Iop_32UtoV128: case Iop_32to1: case Iop_32to16:
	case Iop_32to8: case Iop_64HIto32: case Iop_64HLto128: case Iop_64HLtoV128: case Iop_64UtoV128:
	case Iop_64to1: case Iop_64to16: case Iop_64to32: case Iop_64to8: case Iop_8HLto16: case Iop_8Sto16:
	case Iop_8Sto32: case Iop_8Sto64: case Iop_8Uto16: case Iop_8Uto32: case Iop_8Uto64:
	case Iop_ReinterpF32asI32: case Iop_ReinterpF64asI64: case Iop_ReinterpI32asF32:
	case Iop_ReinterpI64asF64: case Iop_ReinterpI128asV128: case Iop_ReinterpV128asI128:
	case Iop_SetV128lo32: case Iop_SetV128lo64: case Iop_V128HIto64: case Iop_V128HLtoV256:
	case Iop_V128to32: case Iop_V128to64: case Iop_V256to64_0: case Iop_V256to64_1: case Iop_V256to64_2:
	case Iop_V256to64_3: case Iop_V256toV128_0: case Iop_V256toV128_1:
		return FREE;
	case Iop_Mul8: case Iop_Mul16: case Iop_Mul32: case Iop_Mul64: case Iop_MullS8: case Iop_MullS16:
	case Iop_MullS32: case Iop_MullS64: case Iop_MullU8: case Iop_MullU16: case Iop_MullU32: case Iop_MullU64:
		return MUL;
	case Iop_DivU32: case Iop_DivS32: case Iop_DivU32E: case Iop_DivS32E: case Iop_DivModU64to32:
	case Iop_DivModS64to32: case Iop_DivModU32to32: case Iop_DivModS32to32:
		return DIV32;
	case Iop_DivU64: case Iop_DivS64: case Iop_DivU64E: case Iop_DivS64E: case Iop_DivModU128to64:
	case Iop_DivModS128to64: case Iop_DivModU64to64: case Iop_DivModS64to64: case Iop_DivU128:
	case Iop_DivS128:
		return DIV64;
	case Iop_MulF32: case Iop_MulF64: case Iop_Mul32F0x4: case Iop_Mul32Fx4: case Iop_Mul32Fx8:
	case Iop_Mul64F0x2: case Iop_Mul64Fx2: case Iop_Mul64Fx4:
		return FMUL;
	case Iop_MAddF32: case Iop_MSubF32: case Iop_MAddF64: case Iop_MSubF64:
		return FMA;
	case Iop_DivF32: case Iop_DivF64: case Iop_Div32F0x4: case Iop_Div32Fx4: case Iop_Div32Fx8:
	case Iop_Div64F0x2: case Iop_Div64Fx2: case Iop_Div64Fx4:
		return FDIV;
	case Iop_SqrtF32: case Iop_SqrtF64: case Iop_Sqrt32F0x4: case Iop_Sqrt32Fx4: case Iop_Sqrt32Fx8:
	case Iop_Sqrt64F0x2: case Iop_Sqrt64Fx2: case Iop_Sqrt64Fx4:
		return FSQRT;
	case Iop_Mul16x8: case Iop_Mul32x4: case Iop_Mul16x16: case Iop_Mul32x8: case Iop_MulHi16Ux8:
	case Iop_MulHi16Sx8: case Iop_MulHi16Ux16: case Iop_MulHi16Sx16: case Iop_MulHi32Ux4:
	case Iop_MulHi32Sx4: case Iop_MullEven32Ux4: case Iop_MullEven32Sx4: case Iop_MullEven16Ux8:
	case Iop_MullEven16Sx8: case Iop_PolynomialMul8x16:
		return VMUL;
	case Iop_InterleaveHI8x16: case Iop_InterleaveHI16x8: case Iop_InterleaveHI32x4:
	case Iop_InterleaveHI64x2: case Iop_InterleaveLO8x16: case Iop_InterleaveLO16x8:
	case Iop_InterleaveLO32x4: case Iop_InterleaveLO64x2: case Iop_Perm8x16: case Iop_Perm32x4:
	case Iop_PermOrZero8x16: case Iop_SliceV128: case Iop_ShlV128: case Iop_ShrV128: case Iop_Dup8x16:
	case Iop_Dup16x8: case Iop_Dup32x4: case Iop_NarrowBin16to8x16: case Iop_NarrowBin32to16x8:
	case Iop_GetElem8x16: case Iop_GetElem16x8: case Iop_GetElem32x4: case Iop_GetElem64x2:
	case Iop_SetElem8x16: case Iop_SetElem16x8: case Iop_SetElem32x4: case Iop_SetElem64x2:
		return SHUF;
	case Iop_Perm32x8:
		return XSHUF;
	default:
		break;
	}
	IRType dst, a1, a2, a3, a4;
	typeOfPrimop(op, &dst, &a1, &a2, &a3, &a4);
	/* An FP operation's first argument may be its rounding mode. */
	IRType arg = a1 == Ity_I32 && a2 != Ity_INVALID && (is_float(dst) || is_float(a2)) ? a2 : a1;
	if (is_float(dst) != is_float(arg) && !is_vector(dst) && !is_vector(arg))
		return CVT; /* I64StoF64, F64toI64S, CmpF64 */
	if (is_float(dst) || is_float(arg))
		return FADD;
	if (is_vector(dst) || is_vector(arg))
		return VALU;
	return ALU;
}

/* What the pass knows of each temporary. */
struct temps {
	Int *dist;         /* longest chain from the seed register's value, -1: none */
	Bool *loaded;      /* that chain passes through a load (a pointer chase) */
	Bool *address;     /* used as a memory address */
	Bool *data;        /* used as anything else */
};

static void use(struct temps *t, const IRExpr *e, Bool as_address)
{
	if (e && e->tag == Iex_RdTmp) {
		if (as_address)
			t->address[e->Iex.RdTmp.tmp] = True;
		else
			t->data[e->Iex.RdTmp.tmp] = True;
	}
}

/* The atoms an expression reads (flat IR: its arguments are atoms). */
static void expr_args(const IRExpr *e, const IRExpr *args[5], Int *n)
{
	*n = 0;
	switch (e->tag) {
	case Iex_Unop: args[(*n)++] = e->Iex.Unop.arg; break;
	case Iex_Binop: args[(*n)++] = e->Iex.Binop.arg1; args[(*n)++] = e->Iex.Binop.arg2; break;
	case Iex_Triop:
		args[(*n)++] = e->Iex.Triop.details->arg1;
		args[(*n)++] = e->Iex.Triop.details->arg2;
		args[(*n)++] = e->Iex.Triop.details->arg3;
		break;
	case Iex_Qop:
		args[(*n)++] = e->Iex.Qop.details->arg1;
		args[(*n)++] = e->Iex.Qop.details->arg2;
		args[(*n)++] = e->Iex.Qop.details->arg3;
		args[(*n)++] = e->Iex.Qop.details->arg4;
		break;
	case Iex_ITE:
		args[(*n)++] = e->Iex.ITE.cond;
		args[(*n)++] = e->Iex.ITE.iftrue;
		args[(*n)++] = e->Iex.ITE.iffalse;
		break;
	case Iex_RdTmp: args[(*n)++] = e; break;
	case Iex_CCall:
		for (Int k = 0; e->Iex.CCall.args[k] && *n < 5; k++)
			args[(*n)++] = e->Iex.CCall.args[k];
		break;
	default: break;
	}
}

static const struct op_cost *expr_cost(const IRExpr *e)
{
	static struct op_cost table[Iop_LAST - Iop_INVALID];
	static Bool filled[Iop_LAST - Iop_INVALID];
	IROp op;
	switch (e->tag) {
	case Iex_Unop: op = e->Iex.Unop.op; break;
	case Iex_Binop: op = e->Iex.Binop.op; break;
	case Iex_Triop: op = e->Iex.Triop.details->op; break;
	case Iex_Qop: op = e->Iex.Qop.details->op; break;
	case Iex_Load: return &LOAD;
	case Iex_ITE:
	case Iex_CCall: return &ALU;
	default: return &FREE; /* Get, RdTmp, Const */
	}
	UInt k = (UInt)(op - Iop_INVALID);
	if (!filled[k]) {
		table[k] = op_cost(op);
		filled[k] = True;
	}
	return &table[k];
}

/* Whether guest state at offset is a register whose chain counts: not
 * the instruction pointer (a constant each instruction), nor the stack
 * pointer (the stack engine renames its updates). */
static Bool chain_register(Int offset)
{
	return offset != OFFSET_amd64_RIP && offset != OFFSET_amd64_RSP;
}

static Int max_int(Int a, Int b)
{
	return a > b ? a : b;
}

/* What statement st computes: the temporary it writes (*dst), the atoms
 * its latency runs from (args, *nargs) and that latency (*lat), or for a
 * register's read, its offset (*get, else -1).  False: it writes no
 * temporary. */
static Bool stmt_flow(const IRStmt *st, const struct temps *t, IRTemp *dst, const IRExpr *args[5], Int *nargs,
		      Int *lat, Int *get)
{
	const IRExpr *e = NULL;
	*nargs = 0;
	*lat = 0;
	*get = -1;
	if (st->tag == Ist_WrTmp) {
		*dst = st->Ist.WrTmp.tmp;
		e = st->Ist.WrTmp.data;
	} else if (st->tag == Ist_LoadG) {
		*dst = st->Ist.LoadG.details->dst;
		args[(*nargs)++] = st->Ist.LoadG.details->addr;
		*lat = LOAD.latency;
	} else if (st->tag == Ist_CAS) {
		*dst = st->Ist.CAS.details->oldLo;
		args[(*nargs)++] = st->Ist.CAS.details->addr;
		args[(*nargs)++] = st->Ist.CAS.details->dataLo;
		*lat = ATOMIC.latency;
	} else if (st->tag == Ist_Dirty && st->Ist.Dirty.details->tmp != IRTemp_INVALID) {
		*dst = st->Ist.Dirty.details->tmp;
		*lat = HELPER.latency;
	} else {
		return False;
	}
	if (e && e->tag == Iex_Get) {
		*get = e->Iex.Get.offset;
	} else if (e && e->tag == Iex_Load) {
		args[(*nargs)++] = e->Iex.Load.addr;
		*lat = LOAD.latency;
	} else if (e) {
		expr_args(e, args, nargs);
		/* Address arithmetic is the load's own (its AGU). */
		*lat = t->address[*dst] && !t->data[*dst] ? 0 : expr_cost(e)->latency;
	}
	return True;
}

/* Whether statement st loads (its value comes through memory). */
static Bool stmt_loads(const IRStmt *st)
{
	return st->tag == Ist_LoadG || (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Load);
}

/* The chain from the value of register seed, or (seed -1) from the
 * value statement seed_stmt computes: each temporary's distance
 * (t->dist) and whether it came through a load (t->loaded), and the
 * longest to a write of seed (*chase: one that came through a load)
 * that is the block's last before an exit or its end, where visible is
 * not NULL (visible[s] for a Put at s; NULL: every write).  regs holds
 * the distance of each register written so far (by offset), -1 when not
 * from seed. */
static Int chain_from(const IRSB *sb, Int seed, Int seed_stmt, const Bool *visible, struct temps *t, Int *regs,
		      Bool *regs_loaded, Int nregs, Bool *chase)
{
	Int longest = -1;
	*chase = False;
	for (Int k = 0; k < nregs; k++) {
		regs[k] = k == seed ? 0 : -1;
		regs_loaded[k] = False;
	}
	for (Int k = 0; k < sb->tyenv->types_used; k++) {
		t->dist[k] = -1;
		t->loaded[k] = False;
	}
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		if (st->tag == Ist_Put) {
			Int off = st->Ist.Put.offset, d = -1;
			Bool loaded = False;
			if (st->Ist.Put.data->tag == Iex_RdTmp) {
				d = t->dist[st->Ist.Put.data->Iex.RdTmp.tmp];
				loaded = t->loaded[st->Ist.Put.data->Iex.RdTmp.tmp];
			}
			if (off < nregs) {
				regs[off] = d;
				regs_loaded[off] = loaded;
			}
			if (off == seed && d >= 0 && (!visible || visible[s])) {
				longest = max_int(longest, d);
				*chase |= loaded;
			}
			continue;
		}
		IRTemp dst;
		const IRExpr *args[5];
		Int nargs, lat, get;
		if (!stmt_flow(st, t, &dst, args, &nargs, &lat, &get))
			continue;
		Int d = -1;
		Bool loaded = stmt_loads(st);
		if (get >= 0) {
			d = get < nregs ? regs[get] : -1;
			loaded = get < nregs && regs_loaded[get];
		}
		Bool from_loads = False;
		for (Int k = 0; k < nargs; k++)
			if (args[k]->tag == Iex_RdTmp && t->dist[args[k]->Iex.RdTmp.tmp] >= 0) {
				d = max_int(d, t->dist[args[k]->Iex.RdTmp.tmp] + lat);
				from_loads |= t->loaded[args[k]->Iex.RdTmp.tmp];
			}
		if (s == seed_stmt) {
			d = 0;
			loaded = from_loads = False;
		}
		t->dist[dst] = d;
		t->loaded[dst] = d >= 0 && (loaded || from_loads);
	}
	return longest;
}

/* visible[s] for each Put s that is its register's last write before an
 * exit of the block or its end: what the next execution, or the code an
 * exit goes to, reads.  (Under bm-model/4 every register is written at
 * each instruction, prefetch.h, where VEX would keep only those.)
 * written: nregs flags to work in. */
static void find_visible(const IRSB *sb, Bool *visible, Bool *written, Int nregs)
{
	for (Int k = 0; k < nregs; k++)
		written[k] = False;
	for (Int s = sb->stmts_used - 1; s >= 0; s--) {
		const IRStmt *st = sb->stmts[s];
		visible[s] = False;
		if (st->tag == Ist_Exit) {
			for (Int k = 0; k < nregs; k++)
				written[k] = False;
		} else if (st->tag == Ist_Put && st->Ist.Put.offset < nregs) {
			visible[s] = !written[st->Ist.Put.offset];
			written[st->Ist.Put.offset] = True;
		}
	}
}

/* Where each temporary points that is the same address in every
 * execution of the block: a register the block never writes (its value
 * at the entry) plus a constant. */
struct bases {
	Int *reg;      /* the register's offset, or -1 */
	Long *offset;  /* the constant added */
};

static void find_bases(const IRSB *sb, struct bases *b, Int *written, Int nregs)
{
	for (Int k = 0; k < nregs; k++)
		written[k] = 0;
	for (Int s = 0; s < sb->stmts_used; s++)
		if (sb->stmts[s]->tag == Ist_Put && sb->stmts[s]->Ist.Put.offset < nregs)
			written[sb->stmts[s]->Ist.Put.offset] = 1;
	for (Int k = 0; k < sb->tyenv->types_used; k++)
		b->reg[k] = -1;
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		if (st->tag != Ist_WrTmp)
			continue;
		IRTemp dst = st->Ist.WrTmp.tmp;
		const IRExpr *e = st->Ist.WrTmp.data;
		if (e->tag == Iex_Get && e->Iex.Get.offset < nregs && e->Iex.Get.ty == Ity_I64 &&
		    !written[e->Iex.Get.offset]) {
			b->reg[dst] = e->Iex.Get.offset;
			b->offset[dst] = 0;
		} else if (e->tag == Iex_Binop && (e->Iex.Binop.op == Iop_Add64 || e->Iex.Binop.op == Iop_Sub64) &&
			   e->Iex.Binop.arg1->tag == Iex_RdTmp && e->Iex.Binop.arg2->tag == Iex_Const &&
			   e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64 &&
			   b->reg[e->Iex.Binop.arg1->Iex.RdTmp.tmp] >= 0) {
			IRTemp base = e->Iex.Binop.arg1->Iex.RdTmp.tmp;
			Long c = (Long)e->Iex.Binop.arg2->Iex.Const.con->Ico.U64;
			b->reg[dst] = b->reg[base];
			b->offset[dst] = b->offset[base] + (e->Iex.Binop.op == Iop_Add64 ? c : -c);
		}
	}
}

/* Whether x and y are one address, the same in every execution (a
 * histogram's count[v] is one address in an execution, another in the
 * next). */
static Bool same_address(const struct bases *b, const IRExpr *x, const IRExpr *y)
{
	if (x->tag == Iex_Const && y->tag == Iex_Const)
		return x->Iex.Const.con->tag == Ico_U64 && y->Iex.Const.con->tag == Ico_U64 &&
		       x->Iex.Const.con->Ico.U64 == y->Iex.Const.con->Ico.U64;
	if (x->tag != Iex_RdTmp || y->tag != Iex_RdTmp)
		return False;
	IRTemp p = x->Iex.RdTmp.tmp, q = y->Iex.RdTmp.tmp;
	return b->reg[p] >= 0 && b->reg[p] == b->reg[q] && b->offset[p] == b->offset[q];
}

/* Whether the block can jump to its own start (a loop of one superblock):
 * only there does the next execution follow at once, to wait for what
 * this one stored.  (A block run once between long stretches of other
 * code, a hash's final block that updates its state, would otherwise be
 * charged the forwarding too.) */
static Bool loops_to_itself(const IRSB *sb)
{
	Addr start = 0;
	for (Int s = 0; s < sb->stmts_used && !start; s++)
		if (sb->stmts[s]->tag == Ist_IMark)
			start = sb->stmts[s]->Ist.IMark.addr;
	for (Int s = 0; s < sb->stmts_used; s++)
		if (sb->stmts[s]->tag == Ist_Exit && sb->stmts[s]->Ist.Exit.dst->tag == Ico_U64 &&
		    sb->stmts[s]->Ist.Exit.dst->Ico.U64 == start)
			return True;
	return sb->next->tag == Iex_Const && sb->next->Iex.Const.con->tag == Ico_U64 &&
	       sb->next->Iex.Const.con->Ico.U64 == start;
}

/* The longest chain through memory: from a load's value to the data of
 * the block's last later store to the same address, which the next
 * execution's load gets by forwarding; -1 when there is none.  (regs
 * serves find_bases as its written flags first.) */
static Int memory_chain(const IRSB *sb, struct temps *t, Int *regs, Bool *regs_loaded, Int nregs)
{
	SizeT nt = sb->tyenv->types_used ? (SizeT)sb->tyenv->types_used : 1;
	struct bases b = {VG_(malloc)("bm.cost.base", nt * sizeof(Int)), VG_(malloc)("bm.cost.base", nt * sizeof(Long))};
	find_bases(sb, &b, regs, nregs);
	Int longest = -1;
	for (Int l = 0; l < sb->stmts_used; l++) {
		const IRStmt *ld = sb->stmts[l];
		if (ld->tag != Ist_WrTmp || ld->Ist.WrTmp.data->tag != Iex_Load)
			continue;
		Int last = -1;
		for (Int s = l + 1; s < sb->stmts_used; s++)
			if (sb->stmts[s]->tag == Ist_Store &&
			    same_address(&b, ld->Ist.WrTmp.data->Iex.Load.addr, sb->stmts[s]->Ist.Store.addr))
				last = s;
		const IRExpr *data = last >= 0 ? sb->stmts[last]->Ist.Store.data : NULL;
		if (!data || data->tag != Iex_RdTmp)
			continue;
		Bool chase;
		chain_from(sb, -1, l, NULL, t, regs, regs_loaded, nregs, &chase);
		if (t->dist[data->Iex.RdTmp.tmp] >= 0)
			longest = max_int(longest, t->dist[data->Iex.RdTmp.tmp] + STORE_FORWARD);
	}
	VG_(free)(b.reg);
	VG_(free)(b.offset);
	return longest;
}

/* waits[s], for each conditional exit s: the longest chain, in cycles,
 * from the block's entry (every register ready there) to its guard; 0
 * for every other statement. */
static void guard_waits(const IRSB *sb, struct temps *t, Int *regs, Int nregs, UInt *waits)
{
	for (Int k = 0; k < nregs; k++)
		regs[k] = 0;
	for (Int k = 0; k < sb->tyenv->types_used; k++)
		t->dist[k] = 0;
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		waits[s] = 0;
		if (st->tag == Ist_Put) {
			const IRExpr *v = st->Ist.Put.data;
			if (st->Ist.Put.offset < nregs)
				regs[st->Ist.Put.offset] = v->tag == Iex_RdTmp ? t->dist[v->Iex.RdTmp.tmp] : 0;
			continue;
		}
		if (st->tag == Ist_Exit) {
			const IRExpr *g = st->Ist.Exit.guard;
			waits[s] = g->tag == Iex_RdTmp ? (UInt)t->dist[g->Iex.RdTmp.tmp] : 0;
			continue;
		}
		IRTemp dst;
		const IRExpr *args[5];
		Int nargs, lat, get;
		if (!stmt_flow(st, t, &dst, args, &nargs, &lat, &get))
			continue;
		Int d = get >= 0 && get < nregs ? regs[get] : lat;
		for (Int k = 0; k < nargs; k++)
			if (args[k]->tag == Iex_RdTmp)
				d = max_int(d, t->dist[args[k]->Iex.RdTmp.tmp] + lat);
		t->dist[dst] = d;
	}
}

/* The uses of every temporary: as an address, as data. */
static void find_uses(const IRSB *sb, struct temps *t)
{
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		const IRExpr *args[5];
		Int nargs;
		switch (st->tag) {
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load) {
				use(t, st->Ist.WrTmp.data->Iex.Load.addr, True);
				break;
			}
			expr_args(st->Ist.WrTmp.data, args, &nargs);
			for (Int k = 0; k < nargs; k++)
				use(t, args[k], False);
			break;
		case Ist_Put: use(t, st->Ist.Put.data, False); break;
		case Ist_Store:
			use(t, st->Ist.Store.addr, True);
			use(t, st->Ist.Store.data, False);
			break;
		case Ist_LoadG:
			use(t, st->Ist.LoadG.details->addr, True);
			use(t, st->Ist.LoadG.details->alt, False);
			use(t, st->Ist.LoadG.details->guard, False);
			break;
		case Ist_StoreG:
			use(t, st->Ist.StoreG.details->addr, True);
			use(t, st->Ist.StoreG.details->data, False);
			use(t, st->Ist.StoreG.details->guard, False);
			break;
		case Ist_CAS:
			use(t, st->Ist.CAS.details->addr, True);
			use(t, st->Ist.CAS.details->dataLo, False);
			use(t, st->Ist.CAS.details->expdLo, False);
			break;
		case Ist_Exit: use(t, st->Ist.Exit.guard, False); break;
		case Ist_Dirty:
			for (Int k = 0; st->Ist.Dirty.details->args[k]; k++)
				use(t, st->Ist.Dirty.details->args[k], False);
			use(t, st->Ist.Dirty.details->mAddr, True);
			use(t, st->Ist.Dirty.details->guard, False);
			break;
		default: break;
		}
	}
}

/* Per instruction: the ports it holds, and its heaviest latency. */
struct instr_use {
	UChar hold[P_COUNT];
	UChar latency;
	Bool chained;
};

static void take(struct instr_use *u, const struct op_cost *c)
{
	if (c->port != P_NONE && c->hold > u->hold[c->port])
		u->hold[c->port] = c->hold;
	if (c->latency > u->latency)
		u->latency = c->latency;
}

/* Each instruction's use of the ports (uses[k] for IMark k < n). */
static void instr_uses(const IRSB *sb, const struct temps *t, struct instr_use *uses, UInt n)
{
	Int k = -1;
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		if (st->tag == Ist_IMark) {
			k++;
			continue;
		}
		if (k < 0 || (UInt)k >= n)
			continue;
		struct instr_use *u = &uses[k];
		switch (st->tag) {
		case Ist_WrTmp: {
			IRTemp dst = st->Ist.WrTmp.tmp;
			const IRExpr *e = st->Ist.WrTmp.data;
			if (e->tag == Iex_Load || !(t->address[dst] && !t->data[dst]))
				take(u, expr_cost(e));
			break;
		}
		case Ist_Store:
		case Ist_StoreG: take(u, &STORE); break;
		case Ist_LoadG: take(u, &LOAD); break;
		case Ist_CAS:
		case Ist_LLSC: take(u, &ATOMIC); break;
		case Ist_Exit: take(u, &BRANCH); break;
		case Ist_Dirty: take(u, &HELPER); break;
		default: break;
		}
	}
}

/* The loads whose address comes from a pointer chase (a chain from a
 * register that passes through a load, back to that register): their
 * instructions are marked chained.  A node's other fields are loaded
 * from the same line as its next pointer, and whichever load misses,
 * the chase waits for that line. */
static void mark_chained(const IRSB *sb, const struct temps *t, struct instr_use *uses, UInt n)
{
	Int k = -1;
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		if (st->tag == Ist_IMark)
			k++;
		if (k < 0 || (UInt)k >= n || st->tag != Ist_WrTmp || st->Ist.WrTmp.data->tag != Iex_Load)
			continue;
		const IRExpr *addr = st->Ist.WrTmp.data->Iex.Load.addr;
		if (addr->tag == Iex_RdTmp && t->dist[addr->Iex.RdTmp.tmp] >= 0)
			uses[k].chained = True;
	}
}

UInt block_cost(const IRSB *sb, UInt n, UInt *centi, Bool *chained, UInt *waits)
{
	Int ntemps = sb->tyenv->types_used;
	SizeT nt = ntemps ? (SizeT)ntemps : 1;
	struct temps t = {
		VG_(malloc)("bm.cost.dist", nt * sizeof(Int)), VG_(calloc)("bm.cost.loaded", nt, sizeof(Bool)),
		VG_(calloc)("bm.cost.addr", nt, sizeof(Bool)), VG_(calloc)("bm.cost.data", nt, sizeof(Bool)),
	};
	struct instr_use *uses = VG_(calloc)("bm.cost.uses", n ? n : 1, sizeof *uses);
	find_uses(sb, &t);
	instr_uses(sb, &t, uses, n);

	/* The registers both read and written: each may carry a chain. */
	Int nregs = (Int)sizeof(VexGuestAMD64State);
	Bool *read = VG_(calloc)("bm.cost.read", (SizeT)nregs, sizeof(Bool));
	Int *regs = VG_(malloc)("bm.cost.regs", (SizeT)nregs * sizeof(Int));
	Bool *regs_loaded = VG_(malloc)("bm.cost.regs", (SizeT)nregs * sizeof(Bool));
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		if (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Get &&
		    st->Ist.WrTmp.data->Iex.Get.offset < nregs)
			read[st->Ist.WrTmp.data->Iex.Get.offset] = True;
	}
	Bool *visible = NULL;
	if (memory_chains) {
		visible = VG_(malloc)("bm.cost.visible", (sb->stmts_used ? (SizeT)sb->stmts_used : 1) * sizeof(Bool));
		find_visible(sb, visible, regs_loaded, nregs);
	}
	Int longest = 0;
	for (Int s = 0; s < sb->stmts_used; s++) {
		const IRStmt *st = sb->stmts[s];
		Int off = st->tag == Ist_Put ? st->Ist.Put.offset : -1;
		if (off < 0 || off >= nregs || !read[off] || !chain_register(off))
			continue;
		read[off] = False; /* each register once */
		Bool chase;
		Int d = chain_from(sb, off, -1, visible, &t, regs, regs_loaded, nregs, &chase);
		longest = max_int(longest, d);
		if (chase)
			mark_chained(sb, &t, uses, n);
	}
	if (memory_chains && loops_to_itself(sb))
		longest = max_int(longest, memory_chain(sb, &t, regs, regs_loaded, nregs));

	if (waits)
		guard_waits(sb, &t, regs, nregs, waits);

	/* The bounds, in hundredths of a cycle. */
	UInt busy[P_COUNT] = {0}, weight = 0, cost = 100 * n / ISSUE_WIDTH;
	for (UInt k = 0; k < n; k++)
		for (Int p = P_ALU; p < P_COUNT; p++)
			busy[p] += uses[k].hold[p];
	for (Int p = P_ALU; p < P_COUNT; p++)
		if (100 * busy[p] / port_width[p] > cost)
			cost = 100 * busy[p] / port_width[p];
	if (100 * (UInt)longest > cost)
		cost = 100 * (UInt)longest;

	/* Spread over the instructions by their latency. */
	for (UInt k = 0; k < n; k++)
		weight += uses[k].latency ? uses[k].latency : 1;
	UInt given = 0;
	for (UInt k = 0; k < n; k++) {
		centi[k] = k + 1 == n ? cost - given
				      : (UInt)((ULong)cost * (uses[k].latency ? uses[k].latency : 1) / weight);
		given += centi[k];
		chained[k] = uses[k].chained;
	}
	if (visible)
		VG_(free)(visible);
	VG_(free)(read);
	VG_(free)(regs);
	VG_(free)(regs_loaded);
	VG_(free)(uses);
	VG_(free)(t.dist);
	VG_(free)(t.loaded);
	VG_(free)(t.address);
	VG_(free)(t.data);
	return cost;
}
