/* plugin.c: loads plugin libraries (include/nc/plugin.h) with dlopen.
 *
 * It lives in ir/ because it knows no pass, dialect or target: a kind is a
 * symbol name and a callback to call now or per context, so a new kind is
 * one row in `kinds` and one union member in nc_plugin_info. Plugins are
 * kept in a process-wide list and never unloaded (the pass registry and the
 * contexts hold pointers into them).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/plugin.h"
#include "nc/support/strutil.h"

struct nc_plugin {
  char *path;
  void *handle;
  nc_plugin_kind kind;
  const nc_plugin_info *info;
};

static const struct {
  const char *name;
  const char *symbol;
} kinds[] = {
  [NC_PLUGIN_PASS] = {"pass", "nc_get_pass_plugin_info"},
  [NC_PLUGIN_DIALECT] = {"dialect", "nc_get_dialect_plugin_info"},
  [NC_PLUGIN_TARGET] = {"target", "nc_get_target_plugin_info"},
};

static nc_plugin **loaded;
static size_t n_loaded, cap_loaded;

const char *nc_plugin_kind_name(nc_plugin_kind kind)
{
  return (size_t)kind < NC_COUNTOF(kinds) ? kinds[kind].name : "?";
}

const char *nc_plugin_kind_symbol(nc_plugin_kind kind)
{
  return (size_t)kind < NC_COUNTOF(kinds) ? kinds[kind].symbol : "?";
}

nc_plugin *nc_plugin_load(const char *path, nc_plugin_kind kind, char *err, size_t errlen)
{
  if ((size_t)kind >= NC_COUNTOF(kinds)) {
    nc_error_format(err, errlen, "unknown plugin kind %d", (int)kind);
    return NULL;
  }
  const char *what = kinds[kind].name;
  /* dlopen searches the library path for names without a slash; a plugin
   * named on the command line is a file, as in mlir-opt */
  char *rel = NULL;
  const char *open_path = path;
  if (!strchr(path, '/')) {
    size_t n = strlen(path) + 3;
    rel = nc_xmalloc(n);
    snprintf(rel, n, "./%s", path);
    open_path = rel;
  }
  dlerror();
  /* RTLD_LOCAL: every plugin exports the same symbol name */
  void *handle = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
  free(rel);
  if (!handle) {
    const char *why = dlerror();
    nc_error_format(err, errlen, "cannot load %s plugin '%s': %s", what, path, why ? why : "unknown error");
    return NULL;
  }
  for (size_t i = 0; i < n_loaded; i++)
    if (loaded[i]->handle == handle && loaded[i]->kind == kind) {
      dlclose(handle); /* drops the reference this call added */
      return loaded[i];
    }
  dlerror();
  void *sym = dlsym(handle, kinds[kind].symbol);
  if (!sym) {
    nc_error_format(err, errlen, "%s plugin '%s' does not export '%s' (is it a %s plugin?)", what, path,
                    kinds[kind].symbol, what);
    dlclose(handle);
    return NULL;
  }
  nc_plugin_info_fn get_info;
  memcpy(&get_info, &sym, sizeof get_info); /* ISO C has no object-to-function pointer cast */
  const nc_plugin_info *info = get_info();
  if (!info) {
    nc_error_format(err, errlen, "%s plugin '%s': %s() returned NULL", what, path, kinds[kind].symbol);
    dlclose(handle);
    return NULL;
  }
  if (info->api_version != NC_PLUGIN_API_VERSION) {
    nc_error_format(err, errlen, "%s plugin '%s' was built for plugin API version %u, but this nc has version %u", what,
                    path, (unsigned)info->api_version, (unsigned)NC_PLUGIN_API_VERSION);
    dlclose(handle);
    return NULL;
  }
  bool has_callback = false;
  switch (kind) {
  case NC_PLUGIN_PASS: has_callback = info->register_passes != NULL; break;
  case NC_PLUGIN_DIALECT: has_callback = info->register_dialects != NULL; break;
  case NC_PLUGIN_TARGET: has_callback = info->register_targets != NULL; break;
  }
  if (!has_callback) {
    nc_error_format(err, errlen, "%s plugin '%s' has no registration callback", what, path);
    dlclose(handle);
    return NULL;
  }
  nc_plugin *p = nc_xcalloc(1, sizeof *p);
  p->path = nc_xmalloc(strlen(path) + 1);
  strcpy(p->path, path);
  p->handle = handle;
  p->kind = kind;
  p->info = info;
  if (n_loaded == cap_loaded) {
    cap_loaded = cap_loaded ? cap_loaded * 2 : 4;
    loaded = nc_xrealloc(loaded, cap_loaded * sizeof *loaded);
  }
  loaded[n_loaded++] = p;
  switch (kind) {
  case NC_PLUGIN_PASS: info->register_passes(info->user_data); break;
  case NC_PLUGIN_TARGET: info->register_targets(info->user_data); break;
  case NC_PLUGIN_DIALECT: break; /* per context: nc_plugin_register_dialects */
  }
  return p;
}

void nc_plugin_register_dialects(nc_context *ctx)
{
  for (size_t i = 0; i < n_loaded; i++)
    if (loaded[i]->kind == NC_PLUGIN_DIALECT)
      loaded[i]->info->register_dialects(ctx, loaded[i]->info->user_data);
}

const nc_plugin_info *nc_plugin_get_info(const nc_plugin *p)
{
  return p->info;
}

const char *nc_plugin_get_path(const nc_plugin *p)
{
  return p->path;
}

nc_plugin_kind nc_plugin_get_kind(const nc_plugin *p)
{
  return p->kind;
}

size_t nc_plugin_get_num_loaded(void)
{
  return n_loaded;
}

nc_plugin *nc_plugin_get_loaded(size_t i)
{
  return i < n_loaded ? loaded[i] : NULL;
}
