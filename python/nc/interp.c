/* interp.c: the reference interpreter and the ONNX importer/exporter
 * in-process, for nc.run and nc.ir.Module.from_onnx / to_onnx. Inputs are
 * read through the buffer protocol and handed to the interpreter in place
 * (a C-contiguous array is not copied); each output is a Tensor object
 * that owns the interpreter's result and exposes it through the buffer
 * protocol, so numpy.asarray(tensor) is a view, not a copy. The GIL is
 * released while the interpreter works, on a copy of the module (so other
 * threads may change or destroy it meanwhile); errors are the interpreter's
 * diagnostics (at the op or argument), raised as nc.DiagnosticError. */
#include "extras.h"
#include "handles.h"

#include <stdlib.h>
#include <string.h>

#include "nc/dialects/graph/interp.h"
#include "nc/dialects/graph/onnx.h"

/* --- Tensor: an interpreter result ------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  nc_tensor *t;
  Py_ssize_t shape[NC_TENSOR_MAX_RANK], strides[NC_TENSOR_MAX_RANK];
} TensorObject;

/* The buffer-protocol format of a dtype (sub-byte ints are stored one per
 * byte, sign- or zero-extended; bf16 is exposed as its raw uint16 bits). */
static const char *format_of(nc_dtype dt) {
  static const char *const formats[NC_DT_COUNT] = {
    [NC_DT_F32] = "f", [NC_DT_F64] = "d",  [NC_DT_F16] = "e",  [NC_DT_BF16] = "H", [NC_DT_I8] = "b",
    [NC_DT_U8] = "B",  [NC_DT_I16] = "h",  [NC_DT_U16] = "H",  [NC_DT_I32] = "i",  [NC_DT_U32] = "I",
    [NC_DT_I64] = "q", [NC_DT_U64] = "Q",  [NC_DT_BOOL] = "?", [NC_DT_I4] = "b",   [NC_DT_U4] = "B",
    [NC_DT_I2] = "b",  [NC_DT_U2] = "B",
  };
  return (unsigned)dt < NC_DT_COUNT ? formats[dt] : NULL;
}

static int Tensor_getbuffer(TensorObject *self, Py_buffer *view, int flags) {
  nc_tensor *t = self->t;
  Py_ssize_t item = (Py_ssize_t)nc_dtype_size(t->dtype), stride = item;
  for (int d = t->rank - 1; d >= 0; d--) {
    self->shape[d] = (Py_ssize_t)t->shape[d];
    self->strides[d] = stride;
    stride *= (Py_ssize_t)t->shape[d];
  }
  view->buf = t->data;
  view->obj = (PyObject *)self;
  Py_INCREF(self);
  view->len = (Py_ssize_t)nc_tensor_num_bytes(t);
  view->readonly = 0;
  view->itemsize = item;
  view->format = (flags & PyBUF_FORMAT) ? (char *)format_of(t->dtype) : NULL;
  view->ndim = t->rank;
  view->shape = (flags & PyBUF_ND) ? self->shape : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? self->strides : NULL;
  view->suboffsets = NULL;
  view->internal = NULL;
  return 0;
}

static PyBufferProcs Tensor_as_buffer = {(getbufferproc)Tensor_getbuffer, NULL};

static void Tensor_dealloc(TensorObject *self) {
  nc_tensor_destroy(self->t);
  PyObject_Free(self);
}

static PyObject *Tensor_dtype(TensorObject *self, void *unused) {
  (void)unused;
  return PyUnicode_FromString(nc_dtype_name(self->t->dtype));
}

