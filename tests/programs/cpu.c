/* SPDX-License-Identifier: MIT */
/* What the processor is, as a program that dispatches on it sees it:
 * cpuid's leaves 0, 1 and 7 and what __builtin_cpu_supports says, then a
 * sum over an array by an SSE2 or an AVX2 path, picked as such programs
 * pick (zstd, xxHash, simdjson), measured in a region.  Under bm's engine
 * the answers are its fixed virtual CPU's on every host, and so is the
 * path (docs/engine.md); natively and under callgrind, the host's. */
#include "region.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#define N 4096
static int data[N];

static NOINLINE long sum_sse2(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

__attribute__((target("avx2"))) static NOINLINE long sum_avx2(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

int main(void)
{
	unsigned a, b, c, d;
	char vendor[13];
	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	printf("leaf 0: max %u, vendor %s\n", a, vendor);
	__cpuid(1, a, b, c, d);
	/* ebx's bits 24-31 are the APIC id of the core it ran on. */
	printf("leaf 1: eax %08x ebx %08x ecx %08x edx %08x\n", a, b & 0x00ffffff, c, d);
	if (__get_cpuid_max(0, NULL) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		printf("leaf 7: eax %08x ebx %08x ecx %08x edx %08x\n", a, b, c, d);
	} else {
		printf("leaf 7: not offered\n");
	}
	__builtin_cpu_init();
	printf("supports: sse2 %d, sse4.2 %d, avx %d, avx2 %d\n", !!__builtin_cpu_supports("sse2"),
	       !!__builtin_cpu_supports("sse4.2"), !!__builtin_cpu_supports("avx"),
	       !!__builtin_cpu_supports("avx2"));
	for (int i = 0; i < N; i++)
		data[i] = i * 7;
	int avx2 = __builtin_cpu_supports("avx2");
	long s = 0;
	REGION("dispatch", s = avx2 ? sum_avx2(data, N) : sum_sse2(data, N));
	printf("path: %s, sum %ld\n", avx2 ? "avx2" : "sse2", s);
	return 0;
}
