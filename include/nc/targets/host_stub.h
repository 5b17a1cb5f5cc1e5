/* host_stub.h: host stubs for nc binaries, generated with the LLVM C API.
 *
 * A host stub is an object file for the host (its triple, PIC) that embeds a
 * .ncb binary and defines, for a model named <m>:
 *   int <m>_write_input(size_t index, const float *data, size_t count);
 *   int <m>_run(void);
 *   int <m>_read_output(size_t index, float *data, size_t count);
 *   void <m>_close(void);
 *   const char *<m>_error(void);
 *   extern const unsigned char <m>_ncb[]; extern const size_t <m>_ncb_size;
 * calling the runtime ABI (include/nc/runtime/nc_runtime.h): the device is
 * opened from the embedded binary on first use. With it comes a C header
 * declaring them, with the element counts of every input and output. Link
 * the object with nc's runtime library: cc app.c <m>.o -lnc_runtime -lm.
 * The same binary and name always give the same bytes.
 */
#ifndef NC_TARGETS_HOST_STUB_H
#define NC_TARGETS_HOST_STUB_H

#include "nc/support/base.h"

/** Generates the object file (malloc'ed, *object_size bytes) and the C
 * header (malloc'ed text) for the binary image `ncb` under the C identifier
 * `name`, for the host (triple NULL) or the given LLVM target triple. False
 * with a message in err (a bad binary or name, an LLVM failure). */
bool nc_host_stub_generate(NC_KEEP const void *ncb, size_t size, NC_KEEP const char *name, NC_KEEP const char *triple,
                           NC_GIVE void **object, size_t *object_size, NC_GIVE char **header, char *err,
                           size_t errlen);

/** nc_host_stub_generate, then writes the object to `object_path` and the
 * header to `header_path` (NULL: the object's path with its extension
 * replaced by .h). */
bool nc_host_stub_write(NC_KEEP const void *ncb, size_t size, NC_KEEP const char *name,
                        NC_KEEP const char *object_path, NC_KEEP const char *header_path, char *err, size_t errlen);

/** A C identifier from a file name: the base name without its extension,
 * other characters replaced by '_' ("out/digits-cnn.o" -> "digits_cnn"). */
void nc_host_stub_name_from_path(NC_KEEP const char *path, char *out, size_t n);

/** True if `name` is a C identifier (and short enough for the symbols). */
bool nc_host_stub_name_ok(NC_KEEP const char *name);

#endif
