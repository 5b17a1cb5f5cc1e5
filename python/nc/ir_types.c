/* ir_types.c: nc.ir.Type and nc.ir.Attribute (locations: ir_locations.c). Types and
 * attributes are uniqued by their context, so an object here is just the
 * C handle plus a reference to the context's keeper (bindings.h): equality
 * is identity of the handle, and the handle cannot outlive its context.
 * Their parameters (shape, element type, integer value, dense data, ...)
 * come back as Python values, so Python code never parses IR text. A Type
 * also equals its text, as Value.type returned text before Type existed. */
#include "bindings.h"

#include <stdlib.h>
#include <string.h>

/* --- shared ----------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  PyObject *keeper;
  void *handle;   /* nc_type * or nc_attr * */
  Py_hash_t hash; /* Type: hash of the text, -1 until computed */
} HandleObject;

static PyTypeObject TypeType, AttributeType;

static PyObject *wrap_handle(PyTypeObject *cls, PyObject *keeper, void *handle) {
  if (!handle) Py_RETURN_NONE;
  HandleObject *o = PyObject_New(HandleObject, cls);
  if (!o) return NULL;
  Py_INCREF(keeper);
  o->keeper = keeper;
  o->handle = handle;
  o->hash = -1;
  return (PyObject *)o;
}

static void Handle_dealloc(HandleObject *o) {
  Py_XDECREF(o->keeper);
  PyObject_Free(o);
}

/* The handle if its context is still alive (a pass view's types die with the pass). */
static void *handle_get(HandleObject *o) { return nc_py_keeper_context(o->keeper) ? o->handle : NULL; }

static PyObject *Handle_context(HandleObject *o, void *unused) {
  (void)unused;
  PyObject *c = nc_py_keeper_context_object(o->keeper);
  if (!c) Py_RETURN_NONE;
  Py_INCREF(c);
  return c;
}

static PyObject *string_result(char *s) {
  if (!s) return PyErr_NoMemory();
  PyObject *r = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
  free(s);
  return r;
}

/* parse(text, context) for Type and Attribute. */
static PyObject *parse_handle(PyTypeObject *cls, PyObject *args, PyObject *kw, bool is_type) {
  static char *kwlist[] = {"text", "context", NULL};
  const char *text;
  PyObject *context;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sO", kwlist, &text, &context)) return NULL;
  nc_context *ctx = nc_py_context_get(context);
  if (!ctx) return NULL;
  void *h = is_type ? (void *)nc_parse_type(ctx, text) : (void *)nc_parse_attr(ctx, text);
  if (!h) return nc_py_raise_diagnostics(context, is_type ? "invalid type" : "invalid attribute");
  nc_py_clear_diagnostics(context);
  return wrap_handle(cls, context, h);
}

/* --- Type ------------------------------------------------------------------------ */

PyObject *nc_py_type_wrap(PyObject *keeper, nc_type *t) { return wrap_handle(&TypeType, keeper, t); }

static nc_type *type_get(PyObject *o) { return handle_get((HandleObject *)o); }

nc_type *nc_py_type_from(PyObject *o, nc_context *ctx, PyObject *context) {
  if (PyObject_TypeCheck(o, &TypeType)) {
    nc_type *t = type_get(o);
    if (t && nc_type_get_context(t) != ctx) {
      PyErr_SetString(PyExc_ValueError, "the type belongs to another context");
      return NULL;
    }
    return t;
  }
  if (PyUnicode_Check(o)) {
    const char *text = PyUnicode_AsUTF8(o);
    if (!text) return NULL;
    nc_type *t = nc_parse_type(ctx, text);
    if (!t) nc_py_raise_diagnostics(context, "invalid type");
    return t;
  }
  PyErr_Format(PyExc_TypeError, "expected a Type (or type text), got %s", Py_TYPE(o)->tp_name);
  return NULL;
}

static PyObject *Type_parse(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  return parse_handle(cls, args, kw, true);
}

static PyObject *Type_str(HandleObject *o) {
  nc_type *t = handle_get(o);
  return t ? string_result(nc_type_to_string(t)) : NULL;
}

static PyObject *Type_repr(HandleObject *o) {
  PyObject *s = Type_str(o);
  if (!s) return NULL;
  PyObject *r = PyUnicode_FromFormat("Type(%U)", s);
  Py_DECREF(s);
  return r;
}

static Py_hash_t Type_hash(HandleObject *o) {
  if (o->hash != -1) return o->hash;
  PyObject *s = Type_str(o);
  if (!s) return -1;
  o->hash = PyObject_Hash(s); /* consistent with equality to the text */
  Py_DECREF(s);
  return o->hash;
}

