/* SPDX-License-Identifier: MIT */
/* Messages from bm's command-line tools to stderr, prefixed with the
 * program's name: "bm-profile: cannot open 'x': No such file or directory".
 * Results go to stdout; only main() decides to exit. */
#ifndef BM_LOG_H
#define BM_LOG_H

/* Sets the name messages are prefixed with (the basename of argv0). */
void log_set_progname(const char *argv0);
/* The same from main's argv, whose argv[0] becomes the basename too, so
 * that getopt's own messages ("unrecognized option") name the program as
 * every other message does. */
void log_take_progname(char **argv);
const char *log_progname(void);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Says err (a message of lib/error.h's kind, then freed) as log_error
 * does; returns -1. */
int log_refusal(char *err);

#endif
