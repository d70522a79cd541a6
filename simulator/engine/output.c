/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * A dump in callgrind's format (docs: Valgrind's manual, "Callgrind
 * Format Specification"), so that bm-run, bm-profile and KCachegrind read
 * it as they read callgrind's: the self cost of each source line of each
 * function, the calls made from it with their inclusive costs, and the
 * totals. */
#include "output.h"

#include "cachesim.h"
#include "callgraph.h"
#include "costs.h"
#include "cpu_askers.h"
#include "heap.h"
#include "settings.h"
#include "threads.h"

#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"


/* A name the records share, with its place in the order of a dump: a
 * function (its object, file and name) or a source file.  The records
 * are sorted by these ranks, so that the names are compared once each
 * rather than at every comparison of the sort. */
struct name {
	struct name *next; /* VgHashNode, keyed by */
	UWord key;         /* the function record's address, or the file's hash */
	const struct fn *fn;
	HChar *file;       /* a file's name (owned) */
	UInt rank;
};

/* One instruction record's costs with where it is: charged to its
 * function (object, file and name), on its own line, in its own file. */
struct located {
	const struct fn *fn;
	const struct name *fn_name, *file_name; /* its function, and its source file */
	UInt line;
	Addr addr;   /* relative to its object's load offset, as callgrind
		      * writes addresses */
	const ULong *cost;
	const struct instr *i;
	Bool plt; /* in a PLT section */
};

/* The names of one dump; by_where finds a file's name from the strings
 * the debug information gave for it, whose addresses are the same for
 * every instruction of the file (putting the name together and hashing
 * it was most of the dump's lookups). */
struct names {
	VgHashTable *fns, *files, *by_where;
};

/* A file's name by the debug information's strings for it. */
struct where {
	struct where *next; /* VgHashNode, keyed by */
	UWord key;          /* the strings' addresses, mixed */
	const HChar *dir, *s;
	struct name *name;
};

static Word same_where(const void *a, const void *b)
{
	const struct where *x = a, *y = b;
	return x->s != y->s || x->dir != y->dir;
}

static Word same_file(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	return x->key != y->key || VG_(strcmp)(x->file, y->file);
}

/* The file named dir/s (or s), once per dump: looked up for every
 * instruction record, so the name is put together without a format. */
static struct name *file_name(struct names *n, const HChar *dir, const HChar *s)
{
	SizeT d = dir ? VG_(strlen)(dir) + 1 : 0, len = d + VG_(strlen)(s);
	HChar *path = VG_(malloc)("bm.name", len + 1);
	if (dir) {
		VG_(memcpy)(path, dir, d - 1);
		path[d - 1] = '/';
	}
	VG_(strcpy)(path + d, s);
	struct name key = {.key = name_hash(path, 0), .file = path};
	struct name *f = VG_(HT_gen_lookup)(n->files, &key, same_file);
	if (f) {
		VG_(free)(path);
		return f;
	}
	f = VG_(malloc)("bm.name", sizeof *f);
	*f = key;
	VG_(HT_add_node)(n->files, f);
	return f;
}

/* The source line of a, or 0. */
static UInt line_of(Addr a)
{
	const HChar *s, *dir;
	UInt line;
	return VG_(get_filename_linenum)(VG_(current_DiEpoch)(), a, &s, &dir, &line) ? line : 0;
}

/* The source file of a and its line. */
static struct name *file_of(struct names *n, Addr a, UInt *line)
{
	const HChar *s, *dir;
	if (!VG_(get_filename_linenum)(VG_(current_DiEpoch)(), a, &s, &dir, line)) {
		*line = 0;
		s = dir = NULL; /* "???", found as any other */
	}
	struct where key = {.key = (UWord)s * 31 + (UWord)dir, .dir = dir, .s = s};
	struct where *w = VG_(HT_gen_lookup)(n->by_where, &key, same_where);
	if (w)
		return w->name;
	key.name = dir && *dir && *s != '/' ? file_name(n, dir, s) : file_name(n, NULL, s && *s ? s : "???");
	w = VG_(malloc)("bm.where", sizeof *w);
	*w = key;
	VG_(HT_add_node)(n->by_where, w);
	return w->name;
}

static struct name *fn_name(struct names *n, const struct fn *fn)
{
	struct name *f = VG_(HT_lookup)(n->fns, (UWord)fn);
	if (!f) {
		f = VG_(calloc)("bm.name", 1, sizeof *f);
		f->key = (UWord)fn;
		f->fn = fn;
		VG_(HT_add_node)(n->fns, f);
	}
	return f;
}

static Int by_fn_name(const void *a, const void *b)
{
	const struct fn *x = (*(const struct name *const *)a)->fn, *y = (*(const struct name *const *)b)->fn;
	Int c = VG_(strcmp)(x->obj, y->obj);
	if (!c)
		c = VG_(strcmp)(x->file, y->file);
	return c ? c : VG_(strcmp)(x->name, y->name);
}

