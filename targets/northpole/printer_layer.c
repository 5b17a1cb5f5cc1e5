/* printer_layer.c: what a NorthPole core needs to know about a layer, read
 * from the dataflow.node's layer (nc/dialects/dataflow/layer.h):
 *   conv on int8 with int8 weights, requantized     -> NP_KIND_CONV
 *   matmul on int8 with int8 weights, requantized   -> NP_KIND_MATMUL
 *   max_pool, global_max_pool on int8               -> NP_KIND_MAX_POOL
 *   copy (flatten, reshape)                         -> NP_KIND_COPY
 *   eltwise add / sub of two int8 inputs, each rescaled to the output
 *   scale (a residual connection), relu or not      -> NP_KIND_ELTWISE
 *   avg_pool / global_avg_pool on int8 (integer sum divided by the count,
 *   rounding half to even; global: one window over the plane)
 *                                                   -> NP_KIND_AVG_POOL
 *   concat along the channels, each input rescaled  -> NP_KIND_CONCAT
 *   eltwise mul, the second input the same shape or
 *   a [1, C, 1, 1] gate, requantized once           -> NP_KIND_MUL
 *   a 256-entry table on int8 (activations)         -> NP_KIND_LUT
 *   softmax along the last coordinate of int8       -> NP_KIND_SOFTMAX
 *   resize (nearest, whole factors; channels by (a c + b) / d), pad (constant, reflect, edge, wrap), shuffle
 *   -> NP_KIND_MOVE
 *   resize (linear)                                  -> NP_KIND_RESIZE
 *   transpose (a copy with perm)                     -> NP_KIND_TRANSPOSE
 * Weights, bias, multipliers and shifts are the layer's parameters;
 * a conv's or matmul's clamp narrower than saturation and relu (a fused
 * Clip) is NP_FLAG_CLAMP with the bounds;
 * everything the core cannot do exactly (zero points, such a clamp on
 * other kinds, a table after another layer, other kinds) is an error at the
 * node, never a silently different computation.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"
#include "printer_internal.h"

/* The elements of an integer attribute of `width` bits and `n` elements (a
 * splat is expanded) into a new int64 array; false if it is not one. */
static bool attr_ints(const nc_attr *a, unsigned width, int64_t n, int64_t **out)
{
  size_t nbytes;
  bool splat;
  nc_type *t = a ? nc_attr_get_type(a) : NULL;
  const void *data = a ? nc_attr_elements_get_data(a, &nbytes, &splat) : NULL;
  if (!data || !nc_type_is_integer_of_width(nc_type_get_element_type(t), width) || nc_type_get_num_elements(t) != n)
    return false;
  *out = nc_xmalloc((size_t)(n ? n : 1) * sizeof **out);
  for (int64_t i = 0; i < n; i++) {
    int64_t k = splat ? 0 : i;
    (*out)[i] = width == 8 ? ((const int8_t *)data)[k] : ((const int32_t *)data)[k];
  }
  return true;
}

/* Whether the n int8 values are wb-bit values (bits wb-1 to 7 of each the
 * same): eight a word, x ^ (x << 1) has those bits clear (from bit wb on)
 * for every byte that fits; a word's shift carries bit 7 into the next byte's
 * bit 0, outside the mask. No early exit: 140M VGG-19 weights in ~20 ms. */
static bool fits_width(const int8_t *data, int64_t n, unsigned wb)
{
  uint64_t acc = 0, mask = 0x0101010101010101ull * ((0xFFu << wb) & 0xFFu);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, data + i, 8);
    acc |= w ^ (w << 1);
  }
  acc &= mask;
  for (int lim = 1 << (wb - 1); i < n; i++)
    acc |= data[i] < -lim || data[i] >= lim;
  return acc == 0;
}

/* The int8 weights of the layer, borrowed from the attribute (a splat is
 * expanded): tiles slice them, so a large layer's weights are never copied
 * once per tile. Their shape in *shape. */
