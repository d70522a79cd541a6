/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * Callgrind's call graph (callgrind/bbcc.c setup_bbcc and callstack.c,
 * Valgrind 3.19), kept where a superblock ends in a call, a return or a
 * jump that callgrind takes for a call, instead of at every block.  A
 * call's inclusive cost is the difference of the calling thread's totals
 * between its entry and its return, as callgrind's is; calls to PLT stubs
 * are skipped (--skip-plt=yes): the stub's cost is the call site's and the
 * function it jumps to is called from the call site. */
#include "callgraph.h"

#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

ULong engine_total[EV_COUNT];

/* A block entered from another function (block_enter below) moves the
 * counts its execution changed: its segments' and the events of its
 * instructions that helpers count (all but the system calls, which
 * post_syscall charges to the current function itself; the branch
 * predictor's misses and bm-model/2's events included), of those the ones
 * this run counts (the others stay 0). */
#define SNAP_EVENTS EV_SYSCOUNT
static Int snap_active[SNAP_EVENTS], nsnap;

struct frame {
	struct edge *edge;         /* NULL: a skipped call */
	struct instr *site;        /* the call site (of its edge) */
	Addr sp;                   /* the stack pointer at the callee's entry */
	Addr ret;                  /* where a real call returns to, or 0 */
	ULong enter[EV_COUNT];     /* the thread's totals at the entry */
	struct instr *nonskipped;  /* the thread's before this call */
	const struct fn *caller;   /* the thread's current function before it */
};

#define SIGNALS_MAX 16

struct thread {
	struct frame *frames;
	Int depth, cap;
	ULong kept[EV_COUNT];      /* its totals while another thread runs */
	ULong lastdump[EV_COUNT];  /* its totals at the last dump or zeroing */
	/* Inside skipped code (a PLT stub): the call site it was called from,
	 * whose skipped cost grows by what runs until skip_start moves. */
	struct instr *nonskipped;
	ULong skip_start[EV_COUNT];
	/* The function its costs are charged to: the last one called (not
	 * through a PLT stub) of the calls in progress, or the one it started
	 * in (callgrind's context). */
	const struct fn *current;
	/* The contexts that signal handlers interrupted, innermost last:
	 * SIGNALS_MAX of them, made at the thread's first signal (a thread
	 * record is made for each of Valgrind's threads at start-up, and
	 * few ever take a signal). */
	struct signal_cxt {
		Int depth;
		const struct fn *current;
		struct instr *nonskipped;
		ULong start[EV_COUNT];
	} *signals;
	Int nsignals; /* may exceed SIGNALS_MAX: those are not kept */
};

static struct thread *threads; /* VG_N_THREADS */
static ThreadId running = 1;
static VgHashTable *places, *fns;

/* A thread's totals: the running one's are engine_total, the others'
 * are kept aside.  Totals, and the marks frames keep of them, are whole
 * vectors by event: the events this run does not count stay 0 in all,
 * and a loop of a fixed length over all (which the compiler does two at a
 * time) costs a call and its return less than one through a table of the
 * counted ones. */
static inline void totals(const struct thread *t, ULong out[EV_COUNT])
{
	__builtin_memcpy(out, t == &threads[running] ? engine_total : t->kept, EV_COUNT * sizeof(ULong));
}

static inline void copy_totals(ULong dst[EV_COUNT], const ULong src[EV_COUNT])
{
	__builtin_memcpy(dst, src, EV_COUNT * sizeof(ULong));
}

/* Two counts at a time (SSE2, which every x86-64 has). */
typedef ULong pair __attribute__((vector_size(16)));

/* Adds what went by since old to dst; old = now. */
static inline void add_diff(ULong *dst, ULong old[EV_COUNT], const ULong now[EV_COUNT])
{
	Int e = 0;
	for (; e + 2 <= EV_COUNT; e += 2) {
		pair d, o, n;
		__builtin_memcpy(&d, dst + e, sizeof d);
		__builtin_memcpy(&o, old + e, sizeof o);
		__builtin_memcpy(&n, now + e, sizeof n);
		d += n - o;
		__builtin_memcpy(dst + e, &d, sizeof d);
		__builtin_memcpy(old + e, &n, sizeof n);
	}
	for (; e < EV_COUNT; e++) {
		dst[e] += now[e] - old[e];
		old[e] = now[e];
	}
}

