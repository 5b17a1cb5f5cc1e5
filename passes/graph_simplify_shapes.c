/* graph_simplify_shapes.c: graph-simplify-shapes, the reshape and transpose
 * part of canonicalize on its own.
 *
 * The simplifications are the graph ops' own folds and canonicalization
 * patterns (dialects/graph/graph_fold.c), so canonicalize does all of them
 * too; this pass applies only those of graph.reshape, flatten, squeeze,
 * unsqueeze and transpose, for pipelines that want shapes cleaned up and
 * nothing else touched:
 *  - no-op reshapes, flattens, squeezes, unsqueezes and identity transposes
 *    disappear;
 *  - reshape of a reshape-like op reshapes the original input; flatten,
 *    squeeze and unsqueeze of one become a single graph.reshape, so
 *    squeeze/unsqueeze pairs cancel;
 *  - transpose of a transpose composes the permutations; a transpose moving
 *    only size-1 dims becomes a reshape;
 *  - a reshape of a `dense` constant is a constant.
 * Dead ops are erased, as by every greedy rewrite.
 */
#include <string.h>

#include "graph_util.h"
#include "nc/ir/pass.h"

static const nc_pass_stat_def stats[] = {
  {"num-simplified", "Number of shape ops folded or rewritten"},
};

static const char *const shape_ops[] = {"graph.reshape", "graph.flatten", "graph.squeeze", "graph.unsqueeze",
                                        "graph.transpose"};

/* Applies the op's fold hook as a pattern (so folds of other ops stay off). */
static bool apply_fold(nc_op *op, nc_rewriter *rw)
{
  const nc_op_def *def = nc_op_get_def(op);
  if (!def || !def->fold || nc_op_get_num_operands(op) != 1 || nc_op_get_num_results(op) != 1)
    return false;
  nc_attr *consts[1] = {nc_value_get_constant(nc_op_get_operand(op, 0))};
  nc_fold_result res[1];
  memset(res, 0, sizeof res);
  if (!def->fold(op, consts, res))
    return false;
  nc_value *r = nc_op_get_result(op, 0), *v = res[0].value;
  if (v == r) { /* changed in place */
    nc_rewriter_modified(rw, op);
    return true;
  }
  if (!v && res[0].attr)
    v = nc_rewriter_materialize_constant(rw, nc_op_get_dialect(op), res[0].attr, nc_value_get_type(r),
                                         nc_op_get_loc(op));
  if (!v)
    return false;
  nc_rewriter_replace_op(rw, op, &v);
  return true;
}

static const nc_pattern fold_pattern = {"FoldShapeOp", 2, apply_fold};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  nc_pattern_set *set = nc_pattern_set_create(ctx);
  for (size_t i = 0; i < NC_COUNTOF(shape_ops); i++) {
    const nc_op_def *def = nc_context_lookup_op_def(ctx, shape_ops[i], strlen(shape_ops[i]));
    if (!def)
      continue;
    nc_pattern_set_add(set, shape_ops[i], &fold_pattern);
    for (size_t j = 0; j < def->n_canonicalize; j++)
      nc_pattern_set_add(set, shape_ops[i], &def->canonicalize[j]);
  }
  nc_pass_set_state(pass, set, gp_free_pattern_set);
  return true;
}

const nc_pass_def nc_graph_simplify_shapes_pass = {
  .argument = "graph-simplify-shapes",
  .name = "GraphSimplifyShapes",
  .group = "Graph",
  .summary = "Simplify reshapes and transposes (the shape part of canonicalize)",
  .description =
    "Applies the folds and canonicalization patterns of graph.reshape, flatten, squeeze, unsqueeze and transpose "
    "only: no-op reshapes and identity transposes disappear, chains of reshape-like ops become one graph.reshape "
    "(squeeze/unsqueeze pairs cancel), transposes compose, a transpose moving only size-1 dims becomes a reshape, "
    "and reshaped dense constants become constants. canonicalize does the same among everything else.",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = gp_run_patterns, /* the shape ops' folds run as fold_pattern */
};
