/* extras.h: the parts of the _nc extension kept out of _nc.c, one file per
 * feature: passes.c (passes written in Python: options, statistics),
 * rewrite.c (rewrite patterns in Python on nc's greedy driver),
 * diagnostics.c (nc.Diagnostic records and capture handlers) and interp.c
 * (the reference interpreter and ONNX import/export in-process), compile.c
 * (nc.compile through the target API, in-process). _nc.c
 * lists their functions with NC_PY_EXTRA_METHODS and readies their types. */
#ifndef NC_PYTHON_EXTRAS_H
#define NC_PYTHON_EXTRAS_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "nc/ir.h"
#include "nc/ir/pass.h"
#include "nc/ir/rewrite.h"

/* passes.c */
PyObject *nc_py_register_pass(PyObject *self, PyObject *args);
/* rewrite.c */
PyObject *nc_py_apply_patterns_greedily(PyObject *self, PyObject *args, PyObject *kw);
bool nc_py_rewrite_ready(void);
/** True while a pattern written in Python runs: IR must then change only
 * through its rewriter (erasing behind the driver's back would leave it
 * pointers to freed ops). */
bool nc_py_in_pattern(void);
bool nc_py_rewrite_add_types(PyObject *m);
/* diagnostics.c */
PyObject *nc_py_set_diagnostic_class(PyObject *self, PyObject *cls);
PyObject *nc_py_push_diagnostic_handler(PyObject *self, PyObject *args);
PyObject *nc_py_pop_diagnostic_handler(PyObject *self, PyObject *args);
PyObject *nc_py_emit_diagnostic(PyObject *self, PyObject *args);
/** Errors emitted through emit_diagnostic on this thread so far (a pass
 * written in Python that reported its own error gets no generic one). */
size_t nc_py_errors_emitted_here(void);
/** An nc.Diagnostic for `d` (its notes included), or NULL with an exception. */
NC_GIVE PyObject *nc_py_diagnostic(NC_KEEP const nc_diag *d, nc_context *ctx);
/* interp.c */
PyObject *nc_py_interpret(PyObject *self, PyObject *args);
PyObject *nc_py_import_onnx(PyObject *self, PyObject *args);
PyObject *nc_py_export_onnx(PyObject *self, PyObject *args);
bool nc_py_interp_ready(void);
/* compile.c */
PyObject *nc_py_compile_module(PyObject *self, PyObject *args);
bool nc_py_interp_add_types(PyObject *m);

#define NC_PY_EXTRA_METHODS                                                                                  \
  {"register_pass", nc_py_register_pass, METH_VARARGS,                                                      \
   "register_pass(cls, argument, name, summary, description, anchor, options, statistics): registers a "   \
   "pass written in Python (use nc.passmanager.register_pass, which reads these from the class)."},         \
  {"apply_patterns_greedily", (PyCFunction)(void (*)(void))nc_py_apply_patterns_greedily,                   \
   METH_VARARGS | METH_KEYWORDS,                                                                             \
   "apply_patterns_greedily(op, patterns, max_iterations=10, max_num_rewrites=-1, top_down=True, "          \
   "fold=True): nc's greedy driver (canonicalize's) with patterns written in Python; returns (converged, "  \
   "rewrites, folds, erased)."},                                                                              \
  {"_set_diagnostic_class", nc_py_set_diagnostic_class, METH_O, "Sets the class of diagnostic records."},   \
  {"push_diagnostic_handler", nc_py_push_diagnostic_handler, METH_VARARGS,                                  \
   "push_diagnostic_handler(context, fn): fn(diagnostic) sees every diagnostic first (returning True "      \
   "consumes it); returns an id for pop_diagnostic_handler."},                                               \
  {"pop_diagnostic_handler", nc_py_pop_diagnostic_handler, METH_VARARGS,                                    \
   "pop_diagnostic_handler(context, id): removes a handler."},                                               \
  {"emit_diagnostic", nc_py_emit_diagnostic, METH_VARARGS,                                                  \
   "emit_diagnostic(op, severity, message, notes): emits a diagnostic at the op's location with notes "    \
   "[(op or None, text)]."},                                                                                 \
  {"interpret", nc_py_interpret, METH_VARARGS,                                                              \
   "interpret(module, context, inputs, function=None): runs the module's entry function in the reference "  \
   "interpreter on C-contiguous arrays (not copied), without the GIL; returns a list of Tensor."},           \
  {"import_onnx", nc_py_import_onnx, METH_VARARGS,                                                          \
   "import_onnx(context, data or path, label, base_dir=None): an ONNX model (bytes or a file) as a "       \
   "verified Module."},       \
  {"compile_module", nc_py_compile_module, METH_VARARGS,                                                   \
   "compile_module(module, context, target, emit, options, input_shapes=None, timing=False): a copy of the "\
   "module through the target's pipeline; returns (kind 'binary'|'ir'|'output', bytes or text, target, "    \
   "timing report or None)."},                                                                               \
  {"export_onnx", nc_py_export_onnx, METH_VARARGS,                                                          \
   "export_onnx(module, context, function=None, opset=0): the module's function as ONNX bytes."},

/** Context.diagnostic_handler(fn): see nc._DiagnosticHandler. */
PyObject *nc_py_context_diagnostic_handler(PyObject *self, PyObject *fn);
#define NC_PY_EXTRA_CONTEXT_METHODS                                                                          \
  {"diagnostic_handler", nc_py_context_diagnostic_handler, METH_O,                                           \
   "diagnostic_handler(fn): a context manager; inside the `with`, fn(diagnostic) sees every diagnostic "    \
   "first and consumes it by returning True."},

/** Readies the types of these files (PyType_Ready); false on error. */
bool nc_py_extras_ready(void);
/** Adds their types to the module `m`; false on error. */
bool nc_py_extras_add_types(PyObject *m);

#endif
