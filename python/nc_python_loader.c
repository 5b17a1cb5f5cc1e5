/* nc_python_loader.c: lets nc-opt run passes written in Python
 * (`nc-opt --load-python-pass=file.py`) without linking Python into the
 * tool. nc-opt dlopens this library (lib/nc_python_loader.so beside its
 * bin/) only when the flag is given. The library embeds Debian's CPython
 * and carries the `nc` extension's code compiled in, but not libnc: like a
 * plugin, its nc_* references bind to the tool, so Python passes register
 * into nc-opt's own pass registry and run on its IR. The extension module
 * is installed as `nc._nc` before `import nc`, so the package's Python
 * files (build/python, or lib/python3/dist-packages once installed) use it
 * instead of loading _nc.so, which would bring a second copy of nc.
 * Python is never finalized: registered passes point into it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nc/plugin.h"

PyMODINIT_FUNC PyInit__nc(void);

/** Runs the Python file `path` (which registers passes with
 * nc.passmanager.register_pass) in the embedded interpreter, starting it
 * on first use. Returns false with a one-line message in `err`; the
 * Python traceback, if any, goes to stderr. */
NC_PLUGIN_EXPORT bool nc_python_load_pass_file(const char *path, char *err, size_t errlen);

/* The directory holding the `nc` package: build/python beside build/lib,
 * or lib/python3/dist-packages in an installed prefix. */
static bool package_dir(char *out, size_t len) {
  Dl_info info;
  if (!dladdr((void *)nc_python_load_pass_file, &info) || !info.dli_fname) return false;
  char self[4096];
  snprintf(self, sizeof self, "%s", info.dli_fname);
  const char *lib = dirname(self);
  static const char *const candidates[] = {"%s/../python", "%s/python3/dist-packages"};
  for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
    char init[4200];
    snprintf(out, len, candidates[i], lib);
    snprintf(init, sizeof init, "%s/nc/__init__.py", out);
    if (access(init, R_OK) == 0) return true;
  }
  return false;
}

static bool start_python(char *err, size_t errlen) {
  char dir[4096];
  if (!package_dir(dir, sizeof dir)) {
    snprintf(err, errlen, "cannot find the nc Python package beside the loader");
    return false;
  }
  /* nc-opt dlopened this library RTLD_LOCAL: make libpython's symbols
   * global, as a python executable's are, for extension modules (numpy) */
  Dl_info py;
  if (dladdr((void *)Py_InitializeFromConfig, &py) && py.dli_fname)
    dlopen(py.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0; /* Ctrl-C stays nc-opt's */
  config.parse_argv = 0;
  /* the interpreter the library was built for (not the first python3 on
   * PATH), so sys.path is its own: Debian's, with numpy */
  PyStatus st = PyConfig_SetBytesString(&config, &config.program_name, NC_PYTHON_EXECUTABLE);
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st)) {
    snprintf(err, errlen, "cannot start Python: %s", st.err_msg ? st.err_msg : "unknown error");
    return false;
  }
  bool ok = false;
  PyObject *ext = PyInit__nc(), *modules = PyImport_GetModuleDict(), *sys_path = PySys_GetObject("path");
  PyObject *d = PyUnicode_DecodeFSDefault(dir);
  if (ext && d && sys_path && PyList_Insert(sys_path, 0, d) == 0 && PyDict_SetItemString(modules, "nc._nc", ext) == 0) {
    PyObject *nc = PyImport_ImportModule("nc");
    ok = nc != NULL;
    Py_XDECREF(nc);
  }
  Py_XDECREF(d);
  Py_XDECREF(ext);
  if (!ok) {
    PyErr_Print();
    snprintf(err, errlen, "cannot import the nc Python package from %s", dir);
  }
  PyEval_SaveThread(); /* passes take the GIL on whichever thread runs them */
  return ok;
}

bool nc_python_load_pass_file(const char *path, char *err, size_t errlen) {
  static bool started, start_ok;
  if (!started) {
    started = true;
    start_ok = start_python(err, errlen);
  } else if (!start_ok) {
    snprintf(err, errlen, "Python could not be started");
  }
  if (!start_ok) return false;
  PyGILState_STATE gil = PyGILState_Ensure();
  bool ok = false;
  PyObject *runpy = PyImport_ImportModule("runpy");
  PyObject *run_path = runpy ? PyObject_GetAttrString(runpy, "run_path") : NULL;
  PyObject *args = run_path ? Py_BuildValue("(s)", path) : NULL;
  PyObject *kw = args ? Py_BuildValue("{s:s}", "run_name", "__nc_python_pass__") : NULL;
  PyObject *r = kw ? PyObject_Call(run_path, args, kw) : NULL;
  Py_XDECREF(kw);
  Py_XDECREF(args);
  Py_XDECREF(run_path);
  if (r) {
    ok = true;
  } else {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
    snprintf(err, errlen, "cannot load Python passes from '%s': %s: %s", path,
             type ? ((PyTypeObject *)type)->tp_name : "error", msg ? msg : "");
    PyErr_Clear();
    Py_XDECREF(text);
    /* the traceback, unless the file simply is not there */
    if (type && !PyErr_GivenExceptionMatches(type, PyExc_FileNotFoundError)) PyErr_Restore(type, value, tb), PyErr_Print();
    else {
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    }
  }
  Py_XDECREF(r);
  Py_XDECREF(runpy);
  PyGILState_Release(gil);
  return ok;
}
