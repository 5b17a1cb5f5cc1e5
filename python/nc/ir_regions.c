/* ir_regions.c: the structure of nc.ir below an op: Region and Block
 * objects, op locations, attributes as typed objects, moving ops, value
 * uses and owners, and build_op, which creates an op at an insertion point
 * (what nc.ir.InsertionPoint and the generated op classes use). A Region or
 * Block holds an Operation handle of its parent op, so it is valid exactly
 * as long as that handle is (bindings.h): after the module is destroyed,
 * the op erased or a pass run, every use raises instead of dangling. */
#include "bindings.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject_HEAD
  PyObject *op; /* Operation handle of the parent op */
  void *handle; /* nc_region * or nc_block * */
} NestedObject;

static PyTypeObject RegionType, BlockType;

static PyObject *wrap_nested(PyTypeObject *cls, PyObject *op, void *handle) {
  NestedObject *o = PyObject_New(NestedObject, cls);
  if (!o) return NULL;
  Py_INCREF(op);
  o->op = op;
  o->handle = handle;
  return (PyObject *)o;
}

static void Nested_dealloc(NestedObject *o) {
  Py_XDECREF(o->op);
  PyObject_Free(o);
}

static void *nested_get(NestedObject *o) { return nc_py_operation_get(o->op) ? o->handle : NULL; }

static Py_hash_t Nested_hash(NestedObject *o) { return nested_get(o) ? _Py_HashPointer(o->handle) : -1; }

static PyObject *Nested_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || Py_TYPE(a) != Py_TYPE(b)) Py_RETURN_NOTIMPLEMENTED;
  void *x = nested_get((NestedObject *)a), *y = x ? nested_get((NestedObject *)b) : NULL;
  if (!y) return NULL;
  return PyBool_FromLong((x == y) == (op == Py_EQ));
}

static PyObject *Nested_owner(NestedObject *o, void *unused) {
  (void)unused;
  if (!nested_get(o)) return NULL;
  Py_INCREF(o->op);
  return o->op;
}

/* A Block for `b` (NULL: None), reached from an op handle of the same IR. */
static PyObject *wrap_block(PyObject *like, nc_block *b) {
  if (!b) Py_RETURN_NONE;
  nc_op *parent = nc_block_get_parent_op(b);
  PyObject *op = parent ? nc_py_operation_wrap_like(like, parent) : NULL;
  if (!op) {
    if (!parent) PyErr_SetString(PyExc_ValueError, "the block is not in a region");
    return NULL;
  }
  PyObject *r = wrap_nested(&BlockType, op, b);
  Py_DECREF(op);
  return r;
}

/* --- Region ------------------------------------------------------------------------ */

static PyObject *Region_blocks(NestedObject *o, void *unused) {
  (void)unused;
  nc_region *r = nested_get(o);
  if (!r) return NULL;
  PyObject *list = PyList_New(0);
  for (nc_block *b = nc_region_get_first_block(r); list && b; b = nc_block_get_next(b)) {
    PyObject *bo = wrap_nested(&BlockType, o->op, b);
    if (!bo || PyList_Append(list, bo) < 0) Py_CLEAR(list);
    Py_XDECREF(bo);
  }
  return list;
}

static PyObject *Region_iter(NestedObject *o) {
  PyObject *list = Region_blocks(o, NULL);
  if (!list) return NULL;
  PyObject *it = PyObject_GetIter(list);
  Py_DECREF(list);
  return it;
}

/* Region.append_block(arg_types=(), arg_locations=None): a new block at the end. */
static PyObject *Region_append_block(NestedObject *o, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"arg_types", "arg_locations", NULL};
  PyObject *types_obj = NULL, *locs_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO", kwlist, &types_obj, &locs_obj)) return NULL;
  nc_region *r = nested_get(o);
  if (!r) return NULL;
  nc_op *owner = nc_py_operation_get(o->op);
  nc_context *ctx = nc_op_get_context(owner);
  PyObject *cobj = nc_py_keeper_context_object(nc_py_op_keeper(o->op));
  PyObject *empty = types_obj ? NULL : PyTuple_New(0);
  PyObject *types = types_obj || empty ? PySequence_Fast(types_obj ? types_obj : empty,
                                                         "append_block: arg_types must be a sequence of Types")
                                       : NULL;
  Py_XDECREF(empty);
  PyObject *locs = types && locs_obj != Py_None ? PySequence_Fast(locs_obj, "append_block: arg_locations must be "
                                                                  "a sequence of Locations") : NULL;
  nc_block *b = NULL;
  if (!types || (locs_obj != Py_None && !locs)) goto done;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(types);
  if (locs && PySequence_Fast_GET_SIZE(locs) != n) {
    PyErr_SetString(PyExc_ValueError, "append_block: as many arg_locations as arg_types");
    goto done;
  }
  b = nc_block_create(ctx);
  for (Py_ssize_t i = 0; i < n; i++) {
    nc_type *t = nc_py_type_from(PySequence_Fast_GET_ITEM(types, i), ctx, cobj);
    nc_location loc = nc_op_get_loc(owner);
    if (!t || (locs && !nc_py_location_from(PySequence_Fast_GET_ITEM(locs, i), ctx, &loc))) {
      nc_block_destroy(b);
      b = NULL;
      goto done;
    }
    nc_block_add_arg(b, t, loc);
  }
  nc_region_append_block(r, b);
