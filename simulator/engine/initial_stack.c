/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "initial_stack.h"

#include "guest.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_vki.h"

#define PAGE 4096UL
/* More than any program has: the walk stops there rather than run off. */
#define MAX_WORDS (1UL << 20)

/* The end of the NULL-ended array of words at p, past its NULL; 0 when
 * it cannot be read. */
static Addr past_null(Addr p, SizeT stride)
{
	for (SizeT n = 0; n < MAX_WORDS; n++, p += stride) {
		if (!guest_may(p, stride, VKI_PROT_READ))
			return 0;
		if (*(const ULong *)p == 0)
			return p + stride;
	}
	return 0;
}

/* Where thread tid's initial vectors are: the auxiliary vector, and the
 * end of the whole (0 and 0 where they cannot be read). */
static void vectors(ThreadId tid, Addr *auxv, Addr *end)
{
	Addr sp = VG_(get_SP)(tid);
	*auxv = *end = 0;
	if (!guest_may(sp, sizeof(ULong), VKI_PROT_READ))
		return;
	ULong argc = *(const ULong *)sp;
	if (argc >= MAX_WORDS)
		return;
	Addr a = past_null(sp + 8 * (1 + argc + 1), 8);
	/* Its pairs end with AT_NULL's. */
	Addr e = a ? past_null(a, 16) : 0;
	if (e) {
		*auxv = a;
		*end = e;
	}
}

Addr initial_stack_pin(ThreadId tid)
{
	Addr sp = VG_(get_SP)(tid), to = sp & ~(PAGE - 1), auxv, end;
	vectors(tid, &auxv, &end);
	if (to == sp || !end || !guest_may(to, end - sp, VKI_PROT_READ | VKI_PROT_WRITE))
		return sp;
	VG_(memmove)((void *)to, (const void *)sp, end - sp);
	ULong v = to;
	VG_(set_shadow_regs_area)(tid, 0, OFFSET_amd64_RSP, sizeof v, (const UChar *)&v);
	return to;
}

Addr initial_stack_aux(ThreadId tid, ULong type)
{
	Addr auxv, end;
	vectors(tid, &auxv, &end);
	for (Addr p = auxv; p && p + 16 <= end; p += 16)
		if (((const ULong *)p)[0] == type)
			return ((const ULong *)p)[1];
	return 0;
}
