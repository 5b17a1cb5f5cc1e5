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
#include "nc/support/mapped.h"
#include "nc/dialects/dialects.h"
#include "nc/passes/passes.h"
#include "nc/targets/targets.h"
#include "handles.h"
#include "extras.h"
#include "runtime.h"
#include "bindings.h"

static PyObject *DiagnosticError;

PyObject *nc_py_diagnostic_error(void) { return DiagnosticError; }

/* --- Context ----------------------------------------------------------------------- */

typedef struct {
  const char *severity; /* "error", "warning", "note", "remark" */
  char *text;           /* file:line:col: severity: message, with notes */
  nc_diag *diag;        /* a copy, made into an nc.Diagnostic when taken */
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
  c->diags[c->n_diags++] = (diag_rec){severity_name(nc_diag_get_severity(d)), buf, nc_diag_clone(d)};
  pthread_mutex_unlock(&c->lock);
  return true;
}

static void clear_diags(ContextObject *c) {
  for (size_t i = 0; i < c->n_diags; i++) {
    free(c->diags[i].text);
    nc_diag_destroy(c->diags[i].diag);
  }
  c->n_diags = 0;
}

/* Takes the collected diagnostics as a list of nc.Diagnostic (severity, text,
 * file, line, col, message, notes). */
static PyObject *take_diags(ContextObject *c) {
  PyObject *list = PyList_New(0);
  if (!list) return NULL;
  for (size_t i = 0; i < c->n_diags; i++) {
    PyObject *t = nc_py_diagnostic(c->diags[i].diag, c->ctx);
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
   "Returns and clears the diagnostics emitted so far, as nc.Diagnostic records."},
  NC_PY_EXTRA_CONTEXT_METHODS
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
  bool borrowed;    /* a Python pass's view of IR owned elsewhere: never destroyed here */
  PyObject *erased; /* set of addresses of ops erased through Operation.erase */
  int running;       /* a pass pipeline runs on it (without the GIL): no other use until it ends */
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
  if (m->op && !m->borrowed) nc_op_destroy(m->op);
  Py_XDECREF(m->erased);
  Py_XDECREF(m->context);
  Py_TYPE(m)->tp_free((PyObject *)m);
}

static bool module_check(ModuleObject *m) {
  if (!m->op) { PyErr_SetString(PyExc_RuntimeError, "the module was destroyed"); return false; }
  if (m->running) {
    PyErr_SetString(PyExc_RuntimeError, "the module is in use: a pass pipeline runs on it in another thread");
    return false;
  }
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
  if (m->erased) { /* the address holds a live op again */
    PyObject *key = PyLong_FromVoidPtr(op);
    if (!key || PySet_Discard(m->erased, key) < 0) { Py_XDECREF(key); return NULL; }
    Py_DECREF(key);
  }
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
  if (m->borrowed) {
    PyErr_SetString(PyExc_RuntimeError, "a pass cannot destroy the IR it runs on");
    return NULL;
  }
  if (nc_py_in_pattern()) {
    PyErr_SetString(PyExc_RuntimeError, "destroy: not while a rewrite pattern runs");
    return NULL;
  }
  if (m->running) {
    PyErr_SetString(PyExc_RuntimeError, "destroy: a pass pipeline runs on this module in another thread");
    return NULL;
  }
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
  if (o->module->running) {
    PyErr_SetString(PyExc_RuntimeError, "the module is in use: a pass pipeline runs on it in another thread");
    return false;
  }
  if (o->module->erased) {
    PyObject *key = PyLong_FromVoidPtr(o->op);
    int dead = key ? PySet_Contains(o->module->erased, key) : -1;
    Py_XDECREF(key);
    if (dead) {
      if (dead > 0) PyErr_SetString(PyExc_RuntimeError, "operation used after it was erased");
      return false;
    }
  }
  return true;
}

/* --- Value ------------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  OperationObject *owner; /* the op the value was reached from (validity, keep-alive) */
  nc_value *value;
} ValueObject;

static PyTypeObject ValueType;

static PyObject *make_value(OperationObject *owner, nc_value *v) {
  ValueObject *o = PyObject_New(ValueObject, &ValueType);
  if (!o) return NULL;
  Py_INCREF(owner);
  o->owner = owner;
  o->value = v;
  return (PyObject *)o;
}

