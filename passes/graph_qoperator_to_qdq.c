/* graph_qoperator_to_qdq.c: graph-qoperator-to-qdq, which rewrites ONNX's
 * QOperator form (QLinearConv, QLinearMatMul) into the QDQ form
 * graph-quantize reads (docs/quantization.md, "Pre-quantized models").
 *
 * A QOperator node carries its scales as operands: QLinearConv(x, xs, xz,
 * w, ws, wz, ys, yz, B) computes (x - xz) * (w - wz) + B in int32 and
 * requantizes by xs * ws / ys. That is exactly
 *   QuantizeLinear(Conv(Dequant(x, xs, xz), Dequant(w, ws, wz),
 *                       Dequant(B, xs * ws)), ys, yz)
 * so rather than a second reading of pre-quantized graphs, this pass writes
 * that form and graph-quantize takes it as it takes ONNX Runtime's QDQ
 * models: the int8 weight codes and int32 bias stay the model's, the
 * activations keep the model's scales, and nothing is calibrated. Each
 * consumer of a QOperator result gets its own DequantizeLinear, so every
 * QuantizeLinear is used only by DequantizeLinears of its scale.
 * Unsupported forms (non-constant scales, ...) are left to graph-quantize,
 * which names them. The pass also folds each layer's weight
 * DequantizeLinear itself (fold_weight), so that the model's weight scales
 * survive to graph-quantize.
 */
#include <string.h>

#include "graph_util.h"
#include "nc/dialects/graph/interp.h"

static const nc_pass_stat_def stats[] = {
  {"num-rewritten", "Number of QLinearConv / QLinearMatMul ops rewritten into the QDQ form, and weight "
                    "DequantizeLinears folded"},
};

static nc_type *with_elt(nc_context *ctx, nc_type *t, nc_type *elt)
{
  return nc_type_tensor(ctx, nc_type_get_rank(t), nc_type_get_shape(t), elt, NULL);
}

static int64_t num_elements(nc_value *v)
{
  nc_tensor *t = gp_constant_tensor(v);
  int64_t n = t ? nc_tensor_num_elements(t) : -1;
  nc_tensor_destroy(t);
  return n;
}

/* graph.dequantize_linear(q, s[, z]) as f32, with `axis` when s has more than
 * one element. */
static nc_value *dequant(nc_rewriter *rw, nc_op *at, nc_value *q, nc_value *s, nc_value *z, int64_t axis)
{
  nc_context *ctx = nc_op_get_context(at);
  nc_type *f32 = nc_type_f32(ctx);
  nc_type *rt = with_elt(ctx, nc_value_get_type(q), f32);
  nc_named_attr ax = {nc_ident_get_cstr(ctx, "axis"), nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), axis)};
  bool per_axis = num_elements(s) > 1;
  nc_op *d = nc_graph_create_op(ctx, "graph.dequantize_linear", nc_op_get_loc(at), z ? 3 : 2,
                                (nc_value *[]){q, s, z}, per_axis ? 1 : 0, &ax, 1, &rt);
  if (!d)
    return NULL;
  nc_value_set_type(nc_op_get_result(d, 0), rt);
  nc_rewriter_insert(rw, d);
  return nc_op_get_result(d, 0);
}

/* The f32 constant xs * ws (per tensor or per output channel): the scale of
 * the int32 bias, as ONNX defines it. */
static nc_value *bias_scale(nc_rewriter *rw, nc_op *at, nc_value *xs, nc_value *ws)
{
  nc_tensor *x = gp_constant_tensor(xs), *w = gp_constant_tensor(ws);
  nc_value *r = NULL;
  if (x && w && nc_tensor_num_elements(x) == 1) {
    int64_t n = nc_tensor_num_elements(w);
    nc_tensor *s = nc_tensor_create(NC_DT_F32, 1, &n, 0);
    for (int64_t i = 0; i < n; i++)
      nc_tensor_set_f64(s, i, (float)((float)nc_tensor_get_f64(x, 0) * (float)nc_tensor_get_f64(w, i)));
    nc_context *ctx = nc_op_get_context(at);
    r = gp_create_tensor_constant(rw, s, nc_type_tensor(ctx, 1, &n, nc_type_f32(ctx), NULL), ws, "_bias_scale",
                                  "bias_scale", nc_op_get_loc(at));
    nc_tensor_destroy(s);
  }
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  return r;
}

/* The zero point for a DequantizeLinear of scale s: z itself, or NULL for a
 * scalar zero beside per-axis scales (ONNX QLinear ops allow it, the
 * dialect wants one zero point per scale); false if z cannot be used. */
