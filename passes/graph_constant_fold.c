/* graph_constant_fold.c: graph-constant-fold, which evaluates graph ops
 * whose operands are all graph.constant and replaces them by constants.
 *
 * Exported models compute some weights at run time (a transposed matrix, a
 * scale times a weight, a reshaped bias, shape arithmetic on constants);
 * this pass does that work once. Each op is evaluated by the reference
 * interpreter (nc_interp_eval_op: the kernels, attributes read with
 * nc_graph_get_*_params, fused activations applied), so a folded value is
 * exactly what running the graph would compute. Results are written as
 * dense literals only when small (dense-limit) or splats, and otherwise as
 * dense_resource blobs; results larger than size-limit bytes stay unfolded
 * (the IR would grow by that much), as do ops the interpreter does not
 * know and results whose declared type is not static. An op the
 * interpreter knows but fails to evaluate is an error: the graph could not
 * run either.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_util.h"
#include "nc/dialects/graph/interp.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"size-limit", NC_PASS_OPT_INT, "16777216", "Largest folded result in bytes (0: no limit)"},
  {"dense-limit", NC_PASS_OPT_INT, "16",
   "Results with at most this many elements (and splats) become dense literals, larger ones dense_resource blobs"},
};

static const nc_pass_stat_def stats[] = {
  {"num-folded", "Number of ops folded to constants"},
};

/* --- the pass ------------------------------------------------------------------------------------------- */

/* True if the interpreter can run op without an error we could foresee. */
static bool foldable(nc_op *op)
{
  size_t n_in = nc_op_get_num_operands(op), n_out = nc_op_get_num_results(op);
  if (!gp_is_graph_op(op) || gp_is(op, "constant") || !n_in || !n_out ||
      !nc_interp_supports_op(nc_ident_str(nc_op_get_name(op))))
    return false;
  for (size_t i = 0; i < n_in; i++) {
    nc_op *def = nc_value_get_defining_op(nc_op_get_operand(op, i));
    if (!def || !gp_is(def, "constant"))
      return false;
  }
  nc_graph_activation act;
  if (!nc_graph_get_activation(op, &act))
    return false;
  nc_type *elt = nc_type_get_element_type(nc_value_get_type(nc_op_get_result(op, 0)));
  return act.kind == NC_GRAPH_ACT_NONE || nc_type_is_float(elt) || act.kind == NC_GRAPH_ACT_RELU ||
         act.kind == NC_GRAPH_ACT_CLIP;
}

/* Folds op if every operand is a constant: 1 if it did, 0 if it did not, -1
 * after an error. */
