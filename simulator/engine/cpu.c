/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The guest's processor.  VEX answers the guest's cpuid with one of
 * several canned processors, picked by what the host supports
 * (guest_amd64_toIR.c), so that a program that dispatches on the CPU
 * (glibc's string functions, zstd, xxHash, __builtin_cpu_supports) would
 * take other paths on other hosts.  The engine sends every cpuid to the
 * helper of the CPU --cpu names instead:
 *
 * - x86-64-v1: VEX's own baseline helper (an AMD Opteron: SSE2, nothing
 *   later), as the engine always answered;
 * - x86-64-v3: the helper below, bm's own processor at the level of the
 *   machines programs run on in production (x86-64-v3 as the psABI
 *   defines it: AVX2, BMI1/2, FMA, F16C, LZCNT, MOVBE), every leaf a
 *   fixed answer (docs/engine.md has them as a table);
 * - x86-64-v3-server: the same with what every server core since 2017
 *   has beyond the level and VEX runs on any host (PCLMULQDQ, AES, ADX),
 *   so that a CRC, AES or bignum code that dispatches on cpuid takes the
 *   path production takes;
 * - host: VEX's choice (to compare with callgrind by hand).
 *
 * The facts about VEX come from Valgrind 3.19's guest_amd64_helpers.c,
 * guest_amd64_toIR.c and m_machine.c; the facts about what programs read
 * from glibc 2.36's sysdeps/x86 (cpu-features.c, dl-cacheinfo.h). */
#include "cpu.h"

#include "cpu_askers.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"

#include "libvex_guest_amd64.h"
#include "libvex_guest_offsets.h"


/* ---- x86-64-v3 ---- */

/* The vendor: AuthenticAMD, family 0x19 model 0x01 stepping 1, the
 * signature of AMD's Zen 3 EPYC 7763 (the CPU of GitHub's hosted x86-64
 * runners), which has no AVX-512.  Chosen because glibc 2.36 derives nothing from an AMD
 * family-0x17-or-later model beyond what the feature bits say (its
 * "preferred" bits: only AVX_Fast_Unaligned_Load, from AVX2), where an
 * Intel family 6 model selects tunings from model tables and TSX errata
 * by stepping; and family 0x19 rather than Zen 1/2's 0x17, whose slow
 * PDEP/PEXT some libraries avoid by family. */
#define V3_FAMILY 0x19
#define V3_MODEL 0x01
#define V3_STEPPING 0x1
/* Leaf 1's eax: stepping, model, family 0xf plus the extended family. */
#define V3_SIGNATURE                                                                             \
	((UInt)(V3_FAMILY - 0xf) << 20 | (UInt)(V3_MODEL >> 4) << 16 | 0xfu << 8 | (UInt)(V3_MODEL & 0xf) << 4 | \
	 V3_STEPPING)
/* "AuthenticAMD" in ebx, edx, ecx. */
#define VENDOR_EBX 0x68747541u /* "Auth" */
#define VENDOR_EDX 0x69746e65u /* "enti" */
#define VENDOR_ECX 0x444d4163u /* "cAMD" */

/* The highest basic leaf: 0xd (XSAVE's state); every leaf up to it not
 * named below, and every leaf above it, answers zeros (as AMD's do). */
#define V3_MAX_BASIC 0x0du
/* The highest extended leaf: 0x8000001d, AMD's cache leaf. */
#define V3_MAX_EXTENDED 0x8000001du

/* Leaf 1, ebx: CLFLUSH's line in 8-byte units (64 bytes), one logical
 * processor, APIC id 0 (the same on every core: no host state). */
#define V3_LEAF1_EBX (1u << 16 | (64u / 8) << 8)
/* Leaf 1, edx: x86-64's baseline (FPU, TSC, CX8, CMOV, MMX, FXSR, SSE,
 * SSE2, CLFLUSH, ...), VEX's baseline processor's bits; no HTT. */