/* Valgrind runs one thread at a time: the totals of the one that stops
 * are kept aside, the one that starts goes on from its own. */
void callgraph_thread_start(ThreadId tid)
{
	if (tid == running)
		return;
	struct thread *old = &threads[running], *new = &threads[tid];
	VG_(memcpy)(old->kept, engine_total, sizeof old->kept);
	VG_(memcpy)(engine_total, new->kept, sizeof engine_total);
	running = tid;
	block_expect(new->current);
}

const struct fn *callgraph_current(const struct fn *home)
{
	struct thread *t = &threads[running];
	if (!t->current && home) {
		t->current = home;
		block_expect(home);
	}
	return t->current;
}

Int callgraph_depth(void)
{
	return threads[running].depth;
}

void callgraph_charge_at(Int depth, const ULong delta[EV_COUNT])
{
	struct thread *t = &threads[running];
	for (Int f = depth; f < t->depth; f++)
		for (Int e = 0; e < EV_COUNT; e++)
			t->frames[f].enter[e] += delta[e];
}

static void set_current(struct thread *t, const struct fn *fn)
{
	t->current = fn;
	if (t == &threads[running])
		block_expect(fn);
}

void callgraph_init(void)
{
	for (Int e = 0; e < SNAP_EVENTS; e++)
		if (event_on[e])
			snap_active[nsnap++] = e;
	threads = VG_(calloc)("bm.threads", VG_N_THREADS, sizeof *threads);
	places = VG_(HT_construct)("bm.places");
	fns = VG_(HT_construct)("bm.fns");
	contexts_init();
}

/* ---- functions ---- */

UWord name_hash(const HChar *s, UWord h)
{
	for (; *s; s++)
		h = h * 31 + (UChar)*s;
	return h * 31;
}

static Word same_fn(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;
	return VG_(strcmp)(x->obj, y->obj) || VG_(strcmp)(x->file, y->file) || VG_(strcmp)(x->name, y->name);
}

/* The source file of a (dir/file), newly allocated. */
static HChar *file_at(Addr a)
{
	const HChar *s, *dir;
	UInt line;
	if (!VG_(get_filename_linenum)(VG_(current_DiEpoch)(), a, &s, &dir, &line) || !s || !*s)
		return VG_(strdup)("bm.name", "???");
	if (dir && *dir && *s != '/') {
		HChar *file = VG_(malloc)("bm.name", VG_(strlen)(dir) + VG_(strlen)(s) + 2);
		VG_(sprintf)(file, "%s/%s", dir, s);
		return file;
	}
	return VG_(strdup)("bm.name", s);
}

/* The function callgrind names for a block starting at a. */
static const struct fn *fn_at(Addr a)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *s;
	struct fn key;
	key.obj = VG_(strdup)("bm.name", VG_(get_objname)(ep, a, &s) && s && *s ? s : "???");
	key.file = file_at(a);
	if (VG_(get_fnname)(ep, a, &s) && s && *s) {
		key.name = VG_(strdup)("bm.name", s);
	} else {
		/* No symbol: the block's address in its object. */
		const DebugInfo *di = VG_(find_DebugInfo)(ep, a);
		key.name = VG_(malloc)("bm.name", 24);
		VG_(sprintf)(key.name, "0x%016lx", a - (di ? VG_(DebugInfo_get_text_bias)(di) : 0));
	}
	key.hash = name_hash(key.name, name_hash(key.file, name_hash(key.obj, 0)));
	struct fn *fn = VG_(HT_gen_lookup)(fns, &key, same_fn);
	if (fn) {
		VG_(free)(key.obj);
		VG_(free)(key.file);
		VG_(free)(key.name);
		return fn;
	}
	fn = VG_(malloc)("bm.fn", sizeof *fn);
	*fn = key;
	fn->base = fn;
	fn->cxt = NULL;
	fn->collect = contexts_index(fn->name);
	VG_(HT_add_node)(fns, fn);
	return fn;
}

