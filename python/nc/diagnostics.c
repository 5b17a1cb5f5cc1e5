/* diagnostics.c: nc's diagnostics as Python records (nc.Diagnostic: severity,
 * text as nc prints it, file, line, col, message, notes), handlers written
 * in Python (`with ctx.diagnostic_handler(fn):`), and emitting diagnostics
 * at an op from Python (a pass written in Python reports errors with a
 * location and notes, as C passes do). A handler may be called from a
 * worker thread of a parallel pipeline: it takes the GIL, which the thread
 * that started the pipeline released. */
#include "extras.h"
#include "handles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PyObject *DiagnosticClass; /* nc.Diagnostic, set by nc/__init__.py */
static _Thread_local size_t errors_emitted;

size_t nc_py_errors_emitted_here(void) { return errors_emitted; }

PyObject *nc_py_set_diagnostic_class(PyObject *self, PyObject *cls) {
  (void)self;
  if (!PyCallable_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "expected a class");
    return NULL;
  }
  Py_INCREF(cls);
  Py_XSETREF(DiagnosticClass, cls);
  Py_RETURN_NONE;
}

static const char *severity_text(nc_severity s) {
  switch (s) {
  case NC_SEV_ERROR: return "error";
  case NC_SEV_WARNING: return "warning";
  case NC_SEV_NOTE: return "note";
  default: return "remark";
  }
}

PyObject *nc_py_diagnostic(const nc_diag *d, nc_context *ctx) {
  if (!DiagnosticClass) {
    PyErr_SetString(PyExc_RuntimeError, "nc.Diagnostic is not set (import nc, not nc._nc)");
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return PyErr_NoMemory();
  nc_diag_print(d, ctx, f);
  fclose(f);
  nc_ident *file = NULL;
  unsigned line = 0, col = 0;
  bool located = nc_location_get_file_line_col(ctx, nc_diag_get_loc(d), &file, &line, &col) && file;
  PyObject *notes = PyList_New(0);
  for (size_t i = 0; notes && i < nc_diag_get_num_notes(d); i++) {
    PyObject *n = nc_py_diagnostic(nc_diag_get_note(d, i), ctx);
    if (!n || PyList_Append(notes, n) < 0) Py_CLEAR(notes);
    Py_XDECREF(n);
  }
  PyObject *r = NULL;
  if (notes) {
    PyObject *fname = located ? PyUnicode_FromStringAndSize(nc_ident_str(file), (Py_ssize_t)nc_ident_len(file))
                              : (Py_INCREF(Py_None), Py_None);
    if (fname)
      r = PyObject_CallFunction(DiagnosticClass, "ss#NIIsN", severity_text(nc_diag_get_severity(d)), buf,
                                (Py_ssize_t)len, fname, line, col, nc_diag_get_message(d), notes);
    else
      Py_DECREF(notes);
  }
  free(buf);
  return r;
}

/* --- handlers written in Python ------------------------------------------------------- */

typedef struct handler_rec {
  struct handler_rec *next;
  nc_context *ctx;
  unsigned id;
  PyObject *fn;
} handler_rec;

static handler_rec *handlers; /* changed with the GIL held */

static bool call_handler(const nc_diag *d, void *user) {
  handler_rec *h = user;
  PyGILState_STATE gil = PyGILState_Ensure();
  bool consumed = false;
  PyObject *diag = nc_py_diagnostic(d, h->ctx);
  PyObject *r = diag ? PyObject_CallOneArg(h->fn, diag) : NULL;
  if (r) consumed = PyObject_IsTrue(r) == 1;
  else PyErr_WriteUnraisable(h->fn); /* a handler cannot raise into C: reported, and the diagnostic goes on */
  PyErr_Clear();
  Py_XDECREF(r);
  Py_XDECREF(diag);
  PyGILState_Release(gil);
  return consumed;
}

PyObject *nc_py_push_diagnostic_handler(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ctxobj, *fn;
  if (!PyArg_ParseTuple(args, "OO", &ctxobj, &fn)) return NULL;
  nc_context *ctx = nc_py_context_get(ctxobj);
  if (!ctx) return NULL;
  if (!PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "diagnostic_handler: expected a callable fn(diagnostic)");
    return NULL;
  }
  handler_rec *h = calloc(1, sizeof *h);
  if (!h) return PyErr_NoMemory();
  Py_INCREF(fn);
  h->fn = fn;
  h->ctx = ctx;
  h->id = nc_context_push_diag_handler(ctx, call_handler, h);
  h->next = handlers;
  handlers = h;
  return PyLong_FromUnsignedLong(h->id);
}

