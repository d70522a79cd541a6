/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The virtual host files' descriptors: see host_files.h.
 *
 * Notes:
 *
 * - A file is known by the path the kernel resolved for the descriptor
 *   (/proc/self/fd/N), so that /proc//loadavg, /proc/self/../loadavg,
 *   openat(a descriptor of /proc, "uptime") and a bind mount over
 *   /proc/loadavg (lxcfs's, in containers) are the file they are.
 * - The descriptor the program got is replaced (dup3, its close-on-exec
 *   flag kept) by a descriptor of a memfd holding the text, opened again
 *   read-only: from then on it is the kernel's, with its own offset,
 *   shared by its copies as an open file's is, and gone when the program
 *   closes it.  The engine keeps no table of descriptor numbers: a
 *   number the program reuses for its own file is its own file.
 * - What the program can tell: fstat says a regular file of the text's
 *   length (a /proc file says 0), readlink of /proc/self/fd/N names the
 *   memfd, and mmap works (a /proc file's fails).
 * - Only descriptors opened for reading alone are swapped (O_PATH ones,
 *   which read nothing, are not): a program that opens one of the files
 *   to write it (/proc/sys/...) talks to the kernel.
 * - Descriptors the program had before it started (inherited from
 *   outside the engine) are the host's. */
#include "host_files.h"

#include "guest.h"

#include "proc_texts.h"

#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define O_PATH 010000000
#define O_CLOEXEC 02000000
#define MFD_CLOEXEC 1

static SysRes syscall3(UWord sysno, RegWord a1, RegWord a2, RegWord a3)
{
	return VG_(do_syscall)(sysno, a1, a2, a3, 0, 0, 0, 0, 0);
}

/* A descriptor of a new memfd holding t, open read-only (and nonblocking
 * as flags says), close-on-exec; -1 if one could not be made. */
static Int memfd_of(const struct text *t, Int flags)
{
	SysRes m = syscall3(__NR_memfd_create, (RegWord)(Addr) "bm", MFD_CLOEXEC, 0);
	if (sr_isError(m))
		return -1;
	Int mfd = (Int)sr_Res(m), n = 0;
	SizeT done = 0;
	while (done < t->len && (n = VG_(write)(mfd, t->s + done, (Int)(t->len - done))) > 0)
		done += (SizeT)n;
	HChar path[32];
	VG_(sprintf)(path, "/proc/self/fd/%d", mfd);
	Int fd = -1;
	if (done == t->len) {
		SysRes r = VG_(open)(path, VKI_O_RDONLY | (flags & VKI_O_NONBLOCK) | O_CLOEXEC, 0);
		fd = sr_isError(r) ? -1 : (Int)sr_Res(r);
	}
	VG_(close)(mfd);
	return fd;
}

void host_files_opened(ThreadId tid, Int fd)
{
	SysRes flags = syscall3(__NR_fcntl, (RegWord)fd, VKI_F_GETFL, 0);
	if (sr_isError(flags) || (sr_Res(flags) & VKI_O_ACCMODE) != VKI_O_RDONLY || (sr_Res(flags) & O_PATH))
		return;
	HChar link[32], path[256];
	VG_(sprintf)(link, "/proc/self/fd/%d", fd);
	SSizeT n = VG_(readlink)(link, path, sizeof path - 1);
	if (n <= 0 || n >= (SSizeT)sizeof path - 1)
		return;
	path[n] = 0;
	struct text t;
	if (!proc_text_make(tid, path, fd, &t))
		return;
	Int served = memfd_of(&t, (Int)sr_Res(flags));
	proc_text_release(&t);
	if (served < 0)
		return;
	SysRes fdflags = syscall3(__NR_fcntl, (RegWord)fd, VKI_F_GETFD, 0);
	Bool cloexec = !sr_isError(fdflags) && (sr_Res(fdflags) & VKI_FD_CLOEXEC);
	syscall3(__NR_dup3, (RegWord)served, (RegWord)fd, cloexec ? O_CLOEXEC : 0);
	VG_(close)(served);
}
