/* passes.c: passes written in Python, registered into nc's pass registry
 * next to the C passes, so a pipeline string mixes them freely. A Python
 * pass declares typed options and statistics (nc.passmanager.Option,
 * Statistic); they become the C definition's option and statistic tables,
 * so the pipeline parser checks option values (with its diagnostics
 * pointing into the pipeline text), `--help` lists them, and the
 * statistics report shows the pass's counters as it shows C passes'. Each
 * run makes a fresh instance with the options as attributes and a handle
 * (`_nc_pass`) that the Statistic descriptors count through. The GIL is
 * taken around the Python code, so the pass may run on the pass manager's
 * worker threads. */
#include "extras.h"
#include "handles.h"

#include <stdlib.h>
#include <string.h>

/* An option kind as nc.passmanager.Option spells it. */
static const struct {
  const char *name;
  nc_pass_option_kind kind;
} kinds[] = {
  {"bool", NC_PASS_OPT_BOOL},         {"int", NC_PASS_OPT_INT},
  {"str", NC_PASS_OPT_STRING},        {"enum", NC_PASS_OPT_ENUM},
  {"int-list", NC_PASS_OPT_INT_LIST}, {"str-list", NC_PASS_OPT_STRING_LIST},
  {"float", NC_PASS_OPT_STRING}, /* read as text, checked by initialize */
};

/* A registered Python pass: the C definition first, so nc_pass_get_def(pass)
 * leads back to the Python class. Never freed: the registry keeps the
 * definition for the life of the process. */
typedef struct {
  nc_pass_def def;
  PyObject *cls;
  PyObject *attrs;  /* tuple: the Python attribute name of each option */
  bool *is_float;   /* per option */
} py_pass_def;

/* --- the handle a running pass counts statistics through -------------------------------- */

typedef struct {
  PyObject_HEAD
  nc_pass *pass; /* NULL once the run is over */
} PassHandleObject;

static bool handle_check(PassHandleObject *h, Py_ssize_t i) {
  if (!h->pass) {
    PyErr_SetString(PyExc_RuntimeError, "statistics are counted only while the pass runs");
    return false;
  }
  if (i < 0 || (size_t)i >= nc_pass_get_def(h->pass)->n_stats) {
    PyErr_Format(PyExc_IndexError, "no statistic #%zd", i);
    return false;
  }
  return true;
}

static PyObject *PassHandle_stat_add(PassHandleObject *h, PyObject *args) {
  Py_ssize_t i;
  unsigned long long n;
  if (!PyArg_ParseTuple(args, "nK", &i, &n) || !handle_check(h, i)) return NULL;
  nc_pass_stat_add(h->pass, (size_t)i, n);
  Py_RETURN_NONE;
}

static PyObject *PassHandle_stat_get(PassHandleObject *h, PyObject *args) {
  Py_ssize_t i;
  if (!PyArg_ParseTuple(args, "n", &i) || !handle_check(h, i)) return NULL;
  return PyLong_FromUnsignedLongLong(nc_pass_stat_get(h->pass, (size_t)i));
}

static PyMethodDef PassHandle_methods[] = {
  {"stat_add", (PyCFunction)PassHandle_stat_add, METH_VARARGS, "stat_add(i, n): adds n to statistic #i."},
  {"stat_get", (PyCFunction)PassHandle_stat_get, METH_VARARGS, "stat_get(i): statistic #i, summed over threads."},
  {NULL, NULL, 0, NULL},
};

static PyTypeObject PassHandleType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.PassHandle",
  .tp_basicsize = sizeof(PassHandleObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "The running C pass instance behind a Python pass (its statistics).",
  .tp_methods = PassHandle_methods,
};

/* --- running ----------------------------------------------------------------------------- */

/* The value of option i as a Python object of its declared type. */
static PyObject *option_value(const py_pass_def *pd, nc_pass *pass, size_t i) {
  const nc_pass_option_def *o = &pd->def.options[i];
  switch (o->kind) {
  case NC_PASS_OPT_BOOL: return PyBool_FromLong(nc_pass_get_option_bool(pass, o->name));
  case NC_PASS_OPT_INT: return PyLong_FromLongLong((long long)nc_pass_get_option_int(pass, o->name));
  case NC_PASS_OPT_INT_LIST:
  case NC_PASS_OPT_STRING_LIST: {
    size_t n = nc_pass_get_option_list_size(pass, o->name);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; list && k < n; k++) {
      PyObject *v = o->kind == NC_PASS_OPT_INT_LIST
                        ? PyLong_FromLongLong((long long)nc_pass_get_option_list_int(pass, o->name, k))
                        : PyUnicode_FromString(nc_pass_get_option_list_string(pass, o->name, k));
      if (!v) { Py_CLEAR(list); break; }
      PyList_SET_ITEM(list, (Py_ssize_t)k, v);
    }
    return list;
  }
  default: {
    PyObject *s = PyUnicode_FromString(nc_pass_get_option_string(pass, o->name));
    if (s && pd->is_float[i]) Py_SETREF(s, PyFloat_FromString(s));
    return s;
  }
  }
}

