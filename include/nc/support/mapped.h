/* mapped.h: files nc reads through mmap, and a clean failure when one
 * shrinks under it.
 *
 * A mapped file that another process truncates while nc reads it raises
 * SIGBUS on the next touch of a page past the new end: without a handler the
 * tool dies by a signal, which users read as a crash. Every mapping nc makes
 * of an input file (the ONNX loader's model file, an .mlir source) is
 * recorded here for as long as it lives; a tool installs the handler once in
 * main, and a SIGBUS inside a recorded mapping then prints one line naming
 * the file and exits with status 1. Reads are not wrapped one by one: the
 * mapping is read in many places (the protobuf scan, the initializer copies,
 * an .mlir's lexer and diagnostics), and a truncated input cannot be
 * recovered from anyway, only reported. The library itself never installs
 * the handler (a host program owns its signals); the tools do in main, and
 * the Python extension when it is imported (as tool "python").
 */
#ifndef NC_SUPPORT_MAPPED_H
#define NC_SUPPORT_MAPPED_H

#include <stddef.h>

#include "nc/support/base.h"

/** Records that base[0..len) maps the file `path` (copied). Beyond 64 live
 * mappings the record is dropped: a fault there keeps the default action. */
void nc_mapped_file_add(NC_KEEP const void *base, size_t len, NC_KEEP const char *path);

/** Forgets the mapping recorded at `base`, before it is unmapped (no-op if
 * none is). */
void nc_mapped_file_remove(NC_KEEP const void *base);

/** The path of the recorded mapping that holds `addr` and, in *offset, the
 * byte of the file it is; NULL if none does. Async-signal-safe. */
NC_KEEP const char *nc_mapped_file_find(NC_KEEP const void *addr, size_t *offset);

/** Installs the process's SIGBUS handler: a fault inside a recorded mapping
 * writes "<tool>: error: <path>: the file was truncated while <tool> was
 * reading it (byte N is gone)" to stderr and exits with status 1; any other
 * SIGBUS gets the action that was in place before. For a tool's main (or an
 * extension's init); a second call only renames the tool. `tool` must
 * outlive the process (a string literal). */
void nc_mapped_file_install_handler(NC_KEEP const char *tool);

#endif
