/* bad_plugins.c: broken plugins for plugin-errors.test, one per -D flag:
 * BAD_VERSION (built for another API version), NULL_INFO (returns NULL),
 * NO_CALLBACK (no registration callback). */
#include "nc/plugin.h"

#if defined(BAD_VERSION)
static const nc_plugin_info info = {.api_version = NC_PLUGIN_API_VERSION + 1, .name = "future"};
#elif defined(NO_CALLBACK)
static const nc_plugin_info info = {.api_version = NC_PLUGIN_API_VERSION, .name = "lazy"};
#endif

NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_pass_plugin_info(void)
{
#if defined(NULL_INFO)
  return NULL;
#else
  return &info;
#endif
}