#define V3_LEAF1_EDX 0x078bfbffu
/* Leaf 1, ecx: x86-64-v2's and v3's, XSAVE that OSXSAVE needs, and
 * RDRAND, which every x86-64-v3 core has (Intel's since Ivy Bridge, AMD's
 * since Excavator) and whose answers are the engine's fixed random stream
 * under the virtual clock (host_random.h).  Not PCLMULQDQ, AES, x2APIC,
 * MONITOR (not part of the level), nor the hypervisor bit. */
#define ECX_SSE3 (1u << 0)
#define ECX_SSSE3 (1u << 9)
#define ECX_FMA (1u << 12)
#define ECX_CX16 (1u << 13)
#define ECX_SSE4_1 (1u << 19)
#define ECX_SSE4_2 (1u << 20)
#define ECX_MOVBE (1u << 22)
#define ECX_POPCNT (1u << 23)
#define ECX_XSAVE (1u << 26)
#define ECX_OSXSAVE (1u << 27) /* XGETBV works: VEX answers it 7 (x87, SSE, AVX) */
#define ECX_AVX (1u << 28)
#define ECX_F16C (1u << 29)
#define ECX_RDRAND (1u << 30)
#define V3_LEAF1_ECX                                                                              \
	(ECX_SSE3 | ECX_SSSE3 | ECX_FMA | ECX_CX16 | ECX_SSE4_1 | ECX_SSE4_2 | ECX_MOVBE | ECX_POPCNT | \
	 ECX_XSAVE | ECX_OSXSAVE | ECX_AVX | ECX_F16C | ECX_RDRAND)

/* x86-64-v3-server's further bits: PCLMULQDQ and AES (leaf 1, ecx) and
 * ADX (leaf 7, ebx), which Intel's cores have since Broadwell and AMD's
 * since Zen 1 (Skylake-SP and EPYC 7001, 2017, are the oldest servers
 * with all three).  VEX 3.19 decodes each on any host: its PCLMULQDQ and
 * AES are helpers in C, ADCX and ADOX its flag thunks. */
#define ECX_PCLMULQDQ (1u << 1)
#define ECX_AES (1u << 25)
#define EBX7_ADX (1u << 19)
#define SERVER_LEAF1_ECX (V3_LEAF1_ECX | ECX_PCLMULQDQ | ECX_AES)

/* Leaf 7 subleaf 0, ebx: BMI1, AVX2, BMI2; not ERMS or FSRM (how fast
 * rep movsb is belongs to a host), RTM, ADX, SHA, AVX-512, nor RDSEED:
 * x86-64-v3 cores without it run in production (Intel's Haswell, AMD's
 * Excavator), and VEX decodes it only on hosts that have it, so that
 * such a host would have to be refused or a program that asked would
 * die of SIGILL (where it runs, it answers from the random stream, as
 * RDRAND).  eax 0: no further subleaf. */
#define EBX7_BMI1 (1u << 3)
#define EBX7_AVX2 (1u << 5)
#define EBX7_BMI2 (1u << 8)
#define V3_LEAF7_EBX (EBX7_BMI1 | EBX7_AVX2 | EBX7_BMI2)
#define SERVER_LEAF7_EBX (V3_LEAF7_EBX | EBX7_ADX)

/* Leaf 0xd, XSAVE's state as VEX implements it: x87, SSE and AVX
 * (XCR0 = 7, as VEX's XGETBV says), 832 bytes in the standard layout
 * with AVX's upper halves at 576 (256 bytes).  Subleaf 1 says no
 * XSAVEOPT, XSAVEC or XSAVES, which VEX does not implement. */
#define XSAVE_COMPONENTS 7u
#define XSAVE_SIZE 832u
#define XSAVE_AVX_SIZE 256u
#define XSAVE_AVX_OFFSET 576u