static bool read_weights(nc_op *node, const nc_dataflow_layer *layer, np_layer *l, const int64_t **shape,
                         const void **rangeChecked)
{
  size_t nbytes;
  bool splat;
  nc_type *t = layer->weights ? nc_attr_get_type(layer->weights) : NULL;
  int64_t n = t ? nc_type_get_num_elements(t) : -1;
  const int8_t *data = t ? nc_attr_elements_get_data(layer->weights, &nbytes, &splat) : NULL;
  unsigned wb = t ? nc_type_get_width(nc_type_get_element_type(t)) : 0;
  if (!data || n < 0 || !np_width_ok(layer->input_bits) || !nc_type_is_integer(nc_type_get_element_type(t)) ||
      !np_width_ok(wb) ||
      (!splat && nbytes < (size_t)n))
    return nc_op_emit_error(node, "needs int8 data and constant int8 weights on northpole");
  if (splat) {
    l->owned_weights = nc_xmalloc((size_t)(n ? n : 1));
    memset(l->owned_weights, data[0], (size_t)n);
    l->weights = l->owned_weights;
  } else {
    l->weights = data;
  }
  *shape = nc_type_get_shape(t);
  /* as core_packed_weight_bits (passes/core_util.c) sized the SRAM: packed at the layer's width */
  if ((wb == 4 || wb == 2) && (int64_t)wb == layer->output_bits) {
    int lim = 1 << (wb - 1);
    if (*rangeChecked != data) { /* once per layer, not per tile: VGG's first FC is 100M weights in 69 tiles */
      bool bad = !fits_width(data, splat ? 1 : n, wb);
      for (int64_t i = 0; bad && i < (splat ? 1 : n); i++)
        if (data[i] < -lim || data[i] >= lim)
          return nc_op_emit_error(node, "has a weight of %d outside the %u-bit range", data[i], wb);
      *rangeChecked = data;
    }
    l->weight_bits = (int)wb;
    l->flags |= NP_FLAG_PACKED_WEIGHTS;
  }
  return true;
}

/* The requantization after a conv or matmul: per layer or per output channel. */
static bool read_requantize(nc_op *node, const nc_dataflow_layer *layer, np_layer *l, int64_t channels)
{
  if (!layer->n_requant)
    return nc_op_emit_error(node, "must requantize its sums to int8 on northpole");
  /* 8, 4 or 2 bits: the requantize saturates to the width's range (the tile record's width) */
  int64_t tmax = np_width_ok(layer->output_bits) ? ((int64_t)1 << (layer->output_bits - 1)) - 1 : 127;
  if (layer->output_zero_point < -128 || layer->output_zero_point > 127 || !np_width_ok(layer->output_bits))
    return nc_op_emit_error(node, "must produce int8, int4 or int2 with an int8 zero point on northpole");
  l->bits = layer->output_bits;
  if (layer->clamp_min < -tmax - 1 || layer->clamp_max > tmax || layer->clamp_min > layer->clamp_max)
    return nc_op_emit_error(node, "clamps to [%lld, %lld]; northpole clamps within the %u-bit range only",
                            (long long)layer->clamp_min, (long long)layer->clamp_max, layer->output_bits);
  l->flags |= layer->clamp_min == 0 ? NP_FLAG_RELU : 0;
  if (layer->clamp_max < tmax || (layer->clamp_min != -tmax - 1 && layer->clamp_min != 0)) { /* a fused Clip */
    l->flags |= NP_FLAG_CLAMP;
    l->clamp_min = (int32_t)layer->clamp_min;
    l->clamp_max = (int32_t)layer->clamp_max;
  }
  l->zero_point = (int32_t)layer->output_zero_point;
  l->n_requant = layer->n_requant;
  l->multiplier = nc_xmalloc(layer->n_requant * sizeof *l->multiplier);
  l->shift = nc_xmalloc(layer->n_requant * sizeof *l->shift);
  for (size_t i = 0; i < layer->n_requant; i++) {
    l->multiplier[i] = (int32_t)layer->multiplier[i];
    l->shift[i] = (int32_t)layer->shift[i];
  }
  if (layer->bias) {
    l->n_bias = (size_t)channels;
    if (!attr_ints(layer->bias, 32, channels, &l->bias))
      return nc_op_emit_error(node, "needs a constant i32 bias of %lld elements on northpole", (long long)channels);
  }
  return true;
}

/* Output int8 (or 4-/2-bit in int8 containers: the tile record's width
 * saturates) with a zero point in range, saturation or relu as the clamp. */
static bool int8_output(nc_op *node, const nc_dataflow_layer *layer)
{
  unsigned w = layer->output_bits;
  int64_t hi = np_width_ok(w) ? ((int64_t)1 << (w - 1)) - 1 : 127, lo = -hi - 1;
  if (layer->output_zero_point < lo || layer->output_zero_point > hi || !np_width_ok(w))
    return nc_op_emit_error(node, "must produce int8, 4 or 2 bits with a zero point in range on northpole");
  if (layer->clamp_max < hi || (layer->clamp_min != lo && layer->clamp_min != layer->output_zero_point))
    return nc_op_emit_error(node, "clamps to [%lld, %lld]; northpole saturates to the width and applies only relu",
                            (long long)layer->clamp_min, (long long)layer->clamp_max);
  return true;
}

/* Operand i has the result's shape (its width may differ: int8 containers). */
static bool same_shape(nc_op *node, size_t i)
{
  nc_type *a = nc_value_get_type(nc_op_get_operand(node, i)), *b = nc_value_get_type(nc_op_get_result(node, 0));
  size_t r = nc_type_get_rank(a);
  return r == nc_type_get_rank(b) && !memcmp(nc_type_get_shape(a), nc_type_get_shape(b), r * sizeof(int64_t));
}