static PyObject *Type_richcompare(PyObject *a, PyObject *b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  nc_type *ta = type_get(a);
  if (!ta) return NULL;
  int eq;
  if (PyObject_TypeCheck(b, &TypeType)) {
    nc_type *tb = type_get(b);
    if (!tb) return NULL;
    eq = ta == tb;
  } else if (PyUnicode_Check(b)) {
    PyObject *s = Type_str((HandleObject *)a);
    if (!s) return NULL;
    eq = PyUnicode_Compare(s, b) == 0;
    Py_DECREF(s);
  } else {
    Py_RETURN_NOTIMPLEMENTED;
  }
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static const char *const type_kind_names[] = {
  [NC_TYPE_INTEGER] = "integer", [NC_TYPE_INDEX] = "index", [NC_TYPE_F16] = "f16", [NC_TYPE_BF16] = "bf16",
  [NC_TYPE_F32] = "f32", [NC_TYPE_F64] = "f64", [NC_TYPE_NONE] = "none", [NC_TYPE_FUNCTION] = "function",
  [NC_TYPE_TENSOR] = "tensor", [NC_TYPE_UNRANKED_TENSOR] = "unranked_tensor", [NC_TYPE_MEMREF] = "memref",
  [NC_TYPE_UNRANKED_MEMREF] = "unranked_memref", [NC_TYPE_VECTOR] = "vector", [NC_TYPE_TUPLE] = "tuple",
  [NC_TYPE_COMPLEX] = "complex", [NC_TYPE_OPAQUE] = "opaque", [NC_TYPE_DIALECT] = "dialect",
};

static PyObject *Type_kind(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  return t ? PyUnicode_FromString(type_kind_names[nc_type_get_kind(t)]) : NULL;
}

static PyObject *Type_is_integer(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  return t ? PyBool_FromLong(nc_type_is_integer(t)) : NULL;
}

static PyObject *Type_is_float(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  return t ? PyBool_FromLong(nc_type_is_float(t)) : NULL;
}

static PyObject *Type_is_shaped(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  return t ? PyBool_FromLong(nc_type_is_shaped(t)) : NULL;
}

static PyObject *Type_width(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  if (!t) return NULL;
  if (!nc_type_is_integer(t) && !nc_type_is_float(t) && !nc_type_is_index(t)) {
    PyErr_Format(PyExc_TypeError, "width: %s is not an integer, index or float type",
                 type_kind_names[nc_type_get_kind(t)]);
    return NULL;
  }
  return PyLong_FromUnsignedLong(nc_type_get_width(t));
}

static PyObject *Type_signedness(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  if (!t) return NULL;
  if (!nc_type_is_integer(t)) {
    PyErr_SetString(PyExc_TypeError, "signedness: not an integer type");
    return NULL;
  }
  static const char *const names[] = {"signless", "signed", "unsigned"};
  return PyUnicode_FromString(names[nc_type_get_signedness(t)]);
}

/* The type if it is shaped and ranked (TypeError otherwise). */
static nc_type *ranked(HandleObject *o, const char *what) {
  nc_type *t = handle_get(o);
  if (t && (!nc_type_is_shaped(t) || !nc_type_has_rank(t))) {
    PyErr_Format(PyExc_TypeError, "%s: %s is not a ranked shaped type", what, type_kind_names[nc_type_get_kind(t)]);
    return NULL;
  }
  return t;
}

static PyObject *Type_rank(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = ranked(o, "rank");
  return t ? PyLong_FromSize_t(nc_type_get_rank(t)) : NULL;
}

/* The shape as a tuple, None for dynamic dims. */
static PyObject *Type_shape(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = ranked(o, "shape");
  if (!t) return NULL;
  size_t rank = nc_type_get_rank(t);
  const int64_t *shape = nc_type_get_shape(t);
  PyObject *r = PyTuple_New((Py_ssize_t)rank);
  for (size_t i = 0; r && i < rank; i++) {
    PyObject *d = shape[i] == NC_DYNAMIC ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLongLong(shape[i]);
    if (!d) { Py_CLEAR(r); break; }
    PyTuple_SET_ITEM(r, (Py_ssize_t)i, d);
  }
  return r;
}

static PyObject *Type_has_static_shape(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  return t ? PyBool_FromLong(nc_type_is_shaped(t) && nc_type_has_static_shape(t)) : NULL;
}

static PyObject *Type_num_elements(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = ranked(o, "num_elements");
  if (!t) return NULL;
  int64_t n = nc_type_get_num_elements(t);
  if (n < 0) Py_RETURN_NONE;
  return PyLong_FromLongLong(n);
}

static PyObject *Type_element_type(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  if (!t) return NULL;
  if (!nc_type_is_shaped(t) && nc_type_get_kind(t) != NC_TYPE_COMPLEX) {
    PyErr_Format(PyExc_TypeError, "element_type: %s is not a shaped or complex type",
                 type_kind_names[nc_type_get_kind(t)]);
    return NULL;
  }
  return nc_py_type_wrap(o->keeper, nc_type_get_element_type(t));
}

static PyObject *type_list(HandleObject *o, size_t n, nc_type *(*get)(const nc_type *, size_t), nc_type *t) {
  PyObject *r = PyTuple_New((Py_ssize_t)n);
  for (size_t i = 0; r && i < n; i++) {
    PyObject *e = nc_py_type_wrap(o->keeper, get(t, i));
    if (!e) { Py_CLEAR(r); break; }
    PyTuple_SET_ITEM(r, (Py_ssize_t)i, e);
  }
  return r;
}

static nc_type *function_type(HandleObject *o, const char *what) {
  nc_type *t = handle_get(o);
  if (t && nc_type_get_kind(t) != NC_TYPE_FUNCTION) {
    PyErr_Format(PyExc_TypeError, "%s: not a function type", what);
    return NULL;
  }
  return t;
}

static PyObject *Type_inputs(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = function_type(o, "inputs");
  return t ? type_list(o, nc_type_get_num_inputs(t), nc_type_get_input, t) : NULL;
}

static PyObject *Type_results(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = function_type(o, "results");
  return t ? type_list(o, nc_type_get_num_results(t), nc_type_get_result, t) : NULL;
}

static PyObject *Type_types(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  if (!t) return NULL;
  if (nc_type_get_kind(t) != NC_TYPE_TUPLE) {
    PyErr_SetString(PyExc_TypeError, "types: not a tuple type");
    return NULL;
  }
  return type_list(o, nc_type_get_num_tuple_types(t), nc_type_get_tuple_type, t);
}

static PyObject *Type_dialect(HandleObject *o, void *unused) {
  (void)unused;
  nc_type *t = handle_get(o);
  if (!t) return NULL;
  if (nc_type_get_kind(t) != NC_TYPE_OPAQUE && nc_type_get_kind(t) != NC_TYPE_DIALECT) Py_RETURN_NONE;
  nc_ident *d = nc_type_get_dialect(t);
  return PyUnicode_FromStringAndSize(nc_ident_str(d), (Py_ssize_t)nc_ident_len(d));
}

/* Type.tensor(shape, element_type): a ranked tensor type (None: dynamic dim). */
static PyObject *Type_tensor(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"shape", "element_type", NULL};
  PyObject *shape_obj, *elt_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!", kwlist, &shape_obj, &TypeType, &elt_obj)) return NULL;
  nc_type *elt = type_get(elt_obj);
  if (!elt) return NULL;
  PyObject *seq = PySequence_Fast(shape_obj, "tensor: shape must be a sequence of ints (None: dynamic)");
  if (!seq) return NULL;
  Py_ssize_t rank = PySequence_Fast_GET_SIZE(seq);
  int64_t shape[NC_MAX_RANK];
  PyObject *r = NULL;
  if (rank > NC_MAX_RANK) { PyErr_SetString(PyExc_ValueError, "tensor: rank too large"); goto done; }
  for (Py_ssize_t i = 0; i < rank; i++) {
    PyObject *d = PySequence_Fast_GET_ITEM(seq, i);
    if (d == Py_None) { shape[i] = NC_DYNAMIC; continue; }
    if (!PyLong_Check(d)) { PyErr_SetString(PyExc_TypeError, "tensor: dims are ints or None"); goto done; }
    shape[i] = PyLong_AsLongLong(d);
    if (PyErr_Occurred()) goto done;
    if (shape[i] < 0) { PyErr_SetString(PyExc_ValueError, "tensor: negative dim"); goto done; }
  }
  nc_type *t = nc_type_tensor(nc_type_get_context(elt), (size_t)rank, shape, elt, NULL);
  if (!t) PyErr_SetString(PyExc_ValueError, "tensor: invalid shape or element type");
  else r = wrap_handle(cls, ((HandleObject *)elt_obj)->keeper, t);
done:
  Py_DECREF(seq);
  return r;
}

