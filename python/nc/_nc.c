/* _nc.c: the CPython extension behind the `nc` package (the .py files beside it wrap
 * it). It holds nc's C handles in Python objects and keeps owners alive by
 * reference: an Operation references its Module, a Module its Context, so an
 * op can never outlive the IR it points into; Module.destroy() (or a pass
 * that erased ops) invalidates handles through a shared `valid` flag, and a
 * stale handle raises instead of crashing. Diagnostics are collected by a
 * context handler into a C buffer (safe without the GIL while passes run)
 * and turned into nc.DiagnosticError by the caller. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir.h"
#include "nc/ir/pass.h"
#include "nc/dialects/dialects.h"
#include "nc/passes/passes.h"
#include "nc/targets/targets.h"

static PyObject *DiagnosticError;

/* --- Context ----------------------------------------------------------------------- */

typedef struct {
  const char *severity; /* "error", "warning", "note", "remark" */
  char *text;           /* file:line:col: severity: message, with notes */
} diag_rec;

typedef struct {
  PyObject_HEAD
  nc_context *ctx;
  pthread_mutex_t lock; /* passes may emit from worker threads */
  diag_rec *diags;
  size_t n_diags, cap_diags;
} ContextObject;

static const char *severity_name(nc_severity s) {
  switch (s) {
  case NC_SEV_ERROR: return "error";
  case NC_SEV_WARNING: return "warning";
  case NC_SEV_NOTE: return "note";
  default: return "remark";
  }
}

static bool collect_diag(const nc_diag *d, void *user) {
  ContextObject *c = user;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return false;
  nc_diag_print(d, c->ctx, f);
  fclose(f);
  pthread_mutex_lock(&c->lock);
  if (c->n_diags == c->cap_diags) {
    size_t cap = c->cap_diags ? 2 * c->cap_diags : 8;
    diag_rec *n = realloc(c->diags, cap * sizeof *n);
    if (!n) { pthread_mutex_unlock(&c->lock); free(buf); return false; }
    c->diags = n;
    c->cap_diags = cap;
  }
  c->diags[c->n_diags++] = (diag_rec){severity_name(nc_diag_get_severity(d)), buf};
  pthread_mutex_unlock(&c->lock);
  return true;
}

static void clear_diags(ContextObject *c) {
  for (size_t i = 0; i < c->n_diags; i++) free(c->diags[i].text);
  c->n_diags = 0;
}

/* Takes the collected diagnostics as a list of (severity, text). */
static PyObject *take_diags(ContextObject *c) {
  PyObject *list = PyList_New(0);
  if (!list) return NULL;
  for (size_t i = 0; i < c->n_diags; i++) {
    PyObject *t = Py_BuildValue("(ss)", c->diags[i].severity, c->diags[i].text);
    if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); clear_diags(c); return NULL; }
    Py_DECREF(t);
  }
  clear_diags(c);
  return list;
}

/* Raises nc.DiagnosticError(message, diagnostics) from the collected ones. */
static PyObject *raise_diags(ContextObject *c, const char *fallback) {
  PyObject *list = take_diags(c);
  if (!list) return NULL;
  PyObject *msg = PyUnicode_FromString(fallback);
  for (Py_ssize_t i = 0; msg && i < PyList_GET_SIZE(list); i++) {
    PyObject *text = PyTuple_GET_ITEM(PyList_GET_ITEM(list, i), 1);
    PyObject *joined = i == 0 ? (Py_INCREF(text), text) : PyUnicode_FromFormat("%U%U", msg, text);
    Py_SETREF(msg, joined);
  }
  if (msg) {
    PyObject *exc = PyObject_CallFunctionObjArgs(DiagnosticError, msg, list, NULL);
    if (exc) { PyErr_SetObject(DiagnosticError, exc); Py_DECREF(exc); }
    Py_DECREF(msg);
  }
  Py_DECREF(list);
  return NULL;
}