/* 0x80000001: the signature again; ecx LAHF/SAHF in 64-bit mode (v2),
 * LZCNT (ABM, v3), TOPOEXT (leaf 0x8000001d is there); edx AMD's copy of
 * leaf 1's bits with SYSCALL, NX, MMX extensions and long mode, but not
 * RDTSCP (VEX decodes it only on hosts that have it), 1 GiB pages or
 * FFXSR: VEX's baseline processor's. */
#define ECX81_LAHF (1u << 0)
#define ECX81_LZCNT (1u << 5)
#define ECX81_TOPOEXT (1u << 22)
#define V3_EXT1_ECX (ECX81_LAHF | ECX81_LZCNT | ECX81_TOPOEXT)
#define V3_EXT1_EDX 0x21d3fbffu

/* 0x80000002-4: the brand string, at most 47 bytes. */
#define V3_BRAND "bm virtual CPU x86-64-v3"
#define SERVER_BRAND "bm virtual CPU x86-64-v3-server"

/* 0x80000008, eax: 48 physical and 48 virtual address bits; ecx: one
 * core (no APIC id bits). */
#define V3_ADDRESS_BITS (48u << 8 | 48u)

/* The caches, as the simulator has them (the model's, which bm-run
 * passes: cpu_cannot takes them): leaf 4 (Intel's layout) and 0x8000001d
 * (AMD's, the same) list L1 data, L1 instruction, the L2 when there is
 * one (bm-model/2) and LL, which is the last level (L3); 0x80000005 and
 * 0x80000006 (AMD's older leaves, glibc's source of sysconf's cache
 * sizes on AMD) say the same. */
enum cache_type { CACHE_NONE, CACHE_DATA, CACHE_INSTRUCTION, CACHE_UNIFIED };
static struct v3_cache {
	enum cache_type type;
	UInt level;
	struct sim_geometry g;
} v3_caches[4];
static UInt v3_ncaches;
#define V3_D1 (&v3_caches[0].g)
#define V3_I1 (&v3_caches[1].g)
#define V3_LL (&v3_caches[v3_ncaches - 1].g)
static const struct sim_geometry *v3_l2; /* or NULL */
/* Leaf 4's eax: type, level, self-initialising (bit 8); no thread
 * shares it (bits 25:14 zero). */
#define CACHE_SELF_INIT (1u << 8)
/* 0x80000005's L1 descriptors: size in KiB 31:24, ways 23:16, lines per
 * tag 15:8, line size 7:0. */
#define AMD_L1(c) ((UInt)(c)->size / 1024 << 24 | (UInt)(c)->assoc << 16 | 1u << 8 | (UInt)(c)->line)
/* 0x80000006's L3 descriptor (edx): size in 512 KiB units 31:18, ways
 * 15:12 by AMD's table, lines per tag 11:8, line size 7:0; and the L2's
 * (ecx): size in KiB 31:16, then the same (0 when there is none). */
static UInt amd_ways(Int assoc)
{
	return assoc == 16 ? 0x8u : assoc == 8 ? 0x6u : assoc == 4 ? 0x4u : 0x2u;
}
#define AMD_L3(c) ((UInt)(c)->size / (512 * 1024) << 18 | amd_ways((c)->assoc) << 12 | 1u << 8 | (UInt)(c)->line)
#define AMD_L2(c) ((UInt)(c)->size / 1024 << 16 | amd_ways((c)->assoc) << 12 | 1u << 8 | (UInt)(c)->line)

static void cache_leaf(UInt sub, UInt r[4])
{
	if (sub >= v3_ncaches)
		return; /* type 0: no more caches */
	const struct v3_cache *c = &v3_caches[sub];
	UInt sets = (UInt)(c->g.size / (c->g.assoc * c->g.line));
	r[0] = (UInt)c->type | c->level << 5 | CACHE_SELF_INIT;
	r[1] = (UInt)(c->g.line - 1) | (UInt)(c->g.assoc - 1) << 22;
	r[2] = sets - 1;
}

/* The answer to leaf, subleaf: eax, ebx, ecx, edx; server: whether the
 * CPU is x86-64-v3-server. */
