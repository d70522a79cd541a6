/* SPDX-License-Identifier: MIT */
/* The events bm knows by name: what callgrind counts with cache simulation
 * (Ir ... DLmw), branch simulation (Bc ... Bim) and --collect-systime
 * (sysCount, sysTime, sysCpuTime), and what the bm engine adds for
 * bm-model/2 (docs/cycle-model.md): the core's cycles from each block's
 * own code (Cc, in hundredths of a cycle), L2 misses (I2mr, D2mr, D2mw)
 * and the misses of loads on a loop-carried chain (D1mc, D2mc, DLmc: a
 * pointer chase, whose misses cannot overlap), and the heap blocks the
 * program allocated and their bytes (allocCount, allocBytes: docs/
 * engine.md "Heap profiles"), which never enter cycles.  A set of measured events
 * is an array of BM_EV_COUNT counters plus a mask of those that were
 * actually collected, so that "not measured" and "measured zero" stay
 * distinct.  bm-server keeps the first BM_EV_STORED of them per result;
 * the others shape a report's cycles, which it keeps. */
#ifndef BM_EVENTS_H
#define BM_EVENTS_H

#include <stdint.h>

enum bm_event {
	BM_EV_IR,
	BM_EV_DR,
	BM_EV_DW,
	BM_EV_I1MR,
	BM_EV_D1MR,
	BM_EV_D1MW,
	BM_EV_ILMR,
	BM_EV_DLMR,
	BM_EV_DLMW,
	BM_EV_BC,
	BM_EV_BCM,
	BM_EV_BI,
	BM_EV_BIM,
	BM_EV_SYSCOUNT,
	BM_EV_SYSTIME,    /* wall nanoseconds spent in system calls */
	BM_EV_SYSCPUTIME, /* CPU nanoseconds spent in system calls */
	BM_EV_STORED,     /* (the events before this one are bm-server's columns) */
	BM_EV_CC = BM_EV_STORED, /* core cycles, in hundredths */
	BM_EV_I2MR,
	BM_EV_D2MR,
	BM_EV_D2MW,
	BM_EV_D1MC,
	BM_EV_D2MC,
	BM_EV_DLMC,
	BM_EV_ALLOC_COUNT, /* heap blocks allocated (the bm engine's --heap) */
	BM_EV_ALLOC_BYTES, /* their requested bytes */
	BM_EV_COUNT
};

struct bm_events {
	uint64_t v[BM_EV_COUNT];
	uint32_t present; /* bit (1u << ev) set when ev was collected */
};

/* The callgrind name of ev ("Ir", "sysCount", ...). */
const char *events_name(enum bm_event ev);

/* The event called name, or -1 when bm does not know it. */
int events_lookup(const char *name);

static inline int events_has(const struct bm_events *e, enum bm_event ev)
{
	return (e->present >> ev) & 1u;
}

#endif
