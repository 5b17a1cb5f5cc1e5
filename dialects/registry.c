/* registry.c: the one table that lists nc's dialects. Adding a dialect is
 * one line here (plus its folder). */
#include "nc/dialects/dialects.h"
#include "nc/plugin.h"

const nc_dialect_def *const nc_all_dialects[] = {
  &nc_func_dialect,
  &nc_arith_dialect,
  &nc_graph_dialect,
  &nc_dataflow_dialect,
  &nc_core_dialect,
  NULL,
};

void nc_register_all_dialects(nc_context *ctx)
{
  for (const nc_dialect_def *const *d = nc_all_dialects; *d; d++)
    nc_context_register_dialect(ctx, *d);
  nc_plugin_register_dialects(ctx);
}
