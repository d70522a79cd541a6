/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * host_random.c: the random numbers a program gets, the same in every
 * run (--clock=virtual; docs/engine.md, "What the program sees"): one
 * fixed stream answers getrandom, every read of /dev/urandom and
 * /dev/random (read, pread, readv, preadv, preadv2), AT_RANDOM's 16
 * bytes, rdrand and rdseed.  A benchmark's randomness is an input, like
 * its data. */
#ifndef BM_ENGINE_HOST_RANDOM_H
#define BM_ENGINE_HOST_RANDOM_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* n bytes of the stream at the guest's buf (nothing where the guest may
 * not write there). */
void host_random_fill(Addr buf, SizeT n);

/* n bytes of the stream at p, the engine's memory. */
void host_random_bytes(UChar *p, SizeT n);

/* At the program's start: which of the descriptors it inherited are
 * random devices. */
void host_random_inherited(void);

/* After system call sysno succeeded with res: what it read of a random
 * device, or getrandom gave, is the stream's instead. */
void host_random_post_syscall(UInt sysno, const UWord *args, SysRes res);

/* In place of system call sysno: sendfile and splice from a random
 * device are refused (*res -EINVAL, as kernels without them answer): the
 * kernel would copy its bytes where the engine cannot change them.
 * False: the kernel's call. */
Bool host_random_answer(UWord sysno, const UWord *args, ULong *res);

/* Replaces VEX's rdrand and rdseed helpers in d by the stream's. */
void host_random_fix_rdrand(IRDirty *d);

#endif