/* Type.integer(width, context, signedness='signless'). */
static PyObject *Type_integer(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"width", "context", "signedness", NULL};
  unsigned width;
  PyObject *context;
  const char *sign = "signless";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "IO|s", kwlist, &width, &context, &sign)) return NULL;
  nc_context *ctx = nc_py_context_get(context);
  if (!ctx) return NULL;
  nc_signedness s = NC_SIGNLESS;
  if (!strcmp(sign, "signed")) s = NC_SIGNED;
  else if (!strcmp(sign, "unsigned")) s = NC_UNSIGNED;
  else if (strcmp(sign, "signless")) {
    PyErr_Format(PyExc_ValueError, "integer: signedness is 'signless', 'signed' or 'unsigned', not '%s'", sign);
    return NULL;
  }
  nc_type *t = nc_type_integer(ctx, width, s);
  if (!t) {
    PyErr_Format(PyExc_ValueError, "integer: width %u is not in 1..%d", width, NC_MAX_INT_WIDTH);
    return NULL;
  }
  return wrap_handle(cls, context, t);
}

static PyMethodDef Type_methods[] = {
  {"parse", (PyCFunction)(void (*)(void))Type_parse, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "parse($type, text, context)\n--\n\nThe type written as `text` (e.g. 'tensor<1x3xf32>'); raises nc.DiagnosticError."},
  {"tensor", (PyCFunction)(void (*)(void))Type_tensor, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "tensor($type, shape, element_type)\n--\n\nA ranked tensor type; None in `shape` is a dynamic dim."},
  {"integer", (PyCFunction)(void (*)(void))Type_integer, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "integer($type, width, context, signedness='signless')\n--\n\nAn integer type (signedness: 'signless', "
   "'signed', 'unsigned')."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Type_getset[] = {
  {"context", (getter)Handle_context, NULL, "The Context (None inside a Python pass).", NULL},
  {"kind", (getter)Type_kind, NULL, "'integer', 'index', 'f32', ..., 'tensor', 'memref', 'function', ...", NULL},
  {"is_integer", (getter)Type_is_integer, NULL, "True for integer types (not index).", NULL},
  {"is_float", (getter)Type_is_float, NULL, "True for f16, bf16, f32, f64.", NULL},
  {"is_shaped", (getter)Type_is_shaped, NULL, "True for tensors, memrefs and vectors.", NULL},
  {"width", (getter)Type_width, NULL, "Bit width of an integer or float type (64 for index).", NULL},
  {"signedness", (getter)Type_signedness, NULL, "'signless', 'signed' or 'unsigned' (integers).", NULL},
  {"rank", (getter)Type_rank, NULL, "Rank of a ranked shaped type.", NULL},
  {"shape", (getter)Type_shape, NULL, "Dims of a ranked shaped type, a tuple (None: dynamic).", NULL},
  {"has_static_shape", (getter)Type_has_static_shape, NULL, "True if ranked with no dynamic dim.", NULL},
  {"num_elements", (getter)Type_num_elements, NULL, "Number of elements (None unless the shape is static).", NULL},
  {"element_type", (getter)Type_element_type, NULL, "Element type of a shaped or complex type.", NULL},
  {"inputs", (getter)Type_inputs, NULL, "Input types of a function type.", NULL},
  {"results", (getter)Type_results, NULL, "Result types of a function type.", NULL},
  {"types", (getter)Type_types, NULL, "Element types of a tuple type.", NULL},
  {"dialect", (getter)Type_dialect, NULL, "Dialect of a dialect type, else None.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TypeType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc.ir.Type",
  .tp_basicsize = sizeof(HandleObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A type, uniqued by its context: equal types are the same C handle. A Type also equals its "
            "text (str), and hashes like it.",
  .tp_dealloc = (destructor)Handle_dealloc,
  .tp_str = (reprfunc)Type_str,
  .tp_repr = (reprfunc)Type_repr,
  .tp_hash = (hashfunc)Type_hash,
  .tp_richcompare = Type_richcompare,
  .tp_methods = Type_methods,
  .tp_getset = Type_getset,
};

/* --- Attribute ------------------------------------------------------------------- */

PyObject *nc_py_attr_wrap(PyObject *keeper, nc_attr *a) { return wrap_handle(&AttributeType, keeper, a); }

static nc_attr *attr_get(PyObject *o) { return handle_get((HandleObject *)o); }

bool nc_py_is_attr(PyObject *o) { return PyObject_TypeCheck(o, &AttributeType); }

static nc_attr *attr_from_list(PyObject *o, nc_context *ctx, PyObject *context) {
  PyObject *seq = PySequence_Fast(o, "expected a list");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  bool all_ints = true;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *e = PySequence_Fast_GET_ITEM(seq, i);
    all_ints &= PyLong_Check(e) && !PyBool_Check(e);
  }
  nc_attr *r = NULL;
  if (all_ints && n > 0) { /* array<i64: ...>, as nc.dialects.attribute_text */
    int64_t *vals = PyMem_Calloc((size_t)n, sizeof *vals);
    if (!vals) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) vals[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    if (!PyErr_Occurred()) r = nc_attr_dense_i64_array(ctx, (size_t)n, vals);
    PyMem_Free(vals);
  } else {
    nc_attr **elts = PyMem_Calloc((size_t)n + 1, sizeof *elts);
    if (!elts) { PyErr_NoMemory(); goto done; }
    Py_ssize_t i = 0;
    for (; i < n; i++)
      if (!(elts[i] = nc_py_attr_from(PySequence_Fast_GET_ITEM(seq, i), ctx, context, false))) break;
    if (i == n) r = nc_attr_array(ctx, (size_t)n, elts);
    PyMem_Free(elts);
  }
done:
  Py_DECREF(seq);
  return r;
}

static nc_attr *attr_from_dict(PyObject *o, nc_context *ctx, PyObject *context) {
  Py_ssize_t n = PyDict_Size(o), pos = 0, i = 0;
  nc_named_attr *entries = PyMem_Calloc((size_t)n + 1, sizeof *entries);
  if (!entries) return (nc_attr *)PyErr_NoMemory();
  PyObject *key, *val;
  nc_attr *r = NULL;
  while (PyDict_Next(o, &pos, &key, &val)) {
    const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!name) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "dictionary attribute keys must be str");
      goto done;
    }
    entries[i].name = nc_ident_get_cstr(ctx, name);
    if (!(entries[i++].value = nc_py_attr_from(val, ctx, context, false))) goto done;
  }
  r = nc_attr_dictionary(ctx, (size_t)n, entries);
done:
  PyMem_Free(entries);
  return r;
}