/* Emits the exception being handled as an error at `op`: an
 * nc.DiagnosticError made with DiagnosticError.at(op, ...) emits its own
 * diagnostic (location, notes); anything else becomes "python pass 'x'
 * raised T: message". */
static void report_exception(const py_pass_def *pd, nc_op *op) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *emit = value ? PyObject_GetAttrString(value, "_emit") : NULL;
  if (emit) {
    PyObject *r = PyObject_CallNoArgs(emit);
    Py_DECREF(emit);
    if (r) {
      Py_DECREF(r);
      goto done;
    }
  }
  PyErr_Clear();
  PyObject *text = value ? PyObject_Str(value) : NULL;
  const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
  nc_op_emit_error(op, "python pass '%s' raised %s: %s", pd->def.argument,
                   type ? ((PyTypeObject *)type)->tp_name : "an exception", msg ? msg : "");
  Py_XDECREF(text);
done:
  PyErr_Clear();
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

static bool run_python_pass(nc_pass *pass, nc_op *op) {
  const py_pass_def *pd = (const py_pass_def *)nc_pass_get_def(pass);
  PyGILState_STATE gil = PyGILState_Ensure();
  bool ok = false;
  /* a borrowed view of the IR the pass runs on; closed afterwards so
   * handles the pass kept raise instead of dangling */
  size_t errors_before = nc_py_errors_emitted_here();
  PyObject *view = nc_py_view_open(op);
  PyObject *opobj = view ? nc_py_view_operation(view) : NULL;
  PyObject *inst = opobj ? PyObject_CallNoArgs(pd->cls) : NULL, *r = NULL;
  PassHandleObject *handle = inst ? PyObject_New(PassHandleObject, &PassHandleType) : NULL;
  if (handle) {
    handle->pass = pass;
    bool set = PyObject_SetAttrString(inst, "_nc_pass", (PyObject *)handle) == 0;
    for (size_t i = 0; set && i < pd->def.n_options; i++) {
      PyObject *v = option_value(pd, pass, i);
      set = v && PyObject_SetAttr(inst, PyTuple_GET_ITEM(pd->attrs, (Py_ssize_t)i), v) == 0;
      Py_XDECREF(v);
    }
    if (set) r = PyObject_CallMethod(inst, "run", "O", opobj);
  }
  if (r) {
    ok = r == Py_None || PyObject_IsTrue(r) == 1;
    if (!ok && nc_py_errors_emitted_here() == errors_before)
      nc_op_emit_error(op, "python pass '%s' returned failure", pd->def.argument);
  } else if (PyErr_Occurred()) {
    report_exception(pd, op);
  }
  if (handle) handle->pass = NULL;
  Py_XDECREF((PyObject *)handle);
  Py_XDECREF(r);
  Py_XDECREF(inst);
  Py_XDECREF(opobj);
  if (view) nc_py_view_close(view);
  PyErr_Clear();
  PyGILState_Release(gil);
  return ok;
}

/* Checks the options the registry cannot type (floats) when the pass is
 * created from a pipeline. */
static bool initialize_python_pass(nc_pass *pass, nc_context *ctx) {
  const py_pass_def *pd = (const py_pass_def *)nc_pass_get_def(pass);
  for (size_t i = 0; i < pd->def.n_options; i++) {
    if (!pd->is_float[i]) continue;
    const char *text = nc_pass_get_option_string(pass, pd->def.options[i].name);
    char *end = NULL;
    strtod(text, &end);
    if (!*text || *end) {
      nc_emit_error(ctx, nc_location_unknown(), "option '%s' of pass '%s' expects a number, got '%s'",
                    pd->def.options[i].name, pd->def.argument, text);
      return false;
    }
  }
  return true;
}

/* --- registration --------------------------------------------------------------------- */

static char *dup_str(PyObject *s, const char *what) {
  if (s == Py_None) return NULL;
  const char *t = PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : NULL;
  if (!t) {
    PyErr_Format(PyExc_TypeError, "register_pass: %s must be a str", what);
    return NULL;
  }
  char *r = strdup(t);
  if (!r) PyErr_NoMemory();
  return r;
}

/* One option spec (name, attribute, kind, default text, summary, choices or
 * None, min, max) into `o`. */
