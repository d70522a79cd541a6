/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING. */
#include "settings.h"

#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

struct settings clo = {
	.out_file = "callgrind.out.%p",
	.instr_atstart = True,
	.i1 = {32768, 8, 64},
	.d1 = {32768, 8, 64},
	.ll = {8388608, 16, 64},
	.cpu = CPU_X86_64_V1,
	.clock_hz = 3000000000ULL,
	.clock_cost = {[EV_IR] = 100},
};

/* --clock-cost=EVENT:CENTI,...: replaces every weight; False when an
 * event is unknown, repeated or a weight is out of range. */
static Bool parse_clock_cost(const HChar *arg, Long cost[EV_COUNT])
{
	Long got[EV_COUNT] = {0};
	Bool seen[EV_COUNT] = {0};
	const HChar *s = arg;
	while (*s) {
		const HChar *colon = VG_(strchr)(s, ':');
		if (!colon)
			return False;
		Int e = 0;
		while (e < EV_COUNT && !(VG_(strlen)(event_names[e]) == (SizeT)(colon - s) &&
					 VG_(strncmp)(event_names[e], s, colon - s) == 0))
			e++;
		if (e == EV_COUNT || e >= EV_SYSCOUNT || seen[e])
			return False;
		HChar *end;
		got[e] = VG_(strtoll10)(colon + 1, &end);
		if (end == colon + 1 || (*end && *end != ',') || got[e] < -1000000 || got[e] > 1000000)
			return False;
		seen[e] = True;
		s = *end ? end + 1 : end;
	}
	VG_(memcpy)(cost, got, sizeof got);
	return True;
}

static Bool parse_geometry(const HChar *arg, struct sim_geometry *g)
{
	const HChar *s = arg;
	HChar *end;
	Long v[3];
	for (Int i = 0; i < 3; i++) {
		v[i] = VG_(strtoll10)(s, &end);
		if (end == s || (i < 2 && *end != ',') || (i == 2 && *end) || v[i] <= 0 || v[i] > (1L << 30))
			return False;
		s = end + 1;
	}
	*g = (struct sim_geometry){(Int)v[0], (Int)v[1], (Int)v[2]};
	return True;
}

/* --cpu=NAME: x86-64-v1, x86-64-v3, x86-64-v3-server or host.  False
 * for another name. */
static Bool parse_cpu(const HChar *name, enum engine_cpu *cpu)
{
	if (VG_(strcmp)(name, "x86-64-v1") == 0)
		*cpu = CPU_X86_64_V1;
	else if (VG_(strcmp)(name, "x86-64-v3") == 0)
		*cpu = CPU_X86_64_V3;
	else if (VG_(strcmp)(name, "x86-64-v3-server") == 0)
		*cpu = CPU_X86_64_V3_SERVER;
	else if (VG_(strcmp)(name, "host") == 0)
		*cpu = CPU_HOST;
	else
		return False;
	return True;
}

