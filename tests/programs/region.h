/* SPDX-License-Identifier: MIT */
/* Test programs measure regions the way libbm does (SPEC 1.1): statistics
 * zeroed, instrumentation on for the body only, one dump per region. */
#ifndef BM_TEST_REGION_H
#define BM_TEST_REGION_H

#include <valgrind/callgrind.h>

#define REGION(name, body)                                                                         \
	do {                                                                                       \
		CALLGRIND_ZERO_STATS;                                                              \
		CALLGRIND_START_INSTRUMENTATION;                                                   \
		body;                                                                              \
		CALLGRIND_STOP_INSTRUMENTATION;                                                    \
		CALLGRIND_DUMP_STATS_AT(name);                                                     \
	} while (0)

/* A function that stays a function of its own name in the profile (gcc
 * would otherwise clone it as name.constprop.0 or inline it). */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noipa))
#endif

/* Keeps the compiler from deleting work whose result is unused. */
static inline void keep(long v)
{
	__asm__ volatile("" : : "r"(v) : "memory");
}

#endif