static void Value_dealloc(ValueObject *v) {
  Py_XDECREF(v->owner);
  PyObject_Free(v);
}

static PyObject *Value_type(ValueObject *v, void *unused) {
  (void)unused;
  if (!op_check(v->owner)) return NULL;
  return nc_py_type_wrap(nc_py_op_keeper((PyObject *)v->owner), nc_value_get_type(v->value));
}

static PyObject *Value_num_uses(ValueObject *v, void *unused) {
  (void)unused;
  if (!op_check(v->owner)) return NULL;
  return PyLong_FromSize_t(nc_value_get_num_uses(v->value));
}

static PyObject *Value_replace_all_uses_with(ValueObject *v, PyObject *arg) {
  if (!PyObject_TypeCheck(arg, &ValueType)) {
    PyErr_Format(PyExc_TypeError, "replace_all_uses_with: expected a Value, got %s", Py_TYPE(arg)->tp_name);
    return NULL;
  }
  ValueObject *w = (ValueObject *)arg;
  if (!op_check(v->owner) || !op_check(w->owner)) return NULL;
  if (v->owner->module->op != w->owner->module->op) {
    PyErr_SetString(PyExc_ValueError, "replace_all_uses_with: the values belong to different modules");
    return NULL;
  }
  if (nc_value_get_type(v->value) != nc_value_get_type(w->value)) {
    PyErr_SetString(PyExc_TypeError, "replace_all_uses_with: the values have different types");
    return NULL;
  }
  nc_value_replace_all_uses_with(v->value, w->value);
  Py_RETURN_NONE;
}

static PyGetSetDef Value_getset[] = {
  {"type", (getter)Value_type, NULL, "The type (an nc.ir.Type; equal to its text, e.g. 'tensor<1x10xf32>').", NULL},
  {"num_uses", (getter)Value_num_uses, NULL, "Number of uses.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Value_methods[] = {
  {"replace_all_uses_with", (PyCFunction)Value_replace_all_uses_with, METH_O,
   "Makes every use of this value use `other` (same module and type) instead."},
  {NULL, NULL, 0, NULL},
};

static PyTypeObject ValueType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.Value",
  .tp_basicsize = sizeof(ValueObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "An SSA value (an op result or block argument).",
  .tp_dealloc = (destructor)Value_dealloc,
  .tp_getset = Value_getset,
  .tp_methods = Value_methods,
};

static PyObject *Operation_values(OperationObject *o, bool results) {
  if (!op_check(o)) return NULL;
  size_t n = results ? nc_op_get_num_results(o->op) : nc_op_get_num_operands(o->op);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *v = make_value(o, results ? nc_op_get_result(o->op, i) : nc_op_get_operand(o->op, i));
    if (!v) { Py_CLEAR(list); break; }
    PyList_SET_ITEM(list, (Py_ssize_t)i, v);
  }
  return list;
}

/* The arguments of the entry block of the op's first region (a function's
 * parameters). */
static PyObject *Operation_arguments(OperationObject *o, void *unused) {
  (void)unused;
  if (!op_check(o)) return NULL;
  nc_block *b = nc_op_get_num_regions(o->op) ? nc_region_get_first_block(nc_op_get_region(o->op, 0)) : NULL;
  if (!b) {
    PyErr_SetString(PyExc_ValueError, "arguments: the op has no region with a block");
    return NULL;
  }
  size_t n = nc_block_get_num_args(b);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *v = make_value(o, nc_block_get_arg(b, i));
    if (!v) { Py_CLEAR(list); break; }
    PyList_SET_ITEM(list, (Py_ssize_t)i, v);
  }
  return list;
}

static PyObject *Operation_set_operand(OperationObject *o, PyObject *args) {
  Py_ssize_t i;
  PyObject *arg;
  if (!PyArg_ParseTuple(args, "nO!", &i, &ValueType, &arg)) return NULL;
  ValueObject *v = (ValueObject *)arg;
  if (!op_check(o) || !op_check(v->owner)) return NULL;
  if (i < 0 || (size_t)i >= nc_op_get_num_operands(o->op)) {
    PyErr_Format(PyExc_IndexError, "set_operand: no operand #%zd", i);
    return NULL;
  }
  if (v->owner->module->op != o->module->op) {
    PyErr_SetString(PyExc_ValueError, "set_operand: the value belongs to another module");
    return NULL;
  }
  nc_op_set_operand(o->op, (size_t)i, v->value);
  Py_RETURN_NONE;
}

