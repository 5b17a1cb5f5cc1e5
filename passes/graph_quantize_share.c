/* graph_quantize_share.c: graph-quantize gives a concat and the layers
 * that compute its inputs one output scale (as TFLite's int8 spec does), so
 * the concat's rescales are the identity and it only moves data: a
 * spatial target then sends the producers' channels straight to the
 * concat's readers (core-fold-concat) instead of through a core of its own.
 *
 * The inputs are followed back through the ops that keep their input's
 * scale (max pools, relu, reshapes) to the layer whose requantize sets it;
 * concats that share such a layer, directly or through other concats (a
 * dense block), form one group (union-find). Every member's calibrated
 * range becomes the group's largest, so no member clips more than before
 * and all of them get the same scale bit for bit (act_scale of the same
 * range). A layer joins only if its scale is free to change: no scale of
 * the model's own (QDQ), the concat's width, and no relu6 bound that a
 * coarser scale would pull inside the int8 range; an input that does not
 * join keeps its own scale and its concat rescales it, as before.
 */
#include <stdlib.h>

#include "graph_quantize_internal.h"

static size_t find(size_t *parent, size_t i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* The layer whose result v is after ops that keep their input's scale, or -1. */
static long layer_of(const gq_plan *p, nc_value *v)
{
  for (int depth = 0; depth < 64; depth++) {
    for (size_t k = 0; k < p->n_layers; k++)
      if (nc_op_get_result(p->layers[k], 0) == v)
        return (long)k;
    nc_op *d = nc_value_get_defining_op(v);
    if (!d || !gp_is_graph_op(d) || gp_is(d, "pad") || nc_op_get_num_operands(d) < 1 ||
        nc_graph_get_quant_class(nc_op_get_def(d)) != NC_GRAPH_QUANT_PASS_THROUGH)
      return -1;
    v = nc_op_get_operand(d, 0);
  }
  return -1;
}

/* Whether layer k's output scale may follow its concat's. */
static bool may_share(const gq_plan *p, size_t k, const int *lbits, int bits)
{
  nc_op *op = p->layers[k];
  if (p->given[k] > 0 || lbits[k] != bits)
    return false;
  if (gp_is(op, "concat") || gp_is(op, "add") || gp_is(op, "sub") || gp_is(op, "relu"))
    return true; /* concats; residual adds (a fused relu is the layer measured) */
  if (nc_graph_get_quant_class(nc_op_get_def(op)) != NC_GRAPH_QUANT_LAYER)
    return false;
  nc_graph_activation act;
  return nc_graph_get_activation(op, &act) && act.kind != NC_GRAPH_ACT_CLIP;
}

void gq_share_concat_scales(const gq_plan *p, const int *lbits, double *max_abs)
{
  size_t n = p->n_layers;
  size_t *parent = nc_xcalloc(n + 1, sizeof *parent);
  for (size_t k = 0; k < n; k++)
    parent[k] = k;
  bool any = false;
  for (size_t c = 0; c < n; c++) {
    nc_op *cat = p->layers[c];
    if (!gp_is(cat, "concat") || p->given[c] > 0)
      continue;
    for (size_t i = 0; i < nc_op_get_num_operands(cat); i++) {
      long k = layer_of(p, nc_op_get_operand(cat, i));
      if (k >= 0 && (size_t)k != c && may_share(p, (size_t)k, lbits, lbits[c])) {
        parent[find(parent, (size_t)k)] = find(parent, c);
        any = true;
      }
    }
  }
  if (any) {
    double *most = nc_xcalloc(n + 1, sizeof *most);
    for (size_t k = 0; k < n; k++) {
      size_t r = find(parent, k);
      most[r] = max_abs[k] > most[r] ? max_abs[k] : most[r];
    }
    for (size_t k = 0; k < n; k++)
      max_abs[k] = most[find(parent, k)];
    free(most);
  }
  free(parent);
}