static PyGetSetDef Tensor_getset[] = {
  {"dtype", (getter)Tensor_dtype, NULL, "nc's name of the element type ('f32', 'i8', 'bf16', ...).", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TensorType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nc._nc.Tensor",
  .tp_basicsize = sizeof(TensorObject),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "An interpreter result; numpy.asarray(t) views its data without a copy.",
  .tp_dealloc = (destructor)Tensor_dealloc,
  .tp_as_buffer = &Tensor_as_buffer,
  .tp_getset = Tensor_getset,
};

/* --- interpret --------------------------------------------------------------------------- */

static bool dtype_of_format(const char *f, Py_ssize_t itemsize, nc_dtype *dt) {
  if (!f) f = "B";
  if (*f == '<' || *f == '=' || *f == '@') f++;
  if (strlen(f) != 1) return false;
  switch (*f) {
  case 'f': *dt = NC_DT_F32; return true;
  case 'd': *dt = NC_DT_F64; return true;
  case 'e': *dt = NC_DT_F16; return true;
  case 'b': *dt = NC_DT_I8; return true;
  case 'B': *dt = NC_DT_U8; return true;
  case 'h': *dt = NC_DT_I16; return true;
  case 'H': *dt = NC_DT_U16; return true;
  case '?': *dt = NC_DT_BOOL; return true;
  case 'i': case 'l': case 'q': *dt = itemsize == 8 ? NC_DT_I64 : NC_DT_I32; return itemsize == 4 || itemsize == 8;
  case 'I': case 'L': case 'Q': *dt = itemsize == 8 ? NC_DT_U64 : NC_DT_U32; return itemsize == 4 || itemsize == 8;
  default: return false;
  }
}

static nc_op *find_function(nc_op *module, const char *name) {
  if (nc_op_is(module, "func.func")) return module;
  nc_op *only = NULL, *main_fn = NULL;
  size_t n = 0;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op)) {
    if (!nc_op_is(op, "func.func") || nc_region_is_empty(nc_op_get_region(op, 0))) continue;
    nc_attr *a = nc_op_get_attr_str(op, "sym_name");
    const char *fn = a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : "";
    if (name && !strcmp(fn, name)) return op;
    if (!strcmp(fn, "main")) main_fn = op;
    only = op;
    n++;
  }
  if (name) {
    PyErr_Format(PyExc_ValueError, "run: no function named '%s'", name);
    return NULL;
  }
  if (n == 1) return only;
  if (main_fn) return main_fn;
  PyErr_SetString(PyExc_ValueError,
                  n ? "run: several functions and none named 'main': pass function=" : "run: the module has no function");
  return NULL;
}

PyObject *nc_py_interpret(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *modobj, *inputs, *ctxobj;
  const char *fname = NULL;
  if (!PyArg_ParseTuple(args, "OOO|z", &modobj, &ctxobj, &inputs, &fname)) return NULL;
  nc_op *orig = nc_py_module_get(modobj);
  if (!orig || !nc_py_context_get(ctxobj)) return NULL;
  if (!find_function(orig, fname)) return NULL;
  /* the interpreter reads the IR without the GIL: a copy, so another
   * thread may change or destroy the module meanwhile */
  nc_op *module = nc_op_clone(orig, NULL), *func = find_function(module, fname);
  PyObject *seq = PySequence_Fast(inputs, "run: inputs must be a sequence of arrays");
  if (!seq) {
    nc_op_destroy(module);
    return NULL;
  }
  size_t n = (size_t)PySequence_Fast_GET_SIZE(seq), got = 0;
  Py_buffer *bufs = PyMem_Calloc(n + 1, sizeof *bufs);
  nc_tensor *tensors = PyMem_Calloc(n + 1, sizeof *tensors);
  const nc_tensor **ptrs = PyMem_Calloc(n + 1, sizeof *ptrs);
  PyObject *result = NULL;
  nc_tensor **outs = NULL;
  size_t n_outs = 0;
  if (!bufs || !tensors || !ptrs) { PyErr_NoMemory(); goto done; }
  for (; got < n; got++) {
    PyObject *x = PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)got);
    if (PyObject_GetBuffer(x, &bufs[got], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "run: inputs[%zu] must be a C-contiguous array, not %s", got, Py_TYPE(x)->tp_name);
      goto done;
    }
    nc_tensor *t = &tensors[got];
    if (!dtype_of_format(bufs[got].format, bufs[got].itemsize, &t->dtype) || bufs[got].ndim > NC_TENSOR_MAX_RANK) {
      PyErr_Format(PyExc_TypeError, "run: inputs[%zu] has an element type or rank nc does not know (format '%s')",
                   got + 1 - 1, bufs[got].format ? bufs[got].format : "B");
      got++;
      goto done;
    }
    t->rank = bufs[got].ndim;
    for (int d = 0; d < t->rank; d++) t->shape[d] = bufs[got].shape[d];
    t->data = bufs[got].buf; /* borrowed: never freed through the tensor */
    ptrs[got] = t;
  }
  bool ok;
  nc_interp *it = NULL;
  Py_BEGIN_ALLOW_THREADS
  it = nc_interp_create(func);
  ok = it && nc_interp_run(it, n, ptrs, &n_outs, &outs);
  nc_interp_destroy(it);
  nc_op_destroy(module);
  module = NULL;
  Py_END_ALLOW_THREADS
  if (!ok) {
    nc_py_raise_diagnostics(ctxobj, "the interpreter failed");
    goto done;
  }
  nc_py_clear_diagnostics(ctxobj);
  result = PyList_New((Py_ssize_t)n_outs);
  for (size_t i = 0; result && i < n_outs; i++) {
    TensorObject *t = PyObject_New(TensorObject, &TensorType);
    if (!t) { Py_CLEAR(result); break; }
    t->t = outs[i];
    outs[i] = NULL;
    PyList_SET_ITEM(result, (Py_ssize_t)i, (PyObject *)t);
  }