/* A residual add or subtract: two int8 inputs of the result's shape, each
 * rescaled by its multiplier and shift (n_requant = 2, one per operand). */
static bool read_eltwise(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  if ((layer->op != NC_DATAFLOW_ELTWISE_ADD && layer->op != NC_DATAFLOW_ELTWISE_SUB) || layer->n_inputs != 2 ||
      layer->n_requant || layer->bias)
    return nc_op_emit_error(node, "northpole runs elementwise layers that add or subtract two rescaled inputs only");
  if (!int8_output(node, layer))
    return false;
  for (size_t i = 0; i < 2; i++)
    if (!same_shape(node, i))
      return nc_op_emit_error(node, "northpole adds inputs of the result's shape only");
  l->kind = NP_KIND_ELTWISE;
  l->flags |= layer->clamp_min == layer->output_zero_point ? NP_FLAG_RELU : 0;
  l->flags |= layer->op == NC_DATAFLOW_ELTWISE_SUB ? NP_FLAG_SUBTRACT : 0;
  l->zero_point = (int32_t)layer->output_zero_point;
  l->n_requant = 2;
  l->multiplier = nc_xmalloc(2 * sizeof *l->multiplier);
  l->shift = nc_xmalloc(2 * sizeof *l->shift);
  for (size_t i = 0; i < 2; i++) {
    l->multiplier[i] = (int32_t)layer->input_multiplier[i];
    l->shift[i] = (int32_t)layer->input_shift[i];
  }
  l->group = 1;
  l->vops_per_element = 2;
  return true;
}

static void put_rescales(np_layer *l, size_t n, const int64_t *m, const int64_t *s)
{
  l->n_requant = (uint32_t)n;
  l->multiplier = nc_xmalloc(n * sizeof *l->multiplier);
  l->shift = nc_xmalloc(n * sizeof *l->shift);
  for (size_t i = 0; i < n; i++)
    l->multiplier[i] = (int32_t)m[i], l->shift[i] = (int32_t)s[i];
}

/* A channel concat of int8 operands [1, C_i, H, W], or of vectors [1, N_i]
 * (a classifier's features), each rescaled. */
static bool read_concat(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  size_t n = nc_op_get_num_operands(node), rank = nc_type_get_rank(out);
  if ((rank != 4 && rank != 2) || nc_type_get_shape(out)[0] != 1 || layer->axis != 0 || layer->n_requant ||
      layer->bias || n < 1 || n > NP_MAX_OPERANDS)
    return nc_op_emit_error(node, "northpole concatenates 1 to %d [1, C, H, W] tensors along the channels, or [1, N] "
                            "vectors, only", NP_MAX_OPERANDS);
  if (!int8_output(node, layer))
    return false;
  int64_t m[NP_MAX_OPERANDS], s[NP_MAX_OPERANDS];
  for (size_t i = 0; i < n; i++) {
    bool given = layer->input_multiplier[i] || layer->input_shift[i];
    m[i] = given ? layer->input_multiplier[i] : (int64_t)1 << 30; /* a float-style concat copies */
    s[i] = given ? layer->input_shift[i] : 30;
  }
  l->kind = NP_KIND_CONCAT;
  l->zero_point = (int32_t)layer->output_zero_point;
  l->flags |= layer->clamp_min == layer->output_zero_point ? NP_FLAG_RELU : 0;
  put_rescales(l, n, m, s);
  l->group = 1;
  l->vops_per_element = 1;
  return true;
}

/* An elementwise product of two int8 operands (the second the result's
 * shape or [1, C, 1, 1]), requantized once. */
static bool read_mul(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  nc_type *b = nc_value_get_type(nc_op_get_operand(node, 1));
  bool gate = nc_type_get_rank(b) == 4 && nc_type_get_rank(out) == 4 &&
              nc_type_get_shape(b)[1] == nc_type_get_shape(out)[1] && nc_type_get_num_elements(b) ==
                                                                           nc_type_get_shape(out)[1];
  if (layer->n_inputs != 2 || layer->n_requant != 1 || layer->bias || layer->input_multiplier[0] ||
      layer->input_multiplier[1] || !same_shape(node, 0) || (!same_shape(node, 1) && !gate))
    return nc_op_emit_error(node, "northpole multiplies a tensor by one of its shape or a [1, C, 1, 1] channel gate, "
                            "requantized once, only");
  if (!int8_output(node, layer))
    return false;
  l->kind = NP_KIND_MUL;
  l->zero_point = (int32_t)layer->output_zero_point;
  l->flags |= layer->clamp_min == layer->output_zero_point ? NP_FLAG_RELU : 0;
  put_rescales(l, 1, layer->multiplier, layer->shift);
  l->group = 1;
  l->vops_per_element = 1;
  return true;
}