/* dense<...> from a NumPy array (its bytes, in the matching element type). */
static nc_attr *attr_from_array(PyObject *o, nc_context *ctx) {
  PyObject *np = PyImport_ImportModule("numpy");
  PyObject *asarray = np ? PyObject_GetAttrString(np, "asarray") : NULL;
  PyObject *pos = asarray ? PyTuple_Pack(1, o) : NULL, *kw = pos ? Py_BuildValue("{ss}", "order", "C") : NULL;
  PyObject *arr = kw ? PyObject_Call(asarray, pos, kw) : NULL; /* ascontiguousarray makes 0-d arrays 1-d */
  Py_XDECREF(kw);
  Py_XDECREF(pos);
  Py_XDECREF(asarray);
  Py_XDECREF(np);
  if (!arr) return NULL;
  Py_buffer view;
  if (PyObject_GetBuffer(arr, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) { Py_DECREF(arr); return NULL; }
  const char *f = view.format ? view.format : "B";
  while (*f == '@' || *f == '=' || *f == '<') f++;
  nc_type *elt = NULL;
  bool one = f[0] && !f[1];
  if (one && (*f == 'f' || *f == 'd' || *f == 'e'))
    elt = *f == 'f' ? nc_type_f32(ctx) : *f == 'd' ? nc_type_f64(ctx) : nc_type_f16(ctx);
  else if (one && *f == '?') elt = nc_type_integer(ctx, 1, NC_SIGNLESS);
  else if (one && strchr("bhilq", *f)) elt = nc_type_integer(ctx, 8 * (unsigned)view.itemsize, NC_SIGNLESS);
  else if (one && strchr("BHILQ", *f)) elt = nc_type_integer(ctx, 8 * (unsigned)view.itemsize, NC_UNSIGNED);
  nc_attr *a = NULL;
  if (!elt) PyErr_Format(PyExc_TypeError, "no nc element type for NumPy arrays of format '%s'", view.format);
  else if (view.ndim > NC_MAX_RANK) PyErr_SetString(PyExc_ValueError, "the array's rank is too large");
  else {
    int64_t shape[NC_MAX_RANK];
    for (int i = 0; i < view.ndim; i++) shape[i] = view.shape[i];
    nc_type *t = nc_type_tensor(ctx, (size_t)view.ndim, shape, elt, NULL);
    a = t ? nc_attr_dense_elements(ctx, t, view.buf, (size_t)view.len) : NULL;
    if (!a) PyErr_SetString(PyExc_ValueError, "cannot make a dense attribute of the array");
  }
  PyBuffer_Release(&view);
  Py_DECREF(arr);
  return a;
}

nc_attr *nc_py_attr_from(PyObject *o, nc_context *ctx, PyObject *context, bool text_is_ir) {
  if (PyObject_TypeCheck(o, &AttributeType)) {
    nc_attr *a = attr_get(o);
    if (a && nc_attr_get_context(a) != ctx) {
      PyErr_SetString(PyExc_ValueError, "the attribute belongs to another context");
      return NULL;
    }
    return a;
  }
  if (PyObject_TypeCheck(o, &TypeType)) {
    nc_type *t = nc_py_type_from(o, ctx, context);
    return t ? nc_attr_type(ctx, t) : NULL;
  }
  if (PyBool_Check(o)) return nc_attr_bool(ctx, o == Py_True);
  if (PyLong_Check(o)) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) return NULL;
    return nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), v);
  }
  if (PyFloat_Check(o)) return nc_attr_float(ctx, nc_type_f32(ctx), PyFloat_AS_DOUBLE(o));
  if (PyUnicode_Check(o)) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (!s) return NULL;
    if (!text_is_ir) return nc_attr_string(ctx, s, (size_t)len);
    nc_attr *a = nc_parse_attr(ctx, s);
    if (!a) nc_py_raise_diagnostics(context, "invalid attribute");
    return a;
  }
  if (PyList_Check(o) || PyTuple_Check(o)) return attr_from_list(o, ctx, context);
  if (!PyBytes_Check(o) && PyObject_HasAttrString(o, "__array_interface__")) return attr_from_array(o, ctx);
  if (PyDict_Check(o)) return attr_from_dict(o, ctx, context);
  PyErr_Format(PyExc_TypeError, "cannot convert %s to an attribute", Py_TYPE(o)->tp_name);
  return NULL;
}

