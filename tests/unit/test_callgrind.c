/* SPDX-License-Identifier: MIT */
/* The callgrind reader against hand-written files: every construct of the
 * format, and every class of malformed input with its exact message. */
#include "config.h"

#include "callgrind.h"
#include "unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sink that writes what it sees as text, one line per callback. */
struct trace {
	char buf[8192];
	size_t len;
	size_t nevents;
};

__attribute__((format(printf, 2, 3))) static void emit(struct trace *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

static void emit_costs(struct trace *t, const uint64_t *c)
{
	for (size_t i = 0; i < t->nevents; i++)
		emit(t, " %llu", (unsigned long long)c[i]);
	emit(t, "\n");
}

static const struct cg_parser *names;

static const char *nm(enum cg_name_kind k, uint32_t i)
{
	return cg_parser_name(names, k, i);
}

static int t_begin(void *ctx, const struct cg_part *part, char **err)
{
	struct trace *t = ctx;
	(void)err;
	names = part->parser;
	t->nevents = part->nevents;
	emit(t, "begin part=%ld pid=%ld thread=%ld trigger=%s events=%zu pos=%u\n", part->part,
	     part->pid, part->thread, part->trigger ? part->trigger : "-", part->nevents,
	     part->positions);
	if (part->heap_known)
		emit(t, "heap peak=%llu leaked=%llu in %llu freed=%llu in %llu\n", (unsigned long long)part->heap_peak_bytes,
		     (unsigned long long)part->heap_leaked_bytes, (unsigned long long)part->heap_leaked_blocks,
		     (unsigned long long)part->heap_freed_bytes, (unsigned long long)part->heap_freed_blocks);
	if (part->heap_system_known)
		emit(t, "heap system=%llu\n", (unsigned long long)part->heap_system_bytes);
	if (part->nondeterministic)
		emit(t, "nondeterministic=%s\n", part->nondeterministic);
	if (part->cpu_askers)
		emit(t, "cpuid=%s\n", part->cpu_askers);
	return 0;
}

static int t_cost(void *ctx, const struct cg_site *at, const uint64_t *c, char **err)
{
	struct trace *t = ctx;
	(void)err;
	emit(t, "cost %s:%s:%s @%s:%llu", nm(CG_OBJECT, at->fn.object), nm(CG_FILE, at->fn.file),
	     nm(CG_FUNCTION, at->fn.name), nm(CG_FILE, at->file), (unsigned long long)at->line);
	emit_costs(t, c);
	return 0;
}

static int t_call(void *ctx, const struct cg_site *at, const struct cg_func *callee, uint64_t count,
		  const uint64_t *c, char **err)
{
	struct trace *t = ctx;
	(void)err;
	emit(t, "call %s -> %s:%s:%s x%llu @%llu", nm(CG_FUNCTION, at->fn.name),
	     nm(CG_OBJECT, callee->object), nm(CG_FILE, callee->file), nm(CG_FUNCTION, callee->name),
	     (unsigned long long)count, (unsigned long long)at->line);
	emit_costs(t, c);
	return 0;
}

static int t_end(void *ctx, const struct cg_part *part, const uint64_t *totals, char **err)
{
	struct trace *t = ctx;
	(void)part;
	(void)err;
	emit(t, "end");
	emit_costs(t, totals);
	return 0;
}

static const struct cg_sink trace_sink = {t_begin, t_cost, t_call, t_end};

static struct trace trace;

static int parse(const char *text, char **err)
{
	memset(&trace, 0, sizeof trace);
	*err = NULL;
	return cg_parse_buffer("t.out", text, strlen(text), &trace_sink, &trace, err);
}

static void expect_trace(const char *text, const char *expected)
{
	char *err;
	int r = parse(text, &err);
	if (r != 0)
		ck_abort_msg("parse failed: %s", err);
	ck_assert_str_eq(trace.buf, expected);
}

static void expect_error(const char *text, const char *message)
{
	char *err;
	ck_assert_int_eq(parse(text, &err), -1);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err, message);
	free(err);
}

