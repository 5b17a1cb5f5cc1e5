/* printer_layer.c: what a NorthPole core needs to know about a layer, read
 * from the graph ops in a dataflow.node's region (docs/design/spine.md):
 *   graph.conv_integer (+ graph.requantize)    -> NP_KIND_CONV
 *   graph.matmul_integer (+ graph.requantize)  -> NP_KIND_MATMUL
 *   graph.max_pool on int8                     -> NP_KIND_MAX_POOL
 *   graph.flatten / graph.reshape              -> NP_KIND_COPY
 * Weights, bias, multipliers and shifts are the constants of the region;
 * everything the core cannot do exactly (zero points, other activations,
 * a requantize along another axis, an op the layer does not end with) is an
 * error at the op, never a silently different computation.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/graph/graph.h"
#include "nc/ir/diag.h"
#include "printer_internal.h"

/* The data of a graph.constant defining v: its type and raw bytes. */
bool np_constant_data(nc_value *v, nc_type **type, const void **data, size_t *nbytes, bool *splat)
{
  nc_op *def = nc_value_get_defining_op(v);
  if (!def || !nc_op_is(def, "graph.constant"))
    return false;
  nc_attr *value = nc_op_get_attr_str(def, "value");
  if (!value || !(*data = nc_attr_elements_get_data(value, nbytes, splat)))
    return false;
  *type = nc_value_get_type(v);
  return true;
}

/* An integer constant tensor of `n` elements of `width` bits (a splat is
 * expanded) into a new int64 array; false if v is not such a constant. */
static bool constant_ints(nc_value *v, unsigned width, int64_t n, int64_t **out)
{
  nc_type *type;
  const void *data;
  size_t nbytes;
  bool splat;
  if (!np_constant_data(v, &type, &data, &nbytes, &splat) ||
      !nc_type_is_integer_of_width(nc_type_get_element_type(type), width) || nc_type_get_num_elements(type) != n)
    return false;
  *out = nc_xmalloc((size_t)(n ? n : 1) * sizeof **out);
  for (int64_t i = 0; i < n; i++) {
    int64_t k = splat ? 0 : i;
    (*out)[i] = width == 8 ? ((const int8_t *)data)[k] : ((const int32_t *)data)[k];
  }
  return true;
}

/* True if the optional operand `i` of op is absent or a constant all zero. */
static bool zero_or_absent(nc_op *op, size_t i)
{
  if (i >= nc_op_get_num_operands(op))
    return true;
  nc_value *v = nc_op_get_operand(op, i);
  nc_type *t = nc_value_get_type(v);
  int64_t n = nc_type_get_num_elements(t), *vals = NULL;
  unsigned w = nc_type_get_width(nc_type_get_element_type(t));
  if (n < 0 || (w != 8 && w != 32) || !constant_ints(v, w, n, &vals))
    return false;
  bool zero = true;
  for (int64_t k = 0; k < n; k++)
    zero &= vals[k] == 0;
  free(vals);
  return zero;
}

static bool is_i8_tensor(nc_value *v)
{
  nc_type *t = nc_value_get_type(v);
  return nc_type_get_kind(t) == NC_TYPE_TENSOR && nc_type_has_static_shape(t) &&
         nc_type_is_integer_of_width(nc_type_get_element_type(t), 8);
}

/* The single user of v, or NULL. */
static nc_op *only_user(nc_value *v)
{
  nc_use *u = nc_value_get_first_use(v);
  return u && !nc_use_get_next(u) ? nc_use_get_owner(u) : NULL;
}

