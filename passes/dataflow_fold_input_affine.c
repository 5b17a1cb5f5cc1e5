/* dataflow_fold_input_affine.c: dataflow-fold-input-affine, which folds a
 * per-channel affine layer (a depthwise 1x1 conv that requantizes: what a
 * batch-norm and relu become when no conv precedes them, as after each
 * concat of a densenet) into the 1x1 conv that alone reads it, as that
 * conv's `input_affine` (layer.h): the conv maps each input element of
 * channel c through the depthwise layer's arithmetic before it sums.
 *
 * Why: on a core grid the depthwise layer is a layer of its own, with its
 * own tile that receives every element of the concat and sends it all again
 * (densenet121 has 58 of them, each on the critical link of its block).
 * Folded, the target applies the channel's multiplier, shift, bias and clamp
 * as the elements arrive, and the layer costs no tile, no message and no
 * link. The arithmetic is the depthwise layer's own, so results stay bit for
 * bit the interpreter's; the node's region keeps both layers' graph ops (the
 * depthwise ones first), so it still means what it computes.
 *
 * Runs after graph-to-dataflow and before dataflow-deps (which then derives
 * the conv's dependences from the depthwise layer's producer directly).
 * Only a 1x1, stride-1, unpadded conv with one operand takes the fold (its
 * input elements are each received once, which is what the target costs),
 * and only from a depthwise layer whose operand another node computes, with
 * zero points 0 and one weight per channel.
 */
#include <stdlib.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/pass.h"

static const nc_pass_stat_def stats[] = {{"num-folded", "Depthwise per-channel layers folded into their reader"}};

/* A plain 1x1, stride-1, unpadded window. */
static bool unit_window(const nc_dataflow_layer *l)
{
  return l->kernel[0] == 1 && l->kernel[1] == 1 && l->stride[0] == 1 && l->stride[1] == 1 && l->dilation[0] == 1 &&
         l->dilation[1] == 1 && !l->pads[0] && !l->pads[1] && !l->pads[2] && !l->pads[3];
}

/* Element i of an integer elements attribute of n elements (splats too); false if it has no data. */
static bool element(const nc_attr *a, int64_t n, int64_t i, int64_t *out)
{
  size_t nbytes;
  bool splat;
  nc_type *t = nc_attr_get_type(a);
  nc_type *e = nc_type_get_element_type(t);
  const void *data = nc_attr_elements_get_data(a, &nbytes, &splat);
  if (!data || !nc_type_is_integer(e) || nc_type_get_num_elements(t) != n)
    return false;
  size_t size = nc_dense_element_size(e), k = splat ? 0 : (size_t)i;
  if (size == 1)
    *out = ((const int8_t *)data)[k];
  else if (size == 4)
    *out = ((const int32_t *)data)[k];
  else
    return false;
  return true;
}

/* The depthwise layer dw as input_affine entries (4 x C + 2, owned by the caller), or NULL if it is not one. */
static int64_t *affine_of(nc_op *dw, const nc_dataflow_layer *l)
{
  int64_t dims[NC_MAX_RANK];
  if (l->kind != NC_DATAFLOW_LAYER_CONV || !unit_window(l) || !l->weights || !l->n_requant || l->lut ||
      l->n_input_affine || l->weight_zero_point || l->output_zero_point || l->n_inputs > 1 ||
      (l->n_inputs && l->input_zero_points[0]) || !l->input_bits || l->input_bits != l->output_bits ||
      nc_op_get_num_operands(dw) != 1 || nc_op_get_num_results(dw) != 1 ||
      nc_value_get_type(nc_op_get_operand(dw, 0)) != nc_value_get_type(nc_op_get_result(dw, 0)) ||
      nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(dw, 0)), dims) != 3 || l->group != dims[0])
    return NULL;
  int64_t c = dims[0];
  int64_t *v = nc_xcalloc((size_t)(4 * c + 2), sizeof *v);
  for (int64_t i = 0; i < c; i++) {
    size_t r = l->n_requant == 1 ? 0 : (size_t)i;
    if (!element(l->weights, c, i, &v[4 * i]) || (l->bias && !element(l->bias, c, i, &v[4 * i + 1]))) {
      free(v);
      return NULL;
    }
    v[4 * i + 2] = l->multiplier[r];
    v[4 * i + 3] = l->shift[r];
  }
  int64_t tmax = ((int64_t)1 << (l->output_bits - 1)) - 1;
  v[4 * c] = l->clamp_min > -tmax - 1 ? l->clamp_min : -tmax - 1;
  v[4 * c + 1] = l->clamp_max < tmax ? l->clamp_max : tmax;
  return v;
}