/* A table on int8, 4- or 2-bit data (int8 containers): the table's 2^w
 * entries, one per input value, widened to the 256-entry int8 table the
 * chip indexes by value + 128 (the rest are never read), each saturated to
 * the result's width. */
static bool read_lut(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  nc_type *t = layer->lut ? nc_attr_get_type(layer->lut) : NULL;
  unsigned in_w = layer->input_bits, out_w = layer->output_bits;
  int64_t n = np_width_ok(in_w) ? (int64_t)1 << in_w : 0, *v;
  if (!n || !t || nc_type_get_num_elements(t) != n || !attr_ints(layer->lut, 8, n, &v))
    return nc_op_emit_error(node, "northpole looks up int8, 4- or 2-bit values in a table of one entry per value only");
  nc_type *in = nc_value_get_type(nc_op_get_operand(node, 0)), *out = nc_value_get_type(nc_op_get_result(node, 0));
  if (layer->n_requant || layer->bias || !np_width_ok(out_w) || nc_type_get_rank(in) != nc_type_get_rank(out) ||
      nc_type_get_num_elements(in) != nc_type_get_num_elements(out)) {
    free(v);
    return nc_op_emit_error(node, "northpole runs a table on int8 (or 4-/2-bit) data of the result's shape, with "
                            "nothing else");
  }
  int64_t lo = -((int64_t)1 << (out_w - 1)), hi = -lo - 1;
  l->kind = NP_KIND_LUT;
  l->bits = out_w;
  l->weights = l->owned_weights = nc_xcalloc(256, 1);
  for (int64_t i = 0; i < n; i++)
    l->owned_weights[128 - n / 2 + i] = (int8_t)(v[i] < lo ? lo : v[i] > hi ? hi : v[i]);
  free(v);
  l->group = 1;
  l->vops_per_element = 1;
  return true;
}

/* Softmax along the last coordinate of int8 (or 4-/2-bit) data, its
 * exponential table widened to the 256 little-endian i32 the chip indexes
 * by the difference from the row's maximum + 255 (a narrow input's 2^w
 * entries are the last ones; the rest are never read); the result in steps
 * of 1 / (the width's maximum). */
static bool read_softmax(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  int64_t *v;
  unsigned out_w = layer->output_bits;
  int64_t n = np_width_ok(layer->input_bits) ? (int64_t)1 << layer->input_bits : 0;
  nc_type *t = layer->lut ? nc_attr_get_type(layer->lut) : NULL;
  if (!n || !t || nc_type_get_num_elements(t) != n || !attr_ints(layer->lut, 32, n, &v))
    return nc_op_emit_error(node, "northpole runs softmax on int8, 4- or 2-bit data with a table of one entry per "
                            "input value only");
  if (layer->n_requant || layer->bias || !np_width_ok(out_w) || layer->clamp_max != ((int64_t)1 << (out_w - 1)) - 1 ||
      !same_shape(node, 0)) {
    free(v);
    return nc_op_emit_error(node, "northpole runs softmax from int8 (or 4-/2-bit) data to a result of one shape, with "
                            "nothing else");
  }
  l->bits = out_w;
  l->weights = l->owned_weights = nc_xcalloc(1024, 1);
  for (int64_t i = 0; i < n; i++)
    for (int b = 0; b < 4; b++)
      l->owned_weights[4 * (256 - n + i) + b] = (int8_t)(uint8_t)((uint32_t)v[i] >> (8 * b));
  free(v);
  l->kind = NP_KIND_SOFTMAX;
  l->group = 1;
  int64_t rank = (int64_t)nc_type_get_rank(nc_value_get_type(nc_op_get_result(node, 0)));
  l->vops_per_element = 3 * nc_type_get_shape(nc_value_get_type(nc_op_get_result(node, 0)))[rank - 1];
  return true;
}

static void copy_window(const nc_dataflow_layer *layer, np_layer *l)
{
  for (int a = 0; a < 2; a++) {
    l->kernel[a] = layer->kernel[a];
    l->stride[a] = layer->stride[a];
    l->dilation[a] = layer->dilation[a];
    l->pad[a] = layer->pads[a];
    l->pad[2 + a] = layer->pads[2 + a];
  }
}

/* An average pool on int8 keeping its input's scale: the window's sum
 * divided by its count rounding half to even, no requantization; a global
 * one is a single window over the [H, W] plane. */
