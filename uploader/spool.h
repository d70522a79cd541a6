/* Reports that could not be sent yet: one file per report in a spool
 * directory, each with the server and project it was meant for, so that
 * `bm-upload --flush` can send it later.  Tokens are never written. */
#ifndef BM_SPOOL_H
#define BM_SPOOL_H

#include <jansson.h>

/* The spool directory: dir when given, else $XDG_STATE_HOME/bm/spool,
 * else ~/.local/state/bm/spool (the caller owns the string). */
char *spool_dir(const char *dir);

/* Writes report (whose run_id names the file) into dir, creating dir;
 * sets *path (the caller owns it).  0, or -1 with *err. */
int spool_put(const char *dir, const char *server, const char *project, json_t *report, char **path, char **err);

/* The spooled files in dir, oldest name first (a NULL-terminated list the
 * caller frees with spool_list_free); an empty list when dir is missing. */
char **spool_list(const char *dir, char **err);
void spool_list_free(char **list);

/* Reads a spooled file: its server, project (borrowed from *entry) and
 * report.  *entry is a new reference.  0, or -1 with *err. */
int spool_read(const char *path, json_t **entry, const char **server, const char **project, json_t **report,
	       char **err);

#endif