static int fold_op(nc_pass *pass, nc_op *op, nc_rewriter *rw)
{
  if (!foldable(op))
    return 0;
  size_t n_in = nc_op_get_num_operands(op), n_out = nc_op_get_num_results(op);
  int64_t limit = nc_pass_get_option_int(pass, "size-limit");
  uint64_t total = 0;
  for (size_t i = 0; i < n_out; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_result(op, i));
    nc_dtype dt;
    int64_t n = nc_type_get_num_elements(t);
    if (n < 0 || nc_type_get_rank(t) > NC_TENSOR_MAX_RANK ||
        !nc_interp_dtype_from_type(nc_type_get_element_type(t), &dt))
      return 0;
    total += (uint64_t)n * nc_dtype_size(dt);
  }
  if (limit > 0 && total > (uint64_t)limit)
    return 0;
  nc_tensor **in = nc_xcalloc(n_in, sizeof *in), **out = nc_xcalloc(n_out, sizeof *out);
  int ret = 1;
  for (size_t i = 0; ret == 1 && i < n_in; i++)
    if (!(in[i] = gp_constant_tensor(nc_op_get_operand(op, i))))
      ret = 0;
  if (ret == 1 && !nc_interp_eval_op(op, (const nc_tensor *const *)in, out))
    ret = -1;
  if (ret == 1) {
    nc_context *ctx = nc_op_get_context(op);
    nc_value **vals = nc_xcalloc(n_out, sizeof *vals);
    const char *short_name = nc_ident_str(nc_op_get_name(op)) + strlen("graph.");
    char suffix[64], hint[256];
    snprintf(suffix, sizeof suffix, ".%s", short_name);
    /* named after the op's location, else after its first operand's blob */
    nc_attr *loc = nc_location_get_attr(ctx, nc_op_get_loc(op));
    if (loc && nc_attr_get_kind(loc) == NC_ATTR_LOC_NAME)
      snprintf(hint, sizeof hint, "%s", nc_ident_str(nc_loc_get_name(loc)));
    else
      gp_name_hint(nc_op_get_operand(op, 0), suffix, "folded", hint, sizeof hint);
    nc_rewriter_set_insertion_point_before(rw, op);
    for (size_t i = 0; i < n_out && ret == 1; i++) {
      nc_value *r = nc_op_get_result(op, i);
      nc_attr *value = gp_attr_from_tensor(ctx, out[i], nc_value_get_type(r), hint,
                                           nc_pass_get_option_int(pass, "dense-limit"));
      if (!value || !(vals[i] = gp_create_constant(rw, value, nc_op_get_loc(op))))
        ret = -1;
    }
    if (ret == 1) {
      /* the operands' constants are often dead now (each erased once) */
      nc_op **defs = nc_xcalloc(n_in, sizeof *defs);
      size_t n_defs = 0;
      for (size_t i = 0; i < n_in; i++) {
        nc_op *d = nc_value_get_defining_op(nc_op_get_operand(op, i));
        bool seen = false;
        for (size_t j = 0; j < n_defs; j++)
          seen |= defs[j] == d;
        if (!seen)
          defs[n_defs++] = d;
      }
      nc_rewriter_replace_op(rw, op, vals);
      for (size_t i = 0; i < n_defs; i++)
        if (nc_value_use_empty(nc_op_get_result(defs[i], 0)))
          nc_rewriter_erase_op(rw, defs[i]);
      free(defs);
    }
    free(vals);
  }
  for (size_t i = 0; i < n_in; i++)
    nc_tensor_destroy(in[i]);
  for (size_t i = 0; i < n_out; i++)
    nc_tensor_destroy(out[i]);
  free(in);
  free(out);
  return ret;
}

static bool run(nc_pass *pass, nc_op *func)
{
  nc_region *body = nc_op_get_num_regions(func) ? nc_op_get_region(func, 0) : NULL;
  if (!body)
    return true;
  nc_rewriter *rw = nc_rewriter_create_standalone(nc_op_get_context(func));
  /* in dominance order one sweep folds whole constant subgraphs; blocks out
   * of that order need another */
  for (bool changed = true; changed;) {
    changed = false;
    for (nc_block *b = nc_region_get_first_block(body); b; b = nc_block_get_next(b))
      for (nc_op *op = nc_block_get_first_op(b), *next; op; op = next) {
        next = nc_op_get_next(op);
        int r = fold_op(pass, op, rw);
        if (r < 0) {
          nc_rewriter_destroy(rw);
          return false;
        }
        if (r) {
          nc_pass_stat_add(pass, 0, 1);
          changed = true;
        }
      }
  }
  nc_rewriter_destroy(rw);
  return true;
}

const nc_pass_def nc_graph_constant_fold_pass = {
  .argument = "graph-constant-fold",
  .name = "GraphConstantFold",
  .group = "Graph",
  .summary = "Evaluate graph ops whose operands are all constants",
  .description =
    "Replaces every graph op whose operands are all graph.constant by constants holding its results, computed by "
    "the reference interpreter (fused activations included). Results of "
    "at most dense-limit elements, and splats, become dense literals; larger ones become dense_resource blobs named "
    "after the op. Results larger than size-limit bytes, results whose declared type is not static, and ops the "
    "interpreter does not know are left alone; one it fails to evaluate is an error. The folded ops' constants are "
    "erased when nothing else uses them.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
