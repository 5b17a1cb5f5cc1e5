/* dataflow_layer_record.c: the layer kind and parameters of a dataflow.node
 * (nc/dialects/dataflow/layer.h), read from the graph ops graph-to-dataflow
 * grouped into it, and the function's I/O quantization (`dataflow.io`).
 *
 * This is the one place that turns graph ops into layers, so that the
 * levels below (family dialects, their passes, targets) never read graph
 * ops. The main op gives the kind and geometry; each op after it must be
 * something the layer's integer semantics express exactly:
 *   requantize   multiplier, shift, output zero point, its bias, saturation
 *                to the result type, its fused relu (clamp_min 0: the
 *                interpreter's relu is max(y, 0) on the stored integers)
 *                and its clamp_min / clamp_max (a fused Clip) narrowing
 *                the clamp
 *   add of a per-channel constant before any requantization: the bias
 *   relu         clamp_min = max(clamp_min, 0)
 * add_integer / sub_integer (the integer residual add) is an ELTWISE head
 * whose per-input multiplier and shift are the layer's input rescales;
 * concat_integer a CONCAT with the same per-input rescales; mul_integer an
 * ELTWISE MUL requantized once; lut_integer a LUT layer with its table;
 * anything else is an error at that op. qlinear_conv / qlinear_matmul carry
 * float scales: their rescale is recorded as the nearest fixed-point
 * multiplier and shift (nc_fixed_point_from_scale), which is what the
 * integer semantics can say.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_util.h"
#include "nc/dialects/graph/kernels.h"
#include "nc/ir/diag.h"
#include "nc/passes/dataflow_layers.h"

typedef struct rec {
  nc_op *node;
  nc_block *body;
  nc_dataflow_layer l;
  int64_t channels;     /* the result's first coordinate (a matmul's: its last, N) */
  int64_t channel_axis; /* that coordinate's axis in the result's graph tensor (1; a matmul's: the last) */
  int64_t *owned[4];    /* multiplier/shift arrays computed here (freed after recording) */
  size_t n_owned;
} rec;

/* --- constants -------------------------------------------------------------------------------------------------- */

static nc_attr *const_attr(nc_value *v)
{
  nc_op *def = v ? nc_value_get_defining_op(v) : NULL;
  return def && nc_op_is(def, "graph.constant") ? nc_op_get_attr_str(def, "value") : NULL;
}

/* A constant with one element (or a splat) as an integer; absent operands are 0. */
static bool const_scalar(nc_op *op, size_t i, int64_t *out)
{
  *out = 0;
  if (i >= nc_op_get_num_operands(op))
    return true;
  nc_tensor *t = gp_tensor_from_attr(const_attr(nc_op_get_operand(op, i)));
  bool ok = t && nc_tensor_num_elements(t) >= 1;
  for (int64_t k = 0; ok && k < nc_tensor_num_elements(t); k++)
    ok = nc_tensor_get_i64(t, k) == nc_tensor_get_i64(t, 0);
  if (ok)
    *out = nc_tensor_get_i64(t, 0);
  if (t)
    nc_tensor_destroy(t);
  return ok;
}

static double const_f64(nc_value *v, int64_t i, bool *ok)
{
  nc_tensor *t = gp_tensor_from_attr(const_attr(v));
  double d = 0;
  if (!t || i >= nc_tensor_num_elements(t))
    *ok = false;
  else
    d = nc_tensor_get_f64(t, nc_tensor_num_elements(t) == 1 ? 0 : i);
  if (t)
    nc_tensor_destroy(t);
  return d;
}

/* The elements attribute `a` seen as a vector of n elements (a per-channel
 * constant shaped [1, C, 1, 1], [C, 1, 1] or [C]): the same blob or bytes
 * under a [n] type; NULL if a does not have exactly n elements. */
static nc_attr *as_vector(nc_attr *a, int64_t n)
{
  nc_type *t = a ? nc_attr_get_type(a) : NULL;
  if (!t || nc_type_get_num_elements(t) != n)
    return NULL;
  nc_context *ctx = nc_attr_get_context(a);
  nc_type *vt = nc_type_tensor(ctx, 1, &n, nc_type_get_element_type(t), NULL);
  if (nc_type_get_rank(t) == 1)
    return a;
  if (nc_attr_get_kind(a) == NC_ATTR_DENSE_RESOURCE)
    return nc_attr_dense_resource(ctx, vt, nc_attr_dense_resource_get(a));
  size_t nbytes;
  const void *data = nc_attr_dense_get_data(a, &nbytes);
  return data ? nc_attr_dense_elements(ctx, vt, data, nbytes) : NULL;
}

/* True if constant `v` broadcasts along the channels of a result with
 * `rank` dims (channel dim 1) and nothing else. */
static bool per_channel(nc_value *v, size_t rank, int64_t channels, int64_t axis)
{
  nc_type *t = nc_value_get_type(v);
  size_t r = nc_type_get_rank(t);
  const int64_t *s = nc_type_get_shape(t);
  if (r < 1 || r > rank || nc_type_get_num_elements(t) != channels)
    return false;
  for (size_t j = 0; j < r; j++) { /* aligned from the right: dim j of v is dim j + rank - r */
    size_t d = j + rank - r;
    if ((int64_t)d != axis && s[j] != 1)
      return false;
  }
  return true;
}

static void type_range(nc_value *v, int64_t *lo, int64_t *hi)
{
  nc_type *e = nc_type_get_element_type(nc_value_get_type(v));
  unsigned w = e && nc_type_is_integer(e) ? nc_type_get_width(e) : 0;
  *lo = INT64_MIN, *hi = INT64_MAX;
  if (!w || w >= 64)
    return;
  if (nc_type_get_signedness(e) == NC_UNSIGNED)
    *lo = 0, *hi = (INT64_C(1) << w) - 1;
  else
    *lo = -(INT64_C(1) << (w - 1)), *hi = (INT64_C(1) << (w - 1)) - 1;
}

