/* runtime.c: _nc.simulate, a target binary run on its simulator inside the
 * Python process through the host runtime ABI (nc/runtime/nc_runtime.h), as
 * nc-run does, without a temporary file or a child process. Inputs are read
 * through the buffer protocol (C-contiguous float32 or int8 arrays, no
 * copy); the GIL is released while the simulator runs. */
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/nc_trace.h"

/* Raises nc.DiagnosticError("what: message") with one error diagnostic. */
static PyObject *raise_error(const char *what, const char *message) {
  PyObject *msg = PyUnicode_FromFormat("%s: error: %s", what, message);
  if (!msg) return NULL;
  PyObject *exc = PyObject_CallFunction(nc_py_diagnostic_error(), "O[(sO)]", msg, "error", msg);
  if (exc) {
    PyErr_SetObject(nc_py_diagnostic_error(), exc);
    Py_DECREF(exc);
  }
  Py_DECREF(msg);
  return NULL;
}

/* Writes input `i` from `buf` and returns its batch N (0 after an error). */
static size_t write_input(nc_device *dev, size_t i, const Py_buffer *buf, bool *as_int8) {
  nc_device_tensor_info info;
  nc_device_input_info(dev, i, &info);
  bool is_f32 = buf->format && !strcmp(buf->format, "f"), is_i8 = buf->format && !strcmp(buf->format, "b");
  bool ok = (is_f32 || is_i8) && buf->ndim == info.rank && buf->shape[0] > 0 && buf->shape[0] % info.dims[0] == 0;
  for (int d = 1; ok && d < buf->ndim; d++)
    ok = buf->shape[d] == info.dims[d];
  if (!ok) {
    char what[64];
    snprintf(what, sizeof what, "inputs[%zu]", i);
    PyObject *want = PyUnicode_FromString("");
    for (int d = 0; want && d < info.rank; d++)
      Py_SETREF(want, PyUnicode_FromFormat("%U%s%lld", want, d ? ", " : "", (long long)info.dims[d]));
    if (!want) return 0;
    PyObject *text = PyUnicode_FromFormat("'%s' must be float32 or int8 of shape (%U) (or a leading dim N times %lld)",
                                          info.name, want, (long long)info.dims[0]);
    Py_DECREF(want);
    if (text) raise_error(what, PyUnicode_AsUTF8(text));
    Py_XDECREF(text);
    return 0;
  }
  *as_int8 &= is_i8;
  size_t n = (size_t)(buf->len / buf->itemsize);
  int rc = is_i8 ? nc_device_write_input(dev, i, buf->buf, n) : nc_device_write_input_f32(dev, i, buf->buf, n);
  if (rc) {
    char what[64];
    snprintf(what, sizeof what, "inputs[%zu]", i);
    raise_error(what, nc_device_error());
    return 0;
  }
  return (size_t)(buf->shape[0] / info.dims[0]);
}

/* Output `k` as (bytearray, shape tuple): writable, so NumPy wraps it without a copy. */
static PyObject *read_output(nc_device *dev, size_t k, size_t batch, bool as_int8) {
  nc_device_tensor_info info;
  nc_device_output_info(dev, k, &info);
  size_t n = info.elements * batch;
  PyObject *data = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * (as_int8 ? 1 : sizeof(float))));
  PyObject *shape = PyTuple_New(info.rank);
  if (!data || !shape) goto fail;
  for (int d = 0; d < info.rank; d++) {
    PyObject *dim = PyLong_FromLongLong(d ? info.dims[d] : info.dims[d] * (long long)batch);
    if (!dim) goto fail;
    PyTuple_SET_ITEM(shape, d, dim);
  }
  void *dst = PyByteArray_AS_STRING(data);
  if (as_int8 ? nc_device_read_output(dev, k, dst, n) : nc_device_read_output_f32(dev, k, dst, n)) {
    raise_error("simulate", nc_device_error());
    goto fail;
  }
  return Py_BuildValue("(NN)", data, shape);
fail:
  Py_XDECREF(data);
  Py_XDECREF(shape);
  return NULL;
}