/* Moves dw's graph ops to the front of conv's region, feeding conv's ops. */
static void merge_regions(nc_op *dw, nc_op *conv)
{
  nc_block *from = nc_dataflow_node_get_body(dw), *to = nc_dataflow_node_get_body(conv);
  nc_value *arg = nc_block_get_arg(to, 0), *result = nc_op_get_operand(nc_dataflow_node_get_yield(dw), 0);
  nc_value_replace_all_uses_with(arg, result);
  nc_value_replace_all_uses_with(nc_block_get_arg(from, 0), arg);
  nc_op *first = nc_block_get_first_op(to), *yield = nc_dataflow_node_get_yield(dw);
  for (nc_op *op = nc_block_get_first_op(from), *next; op && op != yield; op = next) {
    next = nc_op_get_next(op);
    nc_op_move_before(op, first);
  }
}

static bool run(nc_pass *pass, nc_op *func)
{
  for (nc_op *conv = nc_dataflow_first_node(func); conv; conv = nc_dataflow_next_node(conv)) {
    nc_dataflow_layer l, d;
    if (!nc_dataflow_node_get_layer(conv, &l) || l.kind != NC_DATAFLOW_LAYER_CONV || !unit_window(&l) ||
        l.n_input_affine || nc_op_get_num_operands(conv) != 1 || (l.n_inputs && l.input_zero_points[0]))
      continue;
    nc_value *v = nc_op_get_operand(conv, 0);
    nc_op *dw = nc_value_is_block_arg(v) ? NULL : nc_value_get_defining_op(v);
    if (!dw || !nc_value_has_one_use(v) || nc_op_get_parent_region(dw) != nc_op_get_parent_region(conv) ||
        !nc_dataflow_node_get_layer(dw, &d) || !nc_dataflow_node_get_body(dw) || !nc_dataflow_node_get_body(conv))
      continue;
    nc_value *src = nc_op_get_operand(dw, 0);
    nc_op *src_op = nc_value_is_block_arg(src) ? NULL : nc_value_get_defining_op(src);
    if (!src_op || nc_op_get_parent_region(src_op) != nc_op_get_parent_region(conv)) /* the host's input: left */
      continue;
    int64_t *affine = affine_of(dw, &d);
    if (!affine)
      continue;
    merge_regions(dw, conv);
    nc_op_set_operand(conv, 0, src);
    l.n_input_affine = 4 * (size_t)d.group + 2;
    l.input_affine = affine;
    nc_dataflow_node_set_layer(conv, &l);
    free(affine);
    nc_op_erase(dw);
    nc_pass_stat_add(pass, 0, 1);
  }
  return true;
}

const nc_pass_def nc_dataflow_fold_input_affine_pass = {
  .argument = "dataflow-fold-input-affine",
  .name = "DataflowFoldInputAffine",
  .group = "Dataflow",
  .summary = "Fold a depthwise per-channel layer (batch-norm and relu) into the 1x1 conv that reads it",
  .description =
    "A depthwise 1x1 conv that requantizes (zero points 0), whose only reader is a 1x1, stride-1, unpadded conv "
    "and whose operand another node computes, becomes that conv's `input_affine` (layer.h: per input channel the "
    "weight, bias, multiplier and shift, then the clamp bounds): the conv reads the depthwise layer's operand and "
    "its region holds both layers' graph ops. Run after graph-to-dataflow, before dataflow-deps.",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
