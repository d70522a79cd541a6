/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "host_state.h"

#include "guest.h"
#include "vclock.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define LOADAVG_TEXT "0.00 0.00 0.00 1/1 1\n"

/* The descriptors of the files rewritten (a program opens few at once;
 * more go unrewritten), and where each stands in its text. */
enum kind { FREE, LOADAVG, UPTIME, CPUINFO, RANDOM };
/* In /proc/cpuinfo: at a line's start (matching "cpu MHz" by matched),
 * in another line, between the name and its value, in the value. */
enum cpuinfo_at { LINE_START, OTHER_LINE, BEFORE_VALUE, IN_VALUE };
#define TRACKED 16
static struct tracked {
	enum kind kind;
	Int fd;
	Bool whole_read; /* LOADAVG, UPTIME: the text was given */
	enum cpuinfo_at at;
	UInt matched;
} tracked[TRACKED];

static const HChar cpu_mhz[] = "cpu MHz";

static struct tracked *find(Int fd)
{
	for (Int i = 0; i < TRACKED; i++)
		if (tracked[i].kind != FREE && tracked[i].fd == fd)
			return &tracked[i];
	return NULL;
}

static void opened(Addr path, Int fd)
{
	static const struct {
		enum kind kind;
		const HChar *path;
	} files[] = {{LOADAVG, "/proc/loadavg"}, {UPTIME, "/proc/uptime"}, {CPUINFO, "/proc/cpuinfo"},
		     {RANDOM, "/dev/urandom"}, {RANDOM, "/dev/random"}};
	if (!guest_may(path, sizeof "/dev/random", VKI_PROT_READ))
		return;
	for (UInt f = 0; f < sizeof files / sizeof *files; f++) {
		enum kind k = files[f].kind;
		if (VG_(strcmp)((const HChar *)path, files[f].path) != 0)
			continue;
		for (Int i = 0; i < TRACKED; i++)
			if (tracked[i].kind == FREE) {
				tracked[i] = (struct tracked){.kind = k, .fd = fd};
				return;
			}
	}
}

/* text once, then the end of the file. */
static void read_whole(ThreadId tid, struct tracked *t, const HChar *text, Addr buf, SizeT count)
{
	SizeT n = t->whole_read ? 0 : VG_(strlen)(text);
	if (n > count)
		n = count;
	if (n && !guest_may(buf, n, VKI_PROT_WRITE))
		return;
	VG_(memcpy)((void *)buf, text, n);
	t->whole_read = True;
	guest_set_result(tid, n);
}

/* The bytes the kernel gave, "cpu MHz" values rewritten: a value may
 * straddle two reads, so where the text stands carries over. */
static void read_cpuinfo(struct tracked *t, Addr buf, SizeT n)
{
	if (!guest_may(buf, n, VKI_PROT_WRITE))
		return;
	HChar *p = (HChar *)buf;
	for (SizeT i = 0; i < n; i++) {
		HChar c = p[i];
		if (c == '\n') {
			t->at = LINE_START;
			t->matched = 0;
			continue;
		}
		switch (t->at) {
		case LINE_START:
			if (c == cpu_mhz[t->matched]) {
				if (!cpu_mhz[++t->matched])
					t->at = BEFORE_VALUE;
			} else {
				t->at = OTHER_LINE;
			}
			break;
		case BEFORE_VALUE:
			if (c >= '0' && c <= '9') {
				t->at = IN_VALUE;
				p[i] = '3';
			}
			break;
		case IN_VALUE:
			if (c >= '0' && c <= '9')
				p[i] = '0';
			else if (c != '.')
				t->at = OTHER_LINE;
			break;
		case OTHER_LINE:
			break;
		}
	}
}

/* The kernel's random bytes, made the same in every run: a fixed
 * xorshift64* stream (a benchmark's randomness is an input, and random
 * bytes left in memory moved counts: glibc's tcache key, from getrandom,
 * stays in freed chunks that SSE2 string functions read past a string's
 * end). */
static ULong random_state = 0x9E3779B97F4A7C15ULL;

static void fill_random(Addr buf, SizeT n)
{
	if (!guest_may(buf, n, VKI_PROT_WRITE))
		return;
	UChar *p = (UChar *)buf;
	for (SizeT i = 0; i < n; i++) {
		if (i % 8 == 0) {
			random_state ^= random_state >> 12;
			random_state ^= random_state << 25;
			random_state ^= random_state >> 27;
		}
		p[i] = (UChar)((random_state * 0x2545F4914F6CDD1DULL) >> (8 * (i % 8)));
	}
}

void host_state_fix_at_random(void)
{
	/* The initial stack: argc, argv and a NULL, the environment and a
	 * NULL, then the auxiliary vector's (type, value) pairs. */
	Addr sp = VG_(get_SP)(1);
	if (!guest_may(sp, sizeof(UWord), VKI_PROT_READ))
		return;
	const UWord *w = (const UWord *)sp;
	UWord i = 1 + w[0] + 1; /* past argc, argv and its NULL */
	while (guest_may(sp + i * sizeof(UWord), sizeof(UWord), VKI_PROT_READ) && w[i])
		i++;
	for (i++; guest_may(sp + (i + 1) * sizeof(UWord), sizeof(UWord), VKI_PROT_READ) && w[i] != 0; i += 2)
		if (w[i] == 25) { /* AT_RANDOM: 16 bytes for the stack guard and pointer mangling */
			fill_random(w[i + 1], 16);
			return;
		}
}

/* struct sysinfo (x86-64): uptime, loads[3] at 8, ..., procs (16 bits)
 * at 80. */
static void fix_sysinfo(Addr info)
{
	if (!guest_may(info, 82, VKI_PROT_WRITE))
		return;
	*(Long *)info = (Long)(vclock_monotonic_ns() / 1000000000ULL);
	VG_(memset)((void *)(info + 8), 0, 3 * sizeof(ULong));
	*(UShort *)(info + 80) = 1;
}

void host_state_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res)
{
	if (sr_isError(res))
		return;
	struct tracked *t;
	switch (sysno) {
	case __NR_open:
		opened(args[0], (Int)sr_Res(res));
		break;
	case __NR_openat:
		opened(args[1], (Int)sr_Res(res));
		break;
	case __NR_read:
		if (!(t = find((Int)args[0])))
			break;
		if (t->kind == LOADAVG) {
			read_whole(tid, t, LOADAVG_TEXT, args[1], (SizeT)args[2]);
		} else if (t->kind == UPTIME) {
			HChar text[48];
			VG_(sprintf)(text, "%llu.00 0.00\n", vclock_monotonic_ns() / 1000000000ULL);
			read_whole(tid, t, text, args[1], (SizeT)args[2]);
		} else if (t->kind == CPUINFO) {
			read_cpuinfo(t, args[1], (SizeT)sr_Res(res));
		} else if (t->kind == RANDOM) {
			fill_random(args[1], (SizeT)sr_Res(res));
		}
		break;
	case __NR_getrandom:
		fill_random(args[0], (SizeT)sr_Res(res));
		break;
	case __NR_close:
		if ((t = find((Int)args[0])))
			t->kind = FREE;
		break;
	case __NR_sysinfo:
		fix_sysinfo(args[0]);
		break;
	default:
		break;
	}
}
