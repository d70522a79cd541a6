/* SPDX-License-Identifier: MIT */
/* The virtual CPUs; docs/engine.md has what each answers and why. */
#include "config.h"

#include "virtual_cpu.h"

#include "error.h"
#include "report.h"
#include "sandbox.h"

#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const struct virtual_cpu cpus[] = {
	[CPU_X86_64_V1] = {"x86-64-v1", REPORT_CPU_X86_64_V1, sandbox_glibc_tunables_v1,
			   "everything after SSE2 (SSE3 to SSE4.2, AVX, AVX2, BMI, PCLMULQDQ, AES, ...)"},
	[CPU_X86_64_V3] = {"x86-64-v3", REPORT_CPU_X86_64_V3, sandbox_glibc_tunables_v3,
			   "PCLMULQDQ, AES and ADX, which every server core since 2017 has, and AVX-512, VAES, "
			   "VPCLMULQDQ, SHA, ERMS and FSRM, which some have"},
	[CPU_X86_64_V3_SERVER] = {"x86-64-v3-server", REPORT_CPU_X86_64_V3_SERVER, sandbox_glibc_tunables_v3,
				  "AVX-512, VAES, VPCLMULQDQ, SHA, ERMS and FSRM, which some production cores have and "
				  "Valgrind does not run"},
};

const struct virtual_cpu *virtual_cpu(enum bm_cpu cpu)
{
	return &cpus[cpu];
}

int virtual_cpu_parse(const char *name, enum bm_cpu *cpu)
{
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
		if (strcmp(name, cpus[i].name) == 0) {
			*cpu = (enum bm_cpu)i;
			return 0;
		}
	return -1;
}

/* XCR0, the state the OS saves: read only where OSXSAVE says it can be. */
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* What x86-64-v3's code needs of the host under Valgrind 3.19: the level
 * itself (VEX decodes AVX, AVX2, FMA and BMI only on a host with AVX
 * enabled by the OS; TZCNT and LZCNT only with the host's BMI1 and LZCNT,
 * elsewhere it runs them as BSF and BSR, which answer otherwise for 0;
 * F16C and RDRAND only with the host's), the OS saving AVX state, and
 * the standard XSAVE layout VEX's XSAVE assumes (AVX's 256 bytes at
 * 576). */
int virtual_cpu_host_check(enum bm_cpu cpu, char **err)
{
	/* x86-64-v3-server's further instructions VEX runs in C on any host. */
	if (cpu != CPU_X86_64_V3 && cpu != CPU_X86_64_V3_SERVER)
		return 0;
	/* Leaf 1's ecx, leaf 7's ebx, leaf 0x80000001's ecx. */
	enum { L1_ECX, L7_EBX, L81_ECX };
	unsigned reg[3] = {0}, a, b, c, d;
	if (__get_cpuid(1, &a, &b, &c, &d))
		reg[L1_ECX] = c;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		reg[L7_EBX] = b;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		reg[L81_ECX] = c;
	static const struct {
		const char *name;
		int reg;
		unsigned bit;
	} needs[] = {
		{"SSE3", L1_ECX, bit_SSE3},     {"SSSE3", L1_ECX, bit_SSSE3},     {"SSE4.1", L1_ECX, bit_SSE4_1},
		{"SSE4.2", L1_ECX, bit_SSE4_2}, {"POPCNT", L1_ECX, bit_POPCNT},   {"CX16", L1_ECX, bit_CMPXCHG16B},
		{"MOVBE", L1_ECX, bit_MOVBE},   {"FMA", L1_ECX, bit_FMA},         {"F16C", L1_ECX, bit_F16C},
		{"XSAVE", L1_ECX, bit_XSAVE},   {"OSXSAVE", L1_ECX, bit_OSXSAVE}, {"AVX", L1_ECX, bit_AVX},
		{"RDRAND", L1_ECX, bit_RDRND},
		{"AVX2", L7_EBX, bit_AVX2},     {"BMI1", L7_EBX, bit_BMI},        {"BMI2", L7_EBX, bit_BMI2},
		{"LZCNT", L81_ECX, bit_LZCNT},  {"LAHF", L81_ECX, bit_LAHF_LM},
	};
	char lacks[256] = "";
	for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++)
		if (!(reg[needs[i].reg] & needs[i].bit))
			snprintf(lacks + strlen(lacks), sizeof lacks - strlen(lacks), "%s%s", *lacks ? ", " : "",
				 needs[i].name);
	if (!*lacks && (xgetbv0() & 7) != 7)
		snprintf(lacks, sizeof lacks, "AVX state saved by the OS");
	if (!*lacks) {
		unsigned size = 0, offset = 0;
		__get_cpuid_count(0xd, 2, &size, &offset, &b, &d);
		if (size != 256 || offset != 576)
			snprintf(lacks, sizeof lacks, "the standard XSAVE layout");
	}
	if (!*lacks)
		return 0;
	return bm_error(err, "this host cannot run x86-64-v3's code under Valgrind (it lacks %s)", lacks);
}
