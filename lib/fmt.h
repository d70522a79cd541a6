/* SPDX-License-Identifier: MIT */
/* Numbers for people: thousands separators, durations and rates with
 * units.  Each writes into a caller's buffer of FMT_SIZE bytes and
 * returns it, so that several can appear in one printf. */
#ifndef BM_FMT_H
#define BM_FMT_H

#include <stdint.h>

#define FMT_SIZE 32

/* 1234567 -> "1,234,567" */
char *fmt_count(char buf[FMT_SIZE], uint64_t n);
/* now - before, signed, in a buffer one byte longer: "+1,024", "-96", "+0" */
char *fmt_count_delta(char buf[FMT_SIZE + 1], uint64_t now, uint64_t before);
/* seconds -> "812 ns", "39.3 us", "1.12 ms", "2.50 s", "1.23e+09 s" */
char *fmt_seconds(char buf[FMT_SIZE], double seconds);
/* nanoseconds -> as fmt_seconds */
char *fmt_ns(char buf[FMT_SIZE], uint64_t ns);
/* executions per second -> "25.42 k/s", "1.234 M/s", "950.0 /s" */
char *fmt_rate(char buf[FMT_SIZE], double per_second);
/* a fraction as a signed percentage, whole whatever its size: 0.1234 ->
 * "+12.34%", -0.3 -> "-30.00%"; from a million percent up in exponent
 * notation, 1.6e8 -> "+1.6e+10%" */
char *fmt_percent(char buf[FMT_SIZE], double fraction);

#endif