/* The node input (block argument) operand p of op reads, or -1. */
static int input_of(rec *r, nc_op *op, size_t p)
{
  nc_value *v = nc_op_get_operand(op, p);
  for (size_t i = 0, n = nc_block_get_num_args(r->body); i < n; i++)
    if (nc_block_get_arg(r->body, i) == v)
      return (int)i;
  return -1;
}

/* --- geometry ----------------------------------------------------------------------------------------------------- */

/* ONNX pads with auto_pad resolved (SAME_*: the total split as ONNX says). */
static void resolve_pads(const int64_t *kernel, const int64_t *strides, const int64_t *dilations, const int64_t *pads,
                         nc_auto_pad ap, nc_value *x, nc_dataflow_layer *l)
{
  const int64_t *in = nc_type_get_shape(nc_value_get_type(x)) + 2;
  for (int a = 0; a < 2; a++) {
    l->kernel[a] = kernel[a];
    l->stride[a] = strides[a] ? strides[a] : 1;
    l->dilation[a] = dilations[a] ? dilations[a] : 1;
    l->pads[a] = pads[a], l->pads[2 + a] = pads[2 + a];
    if (ap == NC_AUTO_PAD_VALID) {
      l->pads[a] = l->pads[2 + a] = 0;
    } else if (ap == NC_AUTO_PAD_SAME_UPPER || ap == NC_AUTO_PAD_SAME_LOWER) {
      int64_t s = l->stride[a], o = (in[a] + s - 1) / s;
      int64_t total = (o - 1) * s + l->dilation[a] * (kernel[a] - 1) + 1 - in[a];
      total = total > 0 ? total : 0;
      l->pads[a] = ap == NC_AUTO_PAD_SAME_UPPER ? total / 2 : total - total / 2;
      l->pads[2 + a] = total - l->pads[a];
    }
  }
}

/* Fixed-point requantization from float scales (qlinear ops): per output
 * channel when the weight scale is. */
static bool requant_from_scales(rec *r, nc_op *op, nc_value *xs, nc_value *ws, nc_value *ys)
{
  int64_t nw = nc_type_get_num_elements(nc_value_get_type(ws)), n = nw > 1 ? r->channels : 1;
  int64_t *m = nc_xmalloc((size_t)n * sizeof *m), *s = nc_xmalloc((size_t)n * sizeof *s);
  r->owned[r->n_owned++] = m;
  r->owned[r->n_owned++] = s;
  bool ok = true;
  for (int64_t c = 0; c < n && ok; c++) {
    double scale = const_f64(xs, 0, &ok) * const_f64(ws, c, &ok) / const_f64(ys, 0, &ok);
    int32_t mi = 0, si = 0;
    char err[256];
    if (ok && !nc_fixed_point_from_scale(scale, &mi, &si, err, sizeof err))
      return nc_op_emit_error(op, "cannot become a dataflow layer: %s", err);
    m[c] = mi, s[c] = si;
  }
  if (!ok)
    return nc_op_emit_error(op, "cannot become a dataflow layer: its scales must be constants");
  r->l.n_requant = (size_t)n;
  r->l.multiplier = m;
  r->l.shift = s;
  return true;
}

/* The weights of a gemm with trans_b: [N, K] transposed into a new constant [K, N]. */
static nc_attr *transposed(nc_op *op, nc_attr *w)
{
  nc_tensor *t = gp_tensor_from_attr(w);
  if (!t || t->rank != 2)
    return NULL;
  int64_t n = t->shape[0], k = t->shape[1], shape[2] = {k, n};
  nc_tensor *u = nc_tensor_create(t->dtype, 2, shape, 0);
  size_t es = nc_dtype_size(t->dtype);
  for (int64_t i = 0; u && i < n; i++)
    for (int64_t j = 0; j < k; j++)
      memcpy((char *)u->data + (size_t)(j * n + i) * es, (char *)t->data + (size_t)(i * k + j) * es, es);
  nc_attr *a = NULL;
  if (u) {
    nc_context *ctx = nc_op_get_context(op);
    nc_type *type = nc_type_tensor(ctx, 2, shape, nc_type_get_element_type(nc_attr_get_type(w)), NULL);
    char hint[128];
    a = gp_attr_from_tensor(ctx, u, type, gp_name_hint(nc_op_get_operand(op, 1), ".kn", "weights", hint, sizeof hint),
                            GP_DENSE_LIMIT);
    nc_tensor_destroy(u);
  }
  nc_tensor_destroy(t);
  return a;
}

/* --- the main op ------------------------------------------------------------------------------------------------ */

static bool unexpressible(nc_op *op, const char *why)
{
  return nc_op_emit_error(op, "cannot become a dataflow layer: %s", why);
}

/* The output side of a qlinear_conv / qlinear_matmul: its zero point (operand
 * 7), the output type's range as the clamp, and the requantization from its
 * x, w and y scales (operands 1, 4, 6). */
static bool qlinear_output(rec *r, nc_op *op)
{
  int64_t yzp;
  if (!const_scalar(op, 7, &yzp))
    return unexpressible(op, "its output zero point must be a constant");
  r->l.output_zero_point = yzp;
  type_range(nc_op_get_result(op, 0), &r->l.clamp_min, &r->l.clamp_max);
  return requant_from_scales(r, op, nc_op_get_operand(op, 1), nc_op_get_operand(op, 4), nc_op_get_operand(op, 6));
}

