/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "read_all.h"

#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

int read_all(int fd, size_t max, char **out, size_t *size)
{
	size_t len = 0, alloc = 0;
	char *buf = NULL;
	*out = NULL;
	*size = 0;
	for (;;) {
		if (len > max) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
		xgrow(&buf, &alloc, len + 65536 + 1, 1);
		ssize_t n = read(fd, buf + len, alloc - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	*size = len;
	return 0;
}