static bool read_avg_pool(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  const char *kind = nc_dataflow_layer_kind_name(layer->kind);
  if (layer->n_requant || layer->bias || layer->clamp_min != INT64_MIN || layer->clamp_max != INT64_MAX)
    return nc_op_emit_error(node, "a %s layer that requantizes or clamps has no northpole implementation", kind);
  nc_type *in = nc_value_get_type(nc_op_get_operand(node, 0));
  if (nc_type_get_rank(in) != 4 || !np_width_ok(layer->output_bits) || layer->output_bits != layer->input_bits)
    return nc_op_emit_error(node, "northpole runs %s layers on [1, C, H, W] int8 (or 4-/2-bit) tensors only", kind);
  l->kind = NP_KIND_AVG_POOL;
  l->group = 1;
  if (layer->kind == NC_DATAFLOW_LAYER_GLOBAL_AVG_POOL) {
    for (int a = 0; a < 2; a++) {
      l->kernel[a] = nc_type_get_shape(in)[2 + a];
      l->stride[a] = l->dilation[a] = 1;
    }
  } else {
    copy_window(layer, l);
    l->flags |= layer->count_include_pad ? NP_FLAG_COUNT_PAD : 0;
  }
  l->vops_per_element = l->kernel[0] * l->kernel[1] + 1;
  return true;
}

/* resize, pad and shuffle: NP_KIND_MOVE, which copies int8 (or 4-/2-bit)
 * elements of [1, C, H, W] and fills padding with the layer's value. */
static bool read_move(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  const char *kind = nc_dataflow_layer_kind_name(layer->kind);
  nc_type *in = nc_value_get_type(nc_op_get_operand(node, 0));
  bool vector = layer->kind == NC_DATAFLOW_LAYER_PAD && nc_type_get_rank(in) == 2; /* [1, N]: left/right pads */
  if (layer->n_requant || layer->bias || layer->clamp_min != INT64_MIN || layer->clamp_max != INT64_MAX ||
      (nc_type_get_rank(in) != 4 && !vector) || !np_width_ok(layer->output_bits) ||
      layer->output_bits != layer->input_bits)
    return nc_op_emit_error(node, "northpole runs %s layers on [1, C, H, W] int8 (or 4-/2-bit) tensors only (a pad "
                            "also on [1, N] vectors), with nothing else", kind);
  int64_t hi = ((int64_t)1 << (layer->output_bits - 1)) - 1;
  if (layer->pad_value < -hi - 1 || layer->pad_value > hi)
    return nc_op_emit_error(node, "pads with %lld, outside the layer's %u-bit range", (long long)layer->pad_value,
                            layer->output_bits);
  l->kind = NP_KIND_MOVE;
  l->group = layer->kind == NC_DATAFLOW_LAYER_SHUFFLE ? layer->group : 1;
  for (int a = 0; a < 2; a++) {
    l->kernel[a] = layer->kind == NC_DATAFLOW_LAYER_RESIZE ? layer->scale[a] : 1;
    l->stride[a] = l->dilation[a] = 1;
  }
  if (layer->kind == NC_DATAFLOW_LAYER_PAD) {
    memcpy(l->pad, layer->pads, sizeof l->pad);
    l->flags |= layer->pad_mode == NC_DATAFLOW_PAD_REFLECT ? NP_FLAG_PAD_REFLECT
                : layer->pad_mode == NC_DATAFLOW_PAD_EDGE  ? NP_FLAG_PAD_EDGE
                : layer->pad_mode == NC_DATAFLOW_PAD_WRAP  ? NP_FLAG_PAD_WRAP
                                                           : 0;
  }
  l->zero_point = (int32_t)layer->pad_value;
  l->vops_per_element = 1;
  if (layer->kind == NC_DATAFLOW_LAYER_RESIZE && layer->nearest_channels[2]) { /* (a, b, d) as 3 i32 weights */
    l->weights = l->owned_weights = nc_xcalloc(12, 1);
    for (int k = 0; k < 3; k++)
      for (int b = 0; b < 4; b++)
        l->owned_weights[4 * k + b] = (int8_t)(uint8_t)((uint32_t)(int32_t)layer->nearest_channels[k] >> (8 * b));
    l->weight_row_bytes = 12;
    l->vops_per_element = 2; /* the channel's index, then the copy */
  }
  return true;
}

/* A transpose (a copy with `perm`): NP_KIND_TRANSPOSE, the permutation of
 * the result's dims (the batch of one first, kept) as i32 weights. */
