/* SPDX-License-Identifier: MIT */
/* The processor as a program sees it, run under bm-run on each of the bm
 * engine's virtual CPUs (tests/cli/cpu.sh): every cpuid leaf it offers,
 * XGETBV, what glibc makes of them (sysconf's caches) and what
 * __builtin_cpu_supports says; then work that dispatches on the CPU: a
 * hash with an AVX2 and an SSE2 path picked as xxHash picks, and
 * glibc's memcpy and strlen, whose variants the profile names (symbol
 * mode measures hash and copy_and_measure). */
#include "region.h"

#include <cpuid.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void show(unsigned leaf, unsigned sub)
{
	unsigned a, b, c, d;
	__cpuid_count(leaf, sub, a, b, c, d);
	printf("leaf %08x.%u: %08x %08x %08x %08x\n", leaf, sub, a, b, c, d);
}

/* Leaves 4 and 0x8000001d: one subleaf per cache, until type 0. */
static void show_caches(unsigned leaf)
{
	for (unsigned sub = 0; sub < 8; sub++) {
		unsigned a, b, c, d;
		__cpuid_count(leaf, sub, a, b, c, d);
		show(leaf, sub);
		if ((a & 0x1f) == 0)
			break;
	}
}

static void show_leaves(void)
{
	unsigned max, ext, a, b, c, d;
	__cpuid(0, max, b, c, d);
	for (unsigned leaf = 0; leaf <= max && leaf <= 0x20; leaf++) {
		if (leaf == 4) {
			show_caches(4);
		} else if (leaf == 7) {
			__cpuid_count(7, 0, a, b, c, d);
			for (unsigned sub = 0; sub <= a && sub < 4; sub++)
				show(7, sub);
		} else if (leaf == 0xd) {
			for (unsigned sub = 0; sub < 4; sub++)
				show(0xd, sub);
		} else {
			show(leaf, 0);
		}
	}
	__cpuid(0x80000000, ext, b, c, d);
	for (unsigned leaf = 0x80000000; leaf <= ext && leaf <= 0x80000020; leaf++) {
		if (leaf == 0x8000001d)
			show_caches(leaf);
		else
			show(leaf, 0);
	}
	if (ext >= 0x80000004) {
		unsigned brand[12];
		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2], brand[4 * i + 3]);
		printf("brand: %.48s\n", (const char *)brand);
	}
	__cpuid(1, a, b, c, d);
	if (c & bit_OSXSAVE) {
		unsigned lo, hi;
		__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
		printf("xgetbv 0: %08x %08x\n", hi, lo);
	} else {
		printf("xgetbv: not offered\n");
	}
}

static void show_glibc(void)
{
	printf("sysconf: L1d %ld %ld-way %ld B, L1i %ld, L2 %ld, L3 %ld %ld-way %ld B\n",
	       sysconf(_SC_LEVEL1_DCACHE_SIZE), sysconf(_SC_LEVEL1_DCACHE_ASSOC),
	       sysconf(_SC_LEVEL1_DCACHE_LINESIZE), sysconf(_SC_LEVEL1_ICACHE_SIZE),
	       sysconf(_SC_LEVEL2_CACHE_SIZE), sysconf(_SC_LEVEL3_CACHE_SIZE), sysconf(_SC_LEVEL3_CACHE_ASSOC),
	       sysconf(_SC_LEVEL3_CACHE_LINESIZE));
	__builtin_cpu_init();
	printf("supports: sse2 %d sse4.2 %d popcnt %d avx %d avx2 %d bmi %d bmi2 %d fma %d f16c %d "
	       "lzcnt %d movbe %d avx512f %d x86-64-v2 %d x86-64-v3 %d; amd %d intel %d\n",
	       !!__builtin_cpu_supports("sse2"), !!__builtin_cpu_supports("sse4.2"),
	       !!__builtin_cpu_supports("popcnt"), !!__builtin_cpu_supports("avx"),
	       !!__builtin_cpu_supports("avx2"), !!__builtin_cpu_supports("bmi"), !!__builtin_cpu_supports("bmi2"),
	       !!__builtin_cpu_supports("fma"), !!__builtin_cpu_supports("f16c"),
	       !!__builtin_cpu_supports("lzcnt"), !!__builtin_cpu_supports("movbe"),
	       !!__builtin_cpu_supports("avx512f"), !!__builtin_cpu_supports("x86-64-v2"),
	       !!__builtin_cpu_supports("x86-64-v3"), !!__builtin_cpu_is("amd"), !!__builtin_cpu_is("intel"));
}

/* ---- work that dispatches on the CPU ---- */

#define WORDS 2048 /* 32-bit words hashed */
static unsigned data[WORDS];
static const unsigned key[8] = {0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f,
				0x165667b1, 0xd3a2646c, 0xfd7046c5, 0xb55a4f09};

/* xxHash3's accumulate step: acc += (data ^ key).lo * (data ^ key).hi,
 * eight lanes at a time with AVX2, four with SSE2. */
__attribute__((target("avx2"))) static NOINLINE unsigned long long hash_avx2(const unsigned *p, int n)
{
	__m256i acc = _mm256_setzero_si256(), k = _mm256_loadu_si256((const __m256i *)key);
	for (int i = 0; i < n; i += 8) {
		__m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p + i)), k);
		acc = _mm256_add_epi64(acc, _mm256_mul_epu32(x, _mm256_srli_epi64(x, 32)));
	}
	unsigned long long lanes[4];
	_mm256_storeu_si256((__m256i *)lanes, acc);
	return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

static NOINLINE unsigned long long hash_sse2(const unsigned *p, int n)
{
	__m128i acc = _mm_setzero_si128();
	for (int i = 0; i < n; i += 4) {
		__m128i k = _mm_loadu_si128((const __m128i *)(key + (i & 4)));
		__m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + i)), k);
		acc = _mm_add_epi64(acc, _mm_mul_epu32(x, _mm_srli_epi64(x, 32)));
	}
	unsigned long long lanes[2];
	_mm_storeu_si128((__m128i *)lanes, acc);
	return lanes[0] + lanes[1];
}

static NOINLINE unsigned long long hash(const unsigned *p, int n)
{
	return __builtin_cpu_supports("avx2") ? hash_avx2(p, n) : hash_sse2(p, n);
}

static char src[4096], dst[4096];

/* n is not known here (NOINLINE: no inter-procedural constants), so
 * that gcc calls memcpy rather than inlining rep movsq. */
static NOINLINE size_t copy_and_measure(size_t n)
{
	memcpy(dst, src, n);
	return strlen(dst);
}

int main(void)
{
	show_leaves();
	show_glibc();
	for (int i = 0; i < WORDS; i++)
		data[i] = (unsigned)i * 2654435761u;
	memset(src, 'a', sizeof src - 1);
	unsigned long long h = hash(data, WORDS);
	size_t len = copy_and_measure(sizeof src);
	printf("path: %s, hash %016llx, length %zu\n", __builtin_cpu_supports("avx2") ? "avx2" : "sse2", h, len);
	return 0;
}