/* graph.requantize after the accumulator `acc` (per-channel along axis 1). */
static bool read_requantize(nc_op *layer_op, np_layer *l, nc_op **last)
{
  nc_op *rq = only_user(nc_op_get_result(layer_op, 0));
  if (!rq || !nc_op_is(rq, "graph.requantize"))
    return nc_op_emit_error(layer_op, "must be followed by graph.requantize (its only user) on northpole");
  int64_t channels = nc_type_get_shape(nc_value_get_type(nc_op_get_result(layer_op, 0)))[1];
  size_t nm, ns;
  const int64_t *m = nc_graph_attr_ints(rq, "multiplier", &nm), *s = nc_graph_attr_ints(rq, "shift", &ns);
  if (!m || !s || nm != ns || (nm != 1 && (int64_t)nm != channels))
    return nc_op_emit_error(rq, "needs 1 or %lld multipliers and as many shifts", (long long)channels);
  if (nc_graph_attr_int(rq, "axis", 1) != 1 && nm != 1)
    return nc_op_emit_error(rq, "requantizes along axis %lld; northpole requantizes per output channel (axis 1)",
                            (long long)nc_graph_attr_int(rq, "axis", 1));
  int64_t zp = nc_graph_attr_int(rq, "output_zero_point", 0);
  if (zp < -128 || zp > 127 || !is_i8_tensor(nc_op_get_result(rq, 0)))
    return nc_op_emit_error(rq, "must produce int8 with an int8 zero point on northpole");
  const char *act = nc_graph_attr_string(rq, "activation", NULL);
  if (act && strcmp(act, "relu"))
    return nc_op_emit_error(rq, "has activation \"%s\"; northpole applies only relu", act);
  l->flags |= act ? NP_FLAG_RELU : 0;
  l->zero_point = (int32_t)zp;
  l->n_requant = nm;
  l->multiplier = nc_xmalloc(nm * sizeof *l->multiplier);
  l->shift = nc_xmalloc(nm * sizeof *l->shift);
  for (size_t i = 0; i < nm; i++) {
    if (m[i] < 0 || m[i] > INT32_MAX || s[i] < 0 || s[i] > 63)
      return nc_op_emit_error(rq, "multiplier %lld / shift %lld is out of range", (long long)m[i], (long long)s[i]);
    l->multiplier[i] = (int32_t)m[i];
    l->shift[i] = (int32_t)s[i];
  }
  if (nc_op_get_num_operands(rq) > 1) {
    l->n_bias = (size_t)channels;
    if (!constant_ints(nc_op_get_operand(rq, 1), 32, channels, &l->bias))
      return nc_op_emit_error(rq, "needs a constant i32 bias of %lld elements on northpole", (long long)channels);
  }
  *last = rq;
  return true;
}

static bool read_conv(nc_op *op, np_layer *l, nc_op **last)
{
  nc_conv_params p;
  nc_value *x = nc_op_get_operand(op, 0), *w = nc_op_get_operand(op, 1);
  nc_type *wt = nc_value_get_type(w);
  if (!nc_graph_get_conv_params(op, &p) || nc_type_get_rank(nc_value_get_type(x)) != 4)
    return nc_op_emit_error(op, "northpole runs 2-D convolutions only");
  if (p.auto_pad != NC_AUTO_PAD_NOTSET && p.auto_pad != NC_AUTO_PAD_VALID)
    return nc_op_emit_error(op, "has auto_pad SAME_*; run graph-optimize to make the padding explicit");
  if (!zero_or_absent(op, 2) || !zero_or_absent(op, 3))
    return nc_op_emit_error(op, "has nonzero zero points; northpole computes symmetric int8 (zero point 0)");
  const int64_t *ws = nc_type_get_shape(wt);
  int64_t n = nc_type_get_num_elements(wt);
  const void *data;
  size_t nbytes;
  bool splat;
  if (!is_i8_tensor(x) || !np_constant_data(w, &wt, &data, &nbytes, &splat) ||
      !nc_type_is_integer_of_width(nc_type_get_element_type(wt), 8))
    return nc_op_emit_error(op, "needs int8 data and constant int8 weights on northpole");
  l->kind = NP_KIND_CONV;
  l->weights = nc_xmalloc((size_t)n);
  for (int64_t i = 0; i < n; i++)
    l->weights[i] = ((const int8_t *)data)[splat ? 0 : i];
  l->weight_rows = ws[0];
  l->weight_row_bytes = n / ws[0];
  for (int a = 0; a < 2; a++) {
    l->kernel[a] = ws[2 + a];
    l->stride[a] = p.strides[a] ? p.strides[a] : 1;
    l->dilation[a] = p.dilations[a] ? p.dilations[a] : 1;
    l->pad[a] = p.auto_pad == NC_AUTO_PAD_VALID ? 0 : p.pads[a];
    l->pad[2 + a] = p.auto_pad == NC_AUTO_PAD_VALID ? 0 : p.pads[2 + a];
  }
  l->group = p.group ? p.group : 1;
  l->macs_per_element = l->weight_row_bytes;
  return read_requantize(op, l, last);
}

