/* SPDX-License-Identifier: MIT */
/* Reports that could not be sent yet: one file per report in a spool
 * directory, each with the server and project it was meant for, so that
 * `bm-upload --flush` can send it later.  Tokens are never written. */
#ifndef BM_SPOOL_H
#define BM_SPOOL_H

#include <jansson.h>

/* The spool directory: dir when given, else $XDG_STATE_HOME/bm/spool,
 * else ~/.local/state/bm/spool (the caller owns the string). */
char *spool_dir(const char *dir);

/* Writes report into dir, creating dir, as a file that its run_id names:
 * one file per run id, never hidden (see file_name in spool.c); sets
 * *path (the caller owns it).  A file of the same run is replaced.  0, or
 * -1 with *err (no run_id; the name taken by another run). */
int spool_put(const char *dir, const char *server, const char *project, json_t *report, char **path, char **err);

/* Every entry of dir, by name (a NULL-terminated list of paths the
 * caller frees with spool_list_free); an empty list when dir is missing.
 * Nothing is left out: files spooled under an older naming, files that
 * are not spooled reports and files being written (spool_partial) are
 * all listed, for the caller to send or to report. */
char **spool_list(const char *dir, char **err);

/* Whether path is a spool file still being written (atomic_file's
 * NAME.json.tmp.XXXXXX), or left so by a bm-upload that was killed. */
int spool_partial(const char *path);
void spool_list_free(char **list);

/* Reads a spooled file: its server, project (borrowed from *entry) and
 * report.  *entry is a new reference.  0, or -1 with *err, which says
 * what is wrong but not the path ("not a spooled report (...)"). */
int spool_read(const char *path, json_t **entry, const char **server, const char **project, json_t **report,
	       char **err);

#endif