/* ---- places ---- */

/* The places looked up last, by address: an indirect call (SQLite calls
 * its allocator, its comparisons and its pager through pointers) asks
 * for its target's place on every call.  Places are never removed, so a
 * hit is what the table would say. */
#define PLACE_CACHE_BITS 14
static struct place *place_cache[1 << PLACE_CACHE_BITS];

struct place *place_of(Addr a)
{
	struct place **slot = &place_cache[(a ^ (a >> PLACE_CACHE_BITS)) & ((1 << PLACE_CACHE_BITS) - 1)];
	if (*slot && (*slot)->addr == a)
		return *slot;
	struct place *p = VG_(HT_lookup)(places, a);
	if (p)
		return *slot = p;
	p = VG_(calloc)("bm.place", 1, sizeof *p);
	p->addr = a;
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *name;
	p->sect = VG_(DebugInfo_sect_kind)(NULL, a);
	p->obj = VG_(find_DebugInfo)(ep, a);
	if (VG_(get_fnname)(ep, a, &name)) {
		p->is_entry = VG_(get_fnname_if_entry)(ep, a, &name);
		p->pop_on_jump = VG_(strncmp)(name, "_dl_runtime_resolve", 19) == 0;
	}
	p->skip = p->sect == Vg_SectPLT;
	p->fn = fn_at(a);
	VG_(HT_add_node)(places, p);
	return *slot = p;
}

static Bool jump_is_call(const struct place *from, const struct place *to)
{
	return to->is_entry || to->sect != from->sect || to->obj != from->obj;
}

Bool callgraph_jump_is_call(const struct place *from, Addr to)
{
	return jump_is_call(from, place_of(to));
}

/* ---- the stack ---- */

/* What the PLT stubs called from site cost, made on first use. */
static ULong *skipped_of(struct instr *site)
{
	if (!site->skipped)
		site->skipped = VG_(calloc)("bm.skipped", EV_COUNT, sizeof(ULong));
	return site->skipped;
}

/* The thread's skipped code is now site's (or none): what ran since the
 * last change, until now (its totals), was the previous site's. */
static void set_nonskipped_at(struct thread *t, struct instr *site, const ULong now[EV_COUNT])
{
	if (site == t->nonskipped)
		return;
	if (t->nonskipped)
		add_diff(skipped_of(t->nonskipped), t->skip_start, now); /* which moves skip_start to now */
	else
		copy_totals(t->skip_start, now);
	t->nonskipped = site;
}

static void set_nonskipped(struct thread *t, struct instr *site)
{
	if (site != t->nonskipped) {
		ULong now[EV_COUNT];
		totals(t, now);
		set_nonskipped_at(t, site, now);
	}
}

static struct edge *edge_get(struct instr *site, Addr to, const struct fn *callee)
{
	for (struct edge *e = site->edges; e; e = e->next)
		if (e->to == to && e->callee == callee)
			return e;
	struct edge *e = VG_(calloc)("bm.edge", 1, sizeof *e);
	e->to = to;
	e->callee = callee;
	e->next = site->edges;
	site->edges = e;
	return e;
}

/* The function a call to p from caller is charged to: p's own, within
 * the caller's context (and p's, when it is collected). */
static const struct fn *callee_fn(struct place *p, const struct fn *caller)
{
	const struct cxt *c = caller ? caller->cxt : NULL;
	if (!c && p->fn->collect < 0)
		return p->fn;
	if (!p->within || p->within_cxt != c) {
		p->within = contexts_callee(p->fn, c);
		p->within_cxt = c;
	}
	return p->within;
}

/* The call site's record for the function its block was charged to
 * (site_fn), as the frame of a call through a PLT stub names the stub's
 * call site instead: looked up only where it is used. */
