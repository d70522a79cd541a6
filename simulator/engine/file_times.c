/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * File times on the virtual clock: see file_times.h.
 *
 * Notes:
 *
 * - Which times are the run's: those from SINCE_SLACK_S before the
 *   process's first system call (on the coarse clock the kernel stamps
 *   files with, whole seconds: some file systems keep seconds, FAT two)
 *   to the host's now.  A file made just before the run, by the script
 *   that starts it, may read as the run's.  A process that execs starts
 *   again: the files its earlier program made read as from before it.
 * - The virtual time is when the engine first saw the host's time, not
 *   when the file changed (the engine does not follow every write): the
 *   same file reads the same until the host's time of it changes, and a
 *   later time after it changes.  Two changes within one tick of the
 *   host's coarse clock are one change, as they are natively.
 * - A file's time from before the run is the host's history, not the
 *   program's input: a checkout, a copy, a build made it.  Kept, a file
 *   made in 2026 was six years in the program's future (make warns of
 *   clock skew, an age is negative) and older than what the program
 *   writes in 2020.  A time the program set itself, on the virtual
 *   clock, is no later than the virtual now: it stays (but one it set
 *   ahead of the virtual now, which cannot be told from the host's).
 * - An access time is the host's history too: relatime moves it at the
 *   first read after a change, so that the second run of a program
 *   would read the first's.  No later than the modification, it follows
 *   it.
 * - Files are known by device and inode; FILES of them are remembered,
 *   the oldest forgotten first (such a file reads a new virtual time). */
#include "file_times.h"

#include "guest.h"
#include "vclock.h"

#include "pub_tool_libcproc.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define FILES 256
#define VIRTUAL_START_NS (VCLOCK_REALTIME_START_S * 1000000000ULL)
#define SINCE_SLACK_S 2
#define CLOCK_REALTIME_COARSE 5
#define NS 1000000000ULL
/* Beyond it nanoseconds overflow 64 bits (the year 2554): the future. */
#define MAX_S 18000000000ULL
/* statx's mask bits for the times. */
#define STATX_ATIME 0x20u
#define STATX_MTIME 0x40u
#define STATX_CTIME 0x80u
#define STATX_BTIME 0x800u

enum { ATIME, MTIME, CTIME, BTIME, TIMES };

static struct seen {
	ULong dev, ino; /* dev: major << 32 | minor */
	ULong host[TIMES], virt[TIMES];
} seen[FILES];
static UInt seen_used, seen_next;
static ULong since_ns; /* 0 until the first system call */

static struct seen *lookup(ULong dev, ULong ino)
{
	for (UInt i = 0; i < seen_used; i++)
		if (seen[i].dev == dev && seen[i].ino == ino)
			return &seen[i];
	struct seen *s = &seen[seen_next];
	seen_next = (seen_next + 1) % FILES;
	if (seen_used < FILES)
		seen_used++;
	*s = (struct seen){.dev = dev, .ino = ino};
	return s;
}

static ULong clock_ns(Int clock)
{
	struct vki_timespec ts;
	VG_(clock_gettime)(&ts, clock);
	return (ULong)ts.tv_sec * NS + (ULong)ts.tv_nsec;
}

/* The times in ns[] (those present) of a file, as the program reads
 * them. */
static void fix(ThreadId tid, ULong dev, ULong ino, ULong ns[TIMES], const Bool present[TIMES])
{
	ULong virtual_now = 0, host_now = 0;
	vclock_now(VKI_CLOCK_REALTIME, tid, &virtual_now);
	if (present[ATIME] && present[MTIME] && ns[ATIME] > ns[MTIME])
		ns[ATIME] = ns[MTIME];
	struct seen *s = NULL;
	for (UInt k = 0; k < TIMES; k++) {
		if (!present[k])
			continue;
		if (ns[k] < since_ns) {
			if (ns[k] > virtual_now)
				ns[k] = VIRTUAL_START_NS;
			continue;
		}
		if (!host_now)
			host_now = clock_ns(VKI_CLOCK_REALTIME);
		if (ns[k] > host_now)
			continue;
		if (!s)
			s = lookup(dev, ino);
		if (s->host[k] != ns[k]) {
			s->host[k] = ns[k];
			s->virt[k] = virtual_now;
		}
		ns[k] = s->virt[k];
	}
}

/* A time in seconds and nanoseconds as ns (~0: before 1970 or after
 * MAX_S, left as it is), and back. */
static ULong to_ns(Long sec, ULong nsec)
{
	return sec < 0 || (ULong)sec > MAX_S ? ~0ULL : (ULong)sec * NS + nsec;
}

static void fix_stat(ThreadId tid, Addr a)
{
	if (!guest_may(a, sizeof(struct vki_stat), VKI_PROT_READ | VKI_PROT_WRITE))
		return;
	struct vki_stat *st = (struct vki_stat *)a;
	unsigned long *sec[TIMES] = {&st->st_atime, &st->st_mtime, &st->st_ctime, NULL};
	unsigned long *nsec[TIMES] = {&st->st_atime_nsec, &st->st_mtime_nsec, &st->st_ctime_nsec, NULL};
	ULong ns[TIMES] = {0};
	Bool present[TIMES] = {False};
	for (UInt k = 0; k < BTIME; k++) {
		ns[k] = to_ns((Long)*sec[k], *nsec[k]);
		present[k] = ns[k] != ~0ULL;
	}
	/* The kernel's encoding of a device number. */
	ULong major = (st->st_dev >> 8 & 0xfff) | (st->st_dev >> 32 & ~0xfffULL);
	ULong minor = (st->st_dev & 0xff) | (st->st_dev >> 12 & ~0xffULL);
	fix(tid, major << 32 | (minor & 0xffffffffULL), st->st_ino, ns, present);
	for (UInt k = 0; k < BTIME; k++)
		if (present[k]) {
			*sec[k] = ns[k] / NS;
			*nsec[k] = ns[k] % NS;
		}
}

static void fix_statx(ThreadId tid, Addr a)
{
	if (!guest_may(a, sizeof(struct vki_statx), VKI_PROT_READ | VKI_PROT_WRITE))
		return;
	struct vki_statx *st = (struct vki_statx *)a;
	struct vki_statx_timestamp *t[TIMES] = {&st->stx_atime, &st->stx_mtime, &st->stx_ctime, &st->stx_btime};
	static const UInt bit[TIMES] = {STATX_ATIME, STATX_MTIME, STATX_CTIME, STATX_BTIME};
	ULong ns[TIMES];
	Bool present[TIMES];
	for (UInt k = 0; k < TIMES; k++) {
		ns[k] = to_ns(t[k]->tv_sec, t[k]->tv_nsec);
		present[k] = (st->stx_mask & bit[k]) && ns[k] != ~0ULL;
	}
	fix(tid, (ULong)st->stx_dev_major << 32 | st->stx_dev_minor, st->stx_ino, ns, present);
	for (UInt k = 0; k < TIMES; k++)
		if (present[k]) {
			t[k]->tv_sec = (Long)(ns[k] / NS);
			t[k]->tv_nsec = (UInt)(ns[k] % NS);
		}
}

void file_times_post_syscall(ThreadId tid, UInt sysno, const UWord *args, SysRes res)
{
	if (!since_ns)
		since_ns = (clock_ns(CLOCK_REALTIME_COARSE) / NS - SINCE_SLACK_S) * NS;
	if (sr_isError(res))
		return;
	switch (sysno) {
	case __NR_stat:
	case __NR_fstat:
	case __NR_lstat:
		fix_stat(tid, args[1]);
		break;
	case __NR_newfstatat:
		fix_stat(tid, args[2]);
		break;
	case __NR_statx:
		fix_statx(tid, args[4]);
		break;
	default:
		break;
	}
}