/* The extended example of the format specification, compressed. */
START_TEST(spec_example_with_name_compression)
{
	expect_trace("# callgrind format\n"
		     "events: Instructions\n"
		     "fl=(1) file1.c\n"
		     "fn=(1) main\n"
		     "16 20\n"
		     "cfn=(2) func1\n"
		     "calls=1 50\n"
		     "16 400\n"
		     "cfi=(2) file2.c\n"
		     "cfn=(3) func2\n"
		     "calls=3 20\n"
		     "16 400\n"
		     "fn=(2)\n"
		     "51 100\n"
		     "cfi=(2)\n"
		     "cfn=(3)\n"
		     "calls=2 20\n"
		     "51 300\n"
		     "fl=(2)\n"
		     "fn=(3)\n"
		     "20 700\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=- events=1 pos=4\n"
		     "cost :file1.c:main @file1.c:16 20\n"
		     "call main -> :file1.c:func1 x1 @16 400\n"
		     "call main -> :file2.c:func2 x3 @16 400\n"
		     "cost :file1.c:func1 @file1.c:51 100\n"
		     "call func1 -> :file2.c:func2 x2 @51 300\n"
		     "cost :file2.c:func2 @file2.c:20 700\n"
		     "end 820\n");
}
END_TEST

START_TEST(subpositions_are_relative_to_the_last_cost_line)
{
	expect_trace("positions: instr line\n"
		     "events: ticks\n"
		     "fn=func\n"
		     "0x80001234 90 1\n"
		     "+3 * 5\n"
		     "+1 +1 6\n"
		     "-2 -91 7\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=- events=1 pos=5\n"
		     "cost ::func @:90 1\n"
		     "cost ::func @:90 5\n"
		     "cost ::func @:91 6\n"
		     "cost ::func @:0 7\n"
		     "end 19\n");
}
END_TEST

/* As callgrind writes it: a target position does not move the current one,
 * names may first appear on called-position lines, trailing zero columns
 * are left out, calls=0 carries cost, and inlined code switches files. */
/* The bm engine's heap lines (--heap=yes); others like them are ignored,
 * as unknown desc lines are. */
START_TEST(heap_desc_lines)
{
	expect_trace("version: 1\ncreator: bm-engine\n"
		     "desc: Heap peak: 1417 bytes\n"
		     "desc: Heap leaked: 777 bytes in 1 blocks\n"
		     "desc: Heap freed: 2934 bytes in 17 blocks\n"
		     "desc: Heap system: 208720 bytes\n"
		     "events: Ir allocCount allocBytes\n"
		     "fn=main\n3 10 18 3711\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=- events=3 pos=4\n"
		     "heap peak=1417 leaked=777 in 1 freed=2934 in 17\n"
		     "heap system=208720\n"
		     "cost ::main @:3 10 18 3711\n"
		     "end 10 18 3711\n");
	expect_trace("desc: Heap peak: lots\ndesc: Heap leaked: 7 bytes\ndesc: Heap peak: 12 bytes extra\n"
		     "events: Ir\nfn=main\n3 10\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=- events=1 pos=4\n"
		     "cost ::main @:3 10\n"
		     "end 10\n");
}
END_TEST

/* The bm engine's word that another run may count otherwise (threads
 * the kernel ordered): the part's. */
START_TEST(nondeterministic_desc_line)
{
	expect_trace("creator: bm-engine\ndesc: Trigger: Program termination\n"
		     "desc: Nondeterministic:  thread 1 waited in the kernel (read)\n"
		     "events: Ir\nfn=main\n3 10\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=Program termination events=1 pos=4\n"
		     "nondeterministic=thread 1 waited in the kernel (read)\n"
		     "cost ::main @:3 10\n"
		     "end 10\n");
}
END_TEST

/* The bm engine's word on who asked cpuid: the part's. */
START_TEST(cpuid_desc_line)
{
	expect_trace("creator: bm-engine\ndesc: Trigger: Program termination\n"
		     "desc: Cpuid:  crc, libdeflate.so.0\n"
		     "events: Ir\nfn=main\n3 10\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=Program termination events=1 pos=4\n"
		     "cpuid=crc, libdeflate.so.0\n"
		     "cost ::main @:3 10\n"
		     "end 10\n");
}
END_TEST