static bool zero_point_for(nc_value *s, nc_value *z, nc_value **out)
{
  *out = z;
  if (num_elements(z) == num_elements(s))
    return true;
  nc_tensor *t = gp_constant_tensor(z);
  bool zero = t && nc_tensor_num_elements(t) == 1 && nc_tensor_get_f64(t, 0) == 0;
  nc_tensor_destroy(t);
  *out = NULL;
  return zero;
}

static bool rewrite(nc_op *op, nc_rewriter *rw)
{
  bool conv = gp_is(op, "qlinear_conv");
  nc_context *ctx = nc_op_get_context(op);
  size_t n = nc_op_get_num_operands(op);
  for (size_t i = 1; i < 8; i++) /* scales and zero points must be constants */
    if (i != 3 && num_elements(nc_op_get_operand(op, i)) < 1)
      return false;
  nc_value *y = nc_op_get_result(op, 0);
  nc_type *yt = nc_value_get_type(y);
  if (!nc_type_has_static_shape(yt))
    return false;
  nc_value *w = nc_op_get_operand(op, 3), *ws = nc_op_get_operand(op, 4), *xz, *wz;
  if (!zero_point_for(nc_op_get_operand(op, 1), nc_op_get_operand(op, 2), &xz) ||
      !zero_point_for(ws, nc_op_get_operand(op, 5), &wz))
    return false;
  /* per-channel weight scales: ONNX puts them on conv's output channels (dim
   * 0) and on matmul's columns (the last dim of b) */
  int64_t waxis = conv ? 0 : (int64_t)nc_type_get_rank(nc_value_get_type(w)) - 1;
  nc_rewriter_set_insertion_point_before(rw, op);
  nc_value *xd = dequant(rw, op, nc_op_get_operand(op, 0), nc_op_get_operand(op, 1), xz, 1);
  nc_value *wd = dequant(rw, op, w, ws, wz, waxis);
  nc_value *bd = NULL;
  if (conv && n > 8) {
    nc_value *bs = bias_scale(rw, op, nc_op_get_operand(op, 1), ws);
    bd = bs ? dequant(rw, op, nc_op_get_operand(op, 8), bs, NULL, 0) : NULL;
    if (!bd)
      return false;
  }
  if (!xd || !wd)
    return false;
  nc_type *ft = with_elt(ctx, yt, nc_type_f32(ctx));
  static const char *conv_attrs[] = {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"};
  nc_named_attr attrs[NC_COUNTOF(conv_attrs)];
  size_t na = 0;
  for (size_t i = 0; conv && i < NC_COUNTOF(conv_attrs); i++) {
    nc_attr *a = nc_op_get_attr_str(op, conv_attrs[i]);
    if (a)
      attrs[na++] = (nc_named_attr){nc_ident_get_cstr(ctx, conv_attrs[i]), a};
  }
  nc_op *f = nc_graph_create_op(ctx, conv ? "graph.conv" : "graph.matmul", nc_op_get_loc(op), bd ? 3 : 2,
                                (nc_value *[]){xd, wd, bd}, na, attrs, 1, &ft);
  if (!f)
    return false;
  nc_value_set_type(nc_op_get_result(f, 0), ft);
  nc_rewriter_insert(rw, f);
  nc_op *q = nc_graph_create_op(ctx, "graph.quantize_linear", nc_op_get_loc(op), 3,
                                (nc_value *[]){nc_op_get_result(f, 0), nc_op_get_operand(op, 6), nc_op_get_operand(op, 7)},
                                0, NULL, 1, &yt);
  if (!q)
    return false;
  nc_value_set_type(nc_op_get_result(q, 0), yt);
  nc_rewriter_insert(rw, q);
  nc_rewriter_replace_op(rw, op, (nc_value *[]){nc_op_get_result(q, 0)});
  return true;
}

/* A layer's weights as the model stored them, DequantizeLinear(codes,
 * scale, zero point) of constants: folded here into the f32 constant
 * graph-constant-fold would make (the interpreter's kernel), which also
 * keeps the model's scales as discardable attributes, so that
 * graph-quantize reuses them (gq_qdq_weight_scales) instead of deriving
 * max|w_c| / 127, which differs whenever a channel's largest code is not
 * +-127. nc.weight_scale: the f32 scales (one, or one per `axis` index);
 * nc.weight_axis; nc.weight_qmax: the largest code the element type holds
 * (127 for int8, 7 for int4), so a narrower layer does not take them. */
static bool fold_weight(nc_op *op, nc_rewriter *rw)
{
  nc_value *q = nc_op_get_operand(op, 0), *y = nc_op_get_result(op, 0);
  nc_type *qt = nc_value_get_type(q), *et = nc_type_get_element_type(qt);
  if (nc_type_get_kind(et) != NC_TYPE_INTEGER || nc_type_get_width(et) > 8 ||
      nc_type_get_signedness(et) == NC_UNSIGNED || !nc_type_has_static_shape(qt))
    return false;
  bool weight = nc_value_get_first_use(y) != NULL;
  for (nc_use *u = nc_value_get_first_use(y); u; u = nc_use_get_next(u)) {
    nc_op *user = nc_use_get_owner(u);
    weight &= (gp_is(user, "conv") || gp_is(user, "gemm") || gp_is(user, "matmul")) &&
              nc_op_get_num_operands(user) > 1 && nc_op_get_operand(user, 1) == y;
  }
  nc_quant_params p;
  size_t n = nc_op_get_num_operands(op);
  nc_tensor *codes = weight ? gp_constant_tensor(q) : NULL, *sc = codes ? gp_constant_tensor(nc_op_get_operand(op, 1)) : NULL;
  nc_tensor *zp = sc && n > 2 ? gp_constant_tensor(nc_op_get_operand(op, 2)) : NULL;
  nc_tensor *w = NULL;
  bool ok = sc && sc->dtype == NC_DT_F32 && (n < 3 || zp) && nc_graph_get_quant_params(op, &p) && !p.block_size;
  for (int64_t i = 0; ok && zp && i < nc_tensor_num_elements(zp); i++)
    ok = nc_tensor_get_f64(zp, i) == 0; /* symmetric codes only: the scales are then the layer's */
  if (ok) {
    char err[256];
    w = nc_tensor_create(NC_DT_F32, codes->rank, codes->shape, 0);
    ok = nc_kernel_dequantize_linear(&p, codes, sc, zp, w, err, sizeof err);
  }
  if (ok) {
    nc_context *ctx = nc_op_get_context(op);
    nc_rewriter_set_insertion_point_before(rw, op);
    nc_value *c = gp_create_tensor_constant(rw, w, nc_value_get_type(y), y, "", "weight", nc_op_get_loc(op));
    nc_op *cop = nc_value_get_defining_op(c);
    nc_type *i64 = nc_type_integer(ctx, 64, NC_SIGNLESS);
    int64_t ns = nc_tensor_num_elements(sc);
    nc_op_set_attr_str(cop, "nc.weight_scale",
                       gp_attr_from_tensor(ctx, sc, nc_type_tensor(ctx, 1, &ns, nc_type_f32(ctx), NULL), "scale",
                                           INT64_MAX));
    int64_t axis = p.axis < 0 ? p.axis + codes->rank : p.axis;
    nc_op_set_attr_str(cop, "nc.weight_axis", nc_attr_integer(ctx, i64, ns > 1 ? axis : -1));
    nc_op_set_attr_str(cop, "nc.weight_qmax",
                       nc_attr_integer(ctx, i64, ((int64_t)1 << (nc_type_get_width(et) - 1)) - 1));
    nc_rewriter_replace_op(rw, op, (nc_value *[]){c});
  }
  nc_tensor_destroy(codes);
  nc_tensor_destroy(sc);
  nc_tensor_destroy(zp);
  nc_tensor_destroy(w);
  return ok;
}

static const nc_pattern pattern = {"QOperatorToQDQ", 1, rewrite};
static const nc_pattern weight_pattern = {"FoldWeightDequantize", 1, fold_weight};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  nc_pattern_set *set = nc_pattern_set_create(ctx);
  nc_pattern_set_add(set, "graph.qlinear_conv", &pattern);
  nc_pattern_set_add(set, "graph.qlinear_matmul", &pattern);
  nc_pattern_set_add(set, "graph.dequantize_linear", &weight_pattern);
  nc_pass_set_state(pass, set, gp_free_pattern_set);
  return true;
}

