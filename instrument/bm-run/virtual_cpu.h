/* SPDX-License-Identifier: MIT */
/* The bm engine's virtual CPUs as bm-run offers them (--cpu, BM_CPU):
 * each one's name (the engine's --cpu too), what reports call it
 * (model.cpu), glibc's mask for it, and whether this host can run it.
 * What each answers to cpuid is simulator/engine/cpu.c's. */
#ifndef BM_VIRTUAL_CPU_H
#define BM_VIRTUAL_CPU_H

enum bm_cpu {
	CPU_X86_64_V1, /* VEX's baseline x86-64: SSE2 */
	CPU_X86_64_V3, /* bm's x86-64-v3: AVX2, BMI2, FMA */
	CPU_X86_64_V3_SERVER, /* the same with PCLMULQDQ, AES, ADX */
};

/* bm-run's CPU when neither --cpu nor BM_CPU says: the one place that
 * decides it (to move to x86-64-v3 with the cost model that goes with
 * it; stored x86-64-v1 series keep their identity either way:
 * series_identity.h). */
#define CPU_DEFAULT CPU_X86_64_V1

struct virtual_cpu {
	const char *name;           /* "x86-64-v3" */
	const char *description;    /* model.cpu: REPORT_CPU_*, lib/report.h */
	const char *glibc_tunables; /* GLIBC_TUNABLES (sandbox.h) */
	/* What production cores have that it does not offer, in words. */
	const char *lacks;
};

const struct virtual_cpu *virtual_cpu(enum bm_cpu cpu);

/* NAME as --cpu takes it: 0, or -1 for a name that is none of them. */
int virtual_cpu_parse(const char *name, enum bm_cpu *cpu);

/* Whether this host can run cpu's code under Valgrind: 0, or -1 with
 * *err saying what it lacks (the caller says what to do). */
int virtual_cpu_host_check(enum bm_cpu cpu, char **err);

#endif