static void push(struct thread *t, struct instr *site, const struct fn *site_fn, struct place *callee, Addr sp,
		 Addr ret)
{
	Addr to = callee->addr;
	Bool skip = callee->skip;
	if (t->depth == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->frames = VG_(realloc)("bm.frames", t->frames, t->cap * sizeof *t->frames);
	}
	struct frame *f = &t->frames[t->depth++];
	/* (Field by field: a compound literal would clear the whole frame
	 * first, on every call.) */
	f->edge = NULL;
	f->sp = sp;
	f->ret = ret;
	f->nonskipped = t->nonskipped;
	f->caller = t->current;
	/* A call from skipped code is the call site's. */
	f->site = t->nonskipped && !skip ? t->nonskipped : site ? instr_for(site, site_fn) : NULL;
	if (!skip) {
		set_current(t, callee_fn(callee, t->current));
		f->edge = edge_get(f->site, to, t->current);
		f->edge->calls++;
		totals(t, f->enter);
		set_nonskipped_at(t, NULL, f->enter);
	} else if (!t->nonskipped) {
		set_nonskipped(t, f->site);
	}
}

/* Pops the frames above depth.  Nothing runs between two pops: the
 * totals are read once, and the current function set once. */
static void pop_to(struct thread *t, Int depth)
{
	if (t->depth <= depth)
		return;
	ULong now[EV_COUNT];
	totals(t, now);
	Bool moved = False;
	while (t->depth > depth) {
		struct frame *f = &t->frames[--t->depth];
		if (f->edge)
			add_diff(f->edge->cost, f->enter, now);
		if (f->nonskipped != t->nonskipped) {
			/* After the first move the mark is at now: a site left
			 * later adds nothing, but has its place for it. */
			if (!moved)
				set_nonskipped_at(t, f->nonskipped, now);
			else if (t->nonskipped)
				skipped_of(t->nonskipped);
			t->nonskipped = f->nonskipped;
			moved = True;
		}
		t->current = f->caller;
	}
	set_current(t, t->current);
}

static void pop(struct thread *t)
{
	pop_to(t, t->depth - 1);
}

/* Pops the frames the stack pointer has left (and minpops more at it). */
static Int unwind(struct thread *t, Addr sp, Int minpops)
{
	Int n = 0;
	for (; n < t->depth; n++, minpops--) {
		const struct frame *top = &t->frames[t->depth - 1 - n];
		if (!(top->sp < sp || (top->sp == sp && minpops > 0)))
			break;
	}
	pop_to(t, t->depth - n);
	return n;
}

/* A return with an empty stack: callgrind makes up a call, lasting since
 * the last dump, from the instruction before the one returned to. */
static void underflow(struct thread *t, struct place *from, Addr target)
{
	/* From the function returned to, to the one that returns. */
	const struct fn *callee = t->current ? t->current : from->fn;
	set_current(t, place_of(target)->fn);
	struct instr *site = instr_get(target - 1, 0, t->current);
	struct edge *e = edge_get(site, from->addr, callee);
	e->calls++;
	ULong now[EV_COUNT], enter[EV_COUNT];
	totals(t, now);
	copy_totals(enter, t->lastdump);
	add_diff(e->cost, enter, now);
}

/* What setup_bbcc does at the start of the block after this one; to is
 * target's place where the translation knew it (else NULL). */