static bool read_transpose(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  size_t rank = nc_type_get_rank(out), skip = rank - layer->n_perm;
  if ((skip != 0 && skip != 1) || rank > NC_NCB_MAX_RANK || !np_width_ok(layer->output_bits) ||
      layer->output_bits != layer->input_bits)
    return nc_op_emit_error(node, "northpole transposes int8 (or 4-/2-bit) tensors of rank %d at most, keeping a "
                            "batch of one first, only", NC_NCB_MAX_RANK);
  l->kind = NP_KIND_TRANSPOSE;
  l->bits = layer->output_bits;
  l->weights = l->owned_weights = nc_xcalloc(4 * rank, 1);
  for (size_t k = 0; k < rank; k++) {
    uint32_t p = (uint32_t)(k < skip ? k : (size_t)layer->perm[k - skip] + skip);
    for (int b = 0; b < 4; b++)
      l->owned_weights[4 * k + b] = (int8_t)(uint8_t)(p >> (8 * b));
  }
  l->weight_row_bytes = 4 * rank;
  l->group = 1;
  l->vops_per_element = 1;
  return true;
}

/* A linear resize: NP_KIND_RESIZE, its coordinate coefficients as 6 i32 weights (9 when it interpolates the
 * channels too). */
static bool read_linear_resize(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  nc_type *in = nc_value_get_type(nc_op_get_operand(node, 0));
  if (layer->n_requant || layer->bias || layer->clamp_min != INT64_MIN || layer->clamp_max != INT64_MAX ||
      nc_type_get_rank(in) != 4 || !np_width_ok(layer->output_bits) || layer->output_bits != layer->input_bits)
    return nc_op_emit_error(node, "northpole runs linear resize layers on [1, C, H, W] int8 (or 4-/2-bit) tensors "
                            "only, with nothing else");
  l->kind = NP_KIND_RESIZE;
  l->group = 1;
  bool channels = layer->linear_channels[2] != 0; /* 9 coefficients: H, W, then C */
  int n = channels ? 9 : 6;
  l->weights = l->owned_weights = nc_xcalloc((size_t)(4 * n), 1);
  for (int k = 0; k < n; k++)
    for (int b = 0; b < 4; b++)
      l->owned_weights[4 * k + b] =
        (int8_t)(uint8_t)((uint32_t)(int32_t)(k < 6 ? layer->linear[k] : layer->linear_channels[k - 6]) >> (8 * b));
  l->weight_row_bytes = 4 * n;
  l->vops_per_element = channels ? 8 : 4;
  return true;
}

/* A conv's folded per-channel input map (dataflow-fold-input-affine): the
 * tile applies it to operand 0's elements as they arrive (NP_FLAG_IN_AFFINE). */
static bool read_input_affine(nc_op *node, const nc_dataflow_layer *layer, np_layer *l)
{
  size_t c = (layer->n_input_affine - 2) / 4;
  int64_t lo = layer->input_affine[4 * c], hi = layer->input_affine[4 * c + 1];
  int64_t tmax = ((int64_t)1 << (layer->input_bits - 1)) - 1;
  if (lo < -tmax - 1 || hi > tmax)
    return nc_op_emit_error(node, "maps its input into [%lld, %lld]; northpole keeps the input's %u-bit range",
                            (long long)lo, (long long)hi, layer->input_bits);
  for (size_t i = 0; i < c; i++)
    if (layer->input_affine[4 * i] < INT8_MIN || layer->input_affine[4 * i] > INT8_MAX)
      return nc_op_emit_error(node, "has an input_affine weight of %lld; northpole holds int8 weights",
                              (long long)layer->input_affine[4 * i]);
  l->flags |= NP_FLAG_IN_AFFINE;
  l->n_affine = c;
  l->affine = layer->input_affine;
  return true;
}