done:
  Py_XDECREF(types);
  Py_XDECREF(locs);
  return b ? wrap_nested(&BlockType, o->op, b) : NULL;
}

static PyMethodDef Region_methods[] = {
  {"append_block", (PyCFunction)(void (*)(void))Region_append_block, METH_VARARGS | METH_KEYWORDS,
   "append_block($self, arg_types=(), arg_locations=None)\n--\n\nAppends a new block with arguments of these "
   "Types (or type text) at these Locations (default: the op's); returns it."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Region_getset[] = {
  {"blocks", (getter)Region_blocks, NULL, "The blocks, in order (a list; iterating the region gives the same).",
   NULL},
  {"owner", (getter)Nested_owner, NULL, "The op the region belongs to.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RegionType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc.ir.Region",
  .tp_basicsize = sizeof(NestedObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A region of an op: a list of blocks. Valid as long as its op's handle is.",
  .tp_dealloc = (destructor)Nested_dealloc,
  .tp_hash = (hashfunc)Nested_hash,
  .tp_richcompare = Nested_richcompare,
  .tp_iter = (getiterfunc)Region_iter,
  .tp_methods = Region_methods,
  .tp_getset = Region_getset,
};

/* --- Block ------------------------------------------------------------------------- */

static PyObject *Block_operations(NestedObject *o, void *unused) {
  (void)unused;
  nc_block *b = nested_get(o);
  if (!b) return NULL;
  PyObject *list = PyList_New(0);
  for (nc_op *op = nc_block_get_first_op(b); list && op; op = nc_op_get_next(op)) {
    PyObject *h = nc_py_operation_wrap_like(o->op, op);
    if (!h || PyList_Append(list, h) < 0) Py_CLEAR(list);
    Py_XDECREF(h);
  }
  return list;
}

static PyObject *Block_iter(NestedObject *o) {
  PyObject *list = Block_operations(o, NULL);
  if (!list) return NULL;
  PyObject *it = PyObject_GetIter(list);
  Py_DECREF(list);
  return it;
}

static PyObject *Block_arguments(NestedObject *o, void *unused) {
  (void)unused;
  nc_block *b = nested_get(o);
  if (!b) return NULL;
  size_t n = nc_block_get_num_args(b);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *v = nc_py_value_wrap(o->op, nc_block_get_arg(b, i));
    if (!v) { Py_CLEAR(list); break; }
    PyList_SET_ITEM(list, (Py_ssize_t)i, v);
  }
  return list;
}

static PyObject *Block_region(NestedObject *o, void *unused) {
  (void)unused;
  nc_block *b = nested_get(o);
  return b ? wrap_nested(&RegionType, o->op, nc_block_get_parent_region(b)) : NULL;
}

/* Checks that `opobj` may be moved next to / into IR reached from `anchor`. */
static nc_op *movable(PyObject *opobj, PyObject *anchor, const char *what) {
  nc_op *op = nc_py_operation_get(opobj);
  if (!op) return NULL;
  if (nc_py_op_root(opobj) != nc_py_op_root(anchor)) {
    PyErr_Format(PyExc_ValueError, "%s: the ops belong to different modules", what);
    return NULL;
  }
  if (!nc_op_get_block(op)) {
    PyErr_Format(PyExc_ValueError, "%s: the top-level op cannot be moved", what);
    return NULL;
  }
  return op;
}

static PyObject *Block_append(NestedObject *o, PyObject *opobj) {
  nc_block *b = nested_get(o);
  nc_op *op = b ? movable(opobj, o->op, "append") : NULL;
  if (!op) return NULL;
  if (nc_op_is_ancestor(op, nc_block_get_parent_op(b))) {
    PyErr_SetString(PyExc_ValueError, "append: an op cannot be moved into itself");
    return NULL;
  }
  nc_op_remove(op);
  nc_block_append_op(b, op);
  Py_RETURN_NONE;
}

static PyObject *Block_add_argument(NestedObject *o, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"type", "location", NULL};
  PyObject *type, *locobj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O", kwlist, &type, &locobj)) return NULL;
  nc_block *b = nested_get(o);
  if (!b) return NULL;
  nc_context *ctx = nc_op_get_context(nc_py_operation_get(o->op));
  nc_type *t = nc_py_type_from(type, ctx, nc_py_keeper_context_object(nc_py_op_keeper(o->op)));
  nc_location loc = nc_op_get_loc(nc_block_get_parent_op(b));
  if (!t || (locobj != Py_None && !nc_py_location_from(locobj, ctx, &loc))) return NULL;
  return nc_py_value_wrap(o->op, nc_block_add_arg(b, t, loc));
}

static PyMethodDef Block_methods[] = {
  {"append", (PyCFunction)Block_append, METH_O,
   "append($self, op)\n--\n\nMoves an op of the same module to the end of this block."},
  {"add_argument", (PyCFunction)(void (*)(void))Block_add_argument, METH_VARARGS | METH_KEYWORDS,
   "add_argument($self, type, location=None)\n--\n\nAppends an argument of `type` (a Type or type text); returns it."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Block_getset[] = {
  {"operations", (getter)Block_operations, NULL, "The ops of the block, in order (iterating the block gives the "
   "same).", NULL},
  {"arguments", (getter)Block_arguments, NULL, "The block arguments, as Values.", NULL},
  {"owner", (getter)Nested_owner, NULL, "The op whose region holds the block.", NULL},
  {"region", (getter)Block_region, NULL, "The region holding the block.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BlockType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc.ir.Block",
  .tp_basicsize = sizeof(NestedObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A block: arguments and a list of ops. Valid as long as its parent op's handle is.",
  .tp_dealloc = (destructor)Nested_dealloc,
  .tp_hash = (hashfunc)Nested_hash,
  .tp_richcompare = Nested_richcompare,
  .tp_iter = (getiterfunc)Block_iter,
  .tp_methods = Block_methods,
  .tp_getset = Block_getset,
};

/* --- Operation: regions, block, location, attributes, moves ---------------------------- */

static Py_hash_t Op_hash(PyObject *o) {
  nc_op *op = nc_py_operation_get(o);
  return op ? _Py_HashPointer(op) : -1;
}

static PyObject *Op_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !nc_py_is_op(b)) Py_RETURN_NOTIMPLEMENTED;
  nc_op *x = nc_py_operation_get(a), *y = x ? nc_py_operation_get(b) : NULL;
  if (!y) return NULL;
  return PyBool_FromLong((x == y) == (op == Py_EQ));
}

static PyObject *Op_regions(PyObject *o, void *unused) {
  (void)unused;
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  size_t n = nc_op_get_num_regions(op);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *r = wrap_nested(&RegionType, o, nc_op_get_region(op, i));
    if (!r) { Py_CLEAR(list); break; }
    PyList_SET_ITEM(list, (Py_ssize_t)i, r);
  }
  return list;
}

static PyObject *Op_block(PyObject *o, void *unused) {
  (void)unused;
  nc_op *op = nc_py_operation_get(o);
  return op ? wrap_block(o, nc_op_get_block(op)) : NULL;
}

static PyObject *Op_location(PyObject *o, void *unused) {
  (void)unused;
  nc_op *op = nc_py_operation_get(o);
  return op ? nc_py_location_wrap(nc_py_op_keeper(o), nc_op_get_loc(op)) : NULL;
}

static int Op_set_location(PyObject *o, PyObject *value, void *unused) {
  (void)unused;
  nc_op *op = nc_py_operation_get(o);
  if (!op) return -1;
  nc_location loc;
  if (!value) { PyErr_SetString(PyExc_AttributeError, "location cannot be deleted"); return -1; }
  if (!nc_py_location_from(value, nc_op_get_context(op), &loc)) return -1;
  nc_op_set_loc(op, loc);
  return 0;
}

static PyObject *Op_context(PyObject *o, void *unused) {
  (void)unused;
  if (!nc_py_operation_get(o)) return NULL;
  PyObject *c = nc_py_keeper_context_object(nc_py_op_keeper(o));
  if (!c) Py_RETURN_NONE;
  Py_INCREF(c);
  return c;
}

/* op.attributes: an nc.ir.OpAttributeMap (ir.py) over the primitives below. */
static PyObject *Op_attributes(PyObject *o, void *unused) {
  (void)unused;
  if (!nc_py_operation_get(o)) return NULL;
  PyObject *ir = PyImport_ImportModule("nc.ir");
  if (!ir) return NULL;
  PyObject *r = PyObject_CallMethod(ir, "OpAttributeMap", "O", o);
  Py_DECREF(ir);
  return r;
}

static int add_names(PyObject *list, nc_attr *dict) {
  if (!dict || nc_attr_get_kind(dict) != NC_ATTR_DICTIONARY) return 0;
  for (size_t i = 0; i < nc_attr_get_num_elements(dict); i++) {
    nc_ident *name = nc_attr_get_entry(dict, i).name;
    PyObject *s = PyUnicode_FromStringAndSize(nc_ident_str(name), (Py_ssize_t)nc_ident_len(name));
    if (!s || PyList_Append(list, s) < 0) { Py_XDECREF(s); return -1; }
    Py_DECREF(s);
  }
  return 0;
}

/* Names of the inherent attributes (properties), then the discardable ones. */
static PyObject *Op_attribute_names(PyObject *o, PyObject *unused) {
  (void)unused;
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  PyObject *list = PyList_New(0);
  if (list && (add_names(list, nc_op_get_props(op)) < 0 || add_names(list, nc_op_get_attr_dict(op)) < 0))
    Py_CLEAR(list);
  return list;
}

static PyObject *Op_get_attribute(PyObject *o, PyObject *name) {
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  if (!s) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "attribute names are str");
    return NULL;
  }
  nc_attr *a = nc_op_get_attr_str(op, s);
  if (!a) { PyErr_SetObject(PyExc_KeyError, name); return NULL; }
  return nc_py_attr_wrap(nc_py_op_keeper(o), a);
}

static PyObject *Op_set_attribute(PyObject *o, PyObject *args) {
  const char *name;
  PyObject *value;
  if (!PyArg_ParseTuple(args, "sO", &name, &value)) return NULL;
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  nc_context *ctx = nc_op_get_context(op);
  nc_attr *a = nc_py_attr_from(value, ctx, nc_py_keeper_context_object(nc_py_op_keeper(o)), false);
  if (!a) return NULL;
  nc_op_set_attr_str(op, name, a);
  Py_RETURN_NONE;
}

static PyObject *Op_remove_attribute(PyObject *o, PyObject *name) {
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  if (!s) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "attribute names are str");
    return NULL;
  }
  if (!nc_op_remove_attr(op, nc_ident_get_cstr(nc_op_get_context(op), s))) {
    PyErr_SetObject(PyExc_KeyError, name);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject *op_move(PyObject *o, PyObject *anchor_obj, bool before) {
  const char *what = before ? "move_before" : "move_after";
  nc_op *op = movable(o, o, what), *anchor = op ? movable(anchor_obj, o, what) : NULL;
  if (!anchor) return NULL;
  if (nc_op_is_ancestor(op, anchor)) {
    PyErr_Format(PyExc_ValueError, "%s: an op cannot be moved next to itself or into itself", what);
    return NULL;
  }
  (before ? nc_op_move_before : nc_op_move_after)(op, anchor);
  Py_RETURN_NONE;
}

static PyObject *Op_move_before(PyObject *o, PyObject *anchor) { return op_move(o, anchor, true); }
static PyObject *Op_move_after(PyObject *o, PyObject *anchor) { return op_move(o, anchor, false); }

static PyObject *Op_verify(PyObject *o, PyObject *unused) {
  (void)unused;
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  PyObject *cobj = nc_py_keeper_context_object(nc_py_op_keeper(o));
  if (!nc_op_verify(op)) return nc_py_raise_diagnostics(cobj, "verification failed");
  nc_py_clear_diagnostics(cobj);
  Py_RETURN_TRUE;
}

/* clone(ip=None): a deep copy of the op (operands kept) inserted at `ip`, an
 * nc.ir.InsertionPoint, or at the innermost `with InsertionPoint`. */
static PyObject *Op_clone(PyObject *o, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"ip", NULL};
  PyObject *ip = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &ip)) return NULL;
  nc_op *op = nc_py_operation_get(o);
  if (!op) return NULL;
  PyObject *ir = PyImport_ImportModule("nc.ir");
  PyObject *cls = ir ? PyObject_GetAttrString(ir, "InsertionPoint") : NULL;
  Py_XDECREF(ir);
  if (!cls) return NULL;
  int is_ip = ip == Py_None ? 1 : PyObject_IsInstance(ip, cls);
  if (is_ip == 0) PyErr_Format(PyExc_TypeError, "clone: expected an InsertionPoint, got %s", Py_TYPE(ip)->tp_name);
  if (is_ip <= 0) { Py_DECREF(cls); return NULL; }
  ip = ip == Py_None ? PyObject_CallMethod(cls, "current", NULL) : (Py_INCREF(ip), ip);
  Py_DECREF(cls);
  if (!ip) return NULL;
  PyObject *block_obj = PyObject_GetAttrString(ip, "block"), *ref = NULL, *r = NULL;
  if (block_obj) ref = PyObject_GetAttrString(ip, "ref_operation");
  Py_DECREF(ip);
  if (!ref) goto done;
  if (!PyObject_TypeCheck(block_obj, &BlockType)) {
    PyErr_SetString(PyExc_TypeError, "clone: the insertion point has no Block");
    goto done;
  }
  nc_block *block = nested_get((NestedObject *)block_obj);
  nc_op *before = block && ref != Py_None ? nc_py_operation_get(ref) : NULL;
  if (!block || (ref != Py_None && !before)) goto done;
  if (nc_py_op_root(((NestedObject *)block_obj)->op) != nc_py_op_root(o)) {
    PyErr_SetString(PyExc_ValueError, "clone: the insertion point is in another module");
    goto done;
  }
  if (before && nc_op_get_block(before) != block) {
    PyErr_SetString(PyExc_ValueError, "clone: the insertion point's op left its block");
    goto done;
  }
  nc_op *copy = nc_op_clone(op, NULL);
  if (before) nc_op_insert_before(copy, before);
  else nc_block_append_op(block, copy);
  r = nc_py_operation_wrap_like(o, copy);