static PyObject *Operation_operands(OperationObject *o, void *unused) {
  (void)unused;
  return Operation_values(o, false);
}

static PyObject *Operation_results(OperationObject *o, void *unused) {
  (void)unused;
  return Operation_values(o, true);
}

static nc_walk_result note_erased(nc_op *op, void *user) {
  PyObject *key = PyLong_FromVoidPtr(op);
  if (!key || PySet_Add(user, key) < 0) { Py_XDECREF(key); return NC_WALK_INTERRUPT; }
  Py_DECREF(key);
  return NC_WALK_ADVANCE;
}

static PyObject *Operation_erase(OperationObject *o, PyObject *unused) {
  (void)unused;
  if (!op_check(o)) return NULL;
  if (nc_py_in_pattern()) {
    PyErr_SetString(PyExc_RuntimeError, "erase: inside a rewrite pattern, erase through the rewriter (erase_op)");
    return NULL;
  }
  if (!nc_op_get_parent_op(o->op)) {
    PyErr_SetString(PyExc_ValueError, "erase: the top-level op cannot be erased (use Module.destroy)");
    return NULL;
  }
  for (size_t i = 0; i < nc_op_get_num_results(o->op); i++)
    if (!nc_value_use_empty(nc_op_get_result(o->op, i))) {
      PyErr_Format(PyExc_ValueError, "erase: result #%zu still has uses", i);
      return NULL;
    }
  ModuleObject *m = o->module;
  if (!m->erased && !(m->erased = PySet_New(NULL))) return NULL;
  if (nc_op_walk(o->op, NC_WALK_PRE_ORDER, note_erased, m->erased) == NC_WALK_INTERRUPT) return NULL;
  nc_op_erase(o->op);
  Py_RETURN_NONE;
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

static PyObject *Operation_walk(OperationObject *o, PyObject *args) {
  PyObject *fn = NULL;
  if (!PyArg_ParseTuple(args, "|O", &fn)) return NULL;
  if (!op_check(o)) return NULL;
  if (fn && !PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "walk: expected a callable");
    return NULL;
  }
  collect_ctx c = {o->module, PyList_New(0), false};
  if (!c.list) return NULL;
  nc_op_walk(o->op, NC_WALK_PRE_ORDER, collect_op, &c);
  if (c.failed) { Py_DECREF(c.list); return NULL; }
  if (!fn) return c.list;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(c.list); i++) {
    PyObject *r = PyObject_CallOneArg(fn, PyList_GET_ITEM(c.list, i));
    if (!r) { Py_DECREF(c.list); return NULL; }
    Py_DECREF(r);
  }
  Py_DECREF(c.list);
  Py_RETURN_NONE;
}

/* Operation.create(name, operands, before, attributes=None, result_types=None):
 * a new op inserted before `before` (the insertion point); result types are
 * inferred by the op definition when not given. Attributes and types are
 * written as IR text. */
static void create_fail(ContextObject *cobj, const char *msg) {
  if (cobj) raise_diags(cobj, msg);
  else PyErr_SetString(PyExc_ValueError, msg);
}

