/* SPDX-License-Identifier: MIT */
/* A streaming reader of Valgrind's callgrind output format, version 1
 * (valgrind/html/cl-format.html).  It reads a file line by line with a
 * bounded buffer and hands every cost to a sink; it keeps only the name
 * tables, so memory grows with the number of distinct names, never with
 * the file's size.
 *
 * What it understands: the file and part headers (version, creator, pid,
 * cmd, part, thread, desc, positions, event, events, summary, totals);
 * several parts in one file; name compression "(id) name" on every
 * ob= fl= fi= fe= fn= cob= cfi= cfl= cfn= jfi= jfn= line (a name may be
 * defined first on a called-position line); subpositions "instr", "bb" and
 * "line" given absolutely (decimal or 0x hex) or relatively (+N, -N, *);
 * calls= lines (including calls=0, which callgrind writes for calls that
 * were entered before collection started) with their cost line; jump= and
 * jcnd= lines (validated and skipped); omitted trailing cost columns.
 *
 * What it checks: every number, every reference to a compressed name, the
 * number of cost columns, line length (CG_MAX_LINE), 64-bit overflow, that
 * a calls= line is followed by its cost line, and that a part's totals:
 * line equals the sum of its cost lines.  A file written by callgrind that
 * ends without its totals: line is reported as truncated.  Every error is
 * "FILE:LINE: what is wrong". */
#ifndef BM_CALLGRIND_H
#define BM_CALLGRIND_H

#include "cache_geometry.h"

#include <stddef.h>
#include <stdint.h>

#define CG_MAX_LINE (1u << 20) /* bytes in one line, newline excluded */
#define CG_MAX_EVENTS 64       /* columns in an events: line */

/* The three name spaces of the format: ELF objects (ob= cob=), source
 * files (fl= fi= fe= cfi= cfl= jfi=) and functions (fn= cfn= jfn=). */
enum cg_name_kind { CG_OBJECT, CG_FILE, CG_FUNCTION, CG_NAME_KINDS };

/* Which subpositions start a cost line ("positions:" header). */
enum { CG_POS_INSTR = 1, CG_POS_BB = 2, CG_POS_LINE = 4 };

/* The header of one part.  Valid from the sink's part_begin to part_end;
 * strings are borrowed from the parser. */
struct cg_parser;

struct cg_part {
	const struct cg_parser *parser; /* resolves names: cg_parser_name */
	const char *path;       /* the file being read */
	unsigned long line;     /* the line on which this part's header began */
	const char *creator;    /* "callgrind-3.19.0", or NULL */
	const char *cmd;        /* the profiled command line, or NULL */
	const char *trigger;    /* "Client Request: bench_fib", or NULL */
	/* The bm engine's "desc: Nondeterministic: why": what made its
	 * counts the host's (the kernel's order of threads), or NULL. */
	const char *nondeterministic;
	/* The bm engine's "desc: Cpuid: a, b": the program's objects that
	 * ask the CPU what it offers (cpuid), glibc's aside, or NULL. */
	const char *cpu_askers;
	long pid, part, thread; /* -1 when the header does not give them */
	struct bm_cache_geometry i1, d1, ll; /* from "desc: I1 cache: ..." lines; zero when none */
	/* The bm engine's --heap=yes: "desc: Heap peak: N bytes", "desc:
	 * Heap leaked: N bytes in M blocks" (heap_known 0 without them) and
	 * "desc: Heap system: N bytes" (heap_system_known). */
	int heap_known, heap_system_known;
	uint64_t heap_peak_bytes, heap_leaked_bytes, heap_leaked_blocks, heap_system_bytes;
	uint64_t heap_freed_bytes, heap_freed_blocks; /* "desc: Heap freed: N bytes in M blocks" */
	unsigned positions;     /* CG_POS_* bits */
	size_t nevents;
	const char *const *events; /* the events: names, in column order */
	/* Multiply the sysTime column by this to get nanoseconds: callgrind's
	 * --collect-systime writes ms, us or ns ("event: sysTime : ... (elapsed us)"). */
	uint64_t systime_ns;
};

/* A function as the format names it: indices into the parser's name
 * tables (cg_parser_name).  The object is CG_NO_NAME when none was given. */
#define CG_NO_NAME UINT32_MAX
struct cg_func {
	uint32_t object, file, name;
};

/* Where a cost happened: the function, the source file of the code (which
 * differs from the function's file inside inlined code, fi=/fe=), and the
 * line (0 when the positions have no line or debug info had none). */
struct cg_site {
	struct cg_func fn;
	uint32_t file;
	uint64_t line;
};

/* Receives what the parser reads.  Each callback returns 0, or -1 with
 * *err set to stop the parse; the parser then adds "FILE:LINE: ".  costs
 * points to part->nevents counters (omitted columns are zero). */
struct cg_sink {
	int (*part_begin)(void *ctx, const struct cg_part *part, char **err);
	/* Self cost at a site. */
	int (*cost)(void *ctx, const struct cg_site *at, const uint64_t *costs, char **err);
	/* count calls from at.fn to callee, with their inclusive cost. */
	int (*call)(void *ctx, const struct cg_site *at, const struct cg_func *callee,
		    uint64_t count, const uint64_t *costs, char **err);
	/* totals is the checked totals: line, or the sum of the cost lines
	 * when the part has none. */
	int (*part_end)(void *ctx, const struct cg_part *part, const uint64_t *totals, char **err);
};

/* Reads one file ("-" is standard input) into sink.  Returns 0, or -1 with
 * *err set to "FILE:LINE: what is wrong" (the caller frees it).  On error
 * the sink has seen part of the file: the caller must discard what it
 * built. */
int cg_parse_file(const char *path, const struct cg_sink *sink, void *ctx, char **err);

/* Parses a file held in memory (for tests and the fuzzer); name is used in
 * messages. */
int cg_parse_buffer(const char *name, const char *data, size_t size, const struct cg_sink *sink,
		    void *ctx, char **err);

/* The name with index idx in one of the parser's tables (part->parser),
 * valid during the sink's callbacks.  CG_NO_NAME gives "". */
const char *cg_parser_name(const struct cg_parser *p, enum cg_name_kind kind, uint32_t idx);

#endif
