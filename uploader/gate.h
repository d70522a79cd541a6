/* SPDX-License-Identifier: MIT */
/* bm-check's gate metric (SPEC 3.2): which number decides a regression,
 * and, for a slowdown in cycles, whether it came from more instructions
 * or from more cache misses.
 *
 * Each metric is turned into a figure where higher is better, so that
 * lib/compare.c computes the impacts and the commit impact exactly as it
 * does for speed:
 *
 *   cycles        speed (frequency / cycles)     the default
 *   instructions  1 / Ir                         impact = base_Ir / Ir - 1
 *   syscalls      1 / max(sysCount, 1)           impact = base / count - 1
 *   allocations   1 / max(heap.allocations, 1)   (the bm engine's heap
 *   bytes_allocated, peak_bytes   likewise          counts: docs/engine.md)
 *
 * System calls are gated on their count, which is deterministic, never on
 * their time, which is not.  A count of zero is compared as one (call,
 * block or byte), so that going from none to three reads as -66.67%, not
 * as an infinite regression. */
#ifndef BM_GATE_H
#define BM_GATE_H

#include "events.h"
#include "report.h"

#include <stddef.h>
#include <stdint.h>

enum gate_metric {
	GATE_CYCLES,
	GATE_INSTRUCTIONS,
	GATE_SYSCALLS,
	GATE_ALLOCATIONS,
	GATE_BYTES_ALLOCATED,
	GATE_PEAK_BYTES,
};

/* What one "ok" result's speed came from (absent for imported results). */
struct gate_counts {
	int has_cycles;
	uint64_t cycles;
	struct bm_events events;
	struct bm_heap heap; /* measured 0: not counted */
};

/* "cycles", "instructions", "syscalls", "allocations",
 * "bytes_allocated" or "peak_bytes". */
const char *gate_metric_name(enum gate_metric m);
/* Those names, for a message: "cycles, instructions, ... or peak_bytes". */
extern const char gate_metric_list[];

/* The metric called name; returns 0, or -1 for an unknown name. */
int gate_metric_lookup(const char *name, enum gate_metric *m);

/* The figure for metric m of a result with the given speed and counts:
 * returns 1 with *figure set (> 0), or 0 when the result lacks what m
 * needs (an imported result has no Ir). */
int gate_figure(enum gate_metric m, double speed, const struct gate_counts *c, double *figure);

/* The count shown for metric m (Ir, sysCount, the heap's); returns 1 with
 * *count set, or 0 when absent.  Not used for cycles, which shows speed. */
int gate_count(enum gate_metric m, const struct gate_counts *c, uint64_t *count);

/* A change that code layout explains: the same instructions, reads and
 * writes (Ir, Dr, Dw), and at most GATE_LAYOUT_MISSES_MAX cache misses
 * moved in all (L1 and LL, instructions and data, counted apart), as
 * when other code moved the benchmark's lines.  The dashboard's commit
 * page applies the same rule (web/js/pages/common.js, layoutOnly). */
#define GATE_LAYOUT_MISSES_MAX 16
int gate_layout_only(const struct bm_events *head, const struct bm_events *base);

/* Why head takes more cycles than base, as text into buf (size bytes):
 * the change in cycles splits into the part more instructions explain
 * at the base's cycles per instruction, base_cycles * (Ir / base_Ir - 1),
 * and the rest, a change in cycles per instruction, which in this model
 * is cache misses.  The larger part names the cause:
 *
 *   "more instructions (Ir +12.50%)"
 *   "more cache misses (Ir +0.00%, L1 misses +1,024, LL misses +96)"
 *
 * and, where the heap was counted on both sides and the head allocates
 * more blocks, that first: "more allocations (+12, +4,096 bytes): more
 * instructions (Ir +3.20%)".
 *
 * Returns 1, or 0 (buf empty) when head is not slower or either side
 * lacks cycles or Ir. */
int gate_cause(const struct gate_counts *head, const struct gate_counts *base, char *buf, size_t size);

#endif