static bool conv_head(rec *r, nc_op *op)
{
  bool q = nc_op_is(op, "graph.qlinear_conv"), integer = nc_op_is(op, "graph.conv_integer");
  size_t xw = q ? 3 : 1;
  nc_conv_params p;
  if (!nc_graph_get_conv_params(op, &p))
    return unexpressible(op, "malformed convolution attributes");
  nc_value *x = nc_op_get_operand(op, 0), *w = nc_op_get_operand(op, xw);
  const int64_t *ws = nc_type_get_shape(nc_value_get_type(w));
  int64_t kernel[2] = {ws[2], ws[3]};
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_CONV);
  resolve_pads(kernel, p.strides, p.dilations, p.pads, p.auto_pad, x, &r->l);
  r->l.group = p.group ? p.group : 1;
  r->l.weights = const_attr(w);
  int xi = input_of(r, op, 0);
  int64_t xzp = 0, wzp = 0;
  if ((integer || q) && (!const_scalar(op, 2, &xzp) || !const_scalar(op, integer ? 3 : 5, &wzp)))
    return unexpressible(op, "its zero points must be constants, one per tensor");
  if (xi >= 0)
    r->l.input_zero_points[xi] = xzp;
  r->l.weight_zero_point = wzp;
  size_t bias_at = q ? 8 : 2;
  if (!integer && bias_at < nc_op_get_num_operands(op)) {
    if (!(r->l.bias = as_vector(const_attr(nc_op_get_operand(op, bias_at)), r->channels)))
      return unexpressible(op, "its bias must be a constant with one entry per output channel");
  }
  return !q || qlinear_output(r, op);
}

static bool matmul_head(rec *r, nc_op *op)
{
  bool q = nc_op_is(op, "graph.qlinear_matmul"), integer = nc_op_is(op, "graph.matmul_integer");
  bool gemm = nc_op_is(op, "graph.gemm");
  nc_value *b = nc_op_get_operand(op, q ? 3 : 1);
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_MATMUL);
  nc_attr *w = const_attr(b);
  if (w && nc_type_get_rank(nc_attr_get_type(w)) != 2)
    return unexpressible(op, "its weights must be a [K, N] matrix");
  nc_gemm_params gp;
  if (gemm) {
    if (!nc_graph_get_gemm_params(op, &gp) || gp.alpha != 1.0 || gp.trans_a)
      return unexpressible(op, "a gemm with alpha != 1 or trans_a has no matmul layer");
    if (w && gp.trans_b && !(w = transposed(op, w)))
      return unexpressible(op, "its weights could not be transposed");
    if (!w && gp.trans_b)
      return unexpressible(op, "a gemm with trans_b needs constant weights");
    if (nc_op_get_num_operands(op) > 2) {
      if (gp.beta != 1.0 || !(r->l.bias = as_vector(const_attr(nc_op_get_operand(op, 2)), r->channels)))
        return unexpressible(op, "its C must be a constant with one entry per output feature, with beta = 1");
    }
  }
  r->l.weights = w;
  int64_t azp = 0, bzp = 0;
  if ((integer || q) && (!const_scalar(op, 2, &azp) || !const_scalar(op, q ? 5 : 3, &bzp)))
    return unexpressible(op, "its zero points must be constants, one per tensor");
  int ai = input_of(r, op, 0);
  if (ai >= 0)
    r->l.input_zero_points[ai] = azp;
  r->l.weight_zero_point = bzp;
  return !q || qlinear_output(r, op);
}

static bool pool_head(rec *r, nc_op *op)
{
  bool avg = nc_op_is(op, "graph.avg_pool");
  nc_pool_params p;
  if (!nc_graph_get_pool_params(op, &p))
    return unexpressible(op, "malformed pooling attributes");
  if (nc_op_get_num_results(op) != 1)
    return unexpressible(op, "a max_pool returning indices has no layer");
  r->l = nc_dataflow_layer_make(avg ? NC_DATAFLOW_LAYER_AVG_POOL : NC_DATAFLOW_LAYER_MAX_POOL);
  resolve_pads(p.kernel_shape, p.strides, p.dilations, p.pads, p.auto_pad, nc_op_get_operand(op, 0), &r->l);
  r->l.count_include_pad = avg && p.count_include_pad;
  return true;
}

/* Every operand of op is a node input. */
static bool all_inputs(rec *r, nc_op *op)
{
  for (size_t p = 0, n = nc_op_get_num_operands(op); p < n; p++)
    if (input_of(r, op, p) < 0)
      return false;
  return true;
}

/* add_integer / sub_integer: each operand's rescale is that of the node
 * input it reads; the result saturates to its type, relu raises the floor. */
static bool eltwise_integer_head(rec *r, nc_op *op)
{
  size_t nm, ns;
  const int64_t *m = nc_graph_attr_ints(op, "multiplier", &nm), *s = nc_graph_attr_ints(op, "shift", &ns);
  int in0 = input_of(r, op, 0), in1 = input_of(r, op, 1);
  if (in0 < 0 || in1 < 0)
    return unexpressible(op, "an elementwise layer combines node inputs, not constants");
  if (in0 == in1)
    return unexpressible(op, "its two operands are one node input, which a layer rescales once");
  if (!m || !s || nm != 2 || ns != 2)
    return unexpressible(op, "it needs one multiplier and shift per input");
  r->l.op = nc_op_is(op, "graph.sub_integer") ? NC_DATAFLOW_ELTWISE_SUB : NC_DATAFLOW_ELTWISE_ADD;
  r->l.input_multiplier[in0] = m[0], r->l.input_shift[in0] = s[0];
  r->l.input_multiplier[in1] = m[1], r->l.input_shift[in1] = s[1];
  r->l.output_zero_point = nc_graph_attr_int(op, "output_zero_point", 0);
  type_range(nc_op_get_result(op, 0), &r->l.clamp_min, &r->l.clamp_max);
  if (nc_graph_attr_string(op, "activation", NULL))
    r->l.clamp_min = r->l.clamp_min > r->l.output_zero_point ? r->l.clamp_min : r->l.output_zero_point;
  return true;
}

/* concat_integer: a CONCAT layer whose operand p is node input p, rescaled
 * by its multiplier and shift (the input order is the channel order). */
