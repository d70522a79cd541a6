/* SPDX-License-Identifier: MIT */
/* SIGINT, SIGTERM and SIGHUP end bm-run as they end any program, with the
 * signal's exit status, but only once what it started has ended and its
 * files are gone: the handler only records the signal, the runner stops
 * every program (runner.h), and main cleans up, then dies of it. */
#ifndef BM_INTERRUPT_H
#define BM_INTERRUPT_H

/* Catches the three signals, without SA_RESTART: a call that waits
 * returns EINTR.  SIGINT even when ignored (as a shell's background job
 * has it), but SIGHUP only when not (as under nohup). */
void interrupt_catch(void);

/* The signal caught, or 0. */
int interrupt_caught(void);

/* Dies of the signal caught, if any; else returns. */
void interrupt_exit(void);

#endif