/* The device's figures as JSON text. */
static PyObject *stats_json(const nc_device *dev) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return PyErr_NoMemory();
  int rc = nc_device_write_stats_json(dev, f);
  fclose(f);
  PyObject *r = rc ? raise_error("simulate", "cannot write the figures") : PyUnicode_FromStringAndSize(text, (Py_ssize_t)len);
  free(text);
  return r;
}

PyObject *nc_py_simulate(PyObject *self, PyObject *args) {
  (void)self;
  Py_buffer bin;
  PyObject *inputs, *options;
  const char *trace_path = NULL;
  unsigned long long trace_max = 0;
  if (!PyArg_ParseTuple(args, "y*O!O!zK", &bin, &PyList_Type, &inputs, &PyDict_Type, &options, &trace_path, &trace_max))
    return NULL;
  nc_device *dev = nc_device_open_memory(bin.buf, (size_t)bin.len);
  PyBuffer_Release(&bin);
  if (!dev) return raise_error("binary", nc_device_error());
  PyObject *result = NULL, *outputs = NULL;
  FILE *trace_file = NULL;
  nc_trace *trace = NULL;
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (PyDict_Next(options, &pos, &key, &value)) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL, *v = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : NULL;
    if (!k || !v) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "simulate: options must map str to str");
      goto done;
    }
    if (nc_device_set_option(dev, k, v)) {
      raise_error(k, nc_device_error());
      goto done;
    }
  }
  size_t n_in = nc_device_num_inputs(dev), n_out = nc_device_num_outputs(dev), batch = 0;
  if ((size_t)PyList_GET_SIZE(inputs) != n_in) {
    PyObject *text = PyUnicode_FromFormat("the binary takes %zu input(s), %zd given", n_in, PyList_GET_SIZE(inputs));
    if (text) raise_error("inputs", PyUnicode_AsUTF8(text));
    Py_XDECREF(text);
    goto done;
  }
  bool as_int8 = true;
  for (size_t i = 0; i < n_in; i++) {
    Py_buffer buf;
    if (PyObject_GetBuffer(PyList_GET_ITEM(inputs, i), &buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) goto done;
    size_t b = write_input(dev, i, &buf, &as_int8);
    PyBuffer_Release(&buf);
    if (!b) goto done;
    if (i && b != batch) {
      raise_error("inputs", "every input must hold the same number of inferences");
      goto done;
    }
    batch = b;
  }
  if (trace_path) { /* opened before the run, so a bad path fails fast */
    if (!(trace_file = fopen(trace_path, "w"))) {
      PyErr_SetFromErrnoWithFilename(PyExc_OSError, trace_path);
      goto done;
    }
    trace = nc_trace_create(trace_file, trace_max);
    if (!trace || nc_device_set_trace(dev, trace)) {
      raise_error("trace", trace ? nc_device_error() : "cannot start the trace");
      goto done;
    }
  }
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nc_device_run(dev);
  Py_END_ALLOW_THREADS
  if (rc) {
    raise_error("simulate", nc_device_error());
    goto done;
  }
  if (trace) {
    nc_device_set_trace(dev, NULL);
    bool written = nc_trace_finish(trace);
    trace = NULL;
    if (fclose(trace_file) != 0 || !written) {
      trace_file = NULL;
      raise_error(trace_path, "cannot write the trace");
      goto done;
    }
    trace_file = NULL;
  }
  if (!(outputs = PyList_New((Py_ssize_t)n_out))) goto done;
  for (size_t k = 0; k < n_out; k++) {
    PyObject *o = read_output(dev, k, batch, as_int8);
    if (!o) goto done;
    PyList_SET_ITEM(outputs, (Py_ssize_t)k, o);
  }
  PyObject *stats = stats_json(dev);
  if (stats) result = Py_BuildValue("(ON)", outputs, stats);
done:
  if (trace) {
    nc_device_set_trace(dev, NULL);
    nc_trace_destroy(trace);
  }
  if (trace_file) fclose(trace_file);
  Py_XDECREF(outputs);
  nc_device_destroy(dev);
  return result;
}
