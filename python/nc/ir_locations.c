/* ir_locations.c: nc.ir.Location. A location is a compact handle (an
 * attribute, or a position in a source buffer the parser registered) that
 * only its context can read, so a Location holds the handle and the
 * context's keeper (bindings.h) like a Type does. Locations are also
 * context managers: the ops built inside `with loc:` get it (a per-thread
 * stack that build_op reads through nc_py_location_current). */
#include "bindings.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject_HEAD
  PyObject *keeper;
  nc_location loc;
} LocationObject;

static PyTypeObject LocationType;

static PyObject *string_result(char *s) {
  if (!s) return PyErr_NoMemory();
  PyObject *r = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
  free(s);
  return r;
}

PyObject *nc_py_location_wrap(PyObject *keeper, nc_location loc) {
  LocationObject *o = PyObject_New(LocationObject, &LocationType);
  if (!o) return NULL;
  Py_INCREF(keeper);
  o->keeper = keeper;
  o->loc = loc;
  return (PyObject *)o;
}

static void Location_dealloc(LocationObject *o) {
  Py_XDECREF(o->keeper);
  PyObject_Free(o);
}

bool nc_py_location_from(PyObject *o, nc_context *ctx, nc_location *loc) {
  if (!PyObject_TypeCheck(o, &LocationType)) {
    PyErr_Format(PyExc_TypeError, "expected a Location, got %s", Py_TYPE(o)->tp_name);
    return false;
  }
  nc_context *c = nc_py_keeper_context(((LocationObject *)o)->keeper);
  if (!c) return false;
  if (c != ctx) {
    PyErr_SetString(PyExc_ValueError, "the location belongs to another context");
    return false;
  }
  *loc = ((LocationObject *)o)->loc;
  return true;
}

static PyObject *Location_unknown(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"context", NULL};
  PyObject *context;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O", kwlist, &context)) return NULL;
  if (!nc_py_context_get(context)) return NULL;
  return nc_py_location_wrap(context, nc_location_unknown());
}

static PyObject *Location_file(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"filename", "line", "col", "context", NULL};
  const char *file;
  unsigned line, col;
  PyObject *context;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sIIO", kwlist, &file, &line, &col, &context)) return NULL;
  nc_context *ctx = nc_py_context_get(context);
  if (!ctx) return NULL;
  return nc_py_location_wrap(context, nc_location_from_attr(nc_loc_file(ctx, nc_ident_get_cstr(ctx, file), line, col)));
}

static PyObject *Location_name(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"name", "context", "child", NULL};
  const char *name;
  PyObject *context, *child = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sO|O", kwlist, &name, &context, &child)) return NULL;
  nc_context *ctx = nc_py_context_get(context);
  if (!ctx) return NULL;
  nc_location c = nc_location_unknown();
  if (child != Py_None && !nc_py_location_from(child, ctx, &c)) return NULL;
  nc_attr *a = nc_loc_name(ctx, nc_ident_get_cstr(ctx, name), nc_location_get_attr(ctx, c));
  return nc_py_location_wrap(context, nc_location_from_attr(a));
}

static PyObject *Location_callsite(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"callee", "caller", NULL};
  PyObject *callee, *caller;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!", kwlist, &LocationType, &callee, &LocationType, &caller))
    return NULL;
  PyObject *keeper = ((LocationObject *)callee)->keeper;
  nc_context *ctx = nc_py_keeper_context(keeper);
  nc_location a, b;
  if (!ctx || !nc_py_location_from(callee, ctx, &a) || !nc_py_location_from(caller, ctx, &b)) return NULL;
  nc_attr *loc = nc_loc_callsite(ctx, nc_location_get_attr(ctx, a), nc_location_get_attr(ctx, b));
  return nc_py_location_wrap(keeper, nc_location_from_attr(loc));
}

