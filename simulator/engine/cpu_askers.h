/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * cpu_askers.c: which objects of the program ask the CPU what it is
 * (cpuid), beyond glibc's loader and libc, whose choices bm-run's glibc
 * mask makes: a library that dispatches on cpuid picks its code by what
 * the virtual CPU offers, and bm-run says which CPU offers what
 * production has ("desc: Cpuid:", docs/engine.md "The virtual CPUs"). */
#ifndef BM_ENGINE_CPU_ASKERS_H
#define BM_ENGINE_CPU_ASKERS_H

#include "pub_tool_basics.h"

/* A cpuid instruction at guest address at is translated. */
void cpu_askers_note(Addr at);

/* The askers' file names, ", " between them, in the order first seen,
 * or NULL when none asked. */
const HChar *cpu_askers_text(void);

#endif
