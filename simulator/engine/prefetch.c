/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The address a software prefetch names, from its bytes (Intel's SDM,
 * volume 2, 2.1-2.2: prefixes, REX, ModRM, SIB, displacement; facts
 * taken): see prefetch.h. */
#include "prefetch.h"

#include "libvex.h"
#include "libvex_guest_offsets.h"

/* The core's VEX settings, which Valgrind's LibVEX_Init takes at the
 * first translation, and its setting for code of mapped files, which
 * the options left at the default's value (coregrind's
 * pub_core_options.h: not a tool's header, so declared here).  Both
 * are set as the core's --vgdb=full sets them. */
extern VexControl vgPlain_clo_vex_control;
extern VexRegisterUpdates vgPlain_clo_px_file_backed;

void prefetch_init(void)
{
	vgPlain_clo_vex_control.iropt_register_updates_default = VexRegUpdAllregsAtEachInsn;
	vgPlain_clo_px_file_backed = VexRegUpdAllregsAtEachInsn;
}

/* The offset of general register n (0 rax .. 15 r15, the encoding's
 * order) in the guest state: VEX lays them out 8 bytes apart in that
 * order from rax. */
static Int reg_offset(UInt n)
{
	return OFFSET_amd64_RAX + 8 * (Int)n;
}

static Int disp32(const UChar *b)
{
	return (Int)((UInt)b[0] | (UInt)b[1] << 8 | (UInt)b[2] << 16 | (UInt)b[3] << 24);
}

/* Whether b (up to its end) starts with a prefetch's opcode, past
 * prefixes: 0F 18 /0-/3 (nta, t0, t1, t2) or 0F 0D /0-/1; *rex the REX
 * byte (0 for none), *modrm the ModRM's index in b. */
static Bool prefetch_opcode(const UChar *b, UInt len, UInt *rex, UInt *modrm)
{
	UInt i = 0;
	*rex = 0;
	/* Segment prefixes that leave the address as it is (CS, DS, ES, SS). */
	while (i < len && (b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x36))
		i++;
	if (i < len && (b[i] & 0xf0) == 0x40)
		*rex = b[i++];
	if (i + 2 >= len || b[i] != 0x0f)
		return False;
	UInt op = b[i + 1], m = b[i + 2], regfield = (m >> 3) & 7;
	if ((m >> 6) == 3)
		return False; /* a register operand: a NOP */
	if (!((op == 0x18 && regfield <= 3) || (op == 0x0d && regfield <= 1)))
		return False;
	*modrm = i + 2;
	return True;
}

Bool prefetch_operand(Addr a, UInt len, struct prefetch_operand *op)
{
	const UChar *b = (const UChar *)a;
	UInt rex, at;
	if (len > 15 || !prefetch_opcode(b, len, &rex, &at))
		return False;
	UInt m = b[at], mod = m >> 6, rm = (m & 7) | (rex & 1) << 3, i = at + 1;
	Bool rip = False;
	*op = (struct prefetch_operand){.base = -1, .index = -1};
	if ((m & 7) == 4) { /* a SIB byte */
		if (i >= len)
			return False;
		UInt sib = b[i++], idx = ((sib >> 3) & 7) | (rex & 2) << 2, bs = (sib & 7) | (rex & 1) << 3;
		op->scale = sib >> 6;
		if (idx != 4)
			op->index = reg_offset(idx);
		if ((sib & 7) == 5 && mod == 0) {
			if (i + 4 > len)
				return False;
			op->disp = disp32(b + i);
			i += 4;
		} else {
			op->base = reg_offset(bs);
		}
	} else if ((m & 7) == 5 && mod == 0) {
		rip = True;
	} else {
		op->base = reg_offset(rm);
	}
	if (mod == 1) {
		if (i + 1 > len)
			return False;
		op->disp += (Char)b[i++];
	} else if (mod == 2 || rip) {
		if (i + 4 > len)
			return False;
		op->disp += disp32(b + i);
		i += 4;
	}
	if (i != len)
		return False; /* not the whole instruction: not one this reads */
	if (rip)
		op->disp += (Long)(a + len); /* from the next instruction */
	return True;
}