static PyObject *Attribute_parse(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  return parse_handle(cls, args, kw, false);
}

/* Attribute.get(value, context): an attribute from a Python value. */
static PyObject *Attribute_get(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"value", "context", NULL};
  PyObject *value, *context;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO", kwlist, &value, &context)) return NULL;
  nc_context *ctx = nc_py_context_get(context);
  if (!ctx) return NULL;
  nc_attr *a = nc_py_attr_from(value, ctx, context, false);
  return a ? wrap_handle(cls, context, a) : NULL;
}

static PyObject *Attribute_str(HandleObject *o) {
  nc_attr *a = handle_get(o);
  return a ? string_result(nc_attr_to_string(a)) : NULL;
}

static PyObject *Attribute_repr(HandleObject *o) {
  PyObject *s = Attribute_str(o);
  if (!s) return NULL;
  PyObject *r = PyUnicode_FromFormat("Attribute(%U)", s);
  Py_DECREF(s);
  return r;
}

static Py_hash_t Attribute_hash(HandleObject *o) {
  return handle_get(o) ? _Py_HashPointer(o->handle) : -1;
}

static PyObject *Attribute_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &AttributeType)) Py_RETURN_NOTIMPLEMENTED;
  nc_attr *x = attr_get(a), *y = x ? attr_get(b) : NULL;
  if (!y) return NULL;
  return PyBool_FromLong(op == Py_EQ ? x == y : x != y);
}

