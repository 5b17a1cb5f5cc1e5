/* graph_optimize.c: graph-optimize, the named pipeline of the graph-level
 * cleanups in the order they help each other, on every func.func:
 *   graph-qoperator-to-qdq  QLinearConv / QLinearMatMul into the QDQ form
 *                           graph-quantize reads (before the folds that
 *                           turn weight dequantizes into constants);
 *   graph-shape-inference   types as precise as possible first, so folds
 *                           and fusions see static shapes;
 *   canonicalize            shape simplification, no-op removal, dead code,
 *                           duplicate constants;
 *   graph-constant-fold     constant subgraphs (computed weights, batch_norm
 *                           parameters) become constants;
 *   graph-fold-batchnorm    batch_norm into the conv / gemm before it;
 *   graph-fuse-activation   bias adds, then activations, into conv / gemm;
 *   canonicalize            erases the weights the folds replaced.
 */
#include <stdio.h>
#include <string.h>

#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"size-limit", NC_PASS_OPT_INT, "16777216", "graph-constant-fold's size-limit: largest folded result in bytes"},
  {"fuse-activations", NC_PASS_OPT_BOOL, "true", "Run graph-fuse-activation"},
  {"refine-signature", NC_PASS_OPT_BOOL, "true",
   "graph-shape-inference's refine-signature: function types follow the refined results (false for functions with "
   "callers)"},
};

static bool build(nc_pass_manager *pm, nc_pass *opts, void *userData)
{
  /* on a module, each function; on a function (or anything else), the op itself */
  bool nest = !strcmp(nc_pass_manager_get_anchor(pm), "builtin.module");
  char text[512];
  snprintf(text, sizeof text,
           "%sgraph-qoperator-to-qdq,graph-shape-inference{refine-signature=%s},canonicalize,graph-constant-fold{size-limit=%lld},"
           "graph-fold-batchnorm,%scanonicalize%s",
           nest ? "func.func(" : "", nc_pass_get_option_bool(opts, "refine-signature") ? "true" : "false",
           (long long)nc_pass_get_option_int(opts, "size-limit"),
           nc_pass_get_option_bool(opts, "fuse-activations") ? "graph-fuse-activation," : "", nest ? ")" : "");
  return nc_pass_manager_add_passes(pm, text);
}

const nc_pipeline_def nc_graph_optimize_pipeline = {
  .argument = "graph-optimize",
  .summary = "Graph-level optimizations: shape inference, constant folding, batch_norm folding, bias and "
             "activation fusion, canonicalization",
  .options = options, .n_options = NC_COUNTOF(options),
  .build = build,
};