static bool concat_integer_head(rec *r, nc_op *op)
{
  size_t nm, ns, n = nc_op_get_num_operands(op);
  const int64_t *m = nc_graph_attr_ints(op, "multiplier", &nm), *s = nc_graph_attr_ints(op, "shift", &ns);
  if (!m || !s || nm != n || ns != n)
    return unexpressible(op, "it needs one multiplier and shift per input");
  if (n > NC_DATAFLOW_LAYER_MAX_INPUTS)
    return unexpressible(op, "a layer takes at most 32 inputs (graph-quantize splits larger concats)");
  for (size_t p = 0; p < n; p++) {
    if (input_of(r, op, p) != (int)p)
      return unexpressible(op, "its operands must be distinct node inputs, in order");
    r->l.input_multiplier[p] = m[p], r->l.input_shift[p] = s[p];
  }
  r->l.output_zero_point = nc_graph_attr_int(op, "output_zero_point", 0);
  type_range(nc_op_get_result(op, 0), &r->l.clamp_min, &r->l.clamp_max);
  return true;
}

/* mul_integer: an ELTWISE MUL of two node inputs (the second may broadcast)
 * taken as they are, then one requantization of the product. */
static bool mul_integer_head(rec *r, nc_op *op)
{
  int in0 = input_of(r, op, 0), in1 = input_of(r, op, 1);
  if (in0 != 0 || in1 != 1)
    return unexpressible(op, "its operands must be two distinct node inputs, in order");
  int64_t *ms = nc_xmalloc(2 * sizeof *ms);
  ms[0] = nc_graph_attr_int(op, "multiplier", 0), ms[1] = nc_graph_attr_int(op, "shift", 0);
  r->owned[r->n_owned++] = ms;
  r->l.op = NC_DATAFLOW_ELTWISE_MUL;
  r->l.n_requant = 1;
  r->l.multiplier = &ms[0], r->l.shift = &ms[1];
  r->l.output_zero_point = nc_graph_attr_int(op, "output_zero_point", 0);
  type_range(nc_op_get_result(op, 0), &r->l.clamp_min, &r->l.clamp_max);
  if (nc_graph_attr_string(op, "activation", NULL))
    r->l.clamp_min = r->l.clamp_min > r->l.output_zero_point ? r->l.clamp_min : r->l.output_zero_point;
  return true;
}

/* softmax_integer: a SOFTMAX layer whose `lut` (i32) is the exponential
 * table. */
static bool softmax_integer_head(rec *r, nc_op *op)
{
  size_t n;
  const int64_t *t = nc_graph_attr_ints(op, "table", &n);
  if (!t || n < 2 || input_of(r, op, 0) != 0)
    return unexpressible(op, "it needs a table and a node input");
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_SOFTMAX);
  type_range(nc_op_get_result(op, 0), &r->l.clamp_min, &r->l.clamp_max);
  nc_context *ctx = nc_op_get_context(op);
  int64_t len = (int64_t)n;
  int32_t *v = nc_xmalloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++)
    v[i] = (int32_t)(t[i] > INT32_MAX ? INT32_MAX : t[i]);
  bool fits = true;
  for (size_t i = 0; i < n; i++)
    fits &= t[i] <= INT32_MAX;
  nc_type *tt = nc_type_tensor(ctx, 1, &len, nc_type_integer(ctx, 32, NC_SIGNLESS), NULL);
  r->l.lut = fits ? nc_attr_dense_elements(ctx, tt, v, n * sizeof *v) : NULL;
  free(v);
  return fits || unexpressible(op, "its table entries exceed 32 bits");
}

/* lut_integer: a LUT layer; its table becomes the `lut` elements, saturated
 * to the result type and stored as i8 (results up to 8 bits), i16 or i32. */
static bool lut_integer_head(rec *r, nc_op *op)
{
  size_t n;
  const int64_t *t = nc_graph_attr_ints(op, "table", &n);
  if (!t || n < 2 || input_of(r, op, 0) != 0)
    return unexpressible(op, "it needs a table and a node input");
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_LUT);
  type_range(nc_op_get_result(op, 0), &r->l.clamp_min, &r->l.clamp_max);
  nc_context *ctx = nc_op_get_context(op);
  int64_t len = (int64_t)n;
  nc_type *re = nc_type_get_element_type(nc_value_get_type(nc_op_get_result(op, 0)));
  unsigned w = nc_type_get_width(re) <= 8 ? 8 : nc_type_get_width(re) <= 16 ? 16 : 32; /* storage: a byte at 8 bits */
  void *sat = nc_xmalloc(n * (w / 8));
  for (size_t i = 0; i < n; i++) {
    int64_t v = t[i] < r->l.clamp_min ? r->l.clamp_min : t[i] > r->l.clamp_max ? r->l.clamp_max : t[i];
    if (w == 8)
      ((int8_t *)sat)[i] = (int8_t)v;
    else if (w == 16)
      ((int16_t *)sat)[i] = (int16_t)v;
    else
      ((int32_t *)sat)[i] = (int32_t)v;
  }
  nc_type *tt = nc_type_tensor(ctx, 1, &len, nc_type_integer(ctx, w, NC_SIGNLESS), NULL);
  r->l.lut = nc_attr_dense_elements(ctx, tt, sat, n * (w / 8));
  free(sat);
  return r->l.lut != NULL;
}

