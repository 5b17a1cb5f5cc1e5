/* python_pass.c: --load-python-pass=file.py. nc-opt does not link Python:
 * it dlopens python/'s loader library (nc_python_loader.so in the lib/
 * beside its bin/, or $NC_PYTHON_LOADER) only when the flag is given, and
 * asks it to run each file, whose @register_pass classes join the pass
 * registry next to the C passes. The loader binds to the nc API this tool
 * exports, as a plugin does (docs/plugins.md). */
#include "python_pass.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char flag[] = "load-python-pass";

typedef bool (*load_fn)(const char *path, char *err, size_t errlen);

static load_fn open_loader(void)
{
  char path[PATH_MAX + 64];
  const char *env = getenv("NC_PYTHON_LOADER");
  if (env && *env) {
    snprintf(path, sizeof path, "%s", env);
  } else {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
      fprintf(stderr, "nc-opt: error: --%s: cannot find this executable's directory\n", flag);
      return NULL;
    }
    exe[n] = 0;
    snprintf(path, sizeof path, "%s/../lib/nc_python_loader.so", dirname(exe));
  }
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  load_fn fn = h ? (load_fn)dlsym(h, "nc_python_load_pass_file") : NULL;
  if (!fn) {
    const char *why = dlerror();
    fprintf(stderr, "nc-opt: error: --%s needs the Python loader '%s' (built with python3-dev): %s\n", flag, path,
            why ? why : "no nc_python_load_pass_file");
    return NULL;
  }
  return fn;
}

bool nc_opt_load_python_pass(const char *path)
{
  static load_fn load;
  if (!load && !(load = open_loader()))
    return false;
  char err[1024];
  if (!load(path, err, sizeof err)) {
    fprintf(stderr, "nc-opt: error: %s\n", err);
    return false;
  }
  return true;
}
