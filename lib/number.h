/* SPDX-License-Identifier: MIT */
/* Numbers a user writes: option values and query-string parameters.  The
 * whole text is one decimal number (no blank, no sign but a leading '-'
 * where min is negative, no hexadecimal, no "inf" or "nan"), within
 * [min, max] and never clamped into it, or it is refused
 * with the one message every command gives: "--jobs needs a number from 1
 * to 256, not '4294967297'". */
#ifndef BM_NUMBER_H
#define BM_NUMBER_H

/* A whole number: 0 and *out, or -1. */
int number_whole(const char *text, long long min, long long max, long long *out);

/* A real number: 0 and *out, or -1. */
int number_real(const char *text, double min, double max, double *out);

/* number_whole and number_real for option opt, whose values are units
 * ("a number", "seconds", "bytes"): 0 and *out, or -1 with *err. */
int number_option(const char *opt, const char *units, const char *text, long long min, long long max,
		  long long *out, char **err);
int number_option_real(const char *opt, const char *units, const char *text, double min, double max,
		       double *out, char **err);

#endif
