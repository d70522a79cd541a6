/* SPDX-License-Identifier: MIT */
/* The system-call breakdown of a profile (SPEC 1.4): callgrind charges a
 * system call to the function that executes the syscall instruction (the
 * libc wrapper: read, write, nanosleep, ...); this lists those functions
 * with their own count, wall and CPU time, and who called them.  None of
 * it is part of cycles, time or speed. */
#ifndef BM_SYSCALLS_H
#define BM_SYSCALLS_H

#include "profile.h"
#include "report.h"

/* Fills out from p.  Functions are sorted by wall time, then count, both
 * descending; their callers by the system calls made through them.  A
 * profile without system-call events gives all zeros.  out must be empty;
 * the caller releases it with syscalls_release (or through the report
 * that owns it). */
void syscalls_from_profile(const struct bm_profile *p, struct bm_syscalls *out);

#endif
