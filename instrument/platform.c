/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "platform.h"

#include "xalloc.h"

#include <stdio.h>
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
