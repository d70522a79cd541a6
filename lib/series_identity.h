/* SPDX-License-Identifier: MIT */
/* The series a report's results belong to: everything that changes what a
 * benchmark executes or how it is counted.  Two results are compared only
 * when their series are the same (and their platforms), by the server
 * (baselines, histories) and by `bm-check --base --head` alike.
 *
 * The identity is one string,
 * MODEL[+warm][+ENGINE][+valgrind=VERSION][+stdin=DIGEST][+cpu=CPU]:
 * - MODEL: the cost model's id (model.id);
 * - +warm: measured on warm simulated caches (model.warm_caches);
 * - +ENGINE: the engine that counted (tool.engine), unless it is bm's own
 *   (or not recorded: older reports, imports);
 * - +valgrind=VERSION: the Valgrind that ran it (tool.valgrind), unless not
 *   recorded (imports): another translates the program otherwise, and
 *   since 2026-12-02 nothing else of the host moves a number (the
 *   canonical layout: docs/engine.md);
 * - +stdin=DIGEST: what the programs read on standard input (stdin.sha256,
 *   its first 16 hex digits), unless they read none;
 * - +cpu=CPU: the CPU the program saw (model.cpu), unless it is the bm
 *   engine's x86-64-v1 (REPORT_FIXED_CPU, the only CPU before bm-run's
 *   --cpu) or not recorded: x86-64-v3's runs are "+cpu=bm x86-64-v3: ...".
 * What is left out is what every stored run of bm-run's default
 * configuration had, so that their identities, and histories, go on:
 * "bm-model/1+warm", "bm-model/1+warm+callgrind+cpu=host: Intel(R) ...". */
#ifndef BM_SERIES_IDENTITY_H
#define BM_SERIES_IDENTITY_H

#include "report.h"

/* r's series identity, newly allocated. */
char *report_series_identity(const struct bm_report *r);

/* The first field in which identity there differs from identity here, in
 * words, with what to rerun: "engine: bm there, callgrind here (rerun one
 * of them with the other's engine: ...)" (with labels "there" and "here";
 * bm-check gives "in 'base.json'" and "in 'head.json'").  The fields are
 * taken in the order cost model, engine, Valgrind, virtual CPU, simulated
 * caches, standard input.
 * NULL when the identities are the same; newly allocated. */
char *series_identity_difference(const char *there, const char *here, const char *there_label,
				 const char *here_label);

#endif
