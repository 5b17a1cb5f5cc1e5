/* file.h: the one way nc writes an output file.
 *
 * A failed write must never destroy what the tool did not create: a run that
 * fails leaves an existing file untouched, a device (/dev/full, /dev/null) or
 * a pipe is written in place and never removed, and a symlink is written
 * through (its target is replaced, the link stays). Regular files are written
 * to a temporary file in the same directory and renamed over the target on
 * success, so readers never see half a file. Every write, flush and close is
 * checked. Every tool and library writer (nc-opt, nc-translate, nc-compile,
 * nc-run, .npy/.pb writers, host stubs, crash reproducers) goes through here.
 */
#ifndef NC_SUPPORT_FILE_H
#define NC_SUPPORT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nc/support/base.h"

/** An output file being written; committed or aborted exactly once. */
typedef struct nc_file_writer nc_file_writer;

/** Starts writing `path` ("-" means standard output). Returns NULL with a
 * one-line message ("<path>: <problem>") in err[0..errlen) when the file
 * cannot be opened (e.g. its directory does not exist or is not writable). */
NC_GIVE nc_file_writer *nc_file_writer_open(NC_KEEP const char *path, char *err, size_t errlen);

/** The stream to write to; it belongs to the writer (do not fclose it). */
NC_KEEP FILE *nc_file_writer_stream(NC_KEEP nc_file_writer *w);

/** Finishes the file: flushes, checks every earlier write, closes and, for a
 * regular file, renames the temporary file over the target. Returns false
 * with a message in err if anything failed; then the target is as it was
 * before (or absent, if the tool would have created it). Frees `w`. */
bool nc_file_writer_commit(NC_TAKE nc_file_writer *w, char *err, size_t errlen);

/** Abandons the file: the temporary file is removed, the target is left as it
 * was; a device or pipe keeps whatever was written. Frees `w` (NULL is a
 * no-op). */
void nc_file_writer_abort(NC_TAKE nc_file_writer *w);

/** Writes data[0..size) to `path` with the rules above, in one call. Returns
 * false with "<path>: <problem>" in err on failure. */
bool nc_file_write_all(NC_KEEP const char *path, NC_KEEP const void *data, size_t size, char *err,
                       size_t errlen);

/** Writes the message `<path>: <fmt...>` into err[0..errlen) (nothing if err
 * is NULL or errlen 0): the one-line error form of nc's file readers and
 * writers. Returns false, for `return nc_file_error(...)`. */
bool nc_file_error(char *err, size_t errlen, NC_KEEP const char *path, const char *fmt, ...) NC_PRINTF(4, 5);

#endif
