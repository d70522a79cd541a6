/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "log.h"

#include "path.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "bm";

void log_set_progname(const char *argv0)
{
	progname = path_basename(argv0);
}

void log_take_progname(char **argv)
{
	log_set_progname(argv[0]);
	argv[0] = (char *)progname;
}

const char *log_progname(void)
{
	return progname;
}

__attribute__((format(printf, 2, 0)))
static void vlog(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

int log_refusal(char *err)
{
	log_error("%s", err ? err : "refused");
	free(err);
	return -1;
}

void log_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}
