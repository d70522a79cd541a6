/* SPDX-License-Identifier: MIT */
/* Recoverable errors.  Library functions return -1 and, when err is not
 * NULL, set *err to a newly allocated message that the caller owns and
 * frees.  Messages follow one grammar: lower case, the subject quoted, no
 * trailing period, "FILE:LINE: " in front when they come from parsing. */
#ifndef BM_ERROR_H
#define BM_ERROR_H

/* Sets *err (if err is not NULL) to the formatted message; returns -1 so
 * that callers can write `return bm_error(err, ...)`. */
int bm_error(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Puts "prefix: " in front of an existing message in *err. */
void bm_error_prefix(char **err, const char *prefix);

/* Puts suffix after an existing message in *err. */
void bm_error_suffix(char **err, const char *suffix);

/* Writes the control characters of the message in *err as \xNN, so that
 * a message quoting outside input (a key, or Jansson's "near '...'",
 * which copies the bytes it stopped at) stays one line that cannot drive
 * a terminal.  Same rules as bm_escape_controls. */
void bm_error_escape(char **err);

/* A copy of s (the caller owns it) with every control character written
 * as \xNN: C0 (newlines included), DEL, C1 (U+0080 to U+009F, encoded as
 * UTF-8), the invisible characters that make text display as other text
 * (utf8_invisible: a bidirectional override, a zero-width space) and any
 * byte that is not part of valid UTF-8 (a terminal may read a lone 0x9b
 * as CSI).  For printing text that came from outside, such
 * as a server's message: "\x1b[2J" is shown, not obeyed.  NULL gives
 * NULL. */
char *bm_escape_controls(const char *s);

/* The first control character of s (as bm_escape_controls sees them),
 * or NULL when there is none: for refusing a value that would corrupt
 * what it is put in (a CR or LF in an HTTP header ends the header). */
const char *bm_find_control(const char *s);

#endif
