/* target_plugin.c: loading a target built out of tree (a shared library
 * exporting ncGetTargetPluginInfo, nc/targets/target.h) and registering it
 * as if its folder were in targets/. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "nc/targets/targets.h"

bool nc_target_load_plugin(const char *path, char *err, size_t errlen)
{
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, errlen, "cannot load target plugin '%s': %s", path, dlerror());
    return false;
  }
  nc_target_plugin_info (*get)(void);
  *(void **)&get = dlsym(lib, "ncGetTargetPluginInfo");
  if (!get) {
    snprintf(err, errlen, "'%s' is not a target plugin: it has no symbol ncGetTargetPluginInfo", path);
    dlclose(lib);
    return false;
  }
  nc_target_plugin_info info = get();
  if (info.api_version != NC_TARGET_PLUGIN_API_VERSION || !info.target || !info.target->name) {
    snprintf(err, errlen, "target plugin '%s' (%s) was built for plugin interface version %u; this nc has %d", path,
             info.name ? info.name : "?", info.api_version, NC_TARGET_PLUGIN_API_VERSION);
    dlclose(lib);
    return false;
  }
  if (!nc_target_register(info.target)) {
    snprintf(err, errlen, "target plugin '%s' could not be registered", path);
    return false;
  }
  return true; /* the library stays loaded: its target is in use */
}