static const char *const attr_kind_names[] = {
  [NC_ATTR_INTEGER] = "integer", [NC_ATTR_FLOAT] = "float", [NC_ATTR_STRING] = "string", [NC_ATTR_UNIT] = "unit",
  [NC_ATTR_ARRAY] = "array", [NC_ATTR_DENSE_ARRAY] = "dense_array", [NC_ATTR_DICTIONARY] = "dictionary",
  [NC_ATTR_TYPE] = "type", [NC_ATTR_SYMBOL_REF] = "symbol_ref", [NC_ATTR_DENSE_ELEMENTS] = "dense_elements",
  [NC_ATTR_DENSE_RESOURCE] = "dense_resource", [NC_ATTR_OPAQUE] = "opaque", [NC_ATTR_BUILTIN_OPAQUE] = "builtin_opaque",
  [NC_ATTR_DIALECT] = "dialect", [NC_ATTR_LOC_UNKNOWN] = "location", [NC_ATTR_LOC_FILE] = "location",
  [NC_ATTR_LOC_NAME] = "location", [NC_ATTR_LOC_CALLSITE] = "location", [NC_ATTR_LOC_FUSED] = "location",
};

static PyObject *Attribute_kind(HandleObject *o, void *unused) {
  (void)unused;
  nc_attr *a = handle_get(o);
  return a ? PyUnicode_FromString(attr_kind_names[nc_attr_get_kind(a)]) : NULL;
}

static PyObject *Attribute_type(HandleObject *o, void *unused) {
  (void)unused;
  nc_attr *a = handle_get(o);
  return a ? nc_py_type_wrap(o->keeper, nc_attr_get_type(a)) : NULL;
}

/* The numpy dtype name for elements of `elt` (float16 only when exact). */
static const char *dtype_name(nc_type *elt) {
  unsigned width = nc_type_get_width(elt);
  if (nc_type_is_float(elt))
    return nc_type_get_kind(elt) == NC_TYPE_F16 ? "float16" : width == 64 ? "float64" : "float32";
  if (width == 1) return "bool";
  if (nc_type_is_integer(elt) && nc_type_get_signedness(elt) == NC_UNSIGNED)
    return width <= 8 ? "uint8" : width <= 16 ? "uint16" : width <= 32 ? "uint32" : "uint64";
  return width <= 8 ? "int8" : width <= 16 ? "int16" : width <= 32 ? "int32" : "int64";
}

/* `flat` (a 1-d numpy array, stolen) reshaped to the static shape of `t`. */
static PyObject *reshaped(PyObject *flat, nc_type *t) {
  size_t rank = nc_type_get_rank(t);
  const int64_t *shape = nc_type_get_shape(t);
  PyObject *shp = flat ? PyTuple_New((Py_ssize_t)rank) : NULL, *arr = NULL;
  for (size_t i = 0; shp && i < rank; i++) {
    PyObject *d = PyLong_FromLongLong(shape[i]);
    if (!d) { Py_CLEAR(shp); break; }
    PyTuple_SET_ITEM(shp, (Py_ssize_t)i, d);
  }
  PyObject *reshape = shp ? PyObject_GetAttrString(flat, "reshape") : NULL;
  if (reshape) arr = PyObject_CallOneArg(reshape, shp); /* one tuple argument, also for rank 0 */
  Py_XDECREF(reshape);
  Py_XDECREF(shp);
  Py_XDECREF(flat);
  return arr;
}

/* numpy.ndarray (a copy) of a dense elements or dense_resource attribute,
 * in the element type's dtype. */