bool np_layer_read(nc_op *node, np_layer *l, const void **rangeChecked)
{
  memset(l, 0, sizeof *l);
  l->weight_bits = 8;
  nc_dataflow_layer layer;
  if (!nc_dataflow_node_get_layer(node, &layer))
    return nc_op_emit_error(node, "has no valid layer kind and parameters (run graph-to-dataflow)");
  const char *kind = nc_dataflow_layer_kind_name(layer.kind);
  bool zero_points = layer.weight_zero_point != 0;
  for (size_t i = 0; i < layer.n_inputs; i++)
    zero_points |= layer.input_zero_points[i] != 0;
  if (zero_points)
    return nc_op_emit_error(node, "has nonzero zero points; northpole computes symmetric int8 (zero point 0)");
  /* a table after another kind's layer (lut), or a transpose that is not a copy (perm), never gets here:
   * target-check-layers refuses the parameters target.c's `layers` does not list, before printing */
  /* conv, matmul, pools, tables and copies read 4- and 2-bit data in int8 containers as they are */
  bool narrow_ok = layer.kind == NC_DATAFLOW_LAYER_CONV || layer.kind == NC_DATAFLOW_LAYER_MATMUL ||
                   layer.kind == NC_DATAFLOW_LAYER_MAX_POOL || layer.kind == NC_DATAFLOW_LAYER_COPY ||
                   layer.kind == NC_DATAFLOW_LAYER_GLOBAL_MAX_POOL || layer.kind == NC_DATAFLOW_LAYER_LUT ||
                   layer.kind == NC_DATAFLOW_LAYER_AVG_POOL || layer.kind == NC_DATAFLOW_LAYER_GLOBAL_AVG_POOL ||
                   layer.kind == NC_DATAFLOW_LAYER_ELTWISE || layer.kind == NC_DATAFLOW_LAYER_CONCAT ||
                   layer.kind == NC_DATAFLOW_LAYER_SOFTMAX || layer.kind == NC_DATAFLOW_LAYER_RESIZE ||
                   layer.kind == NC_DATAFLOW_LAYER_PAD || layer.kind == NC_DATAFLOW_LAYER_SHUFFLE;
  if (layer.input_bits != 8 && !(narrow_ok && np_width_ok(layer.input_bits)))
    return nc_op_emit_error(node, "needs int8 data on northpole");
  l->bits = 8;
  if (narrow_ok && layer.kind != NC_DATAFLOW_LAYER_CONV && layer.kind != NC_DATAFLOW_LAYER_MATMUL)
    l->bits = np_width_ok(layer.output_bits) ? layer.output_bits : 8; /* keeps its input's width */
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  int64_t channels = nc_type_get_rank(out) >= 2 ? nc_type_get_shape(out)[1] : 1;
  if (layer.kind == NC_DATAFLOW_LAYER_MATMUL) /* [.., N]: output features on the last axis */
    channels = nc_type_get_shape(out)[nc_type_get_rank(out) - 1];
  const int64_t *ws;
  switch (layer.kind) {
  case NC_DATAFLOW_LAYER_CONV:
    if (!read_weights(node, &layer, l, &ws, rangeChecked))
      return false;
    l->kind = NP_KIND_CONV;
    l->weight_rows = ws[0];
    l->weight_row_bytes = nc_type_get_num_elements(nc_attr_get_type(layer.weights)) / ws[0];
    copy_window(&layer, l);
    l->group = layer.group;
    l->macs_per_element = l->weight_row_bytes;
    if (layer.n_input_affine && !read_input_affine(node, &layer, l))
      return false;
    return read_requantize(node, &layer, l, channels);
  case NC_DATAFLOW_LAYER_MATMUL:
    if (nc_type_get_rank(nc_value_get_type(nc_op_get_operand(node, 0))) != 2 &&
        !(nc_type_get_rank(nc_value_get_type(nc_op_get_operand(node, 0))) == 3 &&
          nc_type_get_shape(nc_value_get_type(nc_op_get_operand(node, 0)))[0] == 1))
      return nc_op_emit_error(node, "northpole runs [M, K] x [K, N] matrix products only (or [1, M, K] x [K, N])");
    if (!read_weights(node, &layer, l, &ws, rangeChecked))
      return false;
    l->kind = NP_KIND_MATMUL;
    l->k = ws[0];
    l->n = ws[1];
    l->macs_per_element = ws[0];
    return read_requantize(node, &layer, l, channels);
  case NC_DATAFLOW_LAYER_MAX_POOL:
  case NC_DATAFLOW_LAYER_COPY:
    if (layer.n_requant || layer.bias || (layer.clamp_max != INT64_MAX && layer.clamp_max < 127) ||
        (layer.clamp_min != INT64_MIN && (layer.clamp_min != 0 || layer.kind != NC_DATAFLOW_LAYER_MAX_POOL)))
      return nc_op_emit_error(node, "a %s layer that requantizes or clamps (other than a max_pool's relu) has no "
                              "northpole implementation", kind);
    if (layer.n_perm)
      return read_transpose(node, &layer, l);
    l->kind = layer.kind == NC_DATAFLOW_LAYER_COPY ? NP_KIND_COPY : NP_KIND_MAX_POOL;
    l->flags |= layer.clamp_min == 0 ? NP_FLAG_RELU : 0; /* a relu after the max */
    if (layer.kind == NC_DATAFLOW_LAYER_MAX_POOL) {
      copy_window(&layer, l);
      l->group = 1;
    }
    l->vops_per_element = l->kind == NP_KIND_COPY ? 1 : l->kernel[0] * l->kernel[1];
    return true;
  case NC_DATAFLOW_LAYER_ELTWISE:
    return layer.op == NC_DATAFLOW_ELTWISE_MUL ? read_mul(node, &layer, l) : read_eltwise(node, &layer, l);
  case NC_DATAFLOW_LAYER_CONCAT:
    return read_concat(node, &layer, l);
  case NC_DATAFLOW_LAYER_LUT:
    return read_lut(node, &layer, l);
  case NC_DATAFLOW_LAYER_RESIZE:
    if (layer.linear[2])
      return read_linear_resize(node, &layer, l);
    return read_move(node, &layer, l);
  case NC_DATAFLOW_LAYER_PAD:
  case NC_DATAFLOW_LAYER_SHUFFLE:
    return read_move(node, &layer, l);
  case NC_DATAFLOW_LAYER_SOFTMAX:
    return read_softmax(node, &layer, l);
  case NC_DATAFLOW_LAYER_AVG_POOL:
  case NC_DATAFLOW_LAYER_GLOBAL_AVG_POOL:
    return read_avg_pool(node, &layer, l);
  case NC_DATAFLOW_LAYER_GLOBAL_MAX_POOL: /* one max_pool window over the plane */
    if (layer.n_requant || layer.bias || layer.clamp_min != INT64_MIN || layer.clamp_max != INT64_MAX ||
        nc_type_get_rank(nc_value_get_type(nc_op_get_operand(node, 0))) != 4)
      return nc_op_emit_error(node, "northpole runs global_max_pool layers on [1, C, H, W] int8 tensors only, "
                              "without requantization");
    l->kind = NP_KIND_MAX_POOL;
    l->group = 1;
    for (int a = 0; a < 2; a++) {
      l->kernel[a] = nc_type_get_shape(nc_value_get_type(nc_op_get_operand(node, 0)))[2 + a];
      l->stride[a] = l->dilation[a] = 1;
    }
    l->vops_per_element = l->kernel[0] * l->kernel[1];
    return true;
  default:
    return nc_op_emit_error(node, "is a %s layer, which has no northpole implementation (northpole runs int8 conv "
                            "and matmul with requantization, int8 max and average pools, residual adds, channel concats, "
                            "products, tables, softmax and "
                            "copies)", kind);
  }
}