Bool settings_option(const HChar *arg)
{
	const HChar *s;
	Bool cache_sim;
	if VG_STR_CLO (arg, "--callgrind-out-file", clo.out_file) {
	} else if VG_STR_CLO (arg, "--I1", s) {
		if (!parse_geometry(s, &clo.i1))
			VG_(fmsg_bad_option)(arg, "expected SIZE,ASSOC,LINE\n");
	} else if VG_STR_CLO (arg, "--D1", s) {
		if (!parse_geometry(s, &clo.d1))
			VG_(fmsg_bad_option)(arg, "expected SIZE,ASSOC,LINE\n");
	} else if VG_STR_CLO (arg, "--LL", s) {
		if (!parse_geometry(s, &clo.ll))
			VG_(fmsg_bad_option)(arg, "expected SIZE,ASSOC,LINE\n");
	} else if VG_STR_CLO (arg, "--L2", s) {
		if (!parse_geometry(s, &clo.l2_geometry))
			VG_(fmsg_bad_option)(arg, "expected SIZE,ASSOC,LINE\n");
		clo.l2 = True;
	} else if VG_BOOL_CLO (arg, "--block-cost", clo.block_cost) {
	} else if VG_XACT_CLO (arg, "--core=bm-model/2", clo.core, CORE_BM_MODEL_2) {
	} else if VG_XACT_CLO (arg, "--core=bm-model/3", clo.core, CORE_BM_MODEL_3) {
	} else if VG_XACT_CLO (arg, "--core=bm-model/4", clo.core, CORE_BM_MODEL_4) {
	} else if VG_STR_CLO (arg, "--core", s) {
		VG_(fmsg_bad_option)(arg, "expected bm-model/2, bm-model/3 or bm-model/4\n");
	} else if VG_BOOL_CLO (arg, "--heap", clo.heap) {
	} else if VG_XACT_CLO (arg, "--cache-sim=yes", cache_sim, True) {
		/* Always on: the option is accepted for callgrind's command lines. */
		(void)cache_sim;
	} else if VG_XACT_CLO (arg, "--collect-systime=nsec", clo.systime, True) {
	} else if VG_XACT_CLO (arg, "--collect-systime=no", clo.systime, False) {
	} else if VG_BOOL_CLO (arg, "--instr-atstart", clo.instr_atstart) {
	} else if VG_BOOL_CLO (arg, "--dump-instr", clo.dump_instr) {
	} else if VG_BOOL_CLO (arg, "--branch-sim", clo.branch_sim) {
	} else if VG_XACT_CLO (arg, "--clock=virtual", clo.clock_virtual, True) {
	} else if VG_XACT_CLO (arg, "--clock=host", clo.clock_virtual, False) {
	} else if VG_XACT_CLO (arg, "--layout=canonical", clo.layout_canonical, True) {
	} else if VG_XACT_CLO (arg, "--layout=host", clo.layout_canonical, False) {
	} else if VG_BOOL_CLO (arg, "--skip-loader", clo.skip_loader) {
	} else if VG_STR_CLO (arg, "--clock-hz", s) {
		HChar *end;
		Long hz = VG_(strtoll10)(s, &end);
		if (end == s || *end || hz < 1000000 || hz > 100000000000L)
			VG_(fmsg_bad_option)(arg, "expected cycles per second, from 1000000 to 100000000000\n");
		clo.clock_hz = (ULong)hz;
	} else if VG_STR_CLO (arg, "--zero-before", s) {
		if (clo.nzero_before == FN_HOOKS_MAX)
			VG_(fmsg_bad_option)(arg, "at most 8 of them\n");
		clo.zero_before[clo.nzero_before++] = s;
	} else if VG_STR_CLO (arg, "--dump-before", s) {
		if (clo.ndump_before == FN_HOOKS_MAX)
			VG_(fmsg_bad_option)(arg, "at most 8 of them\n");
		clo.dump_before[clo.ndump_before++] = s;
	} else if VG_STR_CLO (arg, "--clear-before", s) {
		if (clo.nclear_before == FN_HOOKS_MAX)
			VG_(fmsg_bad_option)(arg, "at most 8 of them\n");
		clo.clear_before[clo.nclear_before++] = s;
	} else if VG_STR_CLO (arg, "--collect-in", s) {
		if (!*s)
			VG_(fmsg_bad_option)(arg, "expected a function's name\n");
		clo.collect_in = VG_(realloc)("bm.clo", clo.collect_in, (clo.ncollect_in + 1) * sizeof *clo.collect_in);
		clo.collect_in[clo.ncollect_in++] = s;
	} else if VG_STR_CLO (arg, "--clock-cost", s) {
		if (!parse_clock_cost(s, clo.clock_cost))
			VG_(fmsg_bad_option)(arg, "expected EVENT:HUNDREDTHS,... (Ir:100,Dr:100,...)\n");
	} else if VG_STR_CLO (arg, "--cpu", s) {
		if (!parse_cpu(s, &clo.cpu))
			VG_(fmsg_bad_option)(arg, "expected x86-64-v1, x86-64-v3 or host\n");
	} else {
		return False;
	}
	return True;
}

