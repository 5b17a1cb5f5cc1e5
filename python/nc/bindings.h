/* bindings.h: what the object model of nc.ir (types, attributes, locations
 * in ir_types.c; regions, blocks, uses, builders in ir_regions.c) needs
 * from _nc.c beyond handles.h, and what those files export. _nc.c owns
 * Context, Module, Operation and Value and exports them through functions
 * (not their structs), so these files cannot break how handles stay valid.
 *
 * A "keeper" is the Python object that keeps a context's C objects alive:
 * the Context object, or, inside a Python pass (no Context object exists),
 * the pass's borrowed module view, which dies with the pass. */
#ifndef NC_PY_BINDINGS_H
#define NC_PY_BINDINGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "nc/ir.h"
#include "handles.h"

/* --- exported by _nc.c, beside handles.h ------------------------------------ */

/** True if `o` is an Operation object (valid or not). */
bool nc_py_is_op(PyObject *o);
/** The op at the root of the IR an Operation handle points into (the
 * module, or a Python pass's anchor): two handles with the same root may
 * be combined. */
NC_KEEP nc_op *nc_py_op_root(PyObject *op);
/** The keeper (borrowed) of the context of an Operation handle's IR. */
NC_KEEP PyObject *nc_py_op_keeper(PyObject *op);
/** True if `o` is a Value object. */
bool nc_py_is_value(PyObject *o);
/** The Operation handle (borrowed) a Value object was reached from. */
NC_KEEP PyObject *nc_py_value_op(PyObject *value);
/** The nc_context behind a keeper; NULL with RuntimeError set if the
 * keeper (a finished pass's view) no longer has one. */
NC_KEEP nc_context *nc_py_keeper_context(PyObject *keeper);
/** The Context object of a keeper (borrowed), or NULL (no error set) when
 * the keeper is a pass view. */
NC_KEEP PyObject *nc_py_keeper_context_object(PyObject *keeper);

/* --- ir_types.c: Type, Attribute; ir_locations.c: Location ----------------- */

/** A Type object for `t` (NULL: None). */
NC_GIVE PyObject *nc_py_type_wrap(PyObject *keeper, nc_type *t);
/** An Attribute object for `a` (NULL: None). */
NC_GIVE PyObject *nc_py_attr_wrap(PyObject *keeper, nc_attr *a);
/** A Location object. */
NC_GIVE PyObject *nc_py_location_wrap(PyObject *keeper, nc_location loc);
/** The type of a Type object, or the type that IR text (str) parses to, in
 * `ctx`; NULL with an exception set (wrong Python type, another context,
 * bad text: DiagnosticError through `context`, which may be NULL). */
NC_KEEP nc_type *nc_py_type_from(PyObject *o, nc_context *ctx, PyObject *context);
/** True if `o` is an Attribute object. */
bool nc_py_is_attr(PyObject *o);
/** The attribute of an Attribute object, or one converted from a Python
 * value (bool, int, float, str, list, dict, Type), in `ctx`; NULL with an
 * exception set. With `text_is_ir`, a str is parsed as IR text instead of
 * becoming a string attribute. */
NC_KEEP nc_attr *nc_py_attr_from(PyObject *o, nc_context *ctx, PyObject *context, bool text_is_ir);
/** The location of a Location object in `ctx`; false with an exception set. */
bool nc_py_location_from(PyObject *o, nc_context *ctx, nc_location *loc);
/** The innermost `with Location(...)` of this thread (borrowed), or NULL. */
NC_KEEP PyObject *nc_py_location_current(void);
/** Readies Type and Attribute and adds them to the module. */
int nc_py_ir_types_init(PyObject *module);
/** Readies Location and adds it to the module. */
int nc_py_ir_locations_init(PyObject *module);

/* --- ir_regions.c: Region, Block, attribute maps, uses, builders ----------- */

/** Sets slots of Operation and Value (repr, comparison, hashing) before
 * they are readied. */
void nc_py_ir_regions_prepare(PyTypeObject *operation, PyTypeObject *value);
/** Readies Region and Block, adds the new members of Operation, Value and
 * the module's Module type, and adds build_op to the module. */
int nc_py_ir_regions_init(PyObject *module, PyTypeObject *operation, PyTypeObject *value);

#endif