static PyObject *dense_value(nc_attr *a) {
  nc_type *t = nc_attr_get_type(a), *elt = nc_type_get_element_type(t);
  if (!nc_type_has_static_shape(t)) { PyErr_SetString(PyExc_ValueError, "dense: the shape is not static"); return NULL; }
  int64_t n = nc_type_get_num_elements(t);
  const char *dtype = dtype_name(elt);
  PyObject *np = PyImport_ImportModule("numpy"), *flat = NULL;
  if (!np) return NULL;
  if (nc_attr_get_kind(a) == NC_ATTR_DENSE_RESOURCE) { /* a blob: the elements as stored */
    nc_resource *r = nc_attr_dense_resource_get(a);
    const void *data = nc_resource_get_data(r);
    size_t size = nc_resource_get_size(r), width = nc_type_get_width(elt);
    bool exact = nc_type_get_kind(elt) != NC_TYPE_BF16 && (width == 1 || width % 8 == 0);
    if (!data || !exact || size != (size_t)n * nc_dense_element_size(elt)) {
      PyErr_Format(PyExc_ValueError, "dense_resource<%s>: %s", nc_ident_str(nc_resource_get_name(r)),
                   !data ? "the resource has no data" : !exact ? "no numpy dtype holds its elements"
                   : "its size does not match its type");
    } else {
      PyObject *bytes = PyBytes_FromStringAndSize(data, (Py_ssize_t)size);
      if (bytes) flat = PyObject_CallMethod(np, "frombuffer", "Os", bytes, dtype);
      Py_XDECREF(bytes);
      if (flat) Py_SETREF(flat, PyObject_CallMethod(flat, "copy", NULL)); /* writable, owns its data */
    }
  } else { /* element by element: handles splats and sub-byte types */
    bool is_float = nc_type_is_float(elt);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (int64_t i = 0; list && i < n; i++) {
      PyObject *e = is_float ? PyFloat_FromDouble(nc_attr_dense_get_float(a, i))
                             : PyLong_FromLongLong(nc_attr_dense_get_int(a, i));
      if (!e) { Py_CLEAR(list); break; }
      PyList_SET_ITEM(list, (Py_ssize_t)i, e);
    }
    if (list) flat = PyObject_CallMethod(np, "array", "Os", list, dtype);
    Py_XDECREF(list);
  }
  Py_DECREF(np);
  return flat ? reshaped(flat, t) : NULL;
}

static PyObject *attr_value(PyObject *keeper, nc_attr *a);

static PyObject *Attribute_value(HandleObject *o, void *unused) {
  (void)unused;
  nc_attr *a = handle_get(o);
  return a ? attr_value(o->keeper, a) : NULL;
}

/* The Python value of an attribute: int (bool for i1), float, str, True
 * (unit), list, dict, Type, numpy array (dense elements), '@a::@b'. */
static PyObject *attr_value(PyObject *keeper, nc_attr *a) {
  switch (nc_attr_get_kind(a)) {
  case NC_ATTR_INTEGER:
    if (nc_type_is_integer_of_width(nc_attr_get_type(a), 1)) return PyBool_FromLong(nc_attr_get_int(a) != 0);
    if (nc_type_is_integer(nc_attr_get_type(a)) && nc_type_get_signedness(nc_attr_get_type(a)) == NC_UNSIGNED)
      return PyLong_FromUnsignedLongLong((uint64_t)nc_attr_get_int(a));
    return PyLong_FromLongLong(nc_attr_get_int(a));
  case NC_ATTR_FLOAT: return PyFloat_FromDouble(nc_attr_get_float(a));
  case NC_ATTR_STRING: {
    size_t len;
    const char *s = nc_attr_get_string(a, &len);
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogateescape");
  }
  case NC_ATTR_UNIT: Py_RETURN_TRUE;
  case NC_ATTR_ARRAY:
  case NC_ATTR_DENSE_ARRAY: {
    size_t n = nc_attr_get_num_elements(a);
    bool dense = nc_attr_get_kind(a) == NC_ATTR_DENSE_ARRAY, fl = dense && nc_type_is_float(nc_attr_get_type(a));
    bool boolean = dense && nc_type_is_integer_of_width(nc_attr_get_type(a), 1);
    PyObject *r = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; r && i < n; i++) {
      PyObject *e = !dense ? attr_value(keeper, nc_attr_get_element(a, i))
                  : fl ? PyFloat_FromDouble(nc_attr_dense_array_get_float(a, i))
                  : boolean ? PyBool_FromLong(nc_attr_dense_array_get_int(a, i) != 0)
                  : PyLong_FromLongLong(nc_attr_dense_array_get_int(a, i));
      if (!e) { Py_CLEAR(r); break; }
      PyList_SET_ITEM(r, (Py_ssize_t)i, e);
    }
    return r;
  }
  case NC_ATTR_DICTIONARY: {
    PyObject *r = PyDict_New();
    for (size_t i = 0; r && i < nc_attr_get_num_elements(a); i++) {
      nc_named_attr e = nc_attr_get_entry(a, i);
      PyObject *v = attr_value(keeper, e.value);
      if (!v || PyDict_SetItemString(r, nc_ident_str(e.name), v) < 0) Py_CLEAR(r);
      Py_XDECREF(v);
    }
    return r;
  }
  case NC_ATTR_TYPE: return nc_py_type_wrap(keeper, nc_attr_get_type_value(a));
  case NC_ATTR_DENSE_ELEMENTS:
  case NC_ATTR_DENSE_RESOURCE: return dense_value(a);
  case NC_ATTR_SYMBOL_REF: return string_result(nc_attr_to_string(a));
  default: {
    PyObject *text = string_result(nc_attr_to_string(a));
    if (text) PyErr_Format(PyExc_TypeError, "%s attribute %U has no Python value (use str())",
                           attr_kind_names[nc_attr_get_kind(a)], text);
    Py_XDECREF(text);
    return NULL;
  }
  }
}