static void v3_answer(UInt leaf, UInt sub, Bool server, UInt r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	switch (leaf) {
	case 0x0:
		r[0] = V3_MAX_BASIC;
		r[1] = VENDOR_EBX;
		r[2] = VENDOR_ECX;
		r[3] = VENDOR_EDX;
		break;
	case 0x1:
		r[0] = V3_SIGNATURE;
		r[1] = V3_LEAF1_EBX;
		r[2] = server ? SERVER_LEAF1_ECX : V3_LEAF1_ECX;
		r[3] = V3_LEAF1_EDX;
		break;
	case 0x4:
	case 0x8000001d:
		cache_leaf(sub, r);
		break;
	case 0x7:
		if (sub == 0)
			r[1] = server ? SERVER_LEAF7_EBX : V3_LEAF7_EBX;
		break;
	case 0xd:
		if (sub == 0) {
			r[0] = XSAVE_COMPONENTS;
			r[1] = r[2] = XSAVE_SIZE;
		} else if (sub == 2) {
			r[0] = XSAVE_AVX_SIZE;
			r[1] = XSAVE_AVX_OFFSET;
		}
		break;
	case 0x80000000:
		r[0] = V3_MAX_EXTENDED;
		r[1] = VENDOR_EBX;
		r[2] = VENDOR_ECX;
		r[3] = VENDOR_EDX;
		break;
	case 0x80000001:
		r[0] = V3_SIGNATURE;
		r[2] = V3_EXT1_ECX;
		r[3] = V3_EXT1_EDX;
		break;
	case 0x80000002:
	case 0x80000003:
	case 0x80000004: {
		static const HChar v3[48] = V3_BRAND, server_brand[48] = SERVER_BRAND;
		VG_(memcpy)(r, (server ? server_brand : v3) + 16 * (leaf - 0x80000002), 16);
		break;
	}
	case 0x80000005:
		r[2] = AMD_L1(V3_D1);
		r[3] = AMD_L1(V3_I1);
		break;
	case 0x80000006:
		r[2] = v3_l2 ? AMD_L2(v3_l2) : 0;
		r[3] = AMD_L3(V3_LL);
		break;
	case 0x80000008:
		r[0] = V3_ADDRESS_BITS;
		break;
	default:
		break;
	}
}

/* The dirty helpers: read eax and ecx, write all four (the upper halves
 * zero, as a 32-bit write leaves them). */
static void v3_cpuid(VexGuestAMD64State *st, Bool server)
{
	UInt r[4];
	v3_answer((UInt)st->guest_RAX, (UInt)st->guest_RCX, server, r);
	st->guest_RAX = r[0];
	st->guest_RBX = r[1];
	st->guest_RCX = r[2];
	st->guest_RDX = r[3];
}

static void cpuid_x86_64_v3(VexGuestAMD64State *st)
{
	v3_cpuid(st, False);
}

static void cpuid_x86_64_v3_server(VexGuestAMD64State *st)
{
	v3_cpuid(st, True);
}

/* ---- the host, and the translations ---- */

/* What VEX 3.19 needs of the host to run x86-64-v3's code right: it
 * decodes VEX-encoded instructions (AVX, AVX2, FMA, BMI) and XGETBV only
 * when the host has AVX enabled by the OS; F3 0F BC and F3 0F BD are
 * TZCNT and LZCNT only on hosts with BMI1 and LZCNT (elsewhere REP BSF
 * and REP BSR, which answer otherwise for 0: another result, not a
 * crash); F16C's conversions need the host's, and RDRAND too (elsewhere
 * SIGILL); CMPXCHG16B and SSSE3's shuffles its back end uses.  AVX2 itself it does not need (its back
 * end makes 256-bit operations of pairs of SSE ones, and decodes AVX2 on
 * any host with AVX), but that was read in its source, not run on such a
 * host (AMD's family 0x15, rare now): it is asked for too, as bm-run asks
 * for the whole level. */
