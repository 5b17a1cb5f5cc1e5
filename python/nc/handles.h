/* handles.h: what the extension's other C files (passes.c, rewrite.c,
 * interp.c) may do with the objects _nc.c defines (Context, Module,
 * Operation, Value) without seeing their layout: unwrap a handle (checked:
 * NULL with a Python exception set when it is stale or of the wrong type),
 * wrap an op or value, invalidate handles, and raise the diagnostics a
 * context collected. Defined at the end of _nc.c. */
#ifndef NC_PYTHON_HANDLES_H
#define NC_PYTHON_HANDLES_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "nc/ir.h"

/** The nc_context of a Context object, or NULL (TypeError set). */
NC_KEEP nc_context *nc_py_context_get(PyObject *ctx);
/** True if `obj` is a Context. */
bool nc_py_is_context(PyObject *obj);
/** Raises nc.DiagnosticError from what `ctx` (a Context) collected; `fallback`
 * when nothing was. Always returns NULL. */
PyObject *nc_py_raise_diagnostics(PyObject *ctx, const char *fallback);
/** Drops the diagnostics `ctx` collected. */
void nc_py_clear_diagnostics(PyObject *ctx);

/** A new Module object owning `op` (a top-level op) in the Context `ctx`. */
NC_GIVE PyObject *nc_py_module_wrap(PyObject *ctx, NC_TAKE nc_op *op);
/** The live top-level op of a Module, or NULL (exception set). */
NC_KEEP nc_op *nc_py_module_get(PyObject *module);

/** The op of an Operation handle, or NULL (exception set: stale, erased or
 * not an Operation). */
NC_KEEP nc_op *nc_py_operation_get(PyObject *op);
/** The Context object an Operation's module belongs to (borrowed), or NULL
 * for a pass's view of IR owned elsewhere. */
NC_KEEP PyObject *nc_py_operation_context(PyObject *op);
/** A new Operation for `op`, in the same module as the Operation `like`. */
NC_GIVE PyObject *nc_py_operation_wrap_like(PyObject *like, nc_op *op);
/** Makes every handle into `like`'s module stale (passes or the driver
 * may have erased any op), then revalidates `like` itself (an op that
 * survives, e.g. the root a driver ran on). */
void nc_py_operation_invalidate_others(PyObject *like);
/** Records that `op` (and what it contains) is about to be erased, so that
 * handles to it raise. Returns false with an exception on failure. */
bool nc_py_operation_note_erased(PyObject *like, nc_op *op);

/** A borrowed view of IR owned elsewhere (the op a pass runs on): a Module
 * whose handles all go stale when nc_py_view_close is called. */
NC_GIVE PyObject *nc_py_view_open(nc_op *op);
/** Ends a view: its handles raise from now on. Takes the reference. */
void nc_py_view_close(NC_TAKE PyObject *view);
/** The top-level op of a view as an Operation. */
NC_GIVE PyObject *nc_py_view_operation(PyObject *view);

/** The value of a Value handle, or NULL (exception set). */
NC_KEEP nc_value *nc_py_value_get(PyObject *value);
/** True if the Value belongs to the same module as the Operation `op`. */
bool nc_py_value_in_module_of(PyObject *value, PyObject *op);
/** A new Value for `v`, reached from the Operation `owner`. */
NC_GIVE PyObject *nc_py_value_wrap(PyObject *owner, nc_value *v);

#endif
