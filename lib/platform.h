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
/* The host's processor as a report's model.cpu gives it (newly allocated):
 * "host: " and /proc/cpuinfo's model name ("host: Intel(R) Xeon(R) CPU
 * @ 2.20GHz"), else its vendor ("host: AuthenticAMD"), else "host:
 * unknown". */
char *platform_host_cpu(void);

#endif
