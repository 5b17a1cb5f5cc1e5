/* target_plugin.c: loading a target built out of tree: a shared library
 * exporting nc_get_target_plugin_info (nc/plugin.h) whose callback
 * registers its target(s) with nc_target_register, exactly as a folder of
 * targets/ is registered. The loading itself is the generic plugin loader's
 * (a plugin loaded twice registers once). */
#include "nc/plugin.h"
#include "nc/targets/targets.h"

bool nc_target_load_plugin(const char *path, char *err, size_t errlen)
{
  return nc_plugin_load(path, NC_PLUGIN_TARGET, err, errlen) != NULL;
}
