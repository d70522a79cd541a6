/* Output files that are either complete or absent: what is written goes
 * to a temporary file beside the target, which is flushed, synced and
 * renamed over the target only when everything succeeded.  A full disk or
 * a crash never leaves a half-written report behind. */
#ifndef BM_ATOMIC_FILE_H
#define BM_ATOMIC_FILE_H

#include <stdio.h>

struct atomic_file;

/* Opens path for writing ("-" is standard output, written directly).
 * Returns the handle, or NULL with *err set. */
struct atomic_file *atomic_file_open(const char *path, char **err);

/* The stream to write to. */
FILE *atomic_file_stream(struct atomic_file *af);

/* Finishes the file: flush, sync, rename into place.  Frees af.  Returns
 * 0, or -1 with *err set ("cannot write 'PATH': No space left on device")
 * after removing the temporary file. */
int atomic_file_commit(struct atomic_file *af, char **err);

/* Drops everything written and frees af; NULL is a no-op. */
void atomic_file_abort(struct atomic_file *af);

#endif