static PyObject *Location_fused(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"locations", "context", "metadata", NULL};
  PyObject *locs_obj, *context, *meta_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O", kwlist, &locs_obj, &context, &meta_obj)) return NULL;
  nc_context *ctx = nc_py_context_get(context);
  if (!ctx) return NULL;
  nc_attr *meta = meta_obj == Py_None ? NULL : nc_py_attr_from(meta_obj, ctx, context, false);
  if (meta_obj != Py_None && !meta) return NULL;
  PyObject *seq = PySequence_Fast(locs_obj, "fused: locations must be a sequence of Locations");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), i = 0;
  nc_attr **attrs = PyMem_Calloc((size_t)n + 1, sizeof *attrs);
  PyObject *r = NULL;
  if (!attrs) PyErr_NoMemory();
  for (; attrs && i < n; i++) {
    nc_location l;
    if (!nc_py_location_from(PySequence_Fast_GET_ITEM(seq, i), ctx, &l)) break;
    attrs[i] = nc_location_get_attr(ctx, l);
  }
  if (attrs && i == n)
    r = nc_py_location_wrap(context, nc_location_from_attr(nc_loc_fused(ctx, (size_t)n, attrs, meta)));
  PyMem_Free(attrs);
  Py_DECREF(seq);
  return r;
}

static nc_context *location_context(LocationObject *o) { return nc_py_keeper_context(o->keeper); }

static PyObject *Location_str(LocationObject *o) {
  nc_context *ctx = location_context(o);
  return ctx ? string_result(nc_attr_to_string(nc_location_get_attr(ctx, o->loc))) : NULL;
}

static PyObject *Location_repr(LocationObject *o) {
  PyObject *s = Location_str(o);
  if (!s) return NULL;
  PyObject *r = PyUnicode_FromFormat("Location(%U)", s);
  Py_DECREF(s);
  return r;
}

static Py_hash_t Location_hash(LocationObject *o) {
  nc_context *ctx = location_context(o);
  return ctx ? _Py_HashPointer(nc_location_get_attr(ctx, o->loc)) : -1;
}

static PyObject *Location_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &LocationType)) Py_RETURN_NOTIMPLEMENTED;
  nc_context *ca = location_context((LocationObject *)a), *cb = ca ? location_context((LocationObject *)b) : NULL;
  if (!cb) return NULL;
  bool eq = ca == cb && nc_location_equal(ca, ((LocationObject *)a)->loc, ((LocationObject *)b)->loc);
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* file, line, col of the first file:line:col in the location, or None. */
static PyObject *location_part(LocationObject *o, int which) {
  nc_context *ctx = location_context(o);
  if (!ctx) return NULL;
  nc_ident *file;
  unsigned line, col;
  if (!nc_location_get_file_line_col(ctx, o->loc, &file, &line, &col)) Py_RETURN_NONE;
  if (which == 0) return PyUnicode_FromStringAndSize(nc_ident_str(file), (Py_ssize_t)nc_ident_len(file));
  return PyLong_FromUnsignedLong(which == 1 ? line : col);
}

static PyObject *Location_filename(LocationObject *o, void *u) { (void)u; return location_part(o, 0); }
static PyObject *Location_line(LocationObject *o, void *u) { (void)u; return location_part(o, 1); }
static PyObject *Location_col(LocationObject *o, void *u) { (void)u; return location_part(o, 2); }

static PyObject *Location_is_unknown(LocationObject *o, void *u) {
  (void)u;
  return location_context(o) ? PyBool_FromLong(nc_location_is_unknown(o->loc)) : NULL;
}

static PyObject *Location_attribute(LocationObject *o, void *u) {
  (void)u;
  nc_context *ctx = location_context(o);
  return ctx ? nc_py_attr_wrap(o->keeper, nc_location_get_attr(ctx, o->loc)) : NULL;
}

static PyObject *Location_context(LocationObject *o, void *u) {
  (void)u;
  PyObject *c = nc_py_keeper_context_object(o->keeper);
  if (!c) Py_RETURN_NONE;
  Py_INCREF(c);
  return c;
}

/* `with loc:` stacks per thread, in the thread state's dict. */
static PyObject *location_stack(void) {
  PyObject *d = PyThreadState_GetDict();
  if (!d) { PyErr_SetString(PyExc_RuntimeError, "no thread state"); return NULL; }
  PyObject *s = PyDict_GetItemString(d, "nc.ir.Location.stack");
  if (s) return s;
  s = PyList_New(0);
  if (!s || PyDict_SetItemString(d, "nc.ir.Location.stack", s) < 0) { Py_XDECREF(s); return NULL; }
  Py_DECREF(s); /* the dict holds it */
  return s;
}