PyObject *nc_py_pop_diagnostic_handler(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ctxobj;
  unsigned id;
  if (!PyArg_ParseTuple(args, "OI", &ctxobj, &id)) return NULL;
  nc_context *ctx = nc_py_context_get(ctxobj);
  if (!ctx) return NULL;
  for (handler_rec **p = &handlers; *p; p = &(*p)->next) {
    handler_rec *h = *p;
    if (h->ctx == ctx && h->id == id) {
      nc_context_pop_diag_handler(ctx, id);
      *p = h->next;
      Py_DECREF(h->fn);
      free(h);
      Py_RETURN_NONE;
    }
  }
  PyErr_Format(PyExc_ValueError, "pop_diagnostic_handler: no handler %u on this context", id);
  return NULL;
}

PyObject *nc_py_context_diagnostic_handler(PyObject *self, PyObject *fn) {
  PyObject *nc = PyImport_ImportModule("nc");
  PyObject *r = nc ? PyObject_CallMethod(nc, "_DiagnosticHandler", "OO", self, fn) : NULL;
  Py_XDECREF(nc);
  return r;
}

/* --- emitting from Python ----------------------------------------------------------- */

static bool parse_severity(const char *s, nc_severity *out) {
  static const struct {
    const char *name;
    nc_severity sev;
  } names[] = {{"error", NC_SEV_ERROR}, {"warning", NC_SEV_WARNING}, {"remark", NC_SEV_REMARK}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(s, names[i].name)) {
      *out = names[i].sev;
      return true;
    }
  PyErr_Format(PyExc_ValueError, "severity must be 'error', 'warning' or 'remark', not '%s'", s);
  return false;
}

PyObject *nc_py_emit_diagnostic(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *opobj, *notes;
  const char *sevname, *message;
  if (!PyArg_ParseTuple(args, "OssO", &opobj, &sevname, &message, &notes)) return NULL;
  nc_op *op = nc_py_operation_get(opobj);
  nc_severity sev;
  if (!op || !parse_severity(sevname, &sev)) return NULL;
  PyObject *seq = PySequence_Fast(notes, "notes must be a sequence of (op or None, text)");
  if (!seq) return NULL;
  nc_context *ctx = nc_op_get_context(op);
  nc_diag *d = nc_diag_create(ctx, sev, nc_op_get_loc(op), "%s", message);
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i), *at, *text;
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 || !PyUnicode_Check(text = PyTuple_GET_ITEM(item, 1))) {
      PyErr_Format(PyExc_TypeError, "notes[%zd]: expected (op or None, text)", i);
      goto fail;
    }
    at = PyTuple_GET_ITEM(item, 0);
    nc_location loc = nc_location_unknown();
    if (at != Py_None) {
      nc_op *note_op = nc_py_operation_get(at);
      if (!note_op) goto fail;
      loc = nc_op_get_loc(note_op);
    }
    const char *t = PyUnicode_AsUTF8(text);
    if (!t) goto fail;
    nc_diag_attach_note(d, loc, "%s", t);
  }
  Py_DECREF(seq);
  errors_emitted += sev == NC_SEV_ERROR;
  Py_BEGIN_ALLOW_THREADS /* a handler written in Python takes the GIL itself */
  nc_diag_emit(d);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
fail:
  nc_diag_destroy(d);
  Py_DECREF(seq);
  return NULL;
}