const nc_pass_def nc_graph_qoperator_to_qdq_pass = {
  .argument = "graph-qoperator-to-qdq",
  .name = "GraphQOperatorToQDQ",
  .group = "Graph",
  .summary = "Rewrite QLinearConv / QLinearMatMul (ONNX QOperator form) into DequantizeLinear -> conv / matmul -> "
             "QuantizeLinear (QDQ form)",
  .description =
    "Rewrites graph.qlinear_conv(x, xs, xz, w, ws, wz, ys, yz[, B]) into quantize_linear(conv(dequantize_linear(x, "
    "xs, xz), dequantize_linear(w, ws, wz), dequantize_linear(B, xs * ws)), ys, yz) and graph.qlinear_matmul "
    "likewise, which is the same function; graph-quantize then compiles it with the model's scales and codes, "
    "without calibration. Per-channel weight scales get axis 0 (conv) or the last dim of b (matmul). Ops with "
    "non-constant scales or zero points, or dynamic result shapes, are left unchanged. A conv / gemm / matmul "
    "weight's DequantizeLinear of constant signed codes (zero point 0) folds into an f32 constant keeping the "
    "model's scales (nc.weight_scale, nc.weight_axis, nc.weight_qmax), which graph-quantize reuses.",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = gp_run_patterns,
};
