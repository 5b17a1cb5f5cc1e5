/* rewrite.c: rewrite patterns written in Python, applied by nc's greedy
 * driver (ir/rewrite.c, canonicalize's), so they mix with folding, dead-op
 * removal and constant hoisting exactly as C patterns do. Each Python
 * pattern becomes an nc_pattern whose user data is the Python object; the
 * driver calls it with a Rewriter, a handle on the driver's nc_rewriter
 * that lives only during the call (every IR change must go through it, so
 * the driver revisits what changed). The driver erases and folds ops
 * between calls, so every Operation handle made before a call goes stale
 * (raises) at the next one; the root the driver runs on stays valid. The
 * driver runs with the GIL held: it calls Python at every op. */
#include "extras.h"
#include "handles.h"

#include <stdlib.h>
#include <string.h>

typedef struct apply_state apply_state;

static int pattern_depth; /* patterns running now (the GIL is held throughout) */

bool nc_py_in_pattern(void) { return pattern_depth > 0; }

typedef struct {
  nc_pattern pattern;
  PyObject *obj;      /* the Python pattern (borrowed from the list) */
  apply_state *state;
} py_pattern;

struct apply_state {
  PyObject *root;  /* the Operation the driver runs on */
  bool failed;     /* a pattern raised: the exception is kept in `exc` */
  PyObject *exc_type, *exc_value, *exc_tb;
};

/* --- Rewriter ------------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  nc_rewriter *rw;  /* NULL once the call is over */
  PyObject *root;   /* the driver's root Operation (wrapping, validity) */
  nc_op *matched;   /* the op the pattern was called on */
} RewriterObject;

static PyTypeObject RewriterType;

static bool rewriter_check(RewriterObject *r) {
  if (!r->rw) {
    PyErr_SetString(PyExc_RuntimeError, "the rewriter is used only inside match_and_rewrite");
    return false;
  }
  return true;
}

/* The op of `obj`, which must lie inside the driver's root (not the root). */
static nc_op *inner_op(RewriterObject *r, PyObject *obj, const char *what) {
  nc_op *op = nc_py_operation_get(obj), *root = nc_py_operation_get(r->root);
  if (!op || !root) return NULL;
  if (op == root || !nc_op_is_ancestor(root, op)) {
    PyErr_Format(PyExc_ValueError, "%s: the op is not inside the IR the patterns run on", what);
    return NULL;
  }
  return op;
}

static nc_value *value_of(RewriterObject *r, PyObject *obj, const char *what) {
  nc_value *v = nc_py_value_get(obj);
  if (v && !nc_py_value_in_module_of(obj, r->root)) {
    PyErr_Format(PyExc_ValueError, "%s: the value belongs to another module", what);
    return NULL;
  }
  return v;
}

static bool results_unused(nc_op *op, const char *what) {
  for (size_t i = 0; i < nc_op_get_num_results(op); i++)
    if (!nc_value_use_empty(nc_op_get_result(op, i))) {
      PyErr_Format(PyExc_ValueError, "%s: result #%zu still has uses", what, i);
      return false;
    }
  return true;
}

static PyObject *Rewriter_erase_op(RewriterObject *r, PyObject *opobj) {
  nc_op *op;
  if (!rewriter_check(r) || !(op = inner_op(r, opobj, "erase_op")) || !results_unused(op, "erase_op")) return NULL;
  if (!nc_py_operation_note_erased(r->root, op)) return NULL;
  nc_rewriter_erase_op(r->rw, op);
  Py_RETURN_NONE;
}

static PyObject *Rewriter_replace_all_uses_with(RewriterObject *r, PyObject *args) {
  PyObject *from, *to;
  if (!PyArg_ParseTuple(args, "OO", &from, &to) || !rewriter_check(r)) return NULL;
  nc_value *f = value_of(r, from, "replace_all_uses_with"), *t = f ? value_of(r, to, "replace_all_uses_with") : NULL;
  if (!t) return NULL;
  if (nc_value_get_type(f) != nc_value_get_type(t)) {
    PyErr_SetString(PyExc_TypeError, "replace_all_uses_with: the values have different types");
    return NULL;
  }
  nc_rewriter_replace_all_uses_with(r->rw, f, t);
  Py_RETURN_NONE;
}

