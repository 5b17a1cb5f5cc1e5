/* dialects.h: the dialects nc ships, and registering them. */
#ifndef NC_DIALECTS_DIALECTS_H
#define NC_DIALECTS_DIALECTS_H

#include "nc/ir/ods.h"

/** Registers every dialect listed in dialects/registry.c with the context,
 * then those of the loaded dialect plugins (nc_plugin_register_dialects). */
void nc_register_all_dialects(nc_context *ctx);
/** The table of all dialect definitions (NULL-terminated). */
extern const nc_dialect_def *const nc_all_dialects[];

/** The dialect definitions nc ships (func, arith, graph, dataflow, core). */
extern const nc_dialect_def nc_func_dialect;
extern const nc_dialect_def nc_arith_dialect;
extern const nc_dialect_def nc_graph_dialect;
extern const nc_dialect_def nc_dataflow_dialect;
extern const nc_dialect_def nc_core_dialect;

#endif