void np_layer_clear(np_layer *l)
{
  free(l->owned_weights);
  free(l->multiplier);
  free(l->shift);
  free(l->bias);
  memset(l, 0, sizeof *l);
}

void np_layer_write_geometry(nc_bytes *b, const np_layer *l)
{
  for (int i = 0; i < 2; i++) nc_bytes_put_i64(b, l->kernel[i]);
  for (int i = 0; i < 2; i++) nc_bytes_put_i64(b, l->stride[i]);
  for (int i = 0; i < 4; i++) nc_bytes_put_i64(b, l->pad[i]);
  for (int i = 0; i < 2; i++) nc_bytes_put_i64(b, l->dilation[i]);
  nc_bytes_put_i64(b, l->group);
  nc_bytes_put_i32(b, l->zero_point);
}

void np_layer_write(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi, np_weight_pool *pool, int64_t slot)
{
  np_layer_write_geometry(b, l);
  bool per_channel = l->n_requant > 1 && (l->kind == NP_KIND_CONV || l->kind == NP_KIND_MATMUL); /* else per operand */
  uint32_t nr = (uint32_t)(per_channel ? hi - lo : (int64_t)l->n_requant);
  nc_bytes_put_u32(b, nr);
  for (uint32_t i = 0; i < nr; i++) nc_bytes_put_i32(b, l->multiplier[per_channel ? lo + i : i]);
  for (uint32_t i = 0; i < nr; i++) nc_bytes_put_i32(b, l->shift[per_channel ? lo + i : i]);
  uint32_t nb = l->n_bias ? (uint32_t)(hi - lo) : 0;
  nc_bytes_put_u32(b, nb);
  for (uint32_t i = 0; i < nb; i++) nc_bytes_put_i32(b, l->bias[lo + i]);
  if (l->kind == NP_KIND_CONV) /* [hi - lo, C/group, kh, kw]: rows lo..hi of the weights */
    np_put_weights(b, pool, slot, l->weights + lo * l->weight_row_bytes, 1, (hi - lo) * l->weight_row_bytes, 0,
                   l->weight_bits, false);
  else if (l->kind == NP_KIND_MATMUL) /* [K, hi - lo]: columns lo..hi of [K, N] */
    np_put_weights(b, pool, slot, l->weights + lo, l->k, hi - lo, l->n, l->weight_bits, !l->owned_weights);
  else if (l->kind == NP_KIND_LUT) /* the whole table on every tile */
    np_put_weights(b, pool, slot, l->weights, 1, 256, 0, 8, false);
  else if (l->kind == NP_KIND_RESIZE || l->kind == NP_KIND_TRANSPOSE || (l->kind == NP_KIND_MOVE && l->weights))
    np_put_weights(b, pool, slot, l->weights, 1, l->weight_row_bytes, 0, 8, false);
  else if (l->kind == NP_KIND_SOFTMAX)
    np_put_weights(b, pool, slot, l->weights, 1, 1024, 0, 8, false);
  else
    np_put_weights(b, pool, slot, l->weights, 0, 0, 0, 8, false);
}