static PyObject *Rewriter_replace_op(RewriterObject *r, PyObject *args) {
  PyObject *opobj, *values;
  if (!PyArg_ParseTuple(args, "OO", &opobj, &values) || !rewriter_check(r)) return NULL;
  nc_op *op = inner_op(r, opobj, "replace_op");
  if (!op) return NULL;
  if (PyObject_TypeCheck(values, Py_TYPE(opobj))) { /* replace_op(op, other_op): its results */
    nc_op *with = inner_op(r, values, "replace_op");
    if (!with) return NULL;
    values = PyObject_GetAttrString(values, "results");
  } else {
    Py_INCREF(values);
  }
  if (!values) return NULL;
  PyObject *seq = PySequence_Fast(values, "replace_op: expected an op or a sequence of Values");
  Py_DECREF(values);
  if (!seq) return NULL;
  size_t n = (size_t)PySequence_Fast_GET_SIZE(seq);
  PyObject *result = NULL;
  nc_value **vals = PyMem_Calloc(n + 1, sizeof *vals);
  if (!vals) { PyErr_NoMemory(); goto done; }
  if (n != nc_op_get_num_results(op)) {
    PyErr_Format(PyExc_ValueError, "replace_op: the op has %zu results, got %zu values", nc_op_get_num_results(op), n);
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    if (!(vals[i] = value_of(r, PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), "replace_op"))) goto done;
    if (nc_value_get_type(vals[i]) != nc_value_get_type(nc_op_get_result(op, i))) {
      PyErr_Format(PyExc_TypeError, "replace_op: value #%zu has another type than result #%zu", i, i);
      goto done;
    }
    for (nc_op *def = nc_value_get_defining_op(vals[i]); def; def = NULL)
      if (def == op) {
        PyErr_SetString(PyExc_ValueError, "replace_op: an op cannot be replaced by its own results");
        goto done;
      }
  }
  if (!nc_py_operation_note_erased(r->root, op)) goto done;
  nc_rewriter_replace_op(r->rw, op, vals);
  result = Py_None;
  Py_INCREF(result);
done:
  PyMem_Free(vals);
  Py_DECREF(seq);
  return result;
}

static PyObject *Rewriter_modified(RewriterObject *r, PyObject *opobj) {
  nc_op *op;
  if (!rewriter_check(r) || !(op = inner_op(r, opobj, "modified"))) return NULL;
  nc_rewriter_modified(r->rw, op);
  Py_RETURN_NONE;
}

static PyObject *Rewriter_set_operand(RewriterObject *r, PyObject *args) {
  PyObject *opobj, *vobj;
  Py_ssize_t i;
  if (!PyArg_ParseTuple(args, "OnO", &opobj, &i, &vobj) || !rewriter_check(r)) return NULL;
  nc_op *op = inner_op(r, opobj, "set_operand");
  nc_value *v = op ? value_of(r, vobj, "set_operand") : NULL;
  if (!v) return NULL;
  if (i < 0 || (size_t)i >= nc_op_get_num_operands(op)) {
    PyErr_Format(PyExc_IndexError, "set_operand: no operand #%zd", i);
    return NULL;
  }
  if (nc_value_get_type(v) != nc_value_get_type(nc_op_get_operand(op, (size_t)i))) {
    PyErr_SetString(PyExc_TypeError, "set_operand: the value has another type than the operand");
    return NULL;
  }
  nc_op_set_operand(op, (size_t)i, v);
  nc_rewriter_modified(r->rw, op);
  Py_RETURN_NONE;
}

/* create(name, operands, attributes=None, result_types=None, before=None):
 * Operation.create in front of `before` (default: the matched op), then
 * handed to the driver, which visits it. */
static PyObject *Rewriter_create(RewriterObject *r, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"name", "operands", "attributes", "result_types", "before", NULL};
  PyObject *name, *operands, *attrs = Py_None, *rtypes = Py_None, *before = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "UO|OOO", kwlist, &name, &operands, &attrs, &rtypes, &before) ||
      !rewriter_check(r))
    return NULL;
  PyObject *at = before == Py_None ? nc_py_operation_wrap_like(r->root, r->matched) : (Py_INCREF(before), before);
  if (!at) return NULL;
  PyObject *created = NULL;
  if (inner_op(r, at, "create")) {
    PyObject *create = PyObject_GetAttrString((PyObject *)Py_TYPE(r->root), "create");
    PyObject *kwargs = create ? Py_BuildValue("{s:O,s:O,s:O,s:O,s:O}", "name", name, "operands", operands, "before",
                                              at, "attributes", attrs, "result_types", rtypes)
                              : NULL;
    PyObject *empty = kwargs ? PyTuple_New(0) : NULL;
    if (empty) created = PyObject_Call(create, empty, kwargs);
    Py_XDECREF(empty);
    Py_XDECREF(kwargs);
    Py_XDECREF(create);
  }
  Py_DECREF(at);
  nc_op *op = created ? nc_py_operation_get(created) : NULL;
  if (!op) { Py_XDECREF(created); return NULL; }
  nc_rewriter_modified(r->rw, op);
  return created;
}

