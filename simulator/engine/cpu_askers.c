/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "cpu_askers.h"

#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

/* The most askers named; a program with more names the first. */
#define MAX_ASKERS 8
#define TEXT_MAX (MAX_ASKERS * 64)

static HChar text[TEXT_MAX];
static Int naskers;
static const HChar *askers[MAX_ASKERS];

static const HChar *base_name(const HChar *path)
{
	const HChar *slash = VG_(strrchr)(path, '/');
	return slash ? slash + 1 : path;
}

/* glibc's own: its cpuid reads are masked by GLIBC_TUNABLES. */
static Bool is_glibc(const HChar *name)
{
	return VG_(strncmp)(name, "ld-linux", 8) == 0 || VG_(strcmp)(name, "libc.so.6") == 0;
}

void cpu_askers_note(Addr at)
{
	const DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), at);
	const HChar *name = di ? base_name(VG_(DebugInfo_get_filename)(di)) : "(unnamed code)";
	if (is_glibc(name) || naskers == MAX_ASKERS)
		return;
	for (Int i = 0; i < naskers; i++)
		if (VG_(strcmp)(askers[i], name) == 0)
			return;
	askers[naskers++] = VG_(strdup)("bm.cpu_asker", name);
	if (VG_(strlen)(text) + VG_(strlen)(name) + 3 < TEXT_MAX) {
		if (naskers > 1)
			VG_(strcat)(text, ", ");
		VG_(strcat)(text, name);
	}
}

const HChar *cpu_askers_text(void)
{
	return naskers ? text : NULL;
}