START_TEST(callgrind_conventions)
{
	expect_trace("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\n"
		     "cmd:  ./fib\npart: 1\n\n"
		     "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
		     "desc: Trigger: Client Request: bench_fib\n\n"
		     "positions: line\n"
		     "event: sysTime : sysTime (elapsed us)\n"
		     "events: Ir Dr sysTime\n"
		     "summary: 0\n\n"
		     "ob=(1) /bin/fib\nfl=(1) fib.c\nfn=(0) main\n"
		     "10 4 1\n"
		     "cob=(2) /lib/libc.so\ncfi=(3) start.c\ncfn=(2) start\n"
		     "calls=0 16\n"
		     "* 9 9 9\n"
		     "cfn=(3) fib'2\ncalls=2 -4\n* 100 50\n"
		     "fn=(3)\n6 100 50\n"
		     "fi=(4) inline.h\n+1 2\nfe=(1)\n-1 3\n"
		     "totals: 109 51\n",
		     "begin part=1 pid=42 thread=-1 trigger=Client Request: bench_fib events=3 pos=4\n"
		     "cost /bin/fib:fib.c:main @fib.c:10 4 1 0\n"
		     "call main -> /lib/libc.so:start.c:start x0 @10 9 9 9\n"
		     "call main -> /bin/fib:fib.c:fib'2 x2 @10 100 50 0\n"
		     "cost /bin/fib:fib.c:fib'2 @fib.c:6 100 50 0\n"
		     "cost /bin/fib:fib.c:fib'2 @inline.h:7 2 0 0\n"
		     "cost /bin/fib:fib.c:fib'2 @fib.c:6 3 0 0\n"
		     "end 109 51 0\n");
}
END_TEST

START_TEST(parts_threads_and_jumps)
{
	expect_trace("events: Ir\npart: 1\nthread: 2\nfn=a\n1 5\n"
		     "jcnd=8/9 +2\n*\njump=3 +1\n+1\n2 1\ntotals: 6\n"
		     "part: 2\nevents: Ir Dr\nfn=b\n3 7 8\ntotals: 7 8\n",
		     "begin part=1 pid=-1 thread=2 trigger=- events=1 pos=4\n"
		     "cost ::a @:1 5\n"
		     "cost ::a @:2 1\n"
		     "end 6\n"
		     "begin part=2 pid=-1 thread=-1 trigger=- events=2 pos=4\n"
		     "cost ::b @:3 7 8\n"
		     "end 7 8\n");
}
END_TEST

START_TEST(an_empty_part_has_zero_totals)
{
	expect_trace("creator: callgrind-3.19.0\npart: 3\ndesc: Trigger: Program termination\n"
		     "events: Ir Dr\nsummary: 0\n\n\ntotals: 0\n",
		     "begin part=3 pid=-1 thread=-1 trigger=Program termination events=2 pos=4\n"
		     "end 0 0\n");
}
END_TEST

START_TEST(uncompressed_names_and_crlf)
{
	expect_trace("events: Ir\r\nfl=a.c\r\nfn=(below main)\r\n1 2\r\ncfn=f\r\ncalls=1 3\r\n1 4\r\n",
		     "begin part=-1 pid=-1 thread=-1 trigger=- events=1 pos=4\n"
		     "cost :a.c:(below main) @a.c:1 2\n"
		     "call (below main) -> :a.c:f x1 @1 4\n"
		     "end 2\n");
}
END_TEST