static PyObject *Rewriter_get_matched(RewriterObject *r, void *unused) {
  (void)unused;
  if (!rewriter_check(r)) return NULL;
  return nc_py_operation_wrap_like(r->root, r->matched);
}

static PyMethodDef Rewriter_methods[] = {
  {"create", (PyCFunction)(void (*)(void))Rewriter_create, METH_VARARGS | METH_KEYWORDS,
   "create(name, operands, attributes=None, result_types=None, before=None): a new op (as Operation.create) "
   "in front of `before` (default: the matched op); the driver visits it."},
  {"replace_op", (PyCFunction)Rewriter_replace_op, METH_VARARGS,
   "replace_op(op, values): replaces every use of op's results with `values` (a list of Values, or an op whose "
   "results to use) and erases op."},
  {"erase_op", (PyCFunction)Rewriter_erase_op, METH_O, "erase_op(op): erases an op whose results have no uses."},
  {"replace_all_uses_with", (PyCFunction)Rewriter_replace_all_uses_with, METH_VARARGS,
   "replace_all_uses_with(from_value, to_value): as Value.replace_all_uses_with, telling the driver."},
  {"set_operand", (PyCFunction)Rewriter_set_operand, METH_VARARGS,
   "set_operand(op, i, value): makes operand #i of op use `value` (same type), telling the driver."},
  {"modified", (PyCFunction)Rewriter_modified, METH_O,
   "modified(op): tells the driver op changed in place (so it is visited again)."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef Rewriter_getset[] = {
  {"matched", (getter)Rewriter_get_matched, NULL, "The op the pattern was called on.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static void Rewriter_dealloc(RewriterObject *r) {
  Py_XDECREF(r->root);
  PyObject_Free(r);
}

static PyTypeObject RewriterType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.Rewriter",
  .tp_basicsize = sizeof(RewriterObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "The greedy driver's rewriter, passed to a pattern's match_and_rewrite(op, rewriter): every change "
            "to the IR goes through it.",
  .tp_dealloc = (destructor)Rewriter_dealloc,
  .tp_methods = Rewriter_methods,
  .tp_getset = Rewriter_getset,
};

/* --- the driver --------------------------------------------------------------------------- */

static bool match_python_pattern(nc_op *op, nc_rewriter *rw, void *user) {
  py_pattern *p = user;
  apply_state *st = p->state;
  if (st->failed) return false; /* a pattern raised: the driver winds down, the caller re-raises */
  nc_py_operation_invalidate_others(st->root);
  bool changed = false;
  RewriterObject *robj = PyObject_New(RewriterObject, &RewriterType);
  PyObject *opobj = robj ? nc_py_operation_wrap_like(st->root, op) : NULL, *r = NULL;
  if (opobj) {
    robj->rw = rw;
    Py_INCREF(st->root);
    robj->root = st->root;
    robj->matched = op;
    pattern_depth++;
    r = PyObject_CallMethod(p->obj, "match_and_rewrite", "OO", opobj, (PyObject *)robj);
    pattern_depth--;
    robj->rw = NULL;
  } else if (robj) {
    robj->root = NULL;
  }
  int truth = r ? PyObject_IsTrue(r) : -1;
  if (truth < 0) {
    st->failed = true;
    PyErr_Fetch(&st->exc_type, &st->exc_value, &st->exc_tb);
  }
  changed = truth == 1;
  Py_XDECREF(r);
  Py_XDECREF(opobj);
  Py_XDECREF((PyObject *)robj);
  nc_py_operation_invalidate_others(st->root);
  return changed;
}

static bool read_int_attr(PyObject *obj, const char *name, long dflt, long *out) {
  PyObject *v = PyObject_GetAttrString(obj, name);
  if (!v) {
    PyErr_Clear();
    *out = dflt;
    return true;
  }
  *out = PyLong_AsLong(v);
  Py_DECREF(v);
  if (*out == -1 && PyErr_Occurred()) return false;
  return true;
}

PyObject *nc_py_apply_patterns_greedily(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"op", "patterns", "max_iterations", "max_num_rewrites", "top_down", "fold", NULL};
  PyObject *root, *patterns;
  long long max_iterations = 10, max_rewrites = -1;
  int top_down = 1, fold = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|LLpp", kwlist, &root, &patterns, &max_iterations, &max_rewrites,
                                   &top_down, &fold))
    return NULL;
  nc_op *op = nc_py_operation_get(root);
  if (!op) return NULL;
  if (pattern_depth) {
    PyErr_SetString(PyExc_RuntimeError, "apply_patterns_greedily: not from inside a pattern");
    return NULL;
  }
  PyObject *seq = PySequence_Fast(patterns, "apply_patterns_greedily: patterns must be a sequence");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  apply_state st = {root, false, NULL, NULL, NULL};
  py_pattern *pats = PyMem_Calloc((size_t)n + 1, sizeof *pats);
  char **roots = PyMem_Calloc((size_t)n + 1, sizeof *roots);
  nc_pattern_set *set = NULL;
  PyObject *result = NULL;
  if (!pats || !roots) { PyErr_NoMemory(); goto done; }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *p = PySequence_Fast_GET_ITEM(seq, i);
    PyObject *fn = PyObject_GetAttrString(p, "match_and_rewrite");
    bool callable = fn && PyCallable_Check(fn);
    Py_XDECREF(fn);
    if (!callable) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "patterns[%zd]: a %s has no match_and_rewrite(op, rewriter)", i, Py_TYPE(p)->tp_name);
      goto done;
    }
    long benefit;
    if (!read_int_attr(p, "benefit", 1, &benefit)) goto done;
    if (benefit < 0 || benefit > 65535) {
      PyErr_Format(PyExc_ValueError, "patterns[%zd]: benefit must be in [0, 65535]", i);
      goto done;
    }
    PyObject *rootname = PyObject_GetAttrString(p, "root");
    if (!rootname) PyErr_Clear();
    else if (rootname != Py_None) {
      const char *t = PyUnicode_Check(rootname) ? PyUnicode_AsUTF8(rootname) : NULL;
      if (!t || !(roots[i] = PyMem_Malloc(strlen(t) + 1))) {
        Py_DECREF(rootname);
        if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "patterns[%zd]: root must be an op name (str) or None", i);
        goto done;
      }
      strcpy(roots[i], t);
    }
    Py_XDECREF(rootname);
    pats[i].pattern.name = Py_TYPE(p)->tp_name;
    pats[i].pattern.benefit = (unsigned)benefit;
    pats[i].pattern.match_and_rewrite_with_data = match_python_pattern;
    pats[i].pattern.userData = &pats[i];
    pats[i].obj = p;
    pats[i].state = &st;
  }
  set = nc_pattern_set_create(nc_op_get_context(op));
  for (Py_ssize_t i = 0; i < n; i++) nc_pattern_set_add(set, roots[i], &pats[i].pattern);
  nc_greedy_config cfg = nc_greedy_config_default();
  cfg.max_iterations = max_iterations;
  cfg.max_num_rewrites = max_rewrites;
  cfg.top_down = top_down;
  cfg.fold = fold;
  nc_greedy_stats stats = {0};
  nc_apply_patterns_greedily(op, set, &cfg, &stats);
  nc_py_operation_invalidate_others(root);
  if (st.failed) {
    PyErr_Restore(st.exc_type, st.exc_value, st.exc_tb);
    goto done;
  }
  result = Py_BuildValue("(OKKK)", stats.converged ? Py_True : Py_False, (unsigned long long)stats.rewrites,
                         (unsigned long long)stats.folds, (unsigned long long)stats.erased);
done:
  if (set) nc_pattern_set_destroy(set);
  for (Py_ssize_t i = 0; roots && i < n; i++) PyMem_Free(roots[i]);
  PyMem_Free(roots);
  PyMem_Free(pats);
  Py_DECREF(seq);
  return result;
}

bool nc_py_rewrite_ready(void) { return PyType_Ready(&RewriterType) == 0; }

bool nc_py_rewrite_add_types(PyObject *m) {
  Py_INCREF(&RewriterType);
  if (PyModule_AddObject(m, "Rewriter", (PyObject *)&RewriterType) < 0) {
    Py_DECREF(&RewriterType);
    return false;
  }
  return true;
}
