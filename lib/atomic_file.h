/* SPDX-License-Identifier: MIT */
/* Output files that never clobber what a path points at (SPEC 5.1), the
 * one place every tool's output file goes through:
 *
 * - a regular file (new or existing) is complete or absent: what is
 *   written goes to a temporary file beside it (PATH.tmp.XXXXXX), which is
 *   flushed, synced and renamed over it only when everything succeeded, so
 *   a full disk or a crash never leaves a half-written file behind; the
 *   directory is synced after the rename.  The temporary file is locked
 *   (flock) while it is open, and one that a writer killed meanwhile left
 *   (this user's, that no process holds locked) is removed by the next
 *   writer of PATH; a live writer's never is.  An existing file keeps its
 *   permission bits (not set-id bits) and, where allowed (root), its owner
 *   and group; one the user may not write is refused as `echo > file`
 *   would; a hard link to it is broken, as by any rename;
 * - a symbolic link is followed (chains too; a relative target is relative
 *   to the link's directory) and the file it leads to is written that way
 *   in that file's directory: the link stays a link.  A dangling link's
 *   target is created, as `echo > link` would; a loop of links (or a chain
 *   of more than 40) is an error, "Too many levels of symbolic links";
 * - anything that is not a regular file (/dev/null, a FIFO, a terminal, a
 *   device) is opened and written directly, never replaced, never synced
 *   (a FIFO's open waits for its reader); a socket cannot be opened;
 * - one of the process's own descriptors (/dev/stdout, /dev/stderr,
 *   /dev/fd/N, /proc/self/fd/N) is written through that descriptor, with
 *   its offset and append mode, whatever it is open on: `tool -o
 *   /dev/stdout >> log` appends to log;
 * - "-" is standard output; a directory is an error ("Is a directory")
 *   when opening, before anything is written. */
#ifndef BM_ATOMIC_FILE_H
#define BM_ATOMIC_FILE_H

#include <stdio.h>

struct atomic_file;

/* Opens path for writing as above; a tool opens its output before the
 * work, so that a path it cannot write fails at once.  Returns the handle,
 * or NULL with *err set ("cannot write 'PATH': Is a directory"). */
struct atomic_file *atomic_file_open(const char *path, char **err);

/* Whether path is standard output: "-", or a path that leads to this
 * process's descriptor 1 (/dev/stdout, /dev/fd/1), so that a tool can keep
 * its messages out of what it writes there. */
int atomic_file_is_stdout(const char *path);

/* The descriptor of this process that path leads to (through links:
 * /dev/stdout, /dev/fd/N, /proc/self/fd/N; "-" is 1), or -1. */
int atomic_file_descriptor(const char *path);

/* The stream to write to. */
FILE *atomic_file_stream(struct atomic_file *af);

/* Finishes the file: flush, then for a regular file sync and rename into
 * place.  Frees af.  Returns 0, or -1 with *err set ("cannot write 'PATH':
 * No space left on device") after removing the temporary file. */
int atomic_file_commit(struct atomic_file *af, char **err);

/* Drops what was written to a temporary file (what went directly to a
 * device or FIFO is gone already) and frees af; NULL is a no-op. */
void atomic_file_abort(struct atomic_file *af);

#endif