#define V3_HOST_NEEDS                                                                              \
	(VEX_HWCAPS_AMD64_AVX | VEX_HWCAPS_AMD64_AVX2 | VEX_HWCAPS_AMD64_BMI | VEX_HWCAPS_AMD64_LZCNT | \
	 VEX_HWCAPS_AMD64_F16C | VEX_HWCAPS_AMD64_SSSE3 | VEX_HWCAPS_AMD64_CX16 | VEX_HWCAPS_AMD64_RDRAND)

/* Whether AMD's leaves can say g's associativity. */
static Bool amd_describes(const struct sim_geometry *g)
{
	return g->assoc == 2 || g->assoc == 4 || g->assoc == 8 || g->assoc == 16;
}

const HChar *cpu_cannot(const struct sim_geometry *i1, const struct sim_geometry *d1,
			const struct sim_geometry *l2, const struct sim_geometry *ll)
{
	if (clo.cpu != CPU_X86_64_V3 && clo.cpu != CPU_X86_64_V3_SERVER)
		return NULL;
	VexArch arch;
	VexArchInfo info;
	VG_(machine_get_VexArchInfo)(&arch, &info);
	if ((info.hwcaps & V3_HOST_NEEDS) != V3_HOST_NEEDS)
		return "this host cannot run x86-64-v3's code under Valgrind (it needs AVX and AVX2 enabled, "
		       "BMI1, LZCNT, F16C and RDRAND): use --cpu=x86-64-v1";
	if (!amd_describes(i1) || !amd_describes(d1) || (l2 && !amd_describes(l2)) || !amd_describes(ll) ||
	    ll->size % (512 * 1024) != 0)
		return "x86-64-v3's cpuid describes the simulated caches: their ways must be 2, 4, 8 or 16, "
		       "and LL a multiple of 512 KiB";
	v3_caches[0] = (struct v3_cache){CACHE_DATA, 1, *d1};
	v3_caches[1] = (struct v3_cache){CACHE_INSTRUCTION, 1, *i1};
	v3_ncaches = 2;
	if (l2)
		v3_caches[v3_ncaches++] = (struct v3_cache){CACHE_UNIFIED, 2, *l2};
	v3_caches[v3_ncaches++] = (struct v3_cache){CACHE_UNIFIED, 3, *ll};
	v3_l2 = l2;
	return NULL;
}

/* VEX's baseline x86-64 processor (libvex's guest_amd64_helpers.c). */
extern void amd64g_dirtyhelper_CPUID_baseline(VexGuestAMD64State *st);

void cpu_fix_cpuid(IRDirty *d, Addr at)
{
	if (VG_(strncmp)(d->cee->name, "amd64g_dirtyhelper_CPUID", 24) != 0)
		return;
	cpu_askers_note(at);
	if (clo.cpu == CPU_HOST)
		return;
	if (clo.cpu == CPU_X86_64_V1) {
		d->cee = mkIRCallee(0, "amd64g_dirtyhelper_CPUID_baseline",
				    VG_(fnptr_to_fnentry)(amd64g_dirtyhelper_CPUID_baseline));
	} else {
		if (clo.cpu == CPU_X86_64_V3_SERVER)
			d->cee = mkIRCallee(0, "bm_cpuid_x86_64_v3_server", VG_(fnptr_to_fnentry)(cpuid_x86_64_v3_server));
		else
			d->cee = mkIRCallee(0, "bm_cpuid_x86_64_v3", VG_(fnptr_to_fnentry)(cpuid_x86_64_v3));
		/* It reads ecx (the subleaf): say so, where VEX's call says
		 * only that it writes it. */
		for (Int i = 0; i < d->nFxState; i++)
			if (d->fxState[i].offset == OFFSET_amd64_RCX)
				d->fxState[i].fx = Ifx_Modify;
	}
	d->args = mkIRExprVec_1(IRExpr_GSPTR());
}
