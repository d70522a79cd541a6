/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * helpers.c: what the translations call for every executed instruction
 * where the inline checks could not tell (instrument.c): the caches'
 * fetch and data accesses, and the branch predictor's branches.  Each
 * counts into the instruction's record and the running totals. */
#ifndef BM_ENGINE_HELPERS_H
#define BM_ENGINE_HELPERS_H

#include "pub_tool_basics.h"

struct instr;

/* In a data access's how (its size in the low byte, its slot above): a
 * load of a pointer chase (blockcost.h). */
#define HOW_CHAINED (1UL << 30)
/* In a data access's or a branch's how: the superblock is one whose last
 * execution may be taken back (instrument.c's remember_sb), so the helper records what
 * the instruction's did (instr.last, last2).  Elsewhere nothing reads
 * those, and a hit touches no instruction record at all: with code of a
 * few megabytes, those are the host's cache misses. */
#define HOW_KEEP (1UL << 31)
#define HOW_COND_KEEP (1UL << 63)

/* An instruction's fetch; _kept: in a superblock whose last execution may
 * be taken back (HOW_KEEP). */
VG_REGPARM(1) void log_fetch(struct instr *i);
VG_REGPARM(1) void log_fetch_kept(struct instr *i);
/* A data access at a (how above); _if: a conditional one, whose guard
 * held (counted here). */
VG_REGPARM(3) void log_read(struct instr *i, Addr a, UWord how);
VG_REGPARM(3) void log_write(struct instr *i, Addr a, UWord how);
VG_REGPARM(3) void log_read_if(struct instr *i, Addr a, UWord how);
VG_REGPARM(3) void log_write_if(struct instr *i, Addr a, UWord how);
/* --branch-sim=yes: a conditional branch (how: bit 0 taken, HOW_COND_KEEP,
 * the rest its guard wait in cycles), and an indirect jump or call. */
VG_REGPARM(3) void log_cond(struct instr *i, UWord how, UChar *site);
VG_REGPARM(3) void log_indirect(struct instr *i, Addr target, Addr *site);

#endif
