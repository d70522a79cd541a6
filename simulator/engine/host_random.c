/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The fixed random stream: see host_random.h.
 *
 * Notes:
 *
 * - A random device is known by what the descriptor is when it is read
 *   (a character device 1:8 or 1:9, by fstat), not by the name it was
 *   opened under nor by its number: descriptors move (dup2, dup3, fcntl,
 *   close_range, exec, another process's), and a number that once was
 *   /dev/urandom may be a program's own file now, which is never touched.
 *   That check (an fstat) is made only for a descriptor that was a random
 *   device when it was made: 20% more time on a million one-byte reads
 *   of /dev/zero otherwise.
 * - Random bytes left in memory move counts even in programs that never
 *   use them: glibc's tcache key, from getrandom, stays in freed chunks
 *   that SSE2 string functions read past a string's end, and the stack
 *   guard from AT_RANDOM lies in every protected frame.
 * - VEX's rdrand and rdseed helpers return 32 random bits and the carry
 *   flag in bit 32 (a 64-bit operand takes two calls); VEX decodes the
 *   instructions only on hosts that have them. */
#include "host_random.h"

#include "guest.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_machine.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define E_INVAL 22

/* A fixed xorshift64* stream. */
static ULong state = 0x9E3779B97F4A7C15ULL;

void host_random_bytes(UChar *p, SizeT n)
{
	for (SizeT i = 0; i < n; i++) {
		if (i % 8 == 0) {
			state ^= state >> 12;
			state ^= state << 25;
			state ^= state >> 27;
		}
		p[i] = (UChar)((state * 0x2545F4914F6CDD1DULL) >> (8 * (i % 8)));
	}
}

void host_random_fill(Addr buf, SizeT n)
{
	if (guest_may(buf, n, VKI_PROT_WRITE))
		host_random_bytes((UChar *)buf, n);
}

/* The descriptors that may be random devices: those that were when they
 * were made (opened, duplicated, inherited), a bit each; checked again
 * at each read, since the number may be another file's by then.  A
 * descriptor made where the engine does not look (received through a
 * socket), or beyond the bits, is checked at every read. */
#define SUSPECTS 65536
#define INHERITED 1024
static UChar suspect[SUSPECTS / 8];
static Bool suspect_all;

/* /dev/random (1:8) or /dev/urandom (1:9), in the kernel's encoding. */
static Bool is_random_device(Int fd)
{
	struct vg_stat st;
	return VG_(fstat)(fd, &st) == 0 && (st.mode & VKI_S_IFMT) == VKI_S_IFCHR &&
	       (st.rdev == 0x108 || st.rdev == 0x109);
}

static void note_made(Int fd)
{
	if (fd >= 0 && fd < SUSPECTS) {
		if (is_random_device(fd))
			suspect[fd / 8] |= (UChar)(1u << (fd % 8));
		else
			suspect[fd / 8] &= (UChar)~(1u << (fd % 8));
	}
}

static Bool random_device(Int fd)
{
	if (fd < 0)
		return False;
	if (fd < SUSPECTS && !suspect_all && !(suspect[fd / 8] & (1u << (fd % 8))))
		return False;
	return is_random_device(fd);
}

void host_random_inherited(void)
{
	for (Int fd = 0; fd < INHERITED; fd++)
		note_made(fd);
}

/* The n bytes a readv-like call read into iovcnt iovecs at iov. */
static void fill_iovecs(Addr iov, UWord iovcnt, SizeT n)
{
	if (!guest_may(iov, iovcnt * sizeof(struct vki_iovec), VKI_PROT_READ))
		return;
	const struct vki_iovec *v = (const struct vki_iovec *)iov;
	for (UWord i = 0; i < iovcnt && n; i++) {
		SizeT part = v[i].iov_len < n ? v[i].iov_len : n;
		host_random_fill((Addr)v[i].iov_base, part);
		n -= part;
	}
}

#define F_DUPFD 0
#define F_DUPFD_CLOEXEC 1030
#define PIDFD_GETFD 438

/* After a successful call that may have made a descriptor. */
static void note_descriptors(UInt sysno, const UWord *args, UWord res)
{
	switch (sysno) {
	case __NR_open:
	case __NR_openat:
	case __NR_dup:
	case __NR_dup2:
	case __NR_dup3:
	case __NR_open_by_handle_at:
	case PIDFD_GETFD:
		note_made((Int)res);
		break;
	case __NR_fcntl:
		if (args[1] == F_DUPFD || args[1] == F_DUPFD_CLOEXEC)
			note_made((Int)res);
		break;
	case __NR_recvmsg:
		/* Descriptors may have come with it (SCM_RIGHTS). */
		if (!guest_may(args[1], sizeof(struct vki_msghdr), VKI_PROT_READ) ||
		    ((const struct vki_msghdr *)args[1])->msg_controllen)
			suspect_all = True;
		break;
	case __NR_recvmmsg:
		for (UWord i = 0; i < res; i++) {
			Addr m = args[1] + i * sizeof(struct vki_mmsghdr);
			if (!guest_may(m, sizeof(struct vki_mmsghdr), VKI_PROT_READ) ||
			    ((const struct vki_mmsghdr *)m)->msg_hdr.msg_controllen)
				suspect_all = True;
		}
		break;
	default:
		break;
	}
}

void host_random_post_syscall(UInt sysno, const UWord *args, SysRes res)
{
	if (sr_isError(res))
		return;
	note_descriptors(sysno, args, sr_Res(res));
	SizeT n = sr_Res(res);
	if (n == 0)
		return;
	switch (sysno) {
	case __NR_getrandom:
		host_random_fill(args[0], n);
		break;
	case __NR_read:
	case __NR_pread64:
		if (random_device((Int)args[0]))
			host_random_fill(args[1], n);
		break;
	case __NR_readv:
	case __NR_preadv:
	case __NR_preadv2:
		if (random_device((Int)args[0]))
			fill_iovecs(args[1], args[2], n);
		break;
	default:
		break;
	}
}

Bool host_random_answer(UWord sysno, const UWord *args, ULong *res)
{
	/* sendfile(out, in, ...), splice(in, ...) */
	if ((sysno == __NR_sendfile && random_device((Int)args[1])) ||
	    (sysno == __NR_splice && random_device((Int)args[0]))) {
		*res = (ULong)-E_INVAL;
		return True;
	}
	return False;
}

/* 32 bits of the stream, the carry set: a number was there. */
static ULong virtual_rdrand(void)
{
	UInt v;
	host_random_bytes((UChar *)&v, sizeof v);
	return 1ULL << 32 | v;
}

void host_random_fix_rdrand(IRDirty *d)
{
	if (VG_(strcmp)(d->cee->name, "amd64g_dirtyhelper_RDRAND") == 0 ||
	    VG_(strcmp)(d->cee->name, "amd64g_dirtyhelper_RDSEED") == 0)
		d->cee = mkIRCallee(0, "bm_virtual_rdrand", VG_(fnptr_to_fnentry)(virtual_rdrand));
}