static PyObject *Context_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"allow_unregistered_dialects", NULL};
  int allow = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &allow)) return NULL;
  ContextObject *c = (ContextObject *)type->tp_alloc(type, 0);
  if (!c) return NULL;
  c->ctx = nc_context_create();
  pthread_mutex_init(&c->lock, NULL);
  nc_register_all_dialects(c->ctx);
  nc_target_register_dialects(c->ctx);
  nc_context_set_allow_unregistered_dialects(c->ctx, allow);
  nc_context_push_diag_handler(c->ctx, collect_diag, c);
  return (PyObject *)c;
}

static void Context_dealloc(ContextObject *c) {
  if (c->ctx) nc_context_destroy(c->ctx);
  clear_diags(c);
  free(c->diags);
  pthread_mutex_destroy(&c->lock);
  Py_TYPE(c)->tp_free((PyObject *)c);
}

static PyObject *Context_take_diagnostics(ContextObject *c, PyObject *unused) {
  (void)unused;
  return take_diags(c);
}

static PyMethodDef Context_methods[] = {
  {"take_diagnostics", (PyCFunction)Context_take_diagnostics, METH_NOARGS,
   "Returns and clears the diagnostics emitted so far, as (severity, text) pairs."},
  {NULL, NULL, 0, NULL},
};

static PyTypeObject ContextType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.Context",
  .tp_basicsize = sizeof(ContextObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "An nc context with every dialect (and every target's dialects) loaded.",
  .tp_new = Context_new,
  .tp_dealloc = (destructor)Context_dealloc,
  .tp_methods = Context_methods,
};

/* --- Module ------------------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD
  ContextObject *context;
  nc_op *op;        /* owned top-level op; NULL once destroyed */
  uint64_t epoch;   /* bumped whenever handles into the module may dangle */
} ModuleObject;

typedef struct {
  PyObject_HEAD
  ModuleObject *module; /* keeps the IR alive */
  nc_op *op;            /* borrowed */
  uint64_t epoch;       /* module epoch when the handle was made */
} OperationObject;

static PyTypeObject ModuleType, OperationType;

static PyObject *Module_parse(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"text", "context", "filename", NULL};
  const char *text, *filename = "<string>";
  Py_ssize_t len;
  ContextObject *ctx;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s#O!|s", kwlist, &text, &len, &ContextType, &ctx, &filename))
    return NULL;
  nc_op *op;
  Py_BEGIN_ALLOW_THREADS
  op = nc_parse_string(ctx->ctx, text, (size_t)len, filename);
  Py_END_ALLOW_THREADS
  if (!op) return raise_diags(ctx, "parse failed");
  ModuleObject *m = (ModuleObject *)type->tp_alloc(type, 0);
  if (!m) { nc_op_destroy(op); return NULL; }
  Py_INCREF(ctx);
  m->context = ctx;
  m->op = op;
  return (PyObject *)m;
}

static PyObject *Module_parse_file(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "context", NULL};
  PyObject *path;
  ContextObject *ctx;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O!", kwlist, PyUnicode_FSConverter, &path, &ContextType, &ctx))
    return NULL;
  nc_op *op;
  Py_BEGIN_ALLOW_THREADS
  op = nc_parse_file(ctx->ctx, PyBytes_AS_STRING(path));
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (!op) return raise_diags(ctx, "cannot parse file");
  ModuleObject *m = (ModuleObject *)type->tp_alloc(type, 0);
  if (!m) { nc_op_destroy(op); return NULL; }
  Py_INCREF(ctx);
  m->context = ctx;
  m->op = op;
  return (PyObject *)m;
}

static void Module_dealloc(ModuleObject *m) {
  if (m->op) nc_op_destroy(m->op);
  Py_XDECREF(m->context);
  Py_TYPE(m)->tp_free((PyObject *)m);
}

static bool module_check(ModuleObject *m) {
  if (!m->op) { PyErr_SetString(PyExc_RuntimeError, "the module was destroyed"); return false; }
  return true;
}