static bool read_option(PyObject *spec, nc_pass_option_def *o, bool *is_float, PyObject **attr) {
  PyObject *name, *kind, *deflt, *summary, *choices;
  long long min, max;
  if (!PyArg_ParseTuple(spec, "UUUUUOLL", &name, attr, &kind, &deflt, &summary, &choices, &min, &max)) return false;
  const char *k = PyUnicode_AsUTF8(kind);
  size_t ki = 0;
  while (ki < sizeof kinds / sizeof *kinds && strcmp(kinds[ki].name, k)) ki++;
  if (ki == sizeof kinds / sizeof *kinds) {
    PyErr_Format(PyExc_ValueError, "register_pass: unknown option kind '%s'", k);
    return false;
  }
  o->kind = kinds[ki].kind;
  *is_float = !strcmp(k, "float");
  o->min = min;
  o->max = max;
  if (!(o->name = dup_str(name, "an option name")) || !(o->default_value = dup_str(deflt, "a default")) ||
      !(o->summary = dup_str(summary, "a summary")))
    return false;
  if (o->kind == NC_PASS_OPT_ENUM) {
    PyObject *seq = PySequence_Fast(choices, "register_pass: choices must be a sequence of str");
    if (!seq) return false;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **vals = calloc((size_t)n + 1, sizeof *vals);
    for (Py_ssize_t i = 0; vals && i < n; i++)
      if (!(vals[i] = dup_str(PySequence_Fast_GET_ITEM(seq, i), "a choice"))) { Py_DECREF(seq); return false; }
    Py_DECREF(seq);
    if (!vals) { PyErr_NoMemory(); return false; }
    o->enum_values = vals;
  }
  return true;
}

PyObject *nc_py_register_pass(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cls, *argument, *name, *summary, *description, *anchor, *options, *stats;
  if (!PyArg_ParseTuple(args, "OUUOOOO!O!", &cls, &argument, &name, &summary, &description, &anchor, &PyTuple_Type,
                        &options, &PyTuple_Type, &stats))
    return NULL;
  if (!PyType_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "register_pass: expected a class");
    return NULL;
  }
  size_t n_opts = (size_t)PyTuple_GET_SIZE(options), n_stats = (size_t)PyTuple_GET_SIZE(stats);
  py_pass_def *pd = calloc(1, sizeof *pd);
  nc_pass_option_def *opts = calloc(n_opts + 1, sizeof *opts);
  nc_pass_stat_def *sdefs = calloc(n_stats + 1, sizeof *sdefs);
  bool *is_float = calloc(n_opts + 1, sizeof *is_float);
  PyObject *attrs = PyTuple_New((Py_ssize_t)n_opts);
  if (!pd || !opts || !sdefs || !is_float || !attrs) {
    PyErr_NoMemory();
    goto fail;
  }
  for (size_t i = 0; i < n_opts; i++) {
    PyObject *attr;
    if (!read_option(PyTuple_GET_ITEM(options, (Py_ssize_t)i), &opts[i], &is_float[i], &attr)) goto fail;
    Py_INCREF(attr);
    PyTuple_SET_ITEM(attrs, (Py_ssize_t)i, attr);
  }
  for (size_t i = 0; i < n_stats; i++) {
    PyObject *sname, *ssum;
    if (!PyArg_ParseTuple(PyTuple_GET_ITEM(stats, (Py_ssize_t)i), "UU", &sname, &ssum) ||
        !(sdefs[i].name = dup_str(sname, "a statistic name")) || !(sdefs[i].summary = dup_str(ssum, "a summary")))
      goto fail;
  }
  pd->def.argument = dup_str(argument, "argument");
  pd->def.name = dup_str(name, "name");
  pd->def.group = "Python";
  pd->def.summary = summary == Py_None ? "" : dup_str(summary, "summary");
  pd->def.description = description == Py_None ? "" : dup_str(description, "the description");
  pd->def.anchor = anchor == Py_None ? NULL : dup_str(anchor, "anchor");
  if (!pd->def.argument || !pd->def.name || !pd->def.summary || !pd->def.description ||
      (anchor != Py_None && !pd->def.anchor))
    goto fail;
  pd->def.options = opts;
  pd->def.n_options = n_opts;
  pd->def.stats = sdefs;
  pd->def.n_stats = n_stats;
  pd->def.initialize = initialize_python_pass;
  pd->def.run = run_python_pass;
  pd->is_float = is_float;
  pd->attrs = attrs;
  Py_INCREF(cls);
  pd->cls = cls;
  if (!nc_pass_register_unique(&pd->def)) {
    PyErr_Format(PyExc_ValueError, "register_pass: a pass or pipeline named '%s' is already registered",
                 pd->def.argument);
    Py_DECREF(cls);
    goto fail;
  }
  Py_INCREF(cls);
  return cls;
fail:
  /* the strings of a half-built definition are left to the process: a
   * failed registration is a programming error seen once */
  Py_XDECREF(attrs);
  free(is_float);
  free(sdefs);
  free(opts);
  free(pd);
  return NULL;
}

bool nc_py_extras_ready(void) {
  return PyType_Ready(&PassHandleType) == 0 && nc_py_rewrite_ready() && nc_py_interp_ready();
}

bool nc_py_extras_add_types(PyObject *m) {
  Py_INCREF(&PassHandleType);
  if (PyModule_AddObject(m, "PassHandle", (PyObject *)&PassHandleType) < 0) {
    Py_DECREF(&PassHandleType);
    return false;
  }
  return nc_py_rewrite_add_types(m) && nc_py_interp_add_types(m);
}