done:
  Py_XDECREF(block_obj);
  Py_XDECREF(ref);
  return r;
}

static PyMethodDef Op_methods[] = {
  {"clone", (PyCFunction)(void (*)(void))Op_clone, METH_VARARGS | METH_KEYWORDS,
   "clone($self, ip=None)\n--\n\nA deep copy of the op (same operands) inserted at `ip` or at the innermost "
   "`with InsertionPoint(...)`; returns it."},
  {"verify", (PyCFunction)Op_verify, METH_NOARGS,
   "verify($self)\n--\n\nVerifies the op and the ops nested in it; True, or raises nc.DiagnosticError."},
  {"move_before", (PyCFunction)Op_move_before, METH_O,
   "move_before($self, other)\n--\n\nMoves the op in front of `other` (any block of the same module)."},
  {"move_after", (PyCFunction)Op_move_after, METH_O,
   "move_after($self, other)\n--\n\nMoves the op right after `other` (any block of the same module)."},
  {"_attribute_names", (PyCFunction)Op_attribute_names, METH_NOARGS, "Inherent then discardable attribute names."},
  {"_get_attribute", (PyCFunction)Op_get_attribute, METH_O, "The Attribute named so; KeyError if absent."},
  {"_set_attribute", (PyCFunction)Op_set_attribute, METH_VARARGS,
   "Sets an attribute from an Attribute or a Python value (Attribute.get's conversions)."},
  {"_remove_attribute", (PyCFunction)Op_remove_attribute, METH_O, "Removes an attribute; KeyError if absent."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Op_getset[] = {
  {"regions", (getter)Op_regions, NULL, "The op's regions, as Regions.", NULL},
  {"block", (getter)Op_block, NULL, "The Block that holds the op, or None for the top-level op.", NULL},
  {"location", (getter)Op_location, (setter)Op_set_location, "The op's Location (settable).", NULL},
  {"context", (getter)Op_context, NULL, "The Context (None inside a Python pass).", NULL},
  {"attributes", (getter)Op_attributes, NULL,
   "The attributes, a mutable mapping from names to Attributes (inherent ones first); assign Attributes or "
   "Python values.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

/* Module.body: the block of the top-level op (the module's ops). */
static PyObject *Module_body(PyObject *m, void *unused) {
  (void)unused;
  PyObject *op = PyObject_GetAttrString(m, "operation"), *r = NULL;
  nc_op *top = op ? nc_py_operation_get(op) : NULL;
  if (top) {
    nc_region *region = nc_op_get_num_regions(top) ? nc_op_get_region(top, 0) : NULL;
    nc_block *b = region ? nc_region_get_first_block(region) : NULL;
    if (b) r = wrap_nested(&BlockType, op, b);
    else PyErr_SetString(PyExc_ValueError, "body: the top-level op has no block");
  }
  Py_XDECREF(op);
  return r;
}

static PyGetSetDef Module_getset[] = {
  {"body", (getter)Module_body, NULL, "The Block of the top-level op (the module's ops).", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

/* --- Value: uses, owner --------------------------------------------------------------- */

static Py_hash_t Value_hash(PyObject *o) {
  nc_value *v = nc_py_value_get(o);
  return v ? _Py_HashPointer(v) : -1;
}

static PyObject *Value_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !nc_py_is_value(b)) Py_RETURN_NOTIMPLEMENTED;
  nc_value *x = nc_py_value_get(a), *y = x ? nc_py_value_get(b) : NULL;
  if (!y) return NULL;
  return PyBool_FromLong((x == y) == (op == Py_EQ));
}

static PyObject *Value_uses(PyObject *o, void *unused) {
  (void)unused;
  nc_value *v = nc_py_value_get(o);
  if (!v) return NULL;
  PyObject *list = PyList_New(0), *like = nc_py_value_op(o);
  for (nc_use *u = nc_value_get_first_use(v); list && u; u = nc_use_get_next(u)) {
    PyObject *t = Py_BuildValue("(NI)", nc_py_operation_wrap_like(like, nc_use_get_owner(u)), nc_use_get_operand_index(u));
    if (!t || PyList_Append(list, t) < 0) Py_CLEAR(list);
    Py_XDECREF(t);
  }
  return list;
}

static PyObject *Value_owner(PyObject *o, void *unused) {
  (void)unused;
  nc_value *v = nc_py_value_get(o);
  if (!v) return NULL;
  if (nc_value_is_block_arg(v)) return wrap_block(nc_py_value_op(o), nc_value_get_parent_block(v));
  return nc_py_operation_wrap_like(nc_py_value_op(o), nc_value_get_defining_op(v));
}

static PyObject *Value_is_block_argument(PyObject *o, void *unused) {
  (void)unused;
  nc_value *v = nc_py_value_get(o);
  return v ? PyBool_FromLong(nc_value_is_block_arg(v)) : NULL;
}

static PyObject *Value_index(PyObject *o, void *unused) {
  (void)unused;
  nc_value *v = nc_py_value_get(o);
  return v ? PyLong_FromUnsignedLong(nc_value_get_index(v)) : NULL;
}

static PyObject *Value_set_type(PyObject *o, PyObject *type) {
  nc_value *v = nc_py_value_get(o);
  if (!v) return NULL;
  nc_op *op = nc_py_operation_get(nc_py_value_op(o));
  PyObject *cobj = nc_py_keeper_context_object(nc_py_op_keeper(nc_py_value_op(o)));
  nc_type *t = op ? nc_py_type_from(type, nc_op_get_context(op), cobj) : NULL;
  if (!t) return NULL;
  nc_value_set_type(v, t);
  Py_RETURN_NONE;
}

static PyMethodDef Value_methods[] = {
  {"set_type", (PyCFunction)Value_set_type, METH_O,
   "set_type($self, type)\n--\n\nChanges the value's type (a Type or type text); verify() after rewriting."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Value_getset[] = {
  {"uses", (getter)Value_uses, NULL, "The uses, as (Operation, operand index) pairs.", NULL},
  {"owner", (getter)Value_owner, NULL, "The defining Operation of a result, the Block of a block argument.", NULL},
  {"is_block_argument", (getter)Value_is_block_argument, NULL, "True for block arguments.", NULL},
  {"index", (getter)Value_index, NULL, "Result number, or argument number of a block argument.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

/* --- build_op ------------------------------------------------------------------------ */

/* build_op(name, operands, block, before, attributes, result_types, location):
 * creates op `name` and inserts it in `block`, before the op `before` or at
 * the end (None). Attributes are Attributes or IR text; result types Types or
 * text, inferred by the op definition when None; the location is the given
 * one, else the innermost `with Location`, else `before`'s or the block
 * owner's. The new op is verified where it was inserted (and erased again
 * if it fails), unless it has regions: they are created empty, for the
 * caller to fill (Region.append_block) and verify. */
static PyObject *build_op(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"name", "operands", "block", "before", "attributes", "result_types", "location", NULL};
  const char *name;
  PyObject *operands, *block_obj, *before_obj = Py_None, *attrs = Py_None, *rtypes = Py_None, *locobj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sOO!|OOOO", kwlist, &name, &operands, &BlockType, &block_obj,
                                   &before_obj, &attrs, &rtypes, &locobj))
    return NULL;
  NestedObject *bo = (NestedObject *)block_obj;
  nc_block *block = nested_get(bo);
  if (!block) return NULL;
  nc_op *before = NULL;
  if (before_obj != Py_None) {
    if (!(before = nc_py_operation_get(before_obj))) return NULL;
    if (nc_op_get_block(before) != block) {
      PyErr_SetString(PyExc_ValueError, "build: `before` is not in the block");
      return NULL;
    }
  }
  nc_op *owner = nc_py_operation_get(bo->op);
  nc_context *ctx = nc_op_get_context(owner);
  PyObject *cobj = nc_py_keeper_context_object(nc_py_op_keeper(bo->op));
  const nc_op_def *def = nc_context_lookup_op_def(ctx, name, strlen(name));
  if (!def && !nc_context_get_allow_unregistered_dialects(ctx)) {
    PyErr_Format(PyExc_ValueError, "build: unknown op '%s'", name);
    return NULL;
  }
  size_t n_regions = def ? def->n_regions : 0; /* an unregistered op: none, and explicit result types */
  nc_location loc = before ? nc_op_get_loc(before) : nc_op_get_loc(owner);
  if (locobj == Py_None) locobj = nc_py_location_current();
  if (locobj && locobj != Py_None && !nc_py_location_from(locobj, ctx, &loc)) return NULL;

  PyObject *seq = PySequence_Fast(operands, "build: operands must be a sequence of Values");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  size_t n_attrs = 0, n_results = 0;
  nc_value **vals = PyMem_Calloc((size_t)n + 1, sizeof *vals);
  nc_type **otypes = PyMem_Calloc((size_t)n + 1, sizeof *otypes), **types = NULL;
  nc_named_attr *named = NULL;
  nc_attr *props = NULL;
  PyObject *result = NULL;
  if (!vals || !otypes) { PyErr_NoMemory(); goto done; }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
    if (!(vals[i] = nc_py_value_get(v))) goto done;
    if (nc_py_op_root(nc_py_value_op(v)) != nc_py_op_root(bo->op)) {
      PyErr_Format(PyExc_ValueError, "build: operand #%zd belongs to another module", i);
      goto done;
    }
    otypes[i] = nc_value_get_type(vals[i]);
  }
  if (attrs != Py_None) {
    if (!PyDict_Check(attrs)) { PyErr_SetString(PyExc_TypeError, "build: attributes must be a dict"); goto done; }
    named = PyMem_Calloc((size_t)PyDict_Size(attrs) + 1, sizeof *named);
    if (!named) { PyErr_NoMemory(); goto done; }
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(attrs, &pos, &key, &val)) {
      const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
      if (!k) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "build: attribute names are str");
        goto done;
      }
      named[n_attrs].name = nc_ident_get_cstr(ctx, k);
      if (!(named[n_attrs++].value = nc_py_attr_from(val, ctx, cobj, true))) goto done;
    }
    if (!(props = nc_attr_dictionary(ctx, n_attrs, named))) {
      PyErr_SetString(PyExc_ValueError, "build: an attribute is given twice");
      goto done;
    }
  }
  if (rtypes != Py_None) {
    PyObject *rs = PySequence_Fast(rtypes, "build: result_types must be a sequence of Types");
    if (!rs) goto done;
    n_results = (size_t)PySequence_Fast_GET_SIZE(rs);
    types = PyMem_Calloc(n_results + 1, sizeof *types);
    if (!types) PyErr_NoMemory();
    for (size_t i = 0; types && i < n_results; i++)
      if (!(types[i] = nc_py_type_from(PySequence_Fast_GET_ITEM(rs, (Py_ssize_t)i), ctx, cobj))) break;
    Py_DECREF(rs);
    if (PyErr_Occurred()) goto done;
  } else {
    if (!def) {
      PyErr_Format(PyExc_ValueError, "build: '%s' is not registered: pass result_types", name);
      goto done;
    }
    if (!def->infer_types && def->n_results) {
      PyErr_Format(PyExc_ValueError, "build: '%s' cannot infer its result types: pass result_types", name);
      goto done;
    }
    n_results = def->n_results;
    types = PyMem_Calloc(n_results + 1, sizeof *types);
    if (!types) { PyErr_NoMemory(); goto done; }
    if (n_results && !def->infer_types(ctx, loc, (size_t)n, otypes, props, n_results, types)) {
      nc_py_raise_diagnostics(cobj, "result type inference failed");
      goto done;
    }
  }
  nc_op *op = nc_op_create(&(nc_op_state){.ctx = ctx, .name = name, .loc = loc, .n_operands = (size_t)n,
                                          .operands = vals, .n_results = n_results, .result_types = types,
                                          .n_attrs = n_attrs, .attrs = named, .n_regions = n_regions});
  if (!op) { nc_py_raise_diagnostics(cobj, "cannot create op"); goto done; }
  if (before) nc_op_insert_before(op, before);
  else nc_block_append_op(block, op);
  /* verified in place (parent constraints, dominance); ops with regions once their body is built */
  if (!n_regions && !nc_op_verify(op)) {
    nc_op_erase(op);
    nc_py_raise_diagnostics(cobj, "the new op does not verify");
    goto done;
  }
  nc_py_clear_diagnostics(cobj);
  result = nc_py_operation_wrap_like(bo->op, op);
done:
  PyMem_Free(vals);
  PyMem_Free(otypes);
  PyMem_Free(types);
  PyMem_Free(named);
  Py_DECREF(seq);
  return result;
}

static PyMethodDef module_methods[] = {
  {"build_op", (PyCFunction)(void (*)(void))build_op, METH_VARARGS | METH_KEYWORDS,
   "build_op(name, operands, block, before=None, attributes=None, result_types=None, location=None)\n--\n\n"
   "Creates op `name` in `block`, before `before` or at the end; attributes map names to Attributes or IR "
   "text, result types (Types or text) are inferred when None; the location defaults to the innermost "
   "`with Location`. Raises nc.DiagnosticError if the op does not verify (ops with regions get them empty, "
   "verified once their body is built)."},
  {NULL, NULL, 0, NULL},
};

/* repr: what the handle points to, in one line (str() prints the IR); a
 * stale handle says so instead of raising, as repr serves debugging. */
static PyObject *Op_repr(PyObject *o) {
  nc_op *op = nc_py_operation_get(o);
  if (!op) { /* debugging output never raises */
    PyErr_Clear();
    return PyUnicode_FromString("Operation(<stale handle>)");
  }
  nc_ident *name = nc_op_get_name(op);
  return PyUnicode_FromFormat("Operation(%s)", nc_ident_str(name));
}

static PyObject *Value_repr(PyObject *o) {
  nc_value *v = nc_py_value_get(o);
  if (!v) {
    PyErr_Clear();
    return PyUnicode_FromString("Value(<stale handle>)");
  }
  char *t = nc_type_to_string(nc_value_get_type(v));
  if (!t) return PyErr_NoMemory();
  PyObject *r = nc_value_is_block_arg(v)
                  ? PyUnicode_FromFormat("Value(argument #%u: %s)", nc_value_get_index(v), t)
                  : PyUnicode_FromFormat("Value(result #%u of %s: %s)", nc_value_get_index(v),
                                         nc_ident_str(nc_op_get_name(nc_value_get_defining_op(v))), t);
  free(t);
  return r;
}

void nc_py_ir_regions_prepare(PyTypeObject *operation, PyTypeObject *value) {
  operation->tp_repr = Op_repr;
  value->tp_repr = Value_repr;
  operation->tp_hash = Op_hash;
  operation->tp_richcompare = Op_richcompare;
  value->tp_hash = Value_hash;
  value->tp_richcompare = Value_richcompare;
}

/* Adds getters and methods to a readied type's dictionary. */
static int extend_type(PyTypeObject *type, PyGetSetDef *getset, PyMethodDef *methods) {
  for (PyGetSetDef *g = getset; g && g->name; g++) {
    PyObject *d = PyDescr_NewGetSet(type, g);
    if (!d || PyDict_SetItemString(type->tp_dict, g->name, d) < 0) { Py_XDECREF(d); return -1; }
    Py_DECREF(d);
  }
  for (PyMethodDef *m = methods; m && m->ml_name; m++) {
    PyObject *d = PyDescr_NewMethod(type, m);
    if (!d || PyDict_SetItemString(type->tp_dict, m->ml_name, d) < 0) { Py_XDECREF(d); return -1; }
    Py_DECREF(d);
  }
  PyType_Modified(type);
  return 0;
}

int nc_py_ir_regions_init(PyObject *module, PyTypeObject *operation, PyTypeObject *value) {
  if (PyType_Ready(&RegionType) < 0 || PyType_Ready(&BlockType) < 0) return -1;
  Py_INCREF(&RegionType);
  if (PyModule_AddObject(module, "Region", (PyObject *)&RegionType) < 0) return -1;
  Py_INCREF(&BlockType);
  if (PyModule_AddObject(module, "Block", (PyObject *)&BlockType) < 0) return -1;
  PyObject *module_type = PyObject_GetAttrString(module, "Module");
  int err = !module_type || !PyType_Check(module_type) ||
            extend_type((PyTypeObject *)module_type, Module_getset, NULL) < 0;
  Py_XDECREF(module_type);
  if (err || extend_type(operation, Op_getset, Op_methods) < 0 || extend_type(value, Value_getset, Value_methods) < 0)
    return -1;
  return PyModule_AddFunctions(module, module_methods);
}