static PyObject *print_op(nc_op *op, int generic, int debuginfo) {
  nc_print_flags flags = {0};
  flags.generic = generic;
  flags.debuginfo = debuginfo;
  size_t len = 0;
  char *s = nc_op_print_to_string(op, &flags, &len);
  if (!s) return PyErr_NoMemory();
  PyObject *r = PyUnicode_FromStringAndSize(s, (Py_ssize_t)len);
  free(s);
  return r;
}

static PyObject *Module_print(ModuleObject *m, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"generic", "debuginfo", NULL};
  int generic = 0, debuginfo = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|pp", kwlist, &generic, &debuginfo)) return NULL;
  if (!module_check(m)) return NULL;
  return print_op(m->op, generic, debuginfo);
}

static PyObject *Module_str(ModuleObject *m) {
  if (!module_check(m)) return NULL;
  return print_op(m->op, 0, 0);
}

static PyObject *make_operation(ModuleObject *m, nc_op *op) {
  OperationObject *o = PyObject_New(OperationObject, &OperationType);
  if (!o) return NULL;
  Py_INCREF(m);
  o->module = m;
  o->op = op;
  o->epoch = m->epoch;
  return (PyObject *)o;
}

typedef struct {
  ModuleObject *module;
  PyObject *list;
  bool failed;
} collect_ctx;

static nc_walk_result collect_op(nc_op *op, void *user) {
  collect_ctx *c = user;
  PyObject *o = make_operation(c->module, op);
  if (!o || PyList_Append(c->list, o) < 0) { Py_XDECREF(o); c->failed = true; return NC_WALK_INTERRUPT; }
  Py_DECREF(o);
  return NC_WALK_ADVANCE;
}

/* Every op of the module in pre-order (the module op first). A list rather
 * than a live callback walk, so Python code may mutate the IR while it
 * iterates (erased ops' handles then raise). */
static PyObject *Module_operations(ModuleObject *m, void *unused) {
  (void)unused;
  if (!module_check(m)) return NULL;
  collect_ctx c = {m, PyList_New(0), false};
  if (!c.list) return NULL;
  nc_op_walk(m->op, NC_WALK_PRE_ORDER, collect_op, &c);
  if (c.failed) { Py_DECREF(c.list); return NULL; }
  return c.list;
}

static PyObject *Module_verify(ModuleObject *m, PyObject *unused) {
  (void)unused;
  if (!module_check(m)) return NULL;
  if (!nc_op_verify(m->op)) return raise_diags(m->context, "verification failed");
  clear_diags(m->context);
  Py_RETURN_TRUE;
}

static PyObject *Module_destroy(ModuleObject *m, PyObject *unused) {
  (void)unused;
  if (m->op) nc_op_destroy(m->op);
  m->op = NULL;
  m->epoch++;
  Py_RETURN_NONE;
}

static PyObject *Module_get_context(ModuleObject *m, void *unused) {
  (void)unused;
  Py_INCREF(m->context);
  return (PyObject *)m->context;
}

static PyObject *Module_get_operation(ModuleObject *m, void *unused) {
  (void)unused;
  if (!module_check(m)) return NULL;
  return make_operation(m, m->op);
}