done:
  if (module) nc_op_destroy(module);
  nc_interp_outputs_destroy(n_outs, outs);
  for (size_t i = 0; i < got && bufs; i++) PyBuffer_Release(&bufs[i]);
  PyMem_Free(bufs);
  PyMem_Free(tensors);
  PyMem_Free(ptrs);
  Py_DECREF(seq);
  return result;
}

/* --- ONNX -------------------------------------------------------------------------------- */

PyObject *nc_py_import_onnx(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ctxobj, *src;
  const char *label, *base_dir = NULL;
  if (!PyArg_ParseTuple(args, "OOs|z", &ctxobj, &src, &label, &base_dir)) return NULL;
  nc_context *ctx = nc_py_context_get(ctxobj);
  if (!ctx) return NULL;
  PyObject *path = NULL;
  Py_buffer data = {0};
  if (PyUnicode_Check(src) || PyObject_CheckBuffer(src) == 0) {
    if (!PyUnicode_FSConverter(src, &path)) return NULL;
  } else if (PyObject_GetBuffer(src, &data, PyBUF_SIMPLE) < 0) {
    return NULL;
  }
  nc_op *module = NULL;
  Py_BEGIN_ALLOW_THREADS
  module = path ? nc_onnx_import_file(ctx, PyBytes_AS_STRING(path))
                : nc_onnx_import_from_memory(ctx, data.buf, (size_t)data.len, label, base_dir);
  if (module && !nc_op_verify(module)) {
    nc_op_destroy(module);
    module = NULL;
  }
  Py_END_ALLOW_THREADS
  if (path) Py_DECREF(path);
  else PyBuffer_Release(&data);
  if (!module) return nc_py_raise_diagnostics(ctxobj, "cannot import the ONNX model");
  nc_py_clear_diagnostics(ctxobj);
  return nc_py_module_wrap(ctxobj, module);
}

PyObject *nc_py_export_onnx(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *modobj, *ctxobj;
  const char *fname = NULL;
  long long opset = 0;
  if (!PyArg_ParseTuple(args, "OO|zL", &modobj, &ctxobj, &fname, &opset)) return NULL;
  nc_op *module = nc_py_module_get(modobj);
  if (!module || !nc_py_context_get(ctxobj)) return NULL;
  nc_onnx_export_options opts = {.opset = opset, .func_name = fname};
  size_t len = 0;
  void *buf;
  Py_BEGIN_ALLOW_THREADS
  buf = nc_onnx_export_to_memory(module, &opts, &len);
  Py_END_ALLOW_THREADS
  if (!buf) return nc_py_raise_diagnostics(ctxobj, "cannot export the module as ONNX");
  nc_py_clear_diagnostics(ctxobj);
  PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
  free(buf);
  return r;
}

bool nc_py_interp_ready(void) { return PyType_Ready(&TensorType) == 0; }

bool nc_py_interp_add_types(PyObject *m) {
  Py_INCREF(&TensorType);
  if (PyModule_AddObject(m, "Tensor", (PyObject *)&TensorType) < 0) {
    Py_DECREF(&TensorType);
    return false;
  }
  return true;
}
