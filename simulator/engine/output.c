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
#include "settings.h"

#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"


/* One instruction record's costs with where it is: charged to its
 * function (object, file and name), on its own line, in its own file. */
struct located {
	const struct fn *fn;
	HChar *file; /* the instruction's source file (owned) */
	UInt line;
	Addr addr;   /* relative to its object's load offset, as callgrind
		      * writes addresses */
	const ULong *cost;
	const struct instr *i;
	Bool plt; /* in a PLT section */
};

/* The source file of a (dir/file), newly allocated, and its line. */
static HChar *file_of(Addr a, UInt *line)
{
	const HChar *s, *dir;
	Bool known = VG_(get_filename_linenum)(VG_(current_DiEpoch)(), a, &s, &dir, line);
	if (!known)
		*line = 0;
	if (known && dir && *dir && *s != '/') {
		HChar *file = VG_(malloc)("bm.name", VG_(strlen)(dir) + VG_(strlen)(s) + 2);
		VG_(sprintf)(file, "%s/%s", dir, s);
		return file;
	}
	return VG_(strdup)("bm.name", known && s && *s ? s : "???");
}

static Addr relative(Addr a)
{
	const DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
	return a - (di ? VG_(DebugInfo_get_text_bias)(di) : 0);
}

static void locate(const struct instr *i, void *data)
{
	struct located l = {.fn = i->fn, .addr = relative(i->addr), .cost = i->cost, .i = i};
	l.file = file_of(i->addr, &l.line);
	l.plt = VG_(DebugInfo_sect_kind)(NULL, i->addr) == Vg_SectPLT;
	VG_(addToXA)(data, &l);
}

static Int by_place(const void *a, const void *b)
{
	const struct located *x = a, *y = b;
	Int c = VG_(strcmp)(x->fn->obj, y->fn->obj);
	if (!c)
		c = VG_(strcmp)(x->fn->file, y->fn->file);
	if (!c)
		c = VG_(strcmp)(x->fn->name, y->fn->name);
	if (!c)
		c = VG_(strcmp)(x->file, y->file);
	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
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
	HChar num[32];
	for (Int e = 0; e < n; e++) {
		if (!dumped(e))
			continue;
		VG_(sprintf)(num, " %llu", cost[e]);
		out_text(o, num);
	}
}

/* The position of l on a line ("LINE" or "0xADDR LINE"). */
static void out_position(struct out *o, const struct located *l)
{
	HChar line[64];
	if (clo.dump_instr)
		VG_(sprintf)(line, "0x%lx %u", l->addr, l->line);
	else
		VG_(sprintf)(line, "%u", l->line);
	out_text(o, line);
}

static void out_calls(struct out *o, const struct located *site)
{
	for (const struct edge *e = site->i->edges; e; e = e->next) {
		if (!e->calls && !e->cost[EV_IR] && !e->cost[EV_SYSCOUNT])
			continue;
		struct located to = {.fn = e->callee, .addr = relative(e->to)};
		to.file = file_of(e->to, &to.line);
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
		VG_(free)(to.file);
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
		if (VG_(strcmp)(file, l->file) != 0) {
			/* Inlined code from another file. */
			out_text(o, "fi=");
			out_text(o, l->file);
			out_text(o, "\n");
			file = l->file;
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
	instr_table_each(locate, all);
	VG_(setCmpFnXA)(all, by_place);
	VG_(sortXA)(all);
	Bool ok = write_file(path, part, trigger, cmd, all, False);
	if (ok && collected)
		ok = write_collected(path, part, cmd, all);
	for (Word k = 0; k < VG_(sizeXA)(all); k++)
		VG_(free)(((struct located *)VG_(indexXA)(all, k))->file);
	VG_(deleteXA)(all);
	return ok;
}