static void event(enum graph_kind kind, struct instr *site, Addr target, struct place *to, Addr sp,
		  struct place *from, Bool real_call)
{
	struct thread *t = &threads[running];
	/* The call site's record is the one for the function its block was
	 * charged to (push looks it up where it needs it). */
	const struct fn *site_fn = t->current;
	Int popcount = 1;
	Bool ret_without_call = False;
	if (kind == GRAPH_RETURN && t->depth > 0) {
		/* A return that does not match the top call is a jump. */
		Int up = t->depth - 1;
		struct frame *top = &t->frames[up];
		if (sp < top->sp) {
			popcount = 0;
		} else if (top->sp == sp) {
			for (;;) {
				if (top->ret == target)
					break;
				if (up > 0 && t->frames[up - 1].sp == sp) {
					top = &t->frames[--up];
					popcount++;
					continue;
				}
				popcount = 0;
				break;
			}
		}
		if (popcount == 0) {
			kind = GRAPH_JUMP;
			ret_without_call = True;
		}
	}
	Bool emulated = False;
	if (kind == GRAPH_JUMP) {
		if (!to)
			to = place_of(target);
		if (!ret_without_call && !jump_is_call(from, to))
			return (void)unwind(t, sp, 0);
		if (from->pop_on_jump && t->depth > 0 && t->frames[t->depth - 1].edge) {
			/* The resolver's jump to the resolved function: a call
			 * from where the resolver was called. */
			struct frame *top = &t->frames[t->depth - 1];
			site = top->site;
			site_fn = site ? site->fn : NULL;
			sp = top->sp;
			pop(t);
		}
		kind = GRAPH_CALL;
		emulated = True;
	}
	if (kind == GRAPH_RETURN) {
		if (t->depth == 0)
			underflow(t, from, target);
		else
			unwind(t, sp, popcount);
		return;
	}
	unwind(t, sp, 0);
	if (emulated && t->depth > 0)
		sp = t->frames[t->depth - 1].sp;
	push(t, site, site_fn, to ? to : place_of(target), sp, real_call ? site->addr + site->size : 0);
}

/* ---- signal handlers ----
 *
 * A handler runs in a context of its own, as callgrind runs it: it is
 * charged to its own function, called by nothing, and its calls (and its
 * return to the kernel's trampoline, a return that matches no call) are
 * unwound when it ends; then the interrupted context goes on. */

void callgraph_signal_start(ThreadId tid)
{
	struct thread *t = &threads[tid];
	if (!t->signals)
		t->signals = VG_(malloc)("bm.signals", SIGNALS_MAX * sizeof *t->signals);
	if (t->nsignals < SIGNALS_MAX) {
		struct signal_cxt *c = &t->signals[t->nsignals];
		*c = (struct signal_cxt){t->depth, t->current, t->nonskipped, {0}};
		totals(t, c->start);
	}
	t->nsignals++;
	set_nonskipped(t, NULL);
	set_current(t, NULL);
}

/* At its rt_sigreturn, before that block is taken back. */
void callgraph_signal_return(ThreadId tid)
{
	struct thread *t = &threads[tid];
	if (t->nsignals > 0 && t->nsignals <= SIGNALS_MAX)
		while (t->depth > t->signals[t->nsignals - 1].depth)
			pop(t);
}

void callgraph_signal_end(ThreadId tid)
{
	struct thread *t = &threads[tid];
	if (t->nsignals == 0 || --t->nsignals >= SIGNALS_MAX)
		return;
	const struct signal_cxt *c = &t->signals[t->nsignals];
	while (t->depth > c->depth)
		pop(t);
	set_nonskipped(t, c->nonskipped);
	set_current(t, c->current);
	/* The handler's cost is part of no call it interrupted. */
	ULong now[EV_COUNT];
	totals(t, now);
	for (Int e = 0; e < EV_COUNT; e++) {
		ULong spent = now[e] - c->start[e];
		for (Int k = 0; k < t->depth; k++)
			t->frames[k].enter[e] += spent;
		t->skip_start[e] += spent;
	}
}

void callgraph_call(struct instr *site, Addr target, struct place *to, Addr sp)
{
	event(GRAPH_CALL, site, target, to, sp, NULL, True);
}

/* site is the return instruction: a return that matches no call (from a
 * signal handler to the kernel's trampoline, say) is taken as a call from
 * there, as callgrind takes it. */
void callgraph_return(struct instr *site, Addr target, Addr sp, struct place *from)
{
	event(GRAPH_RETURN, site, target, NULL, sp, from, False);
}

void callgraph_jump(struct instr *site, Addr target, struct place *to, Addr sp, struct place *from)
{
	event(GRAPH_JUMP, site, target, to, sp, from, False);
}

/* ---- dumps ---- */