static bool eltwise_head(rec *r, nc_op *op)
{
  static const struct {
    const char *name;
    nc_dataflow_eltwise_op op;
  } ops[] = {{"graph.add", NC_DATAFLOW_ELTWISE_ADD}, {"graph.sum", NC_DATAFLOW_ELTWISE_ADD},
             {"graph.sub", NC_DATAFLOW_ELTWISE_SUB}, {"graph.mul", NC_DATAFLOW_ELTWISE_MUL},
             {"graph.max", NC_DATAFLOW_ELTWISE_MAX}, {"graph.min", NC_DATAFLOW_ELTWISE_MIN}};
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_ELTWISE);
  for (size_t i = 0; i < NC_COUNTOF(ops); i++)
    if (nc_op_is(op, ops[i].name)) {
      if (!all_inputs(r, op))
        return unexpressible(op, "an elementwise layer combines node inputs, not constants");
      r->l.op = nc_op_get_num_operands(op) > 1 ? ops[i].op : NC_DATAFLOW_ELTWISE_NONE;
      return true;
    }
  if (nc_op_is(op, "graph.relu")) {
    r->l.clamp_min = 0;
    return true;
  }
  if (nc_op_is(op, "graph.add_integer") || nc_op_is(op, "graph.sub_integer"))
    return eltwise_integer_head(r, op);
  if (nc_op_is(op, "graph.mul_integer"))
    return mul_integer_head(r, op);
  if (nc_op_is(op, "graph.lut_integer"))
    return lut_integer_head(r, op);
  if (nc_op_is(op, "graph.softmax_integer"))
    return softmax_integer_head(r, op);
  return nc_op_emit_error(op, "cannot become a dataflow node: '%s' has no dataflow layer kind",
                          nc_ident_str(nc_op_get_name(op)));
}

/* --- the ops after it ------------------------------------------------------------------------------------------- */

static bool requantize(rec *r, nc_op *rq, bool head)
{
  nc_dataflow_layer *l = &r->l;
  if (l->n_requant || l->clamp_min != INT64_MIN || l->clamp_max != INT64_MAX)
    return unexpressible(rq, "a layer requantizes once, before any clamp");
  size_t nm, ns, rank = nc_type_get_rank(nc_value_get_type(nc_op_get_result(rq, 0)));
  const int64_t *m = nc_graph_attr_ints(rq, "multiplier", &nm), *s = nc_graph_attr_ints(rq, "shift", &ns);
  int64_t axis = nc_graph_attr_int(rq, "axis", 1);
  if (axis < 0)
    axis += (int64_t)rank;
  if (!m || !s || nm != ns || (nm != 1 && (axis != r->channel_axis || (int64_t)nm != r->channels)))
    return unexpressible(rq, "it needs one multiplier and shift, or one per output channel (axis 1)");
  if (nc_op_get_num_operands(rq) > 1) {
    nc_value *bias = nc_op_get_operand(rq, 1);
    nc_attr *ba = const_attr(bias);
    if (ba && (l->bias || axis != r->channel_axis || !(l->bias = as_vector(ba, r->channels))))
      return unexpressible(rq, "its bias must be a constant with one entry per output channel (axis 1)");
    if (!ba && !(head && input_of(r, rq, 1) >= 0))
      return unexpressible(rq, "its bias must be a constant or a node input");
    if (!ba)
      l->op = NC_DATAFLOW_ELTWISE_ADD; /* a bias that is a node input: acc = In0 + In1 (channel broadcast) */
  }
  const char *act = nc_graph_attr_string(rq, "activation", NULL);
  if (act && strcmp(act, "relu"))
    return unexpressible(rq, "its only fused activation a layer expresses is relu");
  l->n_requant = nm;
  l->multiplier = m;
  l->shift = s;
  l->output_zero_point = nc_graph_attr_int(rq, "output_zero_point", 0);
  type_range(nc_op_get_result(rq, 0), &l->clamp_min, &l->clamp_max);
  if (act)
    l->clamp_min = l->clamp_min > 0 ? l->clamp_min : 0;
  /* a fused Clip's bounds, saturated to the type: saturate(clamp(r)) = clamp(r, sat(lo), sat(hi)) */
  int64_t tmin, tmax;
  type_range(nc_op_get_result(rq, 0), &tmin, &tmax);
  int64_t lo = nc_graph_attr_int(rq, "clamp_min", tmin), hi = nc_graph_attr_int(rq, "clamp_max", tmax);
  lo = lo < tmin ? tmin : lo > tmax ? tmax : lo;
  hi = hi < tmin ? tmin : hi > tmax ? tmax : hi;
  l->clamp_min = lo > l->clamp_min ? lo : l->clamp_min;
  l->clamp_max = hi < l->clamp_max ? hi : l->clamp_max;
  if (l->clamp_min > l->clamp_max)
    return unexpressible(rq, "its relu and clamp bounds leave no value between them");
  return true;
}

static bool follower(rec *r, nc_op *op, nc_value *prev)
{
  nc_dataflow_layer *l = &r->l;
  if (nc_op_get_num_operands(op) < 1 || nc_op_get_operand(op, 0) != prev)
    return unexpressible(op, "it does not continue the layer's main op");
  if (nc_op_is(op, "graph.requantize"))
    return requantize(r, op, false);
  if (nc_op_is(op, "graph.relu")) {
    l->clamp_min = l->clamp_min > 0 ? l->clamp_min : 0;
    return true;
  }
  if (nc_op_is(op, "graph.add") && nc_op_get_num_operands(op) == 2) {
    nc_value *b = nc_op_get_operand(op, 1);
    size_t rank = nc_type_get_rank(nc_value_get_type(prev));
    if (l->n_requant || l->bias || l->clamp_min != INT64_MIN || l->clamp_max != INT64_MAX ||
        (l->kind != NC_DATAFLOW_LAYER_CONV && l->kind != NC_DATAFLOW_LAYER_MATMUL) ||
        !per_channel(b, rank, r->channels, r->channel_axis) || !(l->bias = as_vector(const_attr(b), r->channels)))
      return unexpressible(op, "only the add of a per-channel constant right after a conv or matmul is its bias");
    return true;
  }
  return nc_op_emit_error(op, "cannot become part of a %s layer: '%s' is not a requantize, bias add or relu",
                          nc_dataflow_layer_kind_name(l->kind), nc_ident_str(nc_op_get_name(op)));
}