static Py_ssize_t Attribute_len(HandleObject *o) {
  nc_attr *a = handle_get(o);
  if (!a) return -1;
  nc_attr_kind k = nc_attr_get_kind(a);
  if (k != NC_ATTR_ARRAY && k != NC_ATTR_DENSE_ARRAY && k != NC_ATTR_DICTIONARY) {
    PyErr_Format(PyExc_TypeError, "len: a %s attribute has no elements", attr_kind_names[k]);
    return -1;
  }
  return (Py_ssize_t)nc_attr_get_num_elements(a);
}

/* attr[i] for arrays (an Attribute; a Python number for dense arrays), attr['name'] for dictionaries. */
static PyObject *Attribute_getitem(HandleObject *o, PyObject *key) {
  nc_attr *a = handle_get(o);
  if (!a) return NULL;
  nc_attr_kind k = nc_attr_get_kind(a);
  if (k == NC_ATTR_DICTIONARY) {
    const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!name) { PyErr_SetString(PyExc_TypeError, "dictionary attributes are indexed by str"); return NULL; }
    nc_attr *v = nc_attr_dict_get_str(a, name);
    if (!v) { PyErr_SetObject(PyExc_KeyError, key); return NULL; }
    return nc_py_attr_wrap(o->keeper, v);
  }
  if (k != NC_ATTR_ARRAY && k != NC_ATTR_DENSE_ARRAY) {
    PyErr_Format(PyExc_TypeError, "a %s attribute cannot be indexed", attr_kind_names[k]);
    return NULL;
  }
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError), n = (Py_ssize_t)nc_attr_get_num_elements(a);
  if (i == -1 && PyErr_Occurred()) return NULL;
  if (i < 0) i += n;
  if (i < 0 || i >= n) { PyErr_SetString(PyExc_IndexError, "attribute index out of range"); return NULL; }
  if (k == NC_ATTR_ARRAY) return nc_py_attr_wrap(o->keeper, nc_attr_get_element(a, (size_t)i));
  if (nc_type_is_float(nc_attr_get_type(a))) return PyFloat_FromDouble(nc_attr_dense_array_get_float(a, (size_t)i));
  return PyLong_FromLongLong(nc_attr_dense_array_get_int(a, (size_t)i));
}

static PyMappingMethods Attribute_mapping = {
  .mp_length = (lenfunc)Attribute_len,
  .mp_subscript = (binaryfunc)Attribute_getitem,
};

static PyMethodDef Attribute_methods[] = {
  {"parse", (PyCFunction)(void (*)(void))Attribute_parse, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "parse($type, text, context)\n--\n\nThe attribute written as `text` (e.g. 'array<i64: 1, 2>', '3 : i32', "
   "'dense<1.0> : tensor<2xf32>'); raises nc.DiagnosticError."},
  {"get", (PyCFunction)(void (*)(void))Attribute_get, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "get($type, value, context)\n--\n\nAn attribute from a Python value: bool, int (i64), float (f32), str (string), "
   "list of ints (array<i64: ...>), other lists (arrays), dict (dictionary), Type (type attribute), NumPy "
   "array (dense<...> : tensor<...>, a copy of its elements)."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Attribute_getset[] = {
  {"context", (getter)Handle_context, NULL, "The Context (None inside a Python pass).", NULL},
  {"kind", (getter)Attribute_kind, NULL,
   "'integer', 'float', 'string', 'unit', 'array', 'dense_array', 'dictionary', 'type', 'symbol_ref', "
   "'dense_elements', 'dense_resource', 'opaque', 'builtin_opaque', 'dialect' or 'location'.", NULL},
  {"type", (getter)Attribute_type, NULL, "The Type of a typed attribute (integer, float, dense, ...), else None.",
   NULL},
  {"value", (getter)Attribute_value, NULL,
   "The Python value: int (bool for i1), float, str, True (unit), list (arrays), dict, Type, numpy.ndarray "
   "(dense elements, dense resources), '@sym' text (symbol refs); TypeError for dialect attributes.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject AttributeType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc.ir.Attribute",
  .tp_basicsize = sizeof(HandleObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "An attribute, uniqued by its context: equal attributes are the same C handle.",
  .tp_dealloc = (destructor)Handle_dealloc,
  .tp_str = (reprfunc)Attribute_str,
  .tp_repr = (reprfunc)Attribute_repr,
  .tp_hash = (hashfunc)Attribute_hash,
  .tp_richcompare = Attribute_richcompare,
  .tp_as_mapping = &Attribute_mapping,
  .tp_methods = Attribute_methods,
  .tp_getset = Attribute_getset,
};

int nc_py_ir_types_init(PyObject *module) {
  PyTypeObject *types[] = {&TypeType, &AttributeType};
  const char *names[] = {"Type", "Attribute"};
  for (int i = 0; i < 2; i++) {
    if (PyType_Ready(types[i]) < 0) return -1;
    Py_INCREF(types[i]);
    if (PyModule_AddObject(module, names[i], (PyObject *)types[i]) < 0) { Py_DECREF(types[i]); return -1; }
  }
  return 0;
}