static bool read_matmul(nc_op *op, np_layer *l, nc_op **last)
{
  nc_value *a = nc_op_get_operand(op, 0), *b = nc_op_get_operand(op, 1);
  nc_type *bt = nc_value_get_type(b);
  const void *data;
  size_t nbytes;
  bool splat;
  if (nc_type_get_rank(nc_value_get_type(a)) != 2 || nc_type_get_rank(bt) != 2)
    return nc_op_emit_error(op, "northpole runs [M, K] x [K, N] matrix products only");
  if (!zero_or_absent(op, 2) || !zero_or_absent(op, 3))
    return nc_op_emit_error(op, "has nonzero zero points; northpole computes symmetric int8 (zero point 0)");
  if (!is_i8_tensor(a) || !np_constant_data(b, &bt, &data, &nbytes, &splat) ||
      !nc_type_is_integer_of_width(nc_type_get_element_type(bt), 8))
    return nc_op_emit_error(op, "needs int8 data and constant int8 weights on northpole");
  const int64_t *bs = nc_type_get_shape(bt);
  int64_t n = bs[0] * bs[1];
  l->kind = NP_KIND_MATMUL;
  l->weights = nc_xmalloc((size_t)n);
  for (int64_t i = 0; i < n; i++)
    l->weights[i] = ((const int8_t *)data)[splat ? 0 : i];
  l->k = bs[0];
  l->n = bs[1];
  l->macs_per_element = bs[0];
  return read_requantize(op, l, last);
}

static bool read_pool(nc_op *op, np_layer *l, nc_op **last)
{
  nc_pool_params p;
  if (!nc_graph_get_pool_params(op, &p) || nc_type_get_rank(nc_value_get_type(nc_op_get_operand(op, 0))) != 4)
    return nc_op_emit_error(op, "northpole runs 2-D pooling only");
  if (!is_i8_tensor(nc_op_get_operand(op, 0)))
    return nc_op_emit_error(op, "needs int8 data on northpole");
  if (p.auto_pad != NC_AUTO_PAD_NOTSET && p.auto_pad != NC_AUTO_PAD_VALID)
    return nc_op_emit_error(op, "has auto_pad SAME_*; northpole needs explicit padding");
  if (nc_op_get_num_results(op) != 1)
    return nc_op_emit_error(op, "returns indices; northpole computes only the pooled values");
  l->kind = NP_KIND_MAX_POOL;
  for (int a = 0; a < 2; a++) {
    l->kernel[a] = p.kernel_shape[a];
    l->stride[a] = p.strides[a] ? p.strides[a] : 1;
    l->dilation[a] = p.dilations[a] ? p.dilations[a] : 1;
    l->pad[a] = p.auto_pad == NC_AUTO_PAD_VALID ? 0 : p.pads[a];
    l->pad[2 + a] = p.auto_pad == NC_AUTO_PAD_VALID ? 0 : p.pads[2 + a];
  }
  l->group = 1;
  l->vops_per_element = l->kernel[0] * l->kernel[1];
  *last = op;
  return true;
}

