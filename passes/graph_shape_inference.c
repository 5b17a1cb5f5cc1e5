/* graph_shape_inference.c: graph-shape-inference, which makes the result
 * types of graph ops as precise as their operands allow.
 *
 * Importers and hand-written IR often leave dims dynamic (`?`) that the
 * operands determine. Each graph op's infer_types hook (the one the verifier
 * runs) computes its result types from the operand types; walking a
 * function in order, every result gets the inferred dims where they are
 * static and keeps its declared ones elsewhere, so a refined operand refines
 * its users in turn. func.return then returns more precise types, and the
 * function type is updated to match (as onnx-mlir's shape inference does:
 * callers in other functions are not updated, so the option
 * refine-signature=false keeps signatures of functions that have callers).
 * Values used by ops outside the graph dialect keep their types: nothing
 * here knows whether those ops accept a refined type.
 */
#include <stdlib.h>

#include "graph_util.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"refine-signature", NC_PASS_OPT_BOOL, "true",
   "Update the function type (and func.return) when the returned values get more precise types"},
};

static const nc_pass_stat_def stats[] = {
  {"num-refined", "Number of values whose type was refined"},
};

/* The declared type with every dim the inferred type knows: NULL if the two
 * disagree (then the op is invalid for its refined operands). */
static nc_type *merge(nc_type *inferred, nc_type *declared)
{
  if (!nc_graph_types_compatible(inferred, declared))
    return NULL;
  size_t rank = nc_type_get_rank(inferred);
  const int64_t *a = nc_type_get_shape(inferred), *b = nc_type_get_shape(declared);
  int64_t dims[NC_MAX_RANK];
  for (size_t i = 0; i < rank; i++)
    dims[i] = a[i] != NC_DYNAMIC ? a[i] : b[i];
  return nc_type_clone_shaped(declared, rank, dims, nc_type_get_element_type(declared));
}

/* Only graph ops, and func.return when the signature follows, may see a
 * refined type. */
static bool users_accept_refinement(nc_value *v, bool returns_ok)
{
  for (nc_use *u = nc_value_get_first_use(v); u; u = nc_use_get_next(u)) {
    nc_op *owner = nc_use_get_owner(u);
    if (!gp_is_graph_op(owner) && !(returns_ok && nc_op_is(owner, "func.return")))
      return false;
  }
  return true;
}

/* Refines the results of one op; false after an error. */
static bool refine_op(nc_pass *pass, nc_op *op, bool returns_ok, bool *changed)
{
  size_t n = nc_op_get_num_results(op);
  if (!gp_is_graph_op(op) || gp_is(op, "constant") || !n)
    return true;
  nc_type **types = nc_xcalloc(n, sizeof *types);
  bool ok = nc_graph_infer_result_types(op, types);
  for (size_t i = 0; ok && i < n; i++) {
    nc_value *r = nc_op_get_result(op, i);
    nc_type *declared = nc_value_get_type(r), *t = merge(types[i], declared);
    if (!t) {
      char *a = nc_type_to_string(types[i]), *b = nc_type_to_string(declared);
      ok = nc_op_emit_error(op, "result #%zu: inferred type '%s' is incompatible with the declared type '%s'", i, a, b);
      free(a);
      free(b);
    } else if (t != declared && users_accept_refinement(r, returns_ok)) {
      nc_value_set_type(r, t);
      nc_pass_stat_add(pass, 0, 1);
      *changed = true;
    }
  }
  free(types);
  return ok;
}

/* Gives the function the types its return now has. */
static void refine_signature(nc_op *func)
{
  nc_attr *fa = nc_op_get_attr_str(func, "function_type");
  nc_type *ft = fa ? nc_attr_get_type_value(fa) : NULL;
  nc_region *body = nc_op_get_num_regions(func) ? nc_op_get_region(func, 0) : NULL;
  if (!ft || nc_type_get_kind(ft) != NC_TYPE_FUNCTION || !body)
    return;
  size_t ni = nc_type_get_num_inputs(ft), nr = nc_type_get_num_results(ft);
  nc_type **ins = nc_xcalloc(ni + 1, sizeof *ins), **outs = nc_xcalloc(nr + 1, sizeof *outs);
  for (size_t i = 0; i < ni; i++)
    ins[i] = nc_type_get_input(ft, i);
  for (size_t i = 0; i < nr; i++)
    outs[i] = NULL;
  bool any_return = false, agree = true;
  for (nc_block *b = nc_region_get_first_block(body); b && agree; b = nc_block_get_next(b)) {
    nc_op *term = nc_block_get_terminator(b);
    if (!term || !nc_op_is(term, "func.return"))
      continue;
    if (nc_op_get_num_operands(term) != nr) {
      agree = false;
      break;
    }
    any_return = true;
    for (size_t i = 0; i < nr; i++) {
      nc_type *t = nc_value_get_type(nc_op_get_operand(term, i));
      if (outs[i] && outs[i] != t)
        agree = false;
      outs[i] = t;
    }
  }
  bool changed = false;
  for (size_t i = 0; agree && any_return && i < nr; i++)
    changed |= outs[i] != nc_type_get_result(ft, i);
  if (changed) {
    nc_context *ctx = nc_op_get_context(func);
    nc_op_set_attr_str(func, "function_type", nc_attr_type(ctx, nc_type_function(ctx, ni, ins, nr, outs)));
  }
  free(ins);
  free(outs);
}

static bool run(nc_pass *pass, nc_op *func)
{
  nc_region *body = nc_op_get_num_regions(func) ? nc_op_get_region(func, 0) : NULL;
  if (!body)
    return true;
  /* returned values may be refined if the signature follows them, which
   * needs one func.return to take the types from */
  size_t n_returns = 0;
  for (nc_block *b = nc_region_get_first_block(body); b; b = nc_block_get_next(b)) {
    nc_op *term = nc_block_get_terminator(b);
    n_returns += term && nc_op_is(term, "func.return");
  }
  bool returns_ok = nc_pass_get_option_bool(pass, "refine-signature") && n_returns == 1;
  /* one sweep settles a function whose blocks are in dominance order;
   * repeat for the others (types only ever gain dims, so this ends) */
  bool changed = true;
  while (changed) {
    changed = false;
    for (nc_block *b = nc_region_get_first_block(body); b; b = nc_block_get_next(b))
      for (nc_op *op = nc_block_get_first_op(b); op; op = nc_op_get_next(op))
        if (!refine_op(pass, op, returns_ok, &changed))
          return false;
  }
  if (returns_ok)
    refine_signature(func);
  return true;
}

const nc_pass_def nc_graph_shape_inference_pass = {
  .argument = "graph-shape-inference",
  .name = "GraphShapeInference",
  .group = "Graph",
  .summary = "Refine the result types of graph ops from their operands",
  .description =
    "Runs each graph op's type inference (the verifier's) in program order and gives every result the dims "
    "inferred from its operands where they are static, keeping the declared dims elsewhere; refined operands "
    "refine their users in turn. With refine-signature, the function type follows the types its func.return now "
    "returns (callers are not updated). Values used by ops of other dialects keep their types. An op whose "
    "refined operands contradict its declared result type is an error.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
