/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The texts of the virtual host files: see proc_texts.h.
 *
 * Notes:
 *
 * - The machine they describe runs this program alone: no load, no other
 *   process, every byte of memory free, a CPU busy only with the
 *   program's virtual CPU time, booted a second before the virtual
 *   clock's start (CLOCK_MONOTONIC starts at 1 s: vclock.c).
 * - What does not change between runs on one host stays the host's: the
 *   number of CPUs, the memory's size, the CPU's model and flags, the
 *   process's ids and addresses (as getpid and the kernel say them), so
 *   that a program still sizes its work by the machine it runs on.
 * - A text is made when the file is opened (natively, when it is read):
 *   the uptime a program reads is the one at its open.
 * - Clock ticks are USER_HZ's, 100 a second on Linux. */
#include "proc_texts.h"

#include "host_random.h"
#include "vclock.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

/* The largest host file a text is made of (/proc/cpuinfo of a thousand
 * CPUs is a megabyte and a half). */
#define HOST_MAX (8u << 20)
#define TICK_NS 10000000ULL
#define BOOT_ID "5d1a8a1e-0b3c-4f6e-9a2d-7c4b8e1f0a63"

static void put(struct text *t, const HChar *s, SizeT n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = VG_(realloc)("bm.proc_texts", t->s, t->cap);
	}
	VG_(memcpy)(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = 0;
}

static void putf(struct text *t, const HChar *format, ...) PRINTF_CHECK(2, 3);
static void putf(struct text *t, const HChar *format, ...)
{
	HChar line[256];
	va_list ap;
	va_start(ap, format);
	UInt n = VG_(vsnprintf)(line, sizeof line, format, ap);
	va_end(ap);
	put(t, line, n < sizeof line ? n : sizeof line - 1);
}

void proc_text_release(struct text *t)
{
	VG_(free)(t->s);
	*t = (struct text){0};
}

/* The host's file open as fd, whole, into *host; fd is left at its start.
 * False where it could not be read or is larger than HOST_MAX. */
static Bool read_host(Int fd, struct text *host)
{
	HChar buf[4096];
	Int n;
	while ((n = VG_(read)(fd, buf, sizeof buf)) > 0 && host->len + (SizeT)n <= HOST_MAX)
		put(host, buf, (SizeT)n);
	VG_(lseek)(fd, 0, VKI_SEEK_SET);
	return n == 0 && host->s;
}

/* The next line of text at *at (without its newline) and its length;
 * NULL at the end. */
static const HChar *next_line(const struct text *t, SizeT *at, SizeT *len)
{
	if (*at >= t->len)
		return NULL;
	const HChar *line = t->s + *at;
	const HChar *nl = VG_(strchr)(line, '\n');
	*len = nl ? (SizeT)(nl - line) : VG_(strlen)(line);
	*at += *len + 1;
	return line;
}

static ULong cpu_ns(Int clock, ThreadId tid)
{
	ULong ns = 0;
	vclock_now(clock, tid, &ns);
	return ns;
}

/* ---- the texts: each made for thread tid, of the host's file (or
 * NULL where the text needs none of it) ---- */

static void loadavg(struct text *t, const struct text *host, ThreadId tid)
{
	(void)host, (void)tid;
	putf(t, "0.00 0.00 0.00 1/1 1\n");
}

static void uptime(struct text *t, const struct text *host, ThreadId tid)
{
	(void)host, (void)tid;
	putf(t, "%llu.00 0.00\n", vclock_monotonic_ns() / 1000000000ULL);
}

