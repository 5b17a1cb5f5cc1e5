/* runtime.h: the parts of the _nc extension split from _nc.c (one file per
 * object: runtime.c runs target binaries on their simulator in-process). */
#ifndef NC_PYTHON_RUNTIME_H
#define NC_PYTHON_RUNTIME_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/** The exception class nc.DiagnosticError (set by nc/__init__.py); borrowed. */
PyObject *nc_py_diagnostic_error(void);

/** _nc.simulate(binary, inputs, options, trace_path, trace_max_events):
 * see the doc string in runtime.c. */
PyObject *nc_py_simulate(PyObject *self, PyObject *args);

#endif