static PyObject *Operation_create(PyObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"name", "operands", "before", "attributes", "result_types", NULL};
  const char *name;
  PyObject *operands, *attrs = Py_None, *rtypes = Py_None;
  OperationObject *before;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sOO!|OO", kwlist, &name, &operands, &OperationType, &before, &attrs,
                                   &rtypes))
    return NULL;
  if (!op_check(before)) return NULL;
  if (!nc_op_get_block(before->op)) {
    PyErr_SetString(PyExc_ValueError, "create: `before` is not in a block");
    return NULL;
  }
  ContextObject *cobj = before->module->context;
  nc_context *ctx = cobj ? cobj->ctx : nc_op_get_context(before->op);
  const nc_op_def *def = nc_context_lookup_op_def(ctx, name, strlen(name));
  if (!def) {
    PyErr_Format(PyExc_ValueError, "create: unknown op '%s'", name);
    return NULL;
  }
  PyObject *seq = PySequence_Fast(operands, "create: operands must be a sequence of Values");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  nc_value **vals = PyMem_Calloc((size_t)n + 1, sizeof *vals);
  nc_type **otypes = PyMem_Calloc((size_t)n + 1, sizeof *otypes);
  nc_type **types = NULL;
  char *dict_text = NULL;
  PyObject *result = NULL;
  size_t n_results = 0;
  nc_attr *props = NULL;
  if (!vals || !otypes) { PyErr_NoMemory(); goto done; }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyObject_TypeCheck(v, &ValueType)) {
      PyErr_Format(PyExc_TypeError, "create: operand #%zd is a %s, not a Value", i, Py_TYPE(v)->tp_name);
      goto done;
    }
    ValueObject *vo = (ValueObject *)v;
    if (!op_check(vo->owner)) goto done;
    if (vo->owner->module->op != before->module->op) {
      PyErr_Format(PyExc_ValueError, "create: operand #%zd belongs to another module", i);
      goto done;
    }
    vals[i] = vo->value;
    otypes[i] = nc_value_get_type(vo->value);
  }
  if (attrs != Py_None) {
    if (!PyDict_Check(attrs)) { PyErr_SetString(PyExc_TypeError, "create: attributes must be a dict"); goto done; }
    PyObject *parts = PyList_New(0), *key, *val;
    Py_ssize_t pos = 0;
    while (parts && PyDict_Next(attrs, &pos, &key, &val)) {
      PyObject *item = PyUnicode_FromFormat("%S = %S", key, val); /* an Attribute prints as its text */
      bool ok_val = PyUnicode_Check(val) || (nc_py_is_attr(val) && nc_py_attr_from(val, ctx, NULL, false));
      if (!PyUnicode_Check(key) || !ok_val) {
        Py_XDECREF(item);
        if (!PyErr_Occurred())
          PyErr_SetString(PyExc_TypeError, "create: attributes must map names to Attributes or attribute text (str)");
        Py_CLEAR(parts);
        break;
      }
      if (!item || PyList_Append(parts, item) < 0) Py_CLEAR(parts);
      Py_XDECREF(item);
    }
    if (!parts) goto done;
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    if (!joined) goto done;
    const char *j = PyUnicode_AsUTF8(joined);
    dict_text = j ? PyMem_Malloc(strlen(j) + 3) : NULL;
    if (dict_text) sprintf(dict_text, "{%s}", j);
    Py_DECREF(joined);
    if (!dict_text) goto done;
    props = nc_parse_attr(ctx, dict_text);
    if (!props) { create_fail(cobj, "invalid attribute"); goto done; }
  }
  if (rtypes != Py_None) {
    PyObject *rs = PySequence_Fast(rtypes, "create: result_types must be a sequence of Types or type text");
    if (!rs) goto done;
    n_results = (size_t)PySequence_Fast_GET_SIZE(rs);
    types = PyMem_Calloc(n_results + 1, sizeof *types);
    for (size_t i = 0; types && i < n_results; i++)
      if (!(types[i] = nc_py_type_from(PySequence_Fast_GET_ITEM(rs, (Py_ssize_t)i), ctx, (PyObject *)cobj))) break;
    Py_DECREF(rs);
    if (!types) { PyErr_NoMemory(); goto done; }
    if (PyErr_Occurred()) goto done;
  } else {
    if (!def->infer_types) {
      PyErr_Format(PyExc_ValueError, "create: '%s' cannot infer its result types: pass result_types", name);
      goto done;
    }
    n_results = def->n_results;
    types = PyMem_Calloc(n_results + 1, sizeof *types);
    if (!types) { PyErr_NoMemory(); goto done; }
    if (!def->infer_types(ctx, nc_op_get_loc(before->op), (size_t)n, otypes, props, n_results, types)) {
      create_fail(cobj, "result type inference failed");
      goto done;
    }
  }
  nc_op *op = nc_op_create(&(nc_op_state){.ctx = ctx, .name = name, .loc = nc_op_get_loc(before->op),
                                          .n_operands = (size_t)n, .operands = vals, .n_results = n_results,
                                          .result_types = types, .props = props});
  if (!op) { create_fail(cobj, "cannot create op"); goto done; }
  if (!nc_op_verify(op)) {
    nc_op_destroy(op);
    create_fail(cobj, "the new op does not verify");
    goto done;
  }
  nc_op_insert_before(op, before->op);
  result = make_operation(before->module, op);
