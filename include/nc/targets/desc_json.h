/* desc_json.h: reading a target's chip description (JSON) with errors that
 * point into the file.
 *
 * Each target owns its description's schema; this is the reader they share.
 * jansson parses the text (a syntax error is reported at jansson's
 * line:column); values are fetched by key path ("core.sram_bytes") with
 * their type and range checked, and a value that breaks the schema is
 * reported at the position where it is written, with what is wrong and by
 * how much: `chip.json:4:22: error: chip description: "core.sram_bytes"
 * must be at least 1, not 0`. jansson keeps no positions, so a small
 * scanner walks the (valid) text along the key path to find them.
 */
#ifndef NC_TARGETS_DESC_JSON_H
#define NC_TARGETS_DESC_JSON_H

#include "nc/ir/context.h"
#include "nc/support/base.h"

/** A description being read. */
typedef struct nc_desc_reader nc_desc_reader;

/** Parses `len` bytes of JSON text registered (or to be registered) in ctx
 * as the source buffer named `file`, so diagnostics show its lines. The
 * root must be an object. NULL after a diagnostic. */
NC_GIVE nc_desc_reader *nc_desc_reader_create(nc_context *ctx, const char *text, size_t len, const char *file);
/** Frees the reader. */
void nc_desc_reader_destroy(NC_TAKE nc_desc_reader *r);

/** True if the value at `path` exists. */
bool nc_desc_has(nc_desc_reader *r, const char *path);
/** An integer in [min, max] at `path`; a missing value is an error unless
 * `optional`, when *out keeps its value. False after a diagnostic. */
bool nc_desc_get_int(nc_desc_reader *r, const char *path, int64_t min, int64_t max, bool optional, int64_t *out);
/** A number in [min, max] at `path` (integers accepted), as for
 * nc_desc_get_int. */
bool nc_desc_get_real(nc_desc_reader *r, const char *path, double min, double max, bool optional, double *out);
/** A non-empty string of fewer than `n` bytes at `path`, into out[n]. */
bool nc_desc_get_string(nc_desc_reader *r, const char *path, bool optional, char *out, size_t n);
/** The keys of the object at `path` (NULL: the root), in file order; call
 * with i = 0, 1, ... until it returns NULL. NULL too if `path` is not an
 * object (after a diagnostic when `path` exists). */
NC_KEEP const char *nc_desc_get_key(nc_desc_reader *r, const char *path, size_t i);
/** Reports an error at the value at `path` (or the deepest object on it
 * that exists): "chip description: <message>". Returns false. */
bool nc_desc_error(nc_desc_reader *r, const char *path, const char *fmt, ...) NC_PRINTF(3, 4);
/** Reports keys of the object at `path` that are not in the NULL-terminated
 * list `known` (a misspelt key would otherwise be silently ignored). */
bool nc_desc_check_keys(nc_desc_reader *r, const char *path, const char *const *known);

#endif
