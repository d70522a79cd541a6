/* SPDX-License-Identifier: MIT */
/* A report's identity and time: see report_identity.h. */
#include "config.h"

#include "report_identity.h"

#include "hash.h"
#include "xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static void random_bytes(unsigned char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = getrandom(buf + got, n - got, 0);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += (size_t)k;
	}
	if (got == n)
		return;
	/* No getrandom (a kernel before 3.17): unique rather than secret, which
	 * is all a run id needs. */
	static uint64_t counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	x ^= (uint64_t)getpid() << 40 ^ __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) << 20;
	for (; got < n; got++) {
		x += 0x9e3779b97f4a7c15ull;
		buf[got] = (unsigned char)(hash_mix64(x) >> 56);
	}
}

char *report_new_uuid(void)
{
	unsigned char b[16];
	random_bytes(b, sizeof b);
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* the RFC 4122 variant */
	return xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			 b[12], b[13], b[14], b[15]);
}

char *report_format_rfc3339(char buf[REPORT_TIME_SIZE], time_t t)
{
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, REPORT_TIME_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm))
		memcpy(buf, "1970-01-01T00:00:00Z", sizeof "1970-01-01T00:00:00Z"); /* a time beyond year 9999 */
	return buf;
}

char *report_now_rfc3339(void)
{
	char buf[REPORT_TIME_SIZE];
	return xstrdup(report_format_rfc3339(buf, time(NULL)));
}
