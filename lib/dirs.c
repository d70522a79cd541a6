/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "dirs.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int dirs_make(const char *dir, mode_t mode, char **err)
{
	char *path = xstrdup(dir);
	int r = 0;
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = '\0';
		struct stat st;
		if (mkdir(path, mode) != 0 && errno != EEXIST) {
			r = bm_error(err, "cannot create '%s': %s", path, strerror(errno));
			break;
		}
		if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
			r = bm_error(err, "'%s' is not a directory", path);
			break;
		}
		if (!(*p = c))
			break;
	}
	free(path);
	return r;
}