static PyMethodDef Module_methods[] = {
  {"parse", (PyCFunction)(void (*)(void))Module_parse, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "parse(text, context, filename='<string>'): parses IR text; raises nc.DiagnosticError."},
  {"parse_file", (PyCFunction)(void (*)(void))Module_parse_file, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "parse_file(path, context): parses an IR file; raises nc.DiagnosticError."},
  {"print", (PyCFunction)(void (*)(void))Module_print, METH_VARARGS | METH_KEYWORDS,
   "print(generic=False, debuginfo=False): the IR as text."},
  {"verify", (PyCFunction)Module_verify, METH_NOARGS, "Verifies the module; raises nc.DiagnosticError."},
  {"destroy", (PyCFunction)Module_destroy, METH_NOARGS,
   "Frees the IR now; later use of the module or its operations raises."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Module_getset[] = {
  {"operations", (getter)Module_operations, NULL, "Every op, pre-order, the module op first.", NULL},
  {"operation", (getter)Module_get_operation, NULL, "The top-level op.", NULL},
  {"context", (getter)Module_get_context, NULL, "The context.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ModuleType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.Module",
  .tp_basicsize = sizeof(ModuleObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A top-level op (builtin.module) and the IR it owns.",
  .tp_dealloc = (destructor)Module_dealloc,
  .tp_methods = Module_methods,
  .tp_getset = Module_getset,
  .tp_str = (reprfunc)Module_str,
};

/* --- Operation --------------------------------------------------------------------- */

static void Operation_dealloc(OperationObject *o) {
  Py_XDECREF(o->module);
  PyObject_Free(o);
}

static bool op_check(OperationObject *o) {
  if (!o->module->op || o->epoch != o->module->epoch) {
    PyErr_SetString(PyExc_RuntimeError, "operation used after its module was destroyed or rewritten");
    return false;
  }
  return true;
}

static PyObject *Operation_name(OperationObject *o, void *unused) {
  (void)unused;
  if (!op_check(o)) return NULL;
  nc_ident *id = nc_op_get_name(o->op);
  return PyUnicode_FromStringAndSize(nc_ident_str(id), (Py_ssize_t)nc_ident_len(id));
}

static PyObject *Operation_num_operands(OperationObject *o, void *unused) {
  (void)unused;
  if (!op_check(o)) return NULL;
  return PyLong_FromSize_t(nc_op_get_num_operands(o->op));
}

static PyObject *Operation_num_results(OperationObject *o, void *unused) {
  (void)unused;
  if (!op_check(o)) return NULL;
  return PyLong_FromSize_t(nc_op_get_num_results(o->op));
}

static PyObject *Operation_parent(OperationObject *o, void *unused) {
  (void)unused;
  if (!op_check(o)) return NULL;
  nc_op *p = nc_op_get_parent_op(o->op);
  if (!p) Py_RETURN_NONE;
  return make_operation(o->module, p);
}

static PyObject *Operation_str(OperationObject *o) {
  if (!op_check(o)) return NULL;
  return print_op(o->op, 0, 0);
}

static PyGetSetDef Operation_getset[] = {
  {"name", (getter)Operation_name, NULL, "The op name, e.g. 'graph.conv'.", NULL},
  {"num_operands", (getter)Operation_num_operands, NULL, "Number of operands.", NULL},
  {"num_results", (getter)Operation_num_results, NULL, "Number of results.", NULL},
  {"parent", (getter)Operation_parent, NULL, "The enclosing op, or None.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject OperationType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.Operation",
  .tp_basicsize = sizeof(OperationObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A borrowed handle to an op; keeps its module alive.",
  .tp_dealloc = (destructor)Operation_dealloc,
  .tp_getset = Operation_getset,
  .tp_str = (reprfunc)Operation_str,
};

/* --- PassManager ------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  ContextObject *context;
  nc_pass_manager *pm;
} PassManagerObject;

static PyObject *PassManager_parse(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"pipeline", "context", NULL};
  const char *text;
  ContextObject *ctx;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sO!", kwlist, &text, &ContextType, &ctx)) return NULL;
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx->ctx, text);
  if (!pm) return raise_diags(ctx, "invalid pass pipeline");
  PassManagerObject *p = (PassManagerObject *)type->tp_alloc(type, 0);
  if (!p) { nc_pass_manager_destroy(pm); return NULL; }
  Py_INCREF(ctx);
  p->context = ctx;
  p->pm = pm;
  return (PyObject *)p;
}

static void PassManager_dealloc(PassManagerObject *p) {
  if (p->pm) nc_pass_manager_destroy(p->pm);
  Py_XDECREF(p->context);
  Py_TYPE(p)->tp_free((PyObject *)p);
}

static PyObject *PassManager_run(PassManagerObject *p, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"module", "verify_each", "statistics", "timing", "print_after_all", NULL};
  ModuleObject *m;
  int verify_each = 1, statistics = 0, timing = 0, print_after_all = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|pppp", kwlist, &ModuleType, &m, &verify_each, &statistics, &timing,
                                   &print_after_all))
    return NULL;
  if (!module_check(m)) return NULL;
  if (m->context != p->context) {
    PyErr_SetString(PyExc_ValueError, "the module and the pass manager belong to different contexts");
    return NULL;
  }
  nc_pass_run_options opts = nc_pass_run_options_default();
  opts.verify_each = verify_each;
  opts.timing = timing;
  opts.statistics = statistics;
  opts.print_after_all = print_after_all;
  char *report = NULL;
  size_t report_len = 0;
  FILE *out = open_memstream(&report, &report_len);
  if (!out) return PyErr_NoMemory();
  opts.print_stream = out;
  bool ok;
  m->epoch++; /* passes may erase any op: earlier handles go stale */
  Py_BEGIN_ALLOW_THREADS
  ok = nc_pass_manager_run(p->pm, m->op, &opts);
  if (ok && statistics) nc_pass_manager_print_statistics(p->pm, false, out);
  Py_END_ALLOW_THREADS
  fclose(out);
  if (!ok) { free(report); return raise_diags(p->context, "pass pipeline failed"); }
  PyObject *r = PyUnicode_DecodeUTF8(report, (Py_ssize_t)report_len, "replace");
  free(report);
  return r;
}

static PyObject *PassManager_str(PassManagerObject *p) {
  char *s = nc_pass_manager_to_string(p->pm);
  if (!s) return PyErr_NoMemory();
  PyObject *r = PyUnicode_FromString(s);
  free(s);
  return r;
}

static PyMethodDef PassManager_methods[] = {
  {"parse", (PyCFunction)(void (*)(void))PassManager_parse, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "parse(pipeline, context): a pass manager from MLIR's textual pipeline syntax; raises nc.DiagnosticError."},
  {"run", (PyCFunction)(void (*)(void))PassManager_run, METH_VARARGS | METH_KEYWORDS,
   "run(module, verify_each=True, statistics=False, timing=False, print_after_all=False): runs the "
   "pipeline (without the GIL); returns the instrumentation output; raises nc.DiagnosticError."},
  {NULL, NULL, 0, NULL},
};

static PyTypeObject PassManagerType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.PassManager",
  .tp_basicsize = sizeof(PassManagerObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A pass pipeline.",
  .tp_dealloc = (destructor)PassManager_dealloc,
  .tp_methods = PassManager_methods,
  .tp_str = (reprfunc)PassManager_str,
};

/* --- module ------------------------------------------------------------------------ */

static PyObject *set_diagnostic_error(PyObject *self, PyObject *cls) {
  (void)self;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_Exception)) {
    PyErr_SetString(PyExc_TypeError, "expected an exception class");
    return NULL;
  }
  Py_INCREF(cls);
  Py_XSETREF(DiagnosticError, cls);
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
  {"_set_diagnostic_error", set_diagnostic_error, METH_O, "Sets the class raised for diagnostics."},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef nc_module = {PyModuleDef_HEAD_INIT, "_nc", "nc's C API for Python.", -1, module_methods,
                                       NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__nc(void) {
  nc_register_all_passes();
  nc_register_all_targets();
  if (PyType_Ready(&ContextType) < 0 || PyType_Ready(&ModuleType) < 0 || PyType_Ready(&OperationType) < 0 ||
      PyType_Ready(&PassManagerType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&nc_module);
  if (!m) return NULL;
  DiagnosticError = PyExc_RuntimeError;
  Py_INCREF(DiagnosticError);
  Py_INCREF(&ContextType);
  PyModule_AddObject(m, "Context", (PyObject *)&ContextType);
  Py_INCREF(&ModuleType);
  PyModule_AddObject(m, "Module", (PyObject *)&ModuleType);
  Py_INCREF(&OperationType);
  PyModule_AddObject(m, "Operation", (PyObject *)&OperationType);
  Py_INCREF(&PassManagerType);
  PyModule_AddObject(m, "PassManager", (PyObject *)&PassManagerType);
  return m;
}
