/* compile.c: nc.compile in-process. It drives the target API
 * (nc/targets/targets.h) as nc-compile does: the target's options checked
 * by name, its pipeline (up to an IR level, or to the end), then the
 * binary, the IR at that level, or one of the target's own outputs. The
 * command-line tool only adds argument parsing and file writing around
 * the same calls. A module that already names a target (nc.target) is not
 * lowered again. The module given is cloned first (the caller's stays as
 * it was); the GIL is released while the pipeline and the printer run;
 * errors are the diagnostics of the context, raised as nc.DiagnosticError.
 * What passes print (nc_pass_printf: the mixed-precision table) and the
 * timing report go to the result's reports, not to the process's stderr. */
#include "extras.h"
#include "handles.h"
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/targets/target.h"
#include "nc/targets/targets.h"

/* Raises nc.DiagnosticError with one diagnostic "error: <text>". */
static PyObject *raise_text(PyObject *ctxobj, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  nc_py_clear_diagnostics(ctxobj);
  PyObject *exc = PyObject_CallFunction(nc_py_diagnostic_error(), "s[(ss)]", buf, "error", buf);
  if (exc) {
    PyErr_SetObject(nc_py_diagnostic_error(), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

static int level_index(const nc_target_def *t, const char *s) {
  for (size_t i = 0; i < t->n_levels; i++)
    if (!strcmp(t->levels[i], s)) return (int)i;
  return -1;
}

typedef struct {
  const nc_target_def *target;
  nc_target_options *options;
  const char *emit, *input_shapes;
  int level;                             /* index of `emit` among the levels, or -1 */
  const nc_target_emit_def *extra;       /* `emit` as a target output, or NULL */
  nc_timing *timing;
  nc_pass_manager *pm; /* kept until the timing report is printed (it reads its clocks) */
  FILE *pass_out;      /* what passes print (nc_pass_printf: the mixed-precision table), for `reports` */
  /* results */
  char *text;
  size_t len;
  uint8_t *image;
  size_t size;
} job;

/* The work without the GIL: false after diagnostics. */
static bool run_job(nc_context *ctx, nc_op *module, job *j) {
  bool ok = true;
  if (nc_op_get_attr_str(module, "nc.target")) { /* the IR says which target it is for */
    const nc_target_def *mt = nc_target_of_module(module, true);
    if (!mt) return false;
    j->target = mt;
    if (j->level >= 0 && j->level + 1 < (int)mt->n_levels) {
      nc_emit_error(ctx, nc_location_unknown(), "the model is already lowered for target '%s'; emit='%s' is behind it",
                    mt->name, j->emit);
      return false;
    }
  } else {
    nc_pass_manager *pm = NULL;
    if (j->input_shapes) {
      pm = nc_pass_manager_create(ctx, "builtin.module");
      char *opts = malloc(strlen(j->input_shapes) + 8);
      if (!opts) return false;
      sprintf(opts, "shapes=%s", j->input_shapes);
      nc_pass_run_options ro = nc_pass_run_options_default();
      ok = nc_pass_manager_add_pass(nc_pass_manager_nest(pm, "func.func"), "graph-set-input-shape", opts) &&
           nc_pass_manager_run(pm, module, &ro);
      free(opts);
      nc_pass_manager_destroy(pm);
      if (!ok) return false;
    }
    pm = nc_target_create_pipeline(ctx, j->options, j->level >= 0 ? j->emit : NULL);
    if (!pm) return false;
    nc_pass_run_options ro = nc_pass_run_options_default();
    ro.print_stream = j->pass_out;
    if (j->timing) {
      ro.timing = ro.timing_tree = true;
      nc_pass_manager_set_timing(pm, j->timing);
    }
    ok = nc_pass_manager_run(pm, module, &ro);
    j->pm = pm;
    if (!ok) return false;
  }
  FILE *f = NULL;
  if (j->level >= 0 || j->extra) {
    f = open_memstream(&j->text, &j->len);
    if (!f) return false;
  }
  if (j->level >= 0) {
    nc_print_flags flags = {0};
    nc_op_print(module, f, &flags);
  } else if (j->extra) {
    ok = j->extra->emit(module, f, j->target->userData);
  } else {
    j->image = nc_target_print_binary(module, &j->size);
    ok = j->image != NULL;
  }
  if (f) fclose(f);
  return ok;
}

PyObject *nc_py_compile_module(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *modobj, *ctxobj, *options;
  const char *target_name, *emit, *input_shapes = NULL;
  int timing = 0;
  if (!PyArg_ParseTuple(args, "OOssO!|zp", &modobj, &ctxobj, &target_name, &emit, &PyList_Type, &options,
                        &input_shapes, &timing))
    return NULL;
  nc_op *orig = nc_py_module_get(modobj);
  nc_context *ctx = orig ? nc_py_context_get(ctxobj) : NULL;
  if (!ctx) return NULL;
  job j = {.emit = emit, .input_shapes = input_shapes, .level = -1};
  j.target = nc_target_lookup(target_name);
  if (!j.target) return raise_text(ctxobj, "unknown target '%s'", target_name);
  j.level = level_index(j.target, emit);
  j.extra = nc_target_find_emit(j.target, emit);
  if (j.level < 0 && !j.extra && strcmp(emit, "binary"))
    return raise_text(ctxobj, "target '%s' cannot emit '%s'", j.target->name, emit);
  bool lowered = nc_op_get_attr_str(orig, "nc.target") != NULL;
  if (lowered && (PyList_GET_SIZE(options) || input_shapes))
    return raise_text(ctxobj, "the model is already lowered for a target: options and input shapes have no effect");
  j.options = nc_target_options_create(j.target);
  PyObject *result = NULL;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(options); i++) {
    const char *name, *value;
    char err[512];
    if (!PyArg_ParseTuple(PyList_GET_ITEM(options, i), "ss", &name, &value)) goto done;
    if (!nc_target_options_set(j.options, name, value, err, sizeof err)) {
      raise_text(ctxobj, "%s", err);
      goto done;
    }
  }
  if (timing) j.timing = nc_timing_create();
  nc_op *module = nc_op_clone(orig, NULL);
  bool ok;
  char *report = NULL;
  size_t report_len = 0;
  Py_BEGIN_ALLOW_THREADS
  double w0 = nc_time_wall();
  j.pass_out = open_memstream(&report, &report_len); /* NULL (no memory): the passes print on stderr */
  ok = run_job(ctx, module, &j);
  if (ok && j.timing && j.pass_out)
    nc_timing_print(j.timing, true, nc_time_wall() - w0, 0, j.pass_out);
  if (j.pass_out) fclose(j.pass_out);
  nc_op_destroy(module);
  if (j.timing) nc_timing_destroy(j.timing); /* before the pass manager, whose clocks it points to */
  j.timing = NULL;
  if (j.pm) nc_pass_manager_destroy(j.pm);
  Py_END_ALLOW_THREADS
  if (!ok) {
    nc_py_raise_diagnostics(ctxobj, "compilation failed");
  } else {
    nc_py_clear_diagnostics(ctxobj);
    PyObject *data = j.image ? PyBytes_FromStringAndSize((const char *)j.image, (Py_ssize_t)j.size)
                             : PyUnicode_DecodeUTF8(j.text ? j.text : "", (Py_ssize_t)j.len, "replace");
    PyObject *rep = report && report_len ? PyUnicode_DecodeUTF8(report, (Py_ssize_t)report_len, "replace")
                                         : (Py_INCREF(Py_None), Py_None);
    if (data && rep) result = Py_BuildValue("(sOsO)", j.image ? "binary" : j.level >= 0 ? "ir" : "output", data,
                                            j.target->name, rep);
    Py_XDECREF(data);
    Py_XDECREF(rep);
  }
  free(report);
done:
  free(j.text);
  free(j.image);
  if (j.timing) nc_timing_destroy(j.timing);
  nc_target_options_destroy(j.options);
  return result;
}