static Int by_file_name(const void *a, const void *b)
{
	return VG_(strcmp)((*(const struct name *const *)a)->file, (*(const struct name *const *)b)->file);
}

/* Ranks the names of a table in the order cmp gives, equal names alike. */
static void rank(VgHashTable *t, Int (*cmp)(const void *, const void *))
{
	UInt n;
	struct name **all = (struct name **)VG_(HT_to_array)(t, &n);
	VG_(ssort)(all, n, sizeof *all, cmp);
	for (UInt k = 0; k < n; k++)
		all[k]->rank = k && cmp(&all[k - 1], &all[k]) == 0 ? all[k - 1]->rank : k;
	VG_(free)(all);
}

static void free_name(void *node)
{
	VG_(free)(((struct name *)node)->file);
	VG_(free)(node);
}

static Addr relative(Addr a)
{
	const DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
	return a - (di ? VG_(DebugInfo_get_text_bias)(di) : 0);
}

struct locating {
	XArray *all;
	struct names *names;
};

static void locate(const struct instr *i, void *data)
{
	struct locating *to = data;
	struct located l = {.fn = i->fn, .addr = relative(i->addr), .cost = i->cost, .i = i};
	l.fn_name = fn_name(to->names, i->fn);
	l.file_name = file_of(to->names, i->addr, &l.line);
	l.plt = VG_(DebugInfo_sect_kind)(NULL, i->addr) == Vg_SectPLT;
	VG_(addToXA)(to->all, &l);
}

