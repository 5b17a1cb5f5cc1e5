/* diag.h: the diagnostics engine.
 *
 * A diagnostic has a severity, a location, a message and chained notes.
 * Emitting one hands it to the innermost handler registered on the context;
 * the default handler prints `file:line:col: error: message`, the source
 * line and a caret under the column, then the notes the same way. Tools
 * (nc-opt --verify-diagnostics, the pass manager, Python) push handlers to
 * capture diagnostics instead.
 */
#ifndef NC_IR_DIAG_H
#define NC_IR_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "nc/ir/attrs.h"

/** Severity, as in MLIR. */
typedef enum nc_severity { NC_SEV_ERROR, NC_SEV_WARNING, NC_SEV_NOTE, NC_SEV_REMARK } nc_severity;

/** A diagnostic being built or delivered. */
typedef struct nc_diag nc_diag;

/** Starts a diagnostic; it is delivered by nc_diag_emit. */
NC_GIVE nc_diag *nc_diag_create(nc_context *ctx, nc_severity sev, nc_location loc, const char *fmt, ...) NC_PRINTF(4, 5);
/** va_list form of nc_diag_create. */
NC_GIVE nc_diag *nc_diag_createv(nc_context *ctx, nc_severity sev, nc_location loc, const char *fmt, va_list ap);
/** Appends text to the message. */
void nc_diag_append(nc_diag *d, const char *fmt, ...) NC_PRINTF(2, 3);
/** Attaches a note at `loc`. */
void nc_diag_attach_note(nc_diag *d, nc_location loc, const char *fmt, ...) NC_PRINTF(3, 4);
/** Delivers the diagnostic to the current handler and frees it. */
void nc_diag_emit(NC_TAKE nc_diag *d);
/** Frees a diagnostic without emitting it. */
void nc_diag_destroy(NC_TAKE nc_diag *d);

/** Accessors for handlers. */
nc_severity nc_diag_get_severity(NC_KEEP const nc_diag *d);
nc_location nc_diag_get_loc(NC_KEEP const nc_diag *d);
NC_KEEP const char *nc_diag_get_message(NC_KEEP const nc_diag *d);
size_t nc_diag_get_num_notes(NC_KEEP const nc_diag *d);
NC_KEEP const nc_diag *nc_diag_get_note(NC_KEEP const nc_diag *d, size_t i);
/** A deep copy (handlers that defer delivery keep copies). */
NC_GIVE nc_diag *nc_diag_clone(NC_KEEP const nc_diag *d);

/** One-shot helpers: create and emit. */
void nc_emit_error(nc_context *ctx, nc_location loc, const char *fmt, ...) NC_PRINTF(3, 4);
void nc_emit_warning(nc_context *ctx, nc_location loc, const char *fmt, ...) NC_PRINTF(3, 4);
void nc_emit_remark(nc_context *ctx, nc_location loc, const char *fmt, ...) NC_PRINTF(3, 4);
/** Starts an error at the op's location with MLIR's "'op.name' op " prefix. */
NC_GIVE nc_diag *nc_op_diag_error(NC_KEEP nc_op *op, const char *fmt, ...) NC_PRINTF(2, 3);
/** Emits an error at the op's location with the "'op.name' op " prefix; returns false. */
bool nc_op_emit_error(NC_KEEP nc_op *op, const char *fmt, ...) NC_PRINTF(2, 3);
/** Emits a warning / remark at the op's location with the op prefix. */
void nc_op_emit_warning(NC_KEEP nc_op *op, const char *fmt, ...) NC_PRINTF(2, 3);
void nc_op_emit_remark(NC_KEEP nc_op *op, const char *fmt, ...) NC_PRINTF(2, 3);

/** A handler: returns true if it consumed the diagnostic, false to pass it
 * on to the handler below it. */
typedef bool (*nc_diag_handler)(NC_KEEP const nc_diag *d, void *user);
/** Pushes a handler; returns an id for nc_context_pop_diag_handler. */
unsigned nc_context_push_diag_handler(nc_context *ctx, nc_diag_handler fn, void *user);
/** Removes the handler with this id. */
void nc_context_pop_diag_handler(nc_context *ctx, unsigned id);

/** Prints a diagnostic (and its notes) the way the default handler does:
 * `file:line:col: severity: message`, the source line and a caret. */
void nc_diag_print(NC_KEEP const nc_diag *d, nc_context *ctx, FILE *out);

/** Prints a diagnostic (and its notes) the way nc's model tools (nc-compile,
 * nc-run, nc-translate) do for a run on the file `input` (NULL: none),
 * naming the file the user gave:
 * - at a file:line:col: as nc_diag_print;
 * - at a whole-file location `"f":0:0` (the ONNX importer locates a model's
 *   function at its file): `f: severity: message`, where f becomes `input`
 *   when the location was read from `input` (IR imported from f and printed
 *   with its locations): that IR file is the one the user compiles;
 * - at a name location `loc("n")` (an ONNX node): `input: severity: at 'n':
 *   message` (`loc("n"): ...` without `input`);
 * - at no location: `tool: severity: message`. */
void nc_diag_print_for_input(NC_KEEP const nc_diag *d, nc_context *ctx, const char *tool, const char *input,
                             FILE *out);
/** Number of errors emitted in this context so far. */
size_t nc_context_get_num_errors(NC_KEEP nc_context *ctx);

/** Per-thread capture, used by the pass manager so parallel passes report in
 * a deterministic order: while a capture is installed on the calling thread,
 * diagnostics emitted by that thread are appended to it instead of being
 * delivered. */
typedef struct nc_diag_capture nc_diag_capture;
/** Installs a new capture on the calling thread. */
NC_GIVE nc_diag_capture *nc_diag_capture_begin(void);
/** Stops capturing on this thread (the capture keeps its diagnostics). */
void nc_diag_capture_end(nc_diag_capture *c);
/** Delivers the captured diagnostics in order and frees the capture. */
void nc_diag_capture_flush(NC_TAKE nc_diag_capture *c, nc_context *ctx);
/** Frees the capture and the diagnostics it holds, delivering none (the
 * work they came from was given up, e.g. a parallel item past the first
 * failure that a serial loop would not have reached). */
void nc_diag_capture_discard(NC_TAKE nc_diag_capture *c);
/** Number of captured errors. */
size_t nc_diag_capture_num_errors(NC_KEEP const nc_diag_capture *c);

#endif