/* A PAD layer with pads {top, left, bottom, right}, the op's mode and fill value. */
static bool pad_layer(rec *r, nc_op *op, const nc_pad_params *p, double value, const int64_t pads[4])
{
  for (int i = 0; i < 4; i++)
    if (pads[i] < 0)
      return unexpressible(op, "a pad that crops has no layer");
  for (int i = 0; i < 4; i++)
    if (pads[i] > INT32_MAX)
      return unexpressible(op, "its pads are too large for a layer");
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_PAD);
  if (p->mode == NC_PAD_CONSTANT && (value != floor(value) || fabs(value) > INT32_MAX))
    return unexpressible(op, "its fill value is not an integer");
  r->l.pad_mode = p->mode == NC_PAD_REFLECT ? NC_DATAFLOW_PAD_REFLECT
                  : p->mode == NC_PAD_EDGE  ? NC_DATAFLOW_PAD_EDGE
                  : p->mode == NC_PAD_WRAP  ? NC_DATAFLOW_PAD_WRAP
                                            : NC_DATAFLOW_PAD_CONSTANT;
  memcpy(r->l.pads, pads, 4 * sizeof *pads);
  r->l.pad_value = p->mode == NC_PAD_CONSTANT ? (int64_t)value : 0;
  return true;
}

/* The PAD layer of a pad of a [1, N] vector along dim 1 (a classifier
 * head's features): its begin and end go into the layer's left and right
 * pads, top and bottom stay 0 (the vector is one row). */
static bool vector_pad_head(rec *r, nc_op *op)
{
  nc_pad_params p;
  double value;
  const int64_t *ys = nc_type_get_shape(nc_value_get_type(nc_op_get_result(op, 0)));
  if (!nc_graph_get_pad_params(op, &p, &value) || p.naxes || p.pads[0] || p.pads[2] || ys[0] != 1)
    return unexpressible(op, "only pads of a [1, N] vector along its N elements have a layer");
  int64_t pads[4] = {0, p.pads[1], 0, p.pads[3]};
  return pad_layer(r, op, &p, value, pads);
}

/* resize (nearest, whole factors: each output row and column reads
 * floor(o / factor), checked against the op's own index map; linear, with
 * the kernel's rational source coordinate per axis, the channels too; nearest
 * over the channels, as the exact floor form of the op's index map), pad (spatial
 * dims only: constant with an integral fill value, reflect, edge, wrap; any
 * width) and channel shuffle:
 * layers that move elements of [1, C, H, W] tensors; and a pad of a [1, N]
 * vector (vector_pad_head). */
static bool resample_head(rec *r, nc_op *op)
{
  nc_type *xt = nc_value_get_type(nc_op_get_operand(op, 0)), *yt = nc_value_get_type(nc_op_get_result(op, 0));
  if (nc_op_is(op, "graph.pad") && nc_type_get_rank(xt) == 2 && nc_type_get_rank(yt) == 2)
    return vector_pad_head(r, op);
  /* a resize of one image into a batch: every image of the result is the one image resized (the batch
   * coordinate's neighbours clamp to image 0, with weights adding up to one) */
  bool batch = nc_op_is(op, "graph.resize") && nc_type_get_rank(xt) == 4 && nc_type_get_rank(yt) == 4 &&
               nc_type_get_shape(xt)[0] == 1 && nc_type_get_shape(yt)[0] > 1;
  if (nc_type_get_rank(xt) != 4 || nc_type_get_rank(yt) != 4 || nc_type_get_shape(xt)[0] != 1 ||
      (nc_type_get_shape(yt)[0] != 1 && !batch))
    return unexpressible(op, nc_type_get_rank(xt) == 4 && nc_type_get_rank(yt) == 4 && nc_type_get_shape(xt)[0] == 1
                                 ? "a layer cannot change the batch dim: layers move one [1, C, H, W] image (run "
                                   "each image of a batch as its own inference)"
                                 : "only [1, C, H, W] tensors move in a layer");
  const int64_t *xs = nc_type_get_shape(xt), *ys = nc_type_get_shape(yt);
  if (nc_op_is(op, "graph.channel_shuffle")) {
    r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_SHUFFLE);
    r->l.group = nc_graph_attr_int(op, "group", 1);
    return true;
  }
  if (nc_op_is(op, "graph.pad")) {
    nc_pad_params p;
    double value;
    if (!nc_graph_get_pad_params(op, &p, &value) || p.naxes || p.pads[0] || p.pads[1] || p.pads[4] || p.pads[5])
      return unexpressible(op, "only pads of the spatial dims have a layer");
    int64_t pads[4] = {p.pads[2], p.pads[3], p.pads[6], p.pads[7]};
    return pad_layer(r, op, &p, value, pads);
  }
  nc_attr *c = nc_op_get_attr_str(op, "coordinate_transformation_mode"), *m = nc_op_get_attr_str(op, "nearest_mode");
  const char *cm = c ? nc_attr_get_string(c, NULL) : "half_pixel", *nm = m ? nc_attr_get_string(m, NULL)
                                                                             : "round_prefer_floor";
  bool linear = !strcmp(nc_graph_attr_string(op, "mode", "nearest"), "linear");
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_RESIZE);
  if (xs[1] != ys[1] && !linear) { /* nearest over the channels: the op's own index map in exact form */
    char err[200];
    if (!nc_kernel_resize_nearest_coord(cm, nm, xs[1], ys[1], r->l.nearest_channels, err, sizeof err))
      return unexpressible(op, "its nearest channel map has no exact integer form");
    if (r->l.nearest_channels[0] > INT32_MAX || r->l.nearest_channels[2] > INT32_MAX ||
        r->l.nearest_channels[1] < INT32_MIN || r->l.nearest_channels[1] > INT32_MAX)
      return unexpressible(op, "its sizes are too large for a layer");
  }
  if (linear) {
    for (int a = -1; a < 2; a++) { /* the source coordinate's neighbours stay within [-1, in] */
      if (a < 0 && xs[1] == ys[1])
        continue; /* the channels are kept: linear_channels stays 0 */
      int64_t in = xs[2 + a], out = ys[2 + a], *abd = a < 0 ? r->l.linear_channels : r->l.linear + 3 * a;
      char err[200];
      if (!nc_kernel_resize_linear_coord(cm, in, out, abd, err, sizeof err))
        return unexpressible(op, "its coordinate mode has no linear layer");
      if (abd[0] > INT32_MAX || abd[2] > INT32_MAX || abd[1] < INT32_MIN || abd[1] > INT32_MAX)
        return unexpressible(op, "its sizes are too large for a layer");
      int64_t lo = abd[1] >= 0 ? abd[1] / abd[2] : -((-abd[1] + abd[2] - 1) / abd[2]);
      if (lo < -1 || (abd[0] * (out - 1) + abd[1]) / abd[2] > in - 1)
        return unexpressible(op, "its source coordinates leave the input");
    }
    return true;
  }
  for (int a = 0; a < 2; a++) {
    int64_t in = xs[2 + a], out = ys[2 + a], f = out / in;
    if (out % in)
      return unexpressible(op, "only resizes by whole factors have a layer");
    int64_t *map = nc_xmalloc((size_t)out * sizeof *map);
    char err[160];
    bool ok = nc_kernel_resize_nearest_map(cm, nm, in, out, map, err, sizeof err);
    for (int64_t o = 0; ok && o < out; o++)
      ok = map[o] == o / f;
    free(map);
    if (!ok)
      return unexpressible(op, "its coordinate mode does not copy each input element to a block of whole factors");
    r->l.scale[a] = f;
  }
  return true;
}