void callgraph_before_dump(void)
{
	for (ThreadId tid = 1; tid < VG_N_THREADS; tid++) {
		struct thread *t = &threads[tid];
		ULong now[EV_COUNT];
		totals(t, now);
		for (Int k = 0; k < t->depth; k++)
			if (t->frames[k].edge)
				add_diff(t->frames[k].edge->cost, t->frames[k].enter, now);
		if (t->nonskipped)
			add_diff(skipped_of(t->nonskipped), t->skip_start, now);
	}
}

void callgraph_zero(void)
{
	for (ThreadId tid = 1; tid < VG_N_THREADS; tid++) {
		struct thread *t = &threads[tid];
		ULong now[EV_COUNT];
		totals(t, now);
		for (Int k = 0; k < t->depth; k++)
			copy_totals(t->frames[k].enter, now);
		copy_totals(t->lastdump, now);
		copy_totals(t->skip_start, now);
	}
}

void callgraph_unwind_all(void)
{
	for (ThreadId tid = 1; tid < VG_N_THREADS; tid++) {
		while (threads[tid].depth > 0)
			pop(&threads[tid]);
		set_current(&threads[tid], NULL);
	}
}

/* ---- blocks entered from another function ----
 *
 * Callgrind charges a block's costs to the function whose call is in
 * progress (callgrind/bbcc.c: a BBCC per block and context), which is the
 * block's own function except where its code was entered by a jump from
 * another function (glibc's memset jumping into the code of
 * __memset_sse2_unaligned_erms, a .cold part, code without a symbol).  The
 * translations count for the block's own function; each block's entry
 * compares the current function with its own (one load and compare), and
 * only where they differ does block_enter run: it keeps a snapshot of the
 * block's counts, and at the next block's entry (or callgraph_settle) the
 * difference moves to the records of the current function. */

ULong engine_expect;
static struct block *pending;          /* the block whose costs move, */
static const struct fn *pending_fn;    /* to this function's records */


static void snapshot(struct block *b)
{
	if (!b->snap)
		b->snap = VG_(malloc)("bm.snap", (b->nsegs + b->ninstrs * SNAP_EVENTS) * sizeof(ULong));
	ULong *s = b->snap;
	for (UInt k = 0; k < b->nsegs; k++)
		*s++ = b->segs[k]->count;
	for (UInt k = 0; k < b->ninstrs; k++)
		for (Int j = 0; j < nsnap; j++)
			*s++ = b->instrs[k]->cost[snap_active[j]];
}

/* Moves what the pending block counted since its snapshot to the records
 * of pending_fn. */
static void settle(void)
{
	if (!pending)
		return;
	struct block *b = pending;
	pending = NULL;
	const ULong *s = b->snap;
	for (UInt k = 0; k < b->nsegs; k++, s++) {
		struct segment *sg = b->segs[k];
		ULong d = sg->count - *s;
		if (!d)
			continue;
		sg->count -= d;
		for (UInt j = 0; j < sg->n; j++)
			item_add(&sg->items[j], instr_for(sg->items[j].i, pending_fn), d);
	}
	for (UInt k = 0; k < b->ninstrs; k++, s += nsnap) {
		struct instr *i = b->instrs[k], *to = NULL;
		for (Int j = 0; j < nsnap; j++) {
			Int e = snap_active[j];
			ULong d = i->cost[e] - s[j];
			if (!d)
				continue;
			if (!to)
				to = instr_for(i, pending_fn);
			i->cost[e] -= d;
			to->cost[e] += d;
		}
	}
}

void block_expect(const struct fn *fn)
{
	engine_expect = pending ? 0 : (ULong)(HWord)fn;
}

VG_REGPARM(1) void block_enter(struct block *b)
{
	settle();
	const struct fn *now = callgraph_current(b->own);
	b->last_caller = now != b->home ? now : NULL;
	if (b->last_caller) {
		snapshot(b);
		pending = b;
		pending_fn = now;
	}
	block_expect(now);
}

void callgraph_settle(void)
{
	settle();
	block_expect(callgraph_current(NULL));
}
