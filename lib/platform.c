/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "platform.h"

#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

char *platform_os(void)
{
	FILE *f = fopen("/etc/os-release", "r");
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		if (strncmp(line, "PRETTY_NAME=", 12) != 0)
			continue;
		char *v = line + 12;
		v[strcspn(v, "\n")] = '\0';
		size_t n = strlen(v);
		if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
			v[n - 1] = '\0';
			v++;
		}
		fclose(f);
		return xstrdup(v);
	}
	if (f)
		fclose(f);
	struct utsname u;
	return uname(&u) == 0 ? xasprintf("%s %s", u.sysname, u.release) : xstrdup("unknown");
}

char *platform_arch(void)
{
	struct utsname u;
	return xstrdup(uname(&u) == 0 ? u.machine : "unknown");
}

char *platform_host(void)
{
	char name[256];
	if (gethostname(name, sizeof name) != 0)
		return xstrdup("unknown");
	name[sizeof name - 1] = '\0';
	return xstrdup(name);
}

/* The value of /proc/cpuinfo's line "key<tabs>: value" in line, or NULL. */
static char *cpuinfo_value(char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0 || !line[n] || !strchr(" \t:", line[n]))
		return NULL;
	char *v = strchr(line + n, ':');
	if (!v)
		return NULL;
	v += strspn(v + 1, " \t") + 1;
	size_t len = strcspn(v, "\n");
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
		len--;
	v[len] = '\0';
	return len ? v : NULL;
}

char *platform_host_cpu(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *model = NULL, *vendor = NULL, *v;
	while (f && !model && fgets(line, sizeof line, f)) {
		if ((v = cpuinfo_value(line, "model name")))
			model = xstrdup(v);
		else if (!vendor && (v = cpuinfo_value(line, "vendor_id")))
			vendor = xstrdup(v);
	}
	if (f)
		fclose(f);
	char *cpu = xasprintf("host: %s", model ? model : vendor ? vendor : "unknown");
	free(model);
	free(vendor);
	return cpu;
}