done:
  PyMem_Free(vals);
  PyMem_Free(otypes);
  PyMem_Free(types);
  PyMem_Free(dict_text);
  Py_DECREF(seq);
  return result;
}

static PyMethodDef Operation_methods[] = {
  {"set_operand", (PyCFunction)Operation_set_operand, METH_VARARGS,
   "set_operand(i, value): makes operand #i use `value` (no type check: verify() after rewriting)."},
  {"create", (PyCFunction)(void (*)(void))Operation_create, METH_VARARGS | METH_KEYWORDS | METH_STATIC,
   "create(name, operands, before, attributes=None, result_types=None): a new op inserted before the op "
   "`before` (its insertion point); attributes map names to Attributes or attribute text; result types "
   "(Types or text) are "
   "inferred when omitted. Raises nc.DiagnosticError if the op does not verify."},
  {"walk", (PyCFunction)Operation_walk, METH_VARARGS,
   "walk(fn=None): the op and every op nested in it, pre-order; with fn, calls fn(op) on each (the list "
   "is taken first, so fn may erase ops) and returns None."},
  {"erase", (PyCFunction)Operation_erase, METH_NOARGS,
   "Erases the op (and the ops nested in it); its results must have no uses. Handles to them then raise."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Operation_getset[] = {
  {"name", (getter)Operation_name, NULL, "The op name, e.g. 'graph.conv'.", NULL},
  {"num_operands", (getter)Operation_num_operands, NULL, "Number of operands.", NULL},
  {"num_results", (getter)Operation_num_results, NULL, "Number of results.", NULL},
  {"parent", (getter)Operation_parent, NULL, "The enclosing op, or None.", NULL},
  {"operands", (getter)Operation_operands, NULL, "The operands, as Values.", NULL},
  {"results", (getter)Operation_results, NULL, "The results, as Values.", NULL},
  {"arguments", (getter)Operation_arguments, NULL, "The entry block's arguments of the first region.", NULL},
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
  .tp_methods = Operation_methods,
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
  if (nc_py_in_pattern()) {
    PyErr_SetString(PyExc_RuntimeError, "run: not while a rewrite pattern runs");
    return NULL;
  }
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
  m->running++; /* other threads may run Python meanwhile: they must not touch the module */
  Py_BEGIN_ALLOW_THREADS
  ok = nc_pass_manager_run(p->pm, m->op, &opts);
  if (ok && statistics) nc_pass_manager_print_statistics(p->pm, false, out);
  Py_END_ALLOW_THREADS
  m->running--;
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

/* --- bindings.h: what nc.ir's object model needs beyond handles.h ----------------- */

bool nc_py_is_op(PyObject *o) { return PyObject_TypeCheck(o, &OperationType); }

nc_op *nc_py_op_root(PyObject *o) { return ((OperationObject *)o)->module->op; }

PyObject *nc_py_op_keeper(PyObject *o) {
  ModuleObject *m = ((OperationObject *)o)->module;
  return m->context ? (PyObject *)m->context : (PyObject *)m;
}

bool nc_py_is_value(PyObject *o) { return PyObject_TypeCheck(o, &ValueType); }

PyObject *nc_py_value_op(PyObject *o) { return (PyObject *)((ValueObject *)o)->owner; }

nc_context *nc_py_keeper_context(PyObject *keeper) {
  if (PyObject_TypeCheck(keeper, &ContextType)) return ((ContextObject *)keeper)->ctx;
  ModuleObject *m = (ModuleObject *)keeper;
  if (!m->op) {
    PyErr_SetString(PyExc_RuntimeError, "type, attribute or location used after the pass that reached it ended");
    return NULL;
  }
  return nc_op_get_context(m->op);
}

PyObject *nc_py_keeper_context_object(PyObject *keeper) {
  return PyObject_TypeCheck(keeper, &ContextType) ? keeper : NULL;
}

/* --- op tables ------------------------------------------------------------------- */

static PyObject *names_of(const void *arr, size_t n, size_t stride) {
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    const char *nm = *(const char *const *)((const char *)arr + i * stride);
    PyObject *s = PyUnicode_FromString(nm ? nm : "");
    if (!s) { Py_CLEAR(list); break; }
    PyList_SET_ITEM(list, (Py_ssize_t)i, s);
  }
  return list;
}

typedef struct {
  PyObject *list;
  bool failed;
} defs_ctx;

static void add_dialect_ops(const nc_dialect_def *d, void *user) {
  defs_ctx *c = user;
  for (size_t i = 0; !c->failed && i < d->n_ops; i++) {
    const nc_op_def *o = &d->ops[i];
    PyObject *dict = Py_BuildValue("{s:s,s:s,s:s,s:s,s:N,s:N,s:N,s:O}", "dialect", d->name, "name", o->name,
                                   "summary", o->summary ? o->summary : "", "description",
                                   o->description ? o->description : "", "operands",
                                   names_of(o->operands, o->n_operands, sizeof *o->operands), "results",
                                   names_of(o->results, o->n_results, sizeof *o->results), "attributes",
                                   names_of(o->attrs, o->n_attrs, sizeof *o->attrs), "infers_types",
                                   o->infer_types ? Py_True : Py_False);
    if (!dict || PyList_Append(c->list, dict) < 0) c->failed = true;
    Py_XDECREF(dict);
  }
}

static PyObject *op_defs(PyObject *self, PyObject *arg) {
  (void)self;
  if (!PyObject_TypeCheck(arg, &ContextType)) {
    PyErr_SetString(PyExc_TypeError, "op_defs: expected a Context");
    return NULL;
  }
  defs_ctx c = {PyList_New(0), false};
  if (!c.list) return NULL;
  nc_context_foreach_dialect(((ContextObject *)arg)->ctx, add_dialect_ops, &c);
  if (c.failed) { Py_DECREF(c.list); return NULL; }
  return c.list;
}

/* --- handles.h: the other C files' view of the objects above ---------------------- */

nc_context *nc_py_context_get(PyObject *ctx) {
  if (!PyObject_TypeCheck(ctx, &ContextType)) {
    PyErr_Format(PyExc_TypeError, "expected a Context, got %s", Py_TYPE(ctx)->tp_name);
    return NULL;
  }
  return ((ContextObject *)ctx)->ctx;
}

bool nc_py_is_context(PyObject *obj) { return PyObject_TypeCheck(obj, &ContextType); }

PyObject *nc_py_raise_diagnostics(PyObject *ctx, const char *fallback) {
  if (!ctx) {
    PyErr_SetString(DiagnosticError, fallback);
    return NULL;
  }
  return raise_diags((ContextObject *)ctx, fallback);
}

void nc_py_clear_diagnostics(PyObject *ctx) {
  if (ctx) clear_diags((ContextObject *)ctx);
}

PyObject *nc_py_module_wrap(PyObject *ctx, nc_op *op) {
  ModuleObject *m = (ModuleObject *)ModuleType.tp_alloc(&ModuleType, 0);
  if (!m) { nc_op_destroy(op); return NULL; }
  Py_INCREF(ctx);
  m->context = (ContextObject *)ctx;
  m->op = op;
  return (PyObject *)m;
}

nc_op *nc_py_module_get(PyObject *module) {
  if (!PyObject_TypeCheck(module, &ModuleType)) {
    PyErr_Format(PyExc_TypeError, "expected a Module, got %s", Py_TYPE(module)->tp_name);
    return NULL;
  }
  return module_check((ModuleObject *)module) ? ((ModuleObject *)module)->op : NULL;
}

nc_op *nc_py_operation_get(PyObject *op) {
  if (!PyObject_TypeCheck(op, &OperationType)) {
    PyErr_Format(PyExc_TypeError, "expected an Operation, got %s", Py_TYPE(op)->tp_name);
    return NULL;
  }
  return op_check((OperationObject *)op) ? ((OperationObject *)op)->op : NULL;
}

PyObject *nc_py_operation_context(PyObject *op) { return (PyObject *)((OperationObject *)op)->module->context; }

PyObject *nc_py_operation_wrap_like(PyObject *like, nc_op *op) {
  return make_operation(((OperationObject *)like)->module, op);
}

void nc_py_operation_invalidate_others(PyObject *like) {
  OperationObject *o = (OperationObject *)like;
  o->module->epoch++;
  o->epoch = o->module->epoch;
}

bool nc_py_operation_note_erased(PyObject *like, nc_op *op) {
  ModuleObject *m = ((OperationObject *)like)->module;
  if (!m->erased && !(m->erased = PySet_New(NULL))) return false;
  return nc_op_walk(op, NC_WALK_PRE_ORDER, note_erased, m->erased) != NC_WALK_INTERRUPT;
}

PyObject *nc_py_view_open(nc_op *op) {
  ModuleObject *view = (ModuleObject *)ModuleType.tp_alloc(&ModuleType, 0);
  if (!view) return NULL;
  view->op = op;
  view->borrowed = true;
  return (PyObject *)view;
}

void nc_py_view_close(PyObject *view) {
  ModuleObject *m = (ModuleObject *)view;
  m->op = NULL;
  m->epoch++;
  Py_DECREF(view);
}

PyObject *nc_py_view_operation(PyObject *view) {
  ModuleObject *m = (ModuleObject *)view;
  return make_operation(m, m->op);
}

nc_value *nc_py_value_get(PyObject *value) {
  if (!PyObject_TypeCheck(value, &ValueType)) {
    PyErr_Format(PyExc_TypeError, "expected a Value, got %s", Py_TYPE(value)->tp_name);
    return NULL;
  }
  return op_check(((ValueObject *)value)->owner) ? ((ValueObject *)value)->value : NULL;
}

bool nc_py_value_in_module_of(PyObject *value, PyObject *op) {
  return ((ValueObject *)value)->owner->module->op == ((OperationObject *)op)->module->op;
}

PyObject *nc_py_value_wrap(PyObject *owner, nc_value *v) { return make_value((OperationObject *)owner, v); }

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
  {"op_defs", op_defs, METH_O,
   "op_defs(context): every registered op's table entry (name, summary, description, operand, result and "
   "attribute names) as dicts: the one source of the generated op classes."},
  {"simulate", nc_py_simulate, METH_VARARGS,
   "simulate(binary, inputs, options, trace_path, trace_max_events): runs a target binary (bytes) on its "
   "simulator in-process on a list of C-contiguous float32 or int8 arrays (all int8: int8 outputs); options "
   "is a dict of simulator options (str -> str); trace_path (or None) gets the timeline. Returns "
   "([(bytearray, shape)], stats JSON text); raises nc.DiagnosticError."},
  NC_PY_EXTRA_METHODS
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef nc_module = {PyModuleDef_HEAD_INIT, "_nc", "nc's C API for Python.", -1, module_methods,
                                       NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__nc(void) {
  /* a file nc has mapped (an .mlir source) truncated by another process: one line and exit status 1, not
   * death by SIGBUS; any other SIGBUS keeps the action from before (nc/support/mapped.h) */
  nc_mapped_file_install_handler("python");
  nc_register_all_passes();
  nc_register_all_targets();
  nc_py_ir_regions_prepare(&OperationType, &ValueType);
  if (PyType_Ready(&ContextType) < 0 || PyType_Ready(&ModuleType) < 0 || PyType_Ready(&OperationType) < 0 || PyType_Ready(&ValueType) < 0 ||
      PyType_Ready(&PassManagerType) < 0 || !nc_py_extras_ready())
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
  Py_INCREF(&ValueType);
  PyModule_AddObject(m, "Value", (PyObject *)&ValueType);
  Py_INCREF(&PassManagerType);
  PyModule_AddObject(m, "PassManager", (PyObject *)&PassManagerType);
  if (!nc_py_extras_add_types(m)) { Py_DECREF(m); return NULL; }
  if (nc_py_ir_types_init(m) < 0 || nc_py_ir_locations_init(m) < 0 ||
      nc_py_ir_regions_init(m, &OperationType, &ValueType) < 0) {
    Py_DECREF(m);
    { Py_DECREF(m); return NULL; }
  }
  return m;
}