void settings_usage(void)
{
	VG_(printf)("    --callgrind-out-file=F   where the dumps go [callgrind.out.%%p]\n"
		    "    --I1=S,A,L --D1=S,A,L --LL=S,A,L  simulated caches [32768,8,64; 32768,8,64;\n"
		    "                             8388608,16,64]\n"
		    "    --collect-systime=no|nsec  count system calls and their times [no]\n"
		    "    --instr-atstart=yes|no   instrument from the start [yes]\n"
		    "    --dump-instr=no|yes      a cost line per instruction [no]\n"
		    "    --branch-sim=no|yes      count and predict branches (Bc Bcm Bi Bim) [no]\n"
		    "    --L2=S,A,L               a private L2 between L1 and LL, with the\n"
		    "                             prefetchers of bm-model/2 (I2mr D2mr D2mw) [none]\n"
		    "    --block-cost=no|yes      bm-model/2's core cycles from each block's code\n"
		    "                             (Cc) and the misses of chained loads (D1mc\n"
		    "                             D2mc DLmc) [no]\n"
		    "    --core=bm-model/2|bm-model/3|bm-model/4  whose core --block-cost\n"
		    "                             describes: bm-model/3's divides as a current\n"
		    "                             core does, and a mispredicted branch waits for\n"
		    "                             its guard (in Cc); bm-model/4's also waits for\n"
		    "                             what a store forwards to the next pass's load,\n"
		    "                             and a prefetch instruction loads its line\n"
		    "                             [bm-model/2]\n"
		    "    --heap=no|yes            count the blocks the program allocates and their\n"
		    "                             bytes (allocCount allocBytes), the peak and the\n"
		    "                             leaks of each dump [no]\n"
		    "    --cpu=x86-64-v1|x86-64-v3|x86-64-v3-server|host  what cpuid answers:\n"
		    "                             VEX's baseline x86-64 (SSE2), bm's x86-64-v3\n"
		    "                             (AVX2), with PCLMULQDQ, AES and ADX as server\n"
		    "                             cores have, each the same on every host, or\n"
		    "                             VEX's pick for this host [x86-64-v1]\n"
		    "    --clock=host|virtual     what time the program reads: the kernel's, or a\n"
		    "                             clock that advances with the cycles run (and\n"
		    "                             sleeps), the same in every run [host]\n"
		    "    --clock-hz=N             the virtual clock's cycles per second [3000000000]\n"
		    "    --layout=host|canonical  the addresses below L1 and in the predictors: the\n"
		    "                             guest's, or each mapping's canonical place, the\n"
		    "                             same wherever it was mapped [host]\n"
		    "    --skip-loader=no|yes     the program starts where the dynamic loader\n"
		    "                             leaves off: its search for the libraries is\n"
		    "                             neither counted nor left in the models [no]\n"
		    "    --clock-cost=EV:N,...    the virtual clock's hundredths of a cycle per event\n"
		    "                             in the measured region; outside it, an\n"
		    "                             instruction is a cycle [Ir:100]\n"
		    "    --zero-before=GLOB       zero the counts where a matching function is\n"
		    "                             entered (repeatable)\n"
		    "    --dump-before=GLOB       dump them there, as a part of their own\n"
		    "                             (repeatable)\n"
		    "    --clear-before=GLOB      empty the caches and the predictors there, as\n"
		    "                             at each start of instrumentation (repeatable)\n"
		    "    --collect-in=NAME        also write what runs while the function NAME\n"
		    "                             is called, as FILE.fn.N (the Nth of them) at\n"
		    "                             the end (repeatable)\n"
		    "    --cache-sim=yes          accepted for callgrind's command lines\n");
}
