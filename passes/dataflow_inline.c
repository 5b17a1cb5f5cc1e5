/* dataflow_inline.c: dataflow-inline, the inverse of graph-to-dataflow:
 * every dataflow.node is replaced by the graph ops of its region, so the
 * reference interpreter (nc-run) runs a dataflow function exactly as the
 * graph it came from. graph-to-dataflow followed by dataflow-inline gives
 * back the same ops in the same order, except that constants shared by
 * several layers were copied into each node and stay copies (cse merges
 * them again). The function's `dataflow.io` record goes too: it describes
 * the nodes' inputs and outputs, and the graph ops say the same.
 */
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/pass.h"

static const nc_pass_stat_def stats[] = {{"num-inlined", "Number of dataflow nodes inlined"}};

static bool run(nc_pass *pass, nc_op *func)
{
  for (nc_op *node = nc_dataflow_first_node(func), *next; node; node = next) {
    next = nc_dataflow_next_node(node);
    nc_dataflow_node_inline(node);
    nc_pass_stat_add(pass, 0, 1);
  }
  nc_op_remove_attr(func, nc_ident_get_cstr(nc_op_get_context(func), "dataflow.io"));
  return true;
}

const nc_pass_def nc_dataflow_inline_pass = {
  .argument = "dataflow-inline",
  .name = "DataflowInline",
  .group = "Dataflow",
  .summary = "Replace dataflow.nodes by the graph ops they hold",
  .description =
    "Moves the ops of each dataflow.node's region in front of the node (block arguments become the node's "
    "operands, the node's result the yielded value) and erases the node (and the function's `dataflow.io` record): the graph the node was made of, for "
    "the reference interpreter and for checking that graph-to-dataflow kept the semantics.",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
