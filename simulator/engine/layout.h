/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * layout.c: the canonical address space (--layout=canonical), so that
 * what the models see does not depend on where the loader, the kernel or
 * Valgrind happened to map things.  Each mapping the program makes is
 * given a place of its own there, by the order in which the program made
 * it, and keeps it while it lives: a larger /etc/ld.so.cache, another
 * library directory or another Valgrind moves the mappings, not their
 * canonical places.  Whatever indexes a model by address beyond a page's
 * offset (L2 and LL sets, the prefetchers' and predictors' tables) reads
 * canonical addresses; L1 (whose sets lie within a page) and every
 * equality (a tag, a branch's record) may keep the guest's own.  The
 * Notes in layout.c say how each kind of mapping is placed. */
#ifndef BM_ENGINE_LAYOUT_H
#define BM_ENGINE_LAYOUT_H

#include "pub_tool_basics.h"

/* Starts following the program's mappings (from post_clo_init: the
 * mappings present at the start are told after it).  With canonical
 * False every address is its own canonical one (--layout=host, as
 * callgrind sees them). */
void layout_init(Bool canonical);

/* The mapping the last lookup found, or the hole it fell in; used by
 * layout_canonical's fast path. */
struct layout_range {
	Addr start, end; /* [start, end) */
	Addr delta;      /* canonical = a + delta (modulo 2^64) */
};
extern struct layout_range layout_last;
Addr layout_lookup(Addr a);

/* The canonical address of guest address a. */
static inline Addr layout_canonical(Addr a)
{
	if (a - layout_last.start < layout_last.end - layout_last.start)
		return a + layout_last.delta;
	return layout_lookup(a);
}

/* The main thread's stack, once it is known (the first translation):
 * placed from its top, keeping the address modulo 1 MiB (libbm pins the
 * stack pointer there). */
void layout_stack_known(Addr sp);

/* Around each system call: an mremap's new pages (its growth in place)
 * continue the mapping they extend. */
void layout_pre_syscall(UInt sysno);
void layout_post_syscall(UInt sysno);

#endif