PyObject *nc_py_location_current(void) {
  PyObject *s = location_stack();
  if (!s) { PyErr_Clear(); return NULL; }
  Py_ssize_t n = PyList_GET_SIZE(s);
  return n ? PyList_GET_ITEM(s, n - 1) : NULL;
}

static PyObject *Location_enter(PyObject *self, PyObject *unused) {
  (void)unused;
  PyObject *s = location_stack();
  if (!s || PyList_Append(s, self) < 0) return NULL;
  Py_INCREF(self);
  return self;
}

static PyObject *Location_exit(PyObject *self, PyObject *args) {
  (void)args;
  PyObject *s = location_stack();
  if (!s) return NULL;
  Py_ssize_t n = PyList_GET_SIZE(s);
  if (n == 0 || PyList_GET_ITEM(s, n - 1) != self) {
    PyErr_SetString(PyExc_RuntimeError, "Location contexts exited out of order");
    return NULL;
  }
  if (PyList_SetSlice(s, n - 1, n, NULL) < 0) return NULL;
  Py_RETURN_FALSE;
}

static PyObject *Location_current(PyObject *cls, PyObject *unused) {
  (void)cls, (void)unused;
  PyObject *c = nc_py_location_current();
  if (!c) Py_RETURN_NONE;
  Py_INCREF(c);
  return c;
}

static PyMethodDef Location_methods[] = {
  {"unknown", (PyCFunction)(void (*)(void))Location_unknown, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "unknown($type, context)\n--\n\nThe unknown location."},
  {"file", (PyCFunction)(void (*)(void))Location_file, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "file($type, filename, line, col, context)\n--\n\nloc(\"filename\":line:col)."},
  {"name", (PyCFunction)(void (*)(void))Location_name, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "name($type, name, context, child=None)\n--\n\nloc(\"name\"(child))."},
  {"callsite", (PyCFunction)(void (*)(void))Location_callsite, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "callsite($type, callee, caller)\n--\n\nloc(callsite(callee at caller))."},
  {"fused", (PyCFunction)(void (*)(void))Location_fused, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "fused($type, locations, context, metadata=None)\n--\n\nloc(fused<metadata>[locations]) (canonical as in MLIR: "
   "unknown ones dropped, a single one gives itself)."},
  {"current", (PyCFunction)Location_current, METH_NOARGS | METH_CLASS,
   "current($type)\n--\n\nThe location of the innermost `with location:` block of this thread, or None."},
  {"__enter__", (PyCFunction)Location_enter, METH_NOARGS,
   "Makes this the location of the ops built in the `with` block (nc.dialects op classes)."},
  {"__exit__", (PyCFunction)Location_exit, METH_VARARGS, "Restores the enclosing location."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Location_getset[] = {
  {"filename", (getter)Location_filename, NULL, "File of the first file:line:col in the location, or None.", NULL},
  {"line", (getter)Location_line, NULL, "Its line, or None.", NULL},
  {"col", (getter)Location_col, NULL, "Its column, or None.", NULL},
  {"is_unknown", (getter)Location_is_unknown, NULL, "True for the unknown location.", NULL},
  {"attribute", (getter)Location_attribute, NULL, "The location as an Attribute.", NULL},
  {"context", (getter)Location_context, NULL, "The Context (None inside a Python pass).", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LocationType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc.ir.Location",
  .tp_basicsize = sizeof(LocationObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A source location; str() is its IR text (loc(\"file\":line:col)). Usable as a context manager: "
            "ops built inside `with loc:` get it.",
  .tp_dealloc = (destructor)Location_dealloc,
  .tp_str = (reprfunc)Location_str,
  .tp_repr = (reprfunc)Location_repr,
  .tp_hash = (hashfunc)Location_hash,
  .tp_richcompare = Location_richcompare,
  .tp_methods = Location_methods,
  .tp_getset = Location_getset,
};

int nc_py_ir_locations_init(PyObject *module) {
  if (PyType_Ready(&LocationType) < 0) return -1;
  Py_INCREF(&LocationType);
  if (PyModule_AddObject(module, "Location", (PyObject *)&LocationType) < 0) {
    Py_DECREF(&LocationType);
    return -1;
  }
  return 0;
}