/* The host's "cpuN" lines say how many CPUs; cpu0 runs the process. */
static void proc_stat(struct text *t, const struct text *host, ThreadId tid)
{
	UInt cpus = 0;
	SizeT at = 0, len;
	for (const HChar *l; (l = next_line(host, &at, &len));)
		cpus += len > 3 && VG_(strncmp)(l, "cpu", 3) == 0 && VG_(isdigit)(l[3]);
	if (!cpus)
		cpus = 1;
	ULong busy = cpu_ns(VKI_CLOCK_PROCESS_CPUTIME_ID, tid) / TICK_NS;
	ULong up = vclock_monotonic_ns() / TICK_NS;
	ULong idle0 = up > busy ? up - busy : 0;
	putf(t, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", busy, idle0 + (ULong)(cpus - 1) * up);
	for (UInt c = 0; c < cpus; c++)
		putf(t, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", c, c ? 0 : busy, c ? up : idle0);
	putf(t, "intr 0\nctxt 0\nbtime %llu\nprocesses 1\nprocs_running 1\nprocs_blocked 0\n", VCLOCK_BOOT_S);
	putf(t, "softirq 0 0 0 0 0 0 0 0 0 0 0\n");
}

/* meminfo's lines are "Name:", padded to 16, a value at least 8 wide,
 * and " kB" for sizes.  The sizes stay; what is free is all of it. */
static const struct {
	const HChar *name, *as; /* as: the line whose value it takes, or NULL: its own */
} meminfo_kept[] = {
	{"MemTotal", NULL},	      {"MemFree", "MemTotal"},	   {"MemAvailable", "MemTotal"},
	{"SwapTotal", NULL},	      {"SwapFree", "SwapTotal"},   {"CommitLimit", NULL},
	{"VmallocTotal", NULL},	      {"CmaTotal", NULL},	   {"CmaFree", "CmaTotal"},
	{"HugePages_Total", NULL},    {"HugePages_Free", "HugePages_Total"},
	{"Hugepagesize", NULL},	      {"Hugetlb", NULL},
};

/* The value of meminfo's line name in host (0 if absent). */
static ULong meminfo_value(const struct text *host, const HChar *name)
{
	SizeT at = 0, len, n = VG_(strlen)(name);
	for (const HChar *l; (l = next_line(host, &at, &len));)
		if (len > n && VG_(strncmp)(l, name, n) == 0 && l[n] == ':')
			return VG_(strtoull10)((HChar *)l + n + 1 + VG_(strspn)(l + n + 1, " "), NULL);
	return 0;
}

static void meminfo(struct text *t, const struct text *host, ThreadId tid)
{
	(void)tid;
	SizeT at = 0, len;
	for (const HChar *l; (l = next_line(host, &at, &len));) {
		const HChar *colon = VG_(strchr)(l, ':');
		if (!colon || colon > l + len || colon - l > 64)
			continue;
		HChar name[66];
		VG_(memcpy)(name, l, (SizeT)(colon - l));
		name[colon - l] = 0;
		ULong v = 0;
		for (UInt k = 0; k < sizeof meminfo_kept / sizeof *meminfo_kept; k++)
			if (VG_(strcmp)(name, meminfo_kept[k].name) == 0)
				v = meminfo_value(host, meminfo_kept[k].as ? meminfo_kept[k].as : name);
		Bool kb = len >= 2 && VG_(strncmp)(l + len - 2, "kB", 2) == 0;
		HChar label[68];
		VG_(sprintf)(label, "%s:", name);
		putf(t, "%-16s%8llu%s\n", label, v, kb ? " kB" : "");
	}
}

/* Each "cpu MHz" value reads 3 and zeros, its width kept ("1996.250"
 * reads "3000.000"): how fast the host's cores run now is the host's
 * moment. */
static void cpuinfo(struct text *t, const struct text *host, ThreadId tid)
{
	(void)tid;
	put(t, host->s, host->len);
	SizeT at = 0, len;
	for (const HChar *l; (l = next_line(host, &at, &len));) {
		if (VG_(strncmp)(l, "cpu MHz", 7) != 0)
			continue;
		HChar *p = t->s + (l - host->s) + 7, *end = t->s + (l - host->s) + len;
		while (p < end && !VG_(isdigit)(*p))
			p++;
		for (Bool first = True; p < end && (VG_(isdigit)(*p) || *p == '.'); p++)
			if (*p != '.') {
				*p = first ? '3' : '0';
				first = False;
			}
	}
}

/* /proc/PID/stat's fields (from 1) after the command's ")", which may
 * hold spaces: faults, CPU times, the start, the CPU last run on, the
 * I/O delay and the guest times become the virtual machine's. */
static void task_stat(struct text *t, const struct text *host, ULong cpu)
{
	const HChar *paren = VG_(strrchr)(host->s, ')');
	if (!paren) {
		put(t, host->s, host->len);
		return;
	}
	put(t, host->s, (SizeT)(paren + 1 - host->s));
	const HChar *p = paren + 1;
	for (UInt field = 3; *p == ' '; field++) {
		const HChar *end = ++p;
		while (*end && *end != ' ' && *end != '\n')
			end++;
		if ((field >= 10 && field <= 17) || field == 22 || field == 39 || (field >= 42 && field <= 44)) {
			ULong v = field == 14 ? cpu / TICK_NS : field == 22 ? 1000000000ULL / TICK_NS : 0;
			putf(t, " %llu", v);
		} else {
			put(t, " ", 1);
			put(t, p, (SizeT)(end - p));
		}
		p = end;
	}
	put(t, "\n", 1);
}

static void process_stat(struct text *t, const struct text *host, ThreadId tid)
{
	task_stat(t, host, cpu_ns(VKI_CLOCK_PROCESS_CPUTIME_ID, tid));
}

static void thread_stat(struct text *t, const struct text *host, ThreadId tid)
{
	task_stat(t, host, cpu_ns(VKI_CLOCK_THREAD_CPUTIME_ID, tid));
}

/* Nanoseconds on the CPU, waiting for it, and time slices. */
static void process_schedstat(struct text *t, const struct text *host, ThreadId tid)
{
	(void)host;
	putf(t, "%llu 0 1\n", cpu_ns(VKI_CLOCK_PROCESS_CPUTIME_ID, tid));
}

static void thread_schedstat(struct text *t, const struct text *host, ThreadId tid)
{
	(void)host;
	putf(t, "%llu 0 1\n", cpu_ns(VKI_CLOCK_THREAD_CPUTIME_ID, tid));
}

/* A version 4 UUID of the stream's bytes, as the kernel gives one. */
static void uuid(struct text *t, const struct text *host, ThreadId tid)
{
	(void)host, (void)tid;
	UChar b[16];
	host_random_bytes(b, sizeof b);
	b[6] = (UChar)(b[6] & 0x0f) | 0x40;
	b[8] = (UChar)(b[8] & 0x3f) | 0x80;
	for (UInt i = 0; i < 16; i++)
		putf(t, "%02x%s", b[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
	put(t, "\n", 1);
}

static void boot_id(struct text *t, const struct text *host, ThreadId tid)
{
	(void)host, (void)tid;
	putf(t, "%s\n", BOOT_ID);
}

/* ---- which files ---- */

typedef void (*make_fn)(struct text *t, const struct text *host, ThreadId tid);

/* The files by their whole path; those of this process by what follows
 * "/proc/PID/" (a thread's: "/proc/PID/task/TID/", its own, or another
 * of the process's, as the calling thread's: the engine does not map
 * the kernel's thread ids to its own). */
static const struct file {
	const HChar *path;
	make_fn make;
	Bool from_host; /* made of the host's file */
} files[] = {
	{"/proc/loadavg", loadavg, False},
	{"/proc/uptime", uptime, False},
	{"/proc/stat", proc_stat, True},
	{"/proc/meminfo", meminfo, True},
	{"/proc/cpuinfo", cpuinfo, True},
	{"/proc/sys/kernel/random/uuid", uuid, False},
	{"/proc/sys/kernel/random/boot_id", boot_id, False},
}, process_files[] = {
	{"stat", process_stat, True},
	{"schedstat", process_schedstat, False},
}, thread_files[] = {
	{"stat", thread_stat, True},
	{"schedstat", thread_schedstat, False},
};

static const struct file *lookup(const struct file *table, UInt n, const HChar *path)
{
	for (UInt i = 0; i < n; i++)
		if (VG_(strcmp)(path, table[i].path) == 0)
			return &table[i];
	return NULL;
}

#define LOOKUP(table, path) lookup(table, sizeof table / sizeof *table, path)

static const struct file *find(const HChar *path)
{
	HChar own[32];
	SizeT n = VG_(sprintf)(own, "/proc/%d/", VG_(getpid)());
	if (VG_(strncmp)(path, own, n) != 0)
		return LOOKUP(files, path);
	path += n;
	if (VG_(strncmp)(path, "task/", 5) != 0)
		return LOOKUP(process_files, path);
	path += 5;
	if (!VG_(isdigit)(*path))
		return NULL;
	while (VG_(isdigit)(*path))
		path++;
	return *path == '/' ? LOOKUP(thread_files, path + 1) : NULL;
}

Bool proc_text_make(ThreadId tid, const HChar *path, Int fd, struct text *t)
{
	const struct file *f = find(path);
	if (!f)
		return False;
	struct text host = {0};
	if (f->from_host && !read_host(fd, &host)) {
		proc_text_release(&host);
		return False;
	}
	*t = (struct text){0};
	f->make(t, &host, tid);
	proc_text_release(&host);
	return True;
}