bool np_layer_read(nc_op *node, np_layer *l)
{
  memset(l, 0, sizeof *l);
  nc_op *op = nc_dataflow_node_get_layer_op(node), *last = NULL;
  if (!op)
    return nc_op_emit_error(node, "has no layer op");
  bool ok;
  if (nc_op_is(op, "graph.conv_integer"))
    ok = read_conv(op, l, &last);
  else if (nc_op_is(op, "graph.matmul_integer"))
    ok = read_matmul(op, l, &last);
  else if (nc_op_is(op, "graph.max_pool"))
    ok = read_pool(op, l, &last);
  else if (nc_op_is(op, "graph.flatten") || nc_op_is(op, "graph.reshape")) {
    if (!is_i8_tensor(nc_op_get_operand(op, 0)))
      return nc_op_emit_error(op, "needs int8 data on northpole");
    l->kind = NP_KIND_COPY;
    l->vops_per_element = 1;
    last = op;
    ok = true;
  } else {
    return nc_op_emit_error(op, "has no northpole implementation (northpole runs conv_integer and matmul_integer "
                            "with requantize, int8 max_pool, flatten and reshape)");
  }
  if (!ok)
    return false;
  nc_op *yield = nc_dataflow_node_get_yield(node);
  if (!yield || nc_op_get_num_operands(yield) != 1 || nc_op_get_operand(yield, 0) != nc_op_get_result(last, 0))
    return nc_op_emit_error(node, "must end with its layer op ('%s'), but does more after it; northpole runs one "
                            "layer per node", nc_ident_str(nc_op_get_name(last)));
  return true;
}

void np_layer_clear(np_layer *l)
{
  free(l->weights);
  free(l->multiplier);
  free(l->shift);
  free(l->bias);
  memset(l, 0, sizeof *l);
}

void np_layer_write(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi)
{
  for (int i = 0; i < 2; i++) nc_bytes_put_i64(b, l->kernel[i]);
  for (int i = 0; i < 2; i++) nc_bytes_put_i64(b, l->stride[i]);
  for (int i = 0; i < 4; i++) nc_bytes_put_i64(b, l->pad[i]);
  for (int i = 0; i < 2; i++) nc_bytes_put_i64(b, l->dilation[i]);
  nc_bytes_put_i64(b, l->group);
  nc_bytes_put_i32(b, l->zero_point);
  bool per_channel = l->n_requant > 1;
  uint32_t nr = (uint32_t)(per_channel ? hi - lo : (int64_t)l->n_requant);
  nc_bytes_put_u32(b, nr);
  for (uint32_t i = 0; i < nr; i++) nc_bytes_put_i32(b, l->multiplier[per_channel ? lo + i : i]);
  for (uint32_t i = 0; i < nr; i++) nc_bytes_put_i32(b, l->shift[per_channel ? lo + i : i]);
  uint32_t nb = l->n_bias ? (uint32_t)(hi - lo) : 0;
  nc_bytes_put_u32(b, nb);
  for (uint32_t i = 0; i < nb; i++) nc_bytes_put_i32(b, l->bias[lo + i]);
  if (l->kind == NP_KIND_CONV) { /* [hi - lo, C/group, kh, kw]: rows lo..hi of the weights */
    nc_bytes_put_u64(b, (uint64_t)((hi - lo) * l->weight_row_bytes));
    nc_bytes_put(b, l->weights + lo * l->weight_row_bytes, (size_t)((hi - lo) * l->weight_row_bytes));
  } else if (l->kind == NP_KIND_MATMUL) { /* [K, hi - lo]: columns lo..hi of [K, N] */
    nc_bytes_put_u64(b, (uint64_t)(l->k * (hi - lo)));
    for (int64_t k = 0; k < l->k; k++)
      nc_bytes_put(b, l->weights + k * l->n + lo, (size_t)(hi - lo));
  } else {
    nc_bytes_put_u64(b, 0);
  }
  nc_bytes_align(b, 8);
}