START_TEST(malformed_inputs_name_file_line_and_cause)
{
	expect_error("", "t.out: empty file");
	expect_error("fn=a\n1 2\n",
		     "t.out:1: no 'events:' line before the profile data (is this a callgrind file?)");
	expect_error("# only a comment\n", "t.out:1: no 'events:' line (is this a callgrind file?)");
	expect_error("events: Ir\nfn=a\n1 2x\n", "t.out:3: bad cost '2x'");
	expect_error("events: Ir\nfn=a\n1 -2\n", "t.out:3: bad cost '-2'");
	expect_error("events: Ir\nfn=a\n1 99999999999999999999\n",
		     "t.out:3: cost '99999999999999999999' does not fit in 64 bits");
	expect_error("events: Ir\nfn=a\nz 1\n", "t.out:3: unrecognised line starting with 'z'");
	expect_error("events: Ir\nfn=a\n1 1 2\n",
		     "t.out:3: too many cost columns: the 'events:' line names 1 event");
	expect_error("events: Ir\nfn=(7)\n", "t.out:2: function name id (7) is used before it is defined");
	expect_error("events: Ir\nfn=(1) a\nfn=(1) b\n",
		     "t.out:3: function name id (1) is defined twice, as 'a' and 'b'");
	expect_error("events: Ir\nfn=a\ncfn=b\ncalls=1 1\nfn=c\n",
		     "t.out:5: expected the position line of the preceding 'calls=' line");
	expect_error("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n",
		     "t.out:4: the last 'calls=' line has no position line (truncated file?)");
	expect_error("events: Ir\nfn=a\ncalls=1 1\n1 1\n",
		     "t.out:3: 'calls=' line without a 'cfn=' line naming the called function");
	expect_error("events: Ir\n1 1\n", "t.out:2: cost line before any 'fn=' line");
	expect_error("events: Ir\nfn=a\n1 5\ntotals: 6\n",
		     "t.out:4: the 'totals:' line gives Ir 6 but the cost lines sum to 5 "
		     "(truncated or edited file?)");
	expect_error("creator: callgrind-3.19.0\nevents: Ir\nfn=a\n1 5\n",
		     "t.out:4: no 'totals:' line at the end of the part: callgrind always writes one, "
		     "so the file is truncated");
	expect_error("version: 2\n", "t.out:1: callgrind format version 2 is not supported (only 1)");
	expect_error("events: Ir\nfn=a\n1 5\n-2 1\n",
		     "t.out:4: relative position -2 goes below zero");
	expect_error("positions: instr line\nevents: Ir\nfn=a\n0x10\n",
		     "t.out:4: missing position");
	expect_error("positions: line instr\n",
		     "t.out:1: bad 'positions:' line 'line instr': expected 'instr', 'bb' and 'line' in "
		     "this order");
	expect_error("events: Ir Ir\n", "t.out:1: event 'Ir' is named twice on the 'events:' line");
	expect_error("events: Ir\nfn=a\nxx=1\n", "t.out:3: unknown line 'xx='");
	expect_error("events: Ir\nfn=a\n1 1\nbogus: 1\n", "t.out:4: unknown line 'bogus:' in the profile data");
	expect_error("events: Ir\nfn=\n", "t.out:2: empty function name");
	expect_error("pid: x\n", "t.out:1: bad 'pid:' value 'x'");
}
END_TEST

START_TEST(nul_bytes_are_rejected)
{
	static const char text[] = "events: Ir\nfn=a\0b\n";
	char *err = NULL;
	memset(&trace, 0, sizeof trace);
	ck_assert_int_eq(cg_parse_buffer("t.out", text, sizeof text - 1, &trace_sink, &trace, &err),
			 -1);
	ck_assert_str_eq(err, "t.out:2: NUL byte in line");
	free(err);
}
END_TEST

START_TEST(huge_lines_are_rejected)
{
	size_t n = CG_MAX_LINE + 10;
	char *text = malloc(n + 32);
	size_t at = (size_t)snprintf(text, n + 32, "events: Ir\nfn=");
	memset(text + at, 'a', n);
	memcpy(text + at + n, "\n", 2);
	char *err;
	ck_assert_int_eq(parse(text, &err), -1);
	ck_assert_str_eq(err, "t.out:2: line longer than 1048576 bytes");
	free(err);
	free(text);
}
END_TEST

START_TEST(missing_files_are_reported)
{
	char *err = NULL;
	ck_assert_int_eq(cg_parse_file("/nonexistent/cg.out", &trace_sink, &trace, &err), -1);
	ck_assert_str_eq(err, "cannot open '/nonexistent/cg.out': No such file or directory");
	free(err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("callgrind");
	TCase *tc = tcase_create("format");
	tcase_add_test(tc, spec_example_with_name_compression);
	tcase_add_test(tc, subpositions_are_relative_to_the_last_cost_line);
	tcase_add_test(tc, callgrind_conventions);
	tcase_add_test(tc, heap_desc_lines);
	tcase_add_test(tc, nondeterministic_desc_line);
	tcase_add_test(tc, cpuid_desc_line);
	tcase_add_test(tc, parts_threads_and_jumps);
	tcase_add_test(tc, an_empty_part_has_zero_totals);
	tcase_add_test(tc, uncompressed_names_and_crlf);
	suite_add_tcase(s, tc);
	TCase *bad = tcase_create("malformed");
	tcase_add_test(bad, malformed_inputs_name_file_line_and_cause);
	tcase_add_test(bad, nul_bytes_are_rejected);
	tcase_add_test(bad, huge_lines_are_rejected);
	tcase_add_test(bad, missing_files_are_reported);
	suite_add_tcase(s, bad);
	return unit_run(s);
}