/* A transpose: a COPY whose `perm` permutes the tensor coordinates (the
 * graph perm without the batch dim of one, which must stay first). */
static bool transpose_head(rec *r, nc_op *op)
{
  nc_type *xt = nc_value_get_type(nc_op_get_operand(op, 0)), *yt = nc_value_get_type(nc_op_get_result(op, 0));
  size_t rank = nc_type_get_rank(xt), n;
  const int64_t *perm = nc_graph_attr_ints(op, "perm", &n);
  int64_t dflt[NC_MAX_RANK];
  if (!perm || !n) { /* ONNX's default: the dims reversed */
    for (size_t i = 0; i < rank && i < NC_MAX_RANK; i++)
      dflt[i] = (int64_t)(rank - 1 - i);
    perm = dflt, n = rank;
  }
  size_t skip = rank >= 2 && nc_type_get_shape(xt)[0] == 1 ? 1 : 0;
  if (n != rank || nc_type_get_rank(yt) != rank || (skip && (perm[0] != 0 || nc_type_get_shape(yt)[0] != 1)))
    return unexpressible(op, "only transposes that keep a batch of one first have a layer");
  if (rank - skip > 4)
    return unexpressible(op, "a transpose of more than 4 tensor coordinates has no layer");
  r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_COPY);
  r->l.n_perm = rank - skip;
  for (size_t k = skip; k < rank; k++)
    r->l.perm[k - skip] = perm[k] - (int64_t)skip;
  return true;
}

/* --- the entries ---------------------------------------------------------------------------------------------------- */

static bool record_head(rec *r, nc_op *op)
{
  if (nc_op_is(op, "graph.conv") || nc_op_is(op, "graph.conv_integer") || nc_op_is(op, "graph.qlinear_conv"))
    return conv_head(r, op);
  if (nc_op_is(op, "graph.matmul") || nc_op_is(op, "graph.matmul_integer") || nc_op_is(op, "graph.gemm") ||
      nc_op_is(op, "graph.qlinear_matmul"))
    return matmul_head(r, op);
  if (nc_op_is(op, "graph.max_pool") || nc_op_is(op, "graph.avg_pool"))
    return pool_head(r, op);
  if (nc_op_is(op, "graph.global_max_pool") || nc_op_is(op, "graph.global_avg_pool")) {
    r->l = nc_dataflow_layer_make(nc_op_is(op, "graph.global_max_pool") ? NC_DATAFLOW_LAYER_GLOBAL_MAX_POOL
                                                                       : NC_DATAFLOW_LAYER_GLOBAL_AVG_POOL);
    return true;
  }
  if (nc_op_is(op, "graph.resize") || nc_op_is(op, "graph.pad") || nc_op_is(op, "graph.channel_shuffle"))
    return resample_head(r, op);
  if (nc_op_is(op, "graph.flatten") || nc_op_is(op, "graph.reshape")) {
    r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_COPY);
    return true;
  }
  if (nc_op_is(op, "graph.transpose"))
    return transpose_head(r, op);
  if (nc_op_is(op, "graph.concat") || nc_op_is(op, "graph.concat_integer")) {
    r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_CONCAT);
    nc_type *t = nc_value_get_type(nc_op_get_result(op, 0));
    int64_t rank = (int64_t)nc_type_get_rank(t), axis = nc_graph_attr_int(op, "axis", 0);
    int64_t skip = rank >= 2 && nc_type_get_shape(t)[0] == 1 ? 1 : 0;
    axis = axis < 0 ? axis + rank : axis;
    if (axis < skip || axis >= rank)
      return unexpressible(op, "a concat along the batch dim has no layer");
    r->l.axis = axis - skip;
    return nc_op_is(op, "graph.concat") || concat_integer_head(r, op);
  }
  if (nc_op_is(op, "graph.requantize")) {
    r->l = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_ELTWISE);
    return requantize(r, op, true);
  }
  return eltwise_head(r, op);
}

