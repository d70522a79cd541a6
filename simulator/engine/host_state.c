/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "host_state.h"

#include "libvex_guest_offsets.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define LOADAVG_TEXT "0.00 0.00 0.00 1/1 1\n"

/* The descriptors of the files rewritten (a program opens few at once;
 * more go unrewritten), and where each stands in its text. */
enum kind { FREE, LOADAVG, UPTIME, CPUINFO };
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
	Bool first_digit_done;
} tracked[TRACKED];

static const HChar cpu_mhz[] = "cpu MHz";

static struct tracked *find(Int fd)
{
	for (Int i = 0; i < TRACKED; i++)
		if (tracked[i].kind != FREE && tracked[i].fd == fd)
			return &tracked[i];
	return NULL;
}

static Bool guest_may(Addr a, SizeT len, UInt prot)
{
	return a && len && VG_(am_is_valid_for_client)(a, len, prot);
}

static void opened(Addr path, Int fd)
{
	static const HChar *const names[] = {[LOADAVG] = "/proc/loadavg", [UPTIME] = "/proc/uptime",
					     [CPUINFO] = "/proc/cpuinfo"};
	if (!guest_may(path, sizeof "/proc/loadavg", VKI_PROT_READ))
		return;
	for (enum kind k = LOADAVG; k <= CPUINFO; k++) {
		if (VG_(strcmp)((const HChar *)path, names[k]) != 0)
			continue;
		for (Int i = 0; i < TRACKED; i++)
			if (tracked[i].kind == FREE) {
				tracked[i] = (struct tracked){.kind = k, .fd = fd};
				return;
			}
	}
}

static void set_result(ThreadId tid, ULong v)
{
	VG_(set_shadow_regs_area)(tid, 0, OFFSET_amd64_RAX, sizeof v, (const UChar *)&v);
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
	set_result(tid, n);
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

/* struct sysinfo (x86-64): uptime, loads[3] at 8, ..., procs (16 bits)
 * at 80. */
static void fix_sysinfo(Addr info, ULong uptime_s)
{
	if (!guest_may(info, 82, VKI_PROT_WRITE))
		return;
	*(Long *)info = (Long)uptime_s;
	VG_(memset)((void *)(info + 8), 0, 3 * sizeof(ULong));
	*(UShort *)(info + 80) = 1;
}

void host_state_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res, ULong uptime_s)
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
			VG_(sprintf)(text, "%llu.00 0.00\n", uptime_s);
			read_whole(tid, t, text, args[1], (SizeT)args[2]);
		} else if (t->kind == CPUINFO) {
			read_cpuinfo(t, args[1], (SizeT)sr_Res(res));
		}
		break;
	case __NR_close:
		if ((t = find((Int)args[0])))
			t->kind = FREE;
		break;
	case __NR_sysinfo:
		fix_sysinfo(args[0], uptime_s);
		break;
	default:
		break;
	}
}
