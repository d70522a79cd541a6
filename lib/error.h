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

/* Writes the control characters of the message in *err as \xNN, so that
 * a message quoting outside input (a key, or Jansson's "near '...'",
 * which copies the bytes it stopped at) stays one line that cannot drive
 * a terminal. */
void bm_error_escape(char **err);

#endif
