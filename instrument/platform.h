/* SPDX-License-Identifier: MIT */
/* The machine a run happens on, for the report's context. */
#ifndef BM_PLATFORM_H
#define BM_PLATFORM_H

/* Each newly allocated: the OS ("Debian GNU/Linux 12 (bookworm)" from
 * /etc/os-release, else "Linux 6.1.0"), the architecture ("x86_64") and the
 * host name. */
char *platform_os(void);
char *platform_arch(void);
char *platform_host(void);

#endif