bool nc_dataflow_record_layer(nc_op *node)
{
  rec r = {.node = node, .body = nc_dataflow_node_get_body(node)};
  int64_t dims[NC_MAX_RANK];
  int nd = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(node, 0)), dims);
  r.channels = nd >= 1 ? dims[0] : 1;
  r.channel_axis = 1;
  nc_op *lop = nc_dataflow_node_get_layer_op(node);
  if (lop && nd == 2 && (nc_op_is(lop, "graph.matmul") || nc_op_is(lop, "graph.gemm") ||
                         nc_op_is(lop, "graph.matmul_integer") || nc_op_is(lop, "graph.qlinear_matmul"))) {
    r.channels = dims[1]; /* [M, N] (M > 1): N output features, M rows */
    r.channel_axis = (int64_t)nc_type_get_rank(nc_value_get_type(nc_op_get_result(node, 0))) - 1;
  }
  nc_op *head = nc_dataflow_node_get_layer_op(node), *yield = nc_dataflow_node_get_yield(node);
  if (!head || !yield)
    return nc_op_emit_error(node, "has no layer op");
  bool ok = record_head(&r, head);
  nc_value *prev = nc_op_get_result(head, 0);
  for (nc_op *op = nc_op_get_next(head); ok && op != yield; op = nc_op_get_next(op)) {
    if (nc_op_is_constant(op))
      continue;
    ok = follower(&r, op, prev);
    prev = nc_op_get_result(op, 0);
  }
  if (ok) {
    r.l.n_inputs = nc_op_get_num_operands(node);
    if (r.l.n_inputs > NC_DATAFLOW_LAYER_MAX_INPUTS)
      ok = nc_op_emit_error(head, "cannot become a dataflow layer: it has %zu inputs, a layer at most %d",
                            r.l.n_inputs, NC_DATAFLOW_LAYER_MAX_INPUTS);
  }
  if (ok)
    nc_dataflow_node_set_layer(node, &r.l);
  for (size_t i = 0; i < r.n_owned; i++)
    free(r.owned[i]);
  return ok;
}

/* --- the function's inputs and outputs ------------------------------------------------------------------------------ */

static const char *loc_name(nc_context *ctx, nc_location loc)
{
  nc_attr *a = nc_location_get_attr(ctx, loc);
  return a && nc_attr_get_kind(a) == NC_ATTR_LOC_NAME ? nc_ident_str(nc_loc_get_name(a)) : NULL;
}

static nc_named_attr named(nc_context *ctx, const char *name, nc_attr *a)
{
  return (nc_named_attr){nc_ident_get_cstr(ctx, name), a};
}

/* One record, or NULL after an error at q. */
static nc_attr *io_record(nc_op *q, const char *index_key, size_t index, const char *name, nc_value *quantized)
{
  nc_context *ctx = nc_op_get_context(q);
  nc_type *i64 = nc_type_integer(ctx, 64, NC_SIGNLESS);
  bool ok = nc_type_get_num_elements(nc_value_get_type(nc_op_get_operand(q, 1))) == 1;
  double scale = ok ? const_f64(nc_op_get_operand(q, 1), 0, &ok) : 0;
  int64_t zp = 0;
  nc_type *e = nc_type_get_element_type(nc_value_get_type(quantized));
  if (!ok || !(scale > 0) || !const_scalar(q, 2, &zp) || !e || !nc_type_is_integer(e)) {
    nc_op_emit_error(q, "is at the function's boundary, but has no constant positive scale and zero point per tensor "
                        "on integers: graph-to-dataflow records them for the host");
    return NULL;
  }
  nc_named_attr entries[] = {
    named(ctx, index_key, nc_attr_integer(ctx, i64, (int64_t)index)),
    named(ctx, "bits", nc_attr_integer(ctx, i64, nc_type_get_width(e))),
    named(ctx, "name", nc_attr_string_cstr(ctx, name)),
    named(ctx, "scale", nc_attr_float(ctx, nc_type_f64(ctx), scale)),
    named(ctx, "zero_point", nc_attr_integer(ctx, i64, zp)),
  };
  return nc_attr_dictionary(ctx, NC_COUNTOF(entries), entries);
}

bool nc_dataflow_record_io(nc_op *func)
{
  nc_context *ctx = nc_op_get_context(func);
  nc_block *body = nc_op_get_num_regions(func) ? nc_region_get_first_block(nc_op_get_region(func, 0)) : NULL;
  nc_op *ret = body ? nc_block_get_terminator(body) : NULL;
  if (!body || !ret)
    return true;
  size_t n_args = nc_block_get_num_args(body), n_res = nc_op_get_num_operands(ret), n_in = 0, n_out = 0;
  nc_attr **ins = nc_xcalloc(n_args + 1, sizeof *ins), **outs = nc_xcalloc(n_res + 1, sizeof *outs);
  bool ok = true;
  for (size_t i = 0; i < n_args && ok; i++) {
    nc_value *arg = nc_block_get_arg(body, i);
    nc_use *u = nc_value_get_first_use(arg);
    nc_op *q = u && !nc_use_get_next(u) ? nc_use_get_owner(u) : NULL;
    if (!q || !nc_op_is(q, "graph.quantize_linear") || nc_use_get_operand_index(u) != 0)
      continue;
    char name[64];
    const char *ln = loc_name(ctx, nc_value_get_loc(arg));
    if (ln)
      snprintf(name, sizeof name, "%s", ln);
    else
      snprintf(name, sizeof name, "input%zu", i);
    ok = (ins[n_in++] = io_record(q, "argument", i, name, nc_op_get_result(q, 0))) != NULL;
  }
  for (size_t i = 0; i < n_res && ok; i++) {
    nc_op *dq = nc_value_get_defining_op(nc_op_get_operand(ret, i));
    if (!dq || !nc_op_is(dq, "graph.dequantize_linear"))
      continue;
    char name[64];
    snprintf(name, sizeof name, "output%zu", i);
    ok = (outs[n_out++] = io_record(dq, "result", i, name, nc_op_get_operand(dq, 0))) != NULL;
  }
  if (ok && (n_in || n_out)) {
    nc_named_attr io[] = {named(ctx, "inputs", nc_attr_array(ctx, n_in, ins)),
                          named(ctx, "outputs", nc_attr_array(ctx, n_out, outs))};
    nc_op_set_attr_str(func, "dataflow.io", nc_attr_dictionary(ctx, NC_COUNTOF(io), io));
  }
  free(ins);
  free(outs);
  return ok;
}
