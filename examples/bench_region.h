/* Until libbm arrives (instrument/, next issue), the examples mark their
 * benchmarks with callgrind's client requests directly, exactly as libbm
 * will: statistics zeroed, instrumentation on for the body only, and one
 * dump per benchmark named "suite::name[tag]".  Setup and teardown stay
 * outside.  Run natively, the requests do nothing. */
#ifndef BM_EXAMPLES_BENCH_REGION_H
#define BM_EXAMPLES_BENCH_REGION_H

#include <valgrind/callgrind.h>

#define BENCH(id, body)                                                                            \
	do {                                                                                       \
		CALLGRIND_ZERO_STATS;                                                              \
		CALLGRIND_START_INSTRUMENTATION;                                                   \
		body;                                                                              \
		CALLGRIND_STOP_INSTRUMENTATION;                                                    \
		CALLGRIND_DUMP_STATS_AT(id);                                                       \
	} while (0)

/* Keeps the compiler from deleting work whose result is unused. */
static inline void black_box(long v)
{
	__asm__ volatile("" : : "r"(v) : "memory");
}

#endif