/* By function (object, file, name), source file, line and address. */
static Int by_place(const void *a, const void *b)
{
	const struct located *x = a, *y = b;
	if (x->fn_name->rank != y->fn_name->rank)
		return x->fn_name->rank < y->fn_name->rank ? -1 : 1;
	if (x->file_name->rank != y->file_name->rank)
		return x->file_name->rank < y->file_name->rank ? -1 : 1;
	Int c = (x->line > y->line) - (x->line < y->line);
	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

/* Buffered output to a file descriptor. */
struct out {
	Int fd;
	Bool failed;
	Int len;
	HChar buf[65536];
};

static void out_flush(struct out *o)
{
	if (o->len && VG_(write)(o->fd, o->buf, o->len) != o->len)
		o->failed = True;
	o->len = 0;
}

static void out_text(struct out *o, const HChar *s)
{
	for (; *s; s++) {
		if (o->len == (Int)sizeof o->buf)
			out_flush(o);
		o->buf[o->len++] = *s;
	}
}

/* v in base 10 or 16 (lower case), as "%llu" and "%lx" write it: the
 * dump writes a number per event per record, where VG_(sprintf) would
 * take a good part of the dump's time. */
static void out_number(struct out *o, ULong v, UInt base)
{
	HChar digits[24];
	Int n = sizeof digits;
	digits[--n] = 0;
	do {
		digits[--n] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	out_text(o, digits + n);
}

/* "\ndesc: Heap WHAT: N bytes", and " in M blocks" where blocks is given. */
static void out_heap_line(struct out *o, const HChar *what, ULong bytes, const ULong *blocks)
{
	out_text(o, "\ndesc: Heap ");
	out_text(o, what);
	out_text(o, ": ");
	out_number(o, bytes, 10);
	out_text(o, " bytes");
	if (blocks) {
		out_text(o, " in ");
		out_number(o, *blocks, 10);
		out_text(o, " blocks");
	}
}

/* The events a dump has, in the order of its "events:" line: the branch
 * events only with --branch-sim=yes (where callgrind puts them), the L2's
 * with --L2, the core's and the chained loads' with --block-cost=yes. */
static Bool dumped(Int e)
{
	return event_on[e];
}

static void out_costs(struct out *o, const ULong *cost)
{
	/* Trailing zeros are left out, as callgrind does; the first is
	 * always there. */
	Int n = EV_COUNT;
	while (n > 1 && (cost[n - 1] == 0 || !dumped(n - 1)))
		n--;
	for (Int e = 0; e < n; e++) {
		if (!dumped(e))
			continue;
		out_text(o, " ");
		out_number(o, cost[e], 10);
	}
}

/* The position of l on a line ("LINE" or "0xADDR LINE"). */
static void out_position(struct out *o, const struct located *l)
{
	if (clo.dump_instr) {
		out_text(o, "0x");
		out_number(o, l->addr, 16);
		out_text(o, " ");
	}
	out_number(o, l->line, 10);
}

static void out_calls(struct out *o, const struct located *site)
{
	for (const struct edge *e = site->i->edges; e; e = e->next) {
		if (!e->calls && !e->cost[EV_IR] && !e->cost[EV_SYSCOUNT])
			continue;
		struct located to = {.fn = e->callee, .addr = relative(e->to), .line = line_of(e->to)};
		out_text(o, "cob=");
		out_text(o, to.fn->obj);
		out_text(o, "\ncfi=");
		out_text(o, to.fn->file);
		out_text(o, "\ncfn=");
		out_text(o, to.fn->name);
		HChar count[32];
		VG_(sprintf)(count, "\ncalls=%llu ", e->calls);
		out_text(o, count);
		out_position(o, &to);
		out_text(o, "\n");
		out_position(o, site);
		out_costs(o, e->cost);
		out_text(o, "\n");
	}
}

/* Callgrind charges a PLT stub's instructions to the call site
 * (--skip-plt): the call graph kept what they cost per call site in its
 * skipped costs.  They move there when those account for every execution
 * of PLT code (they do but where a region starts inside a stub). */
static Bool plt_moves(XArray *all)
{
	ULong plt[EV_COUNT] = {0}, skipped[EV_COUNT] = {0};
	for (Word k = 0; k < VG_(sizeXA)(all); k++) {
		const struct located *l = VG_(indexXA)(all, k);
		for (Int e = 0; e < EV_COUNT; e++) {
			if (l->plt)
				plt[e] += l->cost[e];
			if (l->i->skipped)
				skipped[e] += l->i->skipped[e];
		}
	}
	return VG_(memcmp)(plt, skipped, sizeof plt) == 0;
}

/* "events: Ir Dr ...", the dumped ones. */
static void out_events_line(struct out *o)
{
	out_text(o, "events:");
	for (Int e = 0; e < EV_COUNT; e++)
		if (dumped(e)) {
			out_text(o, " ");
			out_text(o, event_names[e]);
		}
	out_text(o, "\n");
}

/* Writes the records all (located, sorted) as a callgrind-format file;
 * returns False after saying why.  A collected function's records
 * (within) hold no PLT stub's, whose costs are their call sites' always:
 * the stubs are charged to no context (instrument.c). */
static Bool write_file(const HChar *path, Int part, const HChar *trigger, const HChar *cmd, XArray *all,
		       Bool within)
{
	SysRes sr = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0600);
	if (sr_isError(sr)) {
		VG_(umsg)("bm-engine: cannot write '%s'\n", path);
		return False;
	}
	struct out *o = VG_(malloc)("bm.out", sizeof *o);
	o->fd = (Int)sr_Res(sr);
	o->failed = False;
	o->len = 0;
	HChar line[256];
	out_text(o, "# callgrind format\nversion: 1\ncreator: bm-engine\n");
	VG_(sprintf)(line, "pid: %d\n", VG_(getpid)());
	out_text(o, line);
	out_text(o, "cmd: ");
	out_text(o, cmd);
	VG_(sprintf)(line, "\npart: %d\n\n", part);
	out_text(o, line);
	/* The caches, as callgrind describes them. */
	static const HChar *const level[] = {"I1", "D1", "LL"};
	for (Int k = 0; k < 3; k++) {
		const struct sim_geometry *g = sim_geometry(k);
		VG_(sprintf)(line, "desc: %s cache: %d B, %d B, %d-way associative\n", level[k], g->size, g->line,
			     g->assoc);
		out_text(o, line);
	}
	out_text(o, "\ndesc: Trigger: ");
	out_text(o, trigger);
	if (cpu_askers_text()) {
		/* Who picks code by cpuid (cpu_askers.h). */
		out_text(o, "\ndesc: Cpuid: ");
		out_text(o, cpu_askers_text());
	}
	if (threads_nondeterministic()) {
		/* What the next run may count otherwise (threads.h). */
		out_text(o, "\ndesc: Nondeterministic: ");
		out_text(o, threads_nondeterministic());
	}
	if (clo.heap && !within) {
		/* The blocks allocated since the last zero: not costs of a
		 * line, so not events (heap.h). */
		const struct heap_part *h = heap_part();
		out_heap_line(o, "peak", h->peak_bytes, NULL);
		out_heap_line(o, "leaked", h->live_bytes, &h->live_blocks);
		out_heap_line(o, "freed", h->freed_bytes, &h->freed_blocks);
		out_heap_line(o, "system", h->system_bytes, NULL);
	}
	out_text(o, clo.dump_instr ? "\n\npositions: instr line\n" : "\n\npositions: line\n");
	/* The unit of the times (a reader of callgrind's files takes
	 * milliseconds without it: callgrind before 3.15 wrote those). */
	out_text(o, "event: sysTime : sysTime (elapsed ns)\nevent: sysCpuTime : sysCpuTime (system cpu ns)\n");
	out_events_line(o);
	out_text(o, "\n");

	ULong totals[EV_COUNT] = {0};
	const struct located *prev = NULL;
	const HChar *file = NULL; /* of the cost lines now */
	Bool move = within || plt_moves(all);
	for (Word k = 0; k < VG_(sizeXA)(all); k++) {
		struct located *l = VG_(indexXA)(all, k);
		ULong cost[EV_COUNT];
		for (Int e = 0; e < EV_COUNT; e++)
			cost[e] = move && l->plt ? 0 : l->cost[e] + (move && l->i->skipped ? l->i->skipped[e] : 0);
		Bool any = False;
		for (Int e = 0; e < EV_COUNT; e++)
			any |= cost[e] != 0;
		if (!any && !l->i->edges)
			continue;
		/* A function's records in its contexts (contexts.h) are one
		 * function's here. */
		if (!prev || prev->fn->base != l->fn->base) {
			out_text(o, "\nob=");
			out_text(o, l->fn->obj);
			out_text(o, "\nfl=");
			out_text(o, l->fn->file);
			out_text(o, "\nfn=");
			out_text(o, l->fn->name);
			out_text(o, "\n");
			file = l->fn->file;
		}
		if (VG_(strcmp)(file, l->file_name->file) != 0) {
			/* Inlined code from another file. */
			out_text(o, "fi=");
			out_text(o, l->file_name->file);
			out_text(o, "\n");
			file = l->file_name->file;
		}
		/* Instructions of one line are separate cost lines, which a
		 * reader adds up (as it does callgrind's). */
		if (any) {
			out_position(o, l);
			out_costs(o, cost);
			out_text(o, "\n");
		}
		out_calls(o, l);
		for (Int e = 0; e < EV_COUNT; e++)
			totals[e] += cost[e];
		prev = l;
	}
	out_text(o, "\ntotals:");
	out_costs(o, totals);
	out_text(o, "\n");
	out_flush(o);
	Bool ok = !o->failed;
	VG_(close)(o->fd);
	VG_(free)(o);
	if (!ok)
		VG_(umsg)("bm-engine: cannot write '%s' (disk full?)\n", path);
	return ok;
}

/* Each --collect-in function's records: those of the contexts that hold
 * it, in the order of all, to PATH.fn.N (N from 1, in the order of the
 * options), for the functions that ran. */
static Bool write_collected(const HChar *path, Int part, const HChar *cmd, XArray *all)
{
	XArray **within = VG_(calloc)("bm.within", clo.ncollect_in, sizeof *within);
	for (Word k = 0; k < VG_(sizeXA)(all); k++) {
		const struct located *l = VG_(indexXA)(all, k);
		for (const struct cxt *c = l->fn->cxt; c; c = c->up) {
			Int n = c->in->collect;
			if (!within[n])
				within[n] = VG_(newXA)(VG_(malloc), "bm.within", VG_(free), sizeof(struct located));
			/* (Two collected functions of one name, one within the
			 * other: the record is the name's once.) */
			Word size = VG_(sizeXA)(within[n]);
			if (size && ((const struct located *)VG_(indexXA)(within[n], size - 1))->i == l->i)
				continue;
			VG_(addToXA)(within[n], l);
		}
	}
	Bool ok = True;
	for (Int n = 0; n < clo.ncollect_in; n++) {
		if (!within[n])
			continue;
		HChar *file = VG_(malloc)("bm.path", VG_(strlen)(path) + 16);
		HChar *trigger = VG_(malloc)("bm.trigger", VG_(strlen)(clo.collect_in[n]) + 40);
		VG_(sprintf)(file, "%s.fn.%d", path, n + 1);
		VG_(sprintf)(trigger, "Program termination (calls of %s)", clo.collect_in[n]);
		ok &= write_file(file, part, trigger, cmd, within[n], True);
		VG_(free)(trigger);
		VG_(free)(file);
		VG_(deleteXA)(within[n]);
	}
	VG_(free)(within);
	return ok;
}

Bool output_dump(const HChar *path, Int part, const HChar *trigger, const HChar *cmd, Bool collected)
{
	XArray *all = VG_(newXA)(VG_(malloc), "bm.dump", VG_(free), sizeof(struct located));
	struct names names = {VG_(HT_construct)("bm.dump.fns"), VG_(HT_construct)("bm.dump.files"),
			      VG_(HT_construct)("bm.dump.where")};
	instr_table_each(locate, &(struct locating){all, &names});
	rank(names.fns, by_fn_name);
	rank(names.files, by_file_name);
	VG_(setCmpFnXA)(all, by_place);
	VG_(sortXA)(all);
	Bool ok = write_file(path, part, trigger, cmd, all, False);
	if (ok && collected)
		ok = write_collected(path, part, cmd, all);
	VG_(deleteXA)(all);
	VG_(HT_destruct)(names.fns, free_name);
	VG_(HT_destruct)(names.files, free_name);
	VG_(HT_destruct)(names.by_where, VG_(free));
	return ok;
}
