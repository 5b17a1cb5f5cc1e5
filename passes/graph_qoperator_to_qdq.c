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
  {"num-rewritten", "Number of QLinearConv / QLinearMatMul / ConvInteger / MatMulInteger ops rewritten into the "
                    "QDQ form, and weight DequantizeLinears folded"},
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

/* The attributes a conv keeps from its QLinearConv / ConvInteger. */
static const char *const conv_attrs[] = {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"};

/* Copies op's conv_attrs that are set into attrs; returns how many. */
static size_t copy_conv_attrs(nc_context *ctx, nc_op *op, nc_named_attr attrs[NC_COUNTOF(conv_attrs)])
{
  size_t na = 0;
  for (size_t i = 0; i < NC_COUNTOF(conv_attrs); i++) {
    nc_attr *a = nc_op_get_attr_str(op, conv_attrs[i]);
    if (a)
      attrs[na++] = (nc_named_attr){nc_ident_get_cstr(ctx, conv_attrs[i]), a};
  }
  return na;
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
  nc_named_attr attrs[NC_COUNTOF(conv_attrs)];
  size_t na = conv ? copy_conv_attrs(ctx, op, attrs) : 0;
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

/* The only user of v, or NULL. */
static nc_op *sole_user(nc_value *v)
{
  nc_use *u = nc_value_get_first_use(v);
  return u && !nc_use_get_next(u) ? nc_use_get_owner(u) : NULL;
}


/* Whether per-channel scales s ([M], [M, 1, 1], [1, M, 1, 1], ...) lie along
 * the output's channel dim: axis 1 of a conv's rank-yr output, the last of a
 * matmul's. */
static bool along_channels(const nc_tensor *s, bool conv, size_t yr, int64_t m)
{
  int64_t at = s->rank - 1;
  for (int d = s->rank - 1; d >= 0; d--)
    if (s->shape[d] == m)
      at = d;
  return conv ? s->rank >= 1 && (int64_t)yr - s->rank + at == 1 : at == s->rank - 1;
}

/* Replaces the integer layer op and its Cast -> Mul by the float conv or
 * matmul of x and the dequantized weights wd, of type yt. */
static bool replace_with_float_layer(nc_rewriter *rw, nc_op *op, bool conv, nc_value *x, nc_value *wd, nc_type *yt,
                                     nc_op *mul, nc_op *cast)
{
  nc_context *ctx = nc_op_get_context(op);
  nc_named_attr attrs[NC_COUNTOF(conv_attrs)];
  size_t na = conv ? copy_conv_attrs(ctx, op, attrs) : 0;
  nc_op *f = nc_graph_create_op(ctx, conv ? "graph.conv" : "graph.matmul", nc_op_get_loc(op), 2,
                                (nc_value *[]){x, wd}, na, attrs, 1, &yt);
  if (!f)
    return false;
  nc_value_set_type(nc_op_get_result(f, 0), yt);
  nc_rewriter_insert(rw, f);
  nc_rewriter_replace_op(rw, mul, (nc_value *[]){nc_op_get_result(f, 0)});
  nc_rewriter_erase_op(rw, cast);
  nc_rewriter_erase_op(rw, op);
  return true;
}

/* ConvInteger / MatMulInteger with a static input scale, as ONNX Runtime's
 * integer ops appear in QOperator graphs:
 *   y = Mul(Cast<f32>(ConvInteger(x_q, w, x_zp, w_zp)), s)
 * where x_q = QuantizeLinear(x, xs, ...) with a constant scalar xs and s is
 * the constant xs * ws (a scalar, or one per output channel). That is
 *   Conv(DequantizeLinear(x_q, xs, x_zp), DequantizeLinear(w, s / xs, w_zp))
 * (ws = s / xs in f32), the QDQ form graph-quantize compiles with the
 * model's weight codes. A dynamic input scale (DynamicQuantizeLinear) goes
 * to rewrite_dynamic. */
static bool rewrite_dynamic(nc_op *op, nc_op *q, nc_op *cast, nc_op *mul, nc_rewriter *rw);

static bool rewrite_integer(nc_op *op, nc_rewriter *rw)
{
  bool conv = gp_is(op, "conv_integer");
  nc_context *ctx = nc_op_get_context(op);
  size_t n = nc_op_get_num_operands(op);
  nc_value *xq = nc_op_get_operand(op, 0), *w = nc_op_get_operand(op, 1);
  nc_op *q = nc_value_get_defining_op(xq), *cast = sole_user(nc_op_get_result(op, 0));
  nc_op *mul = cast && gp_is(cast, "cast") ? sole_user(nc_op_get_result(cast, 0)) : NULL;
  if (q && gp_is(q, "dynamic_quantize_linear"))
    return mul && gp_is(mul, "mul") && rewrite_dynamic(op, q, cast, mul, rw);
  if (!q || !gp_is(q, "quantize_linear") || !mul || !gp_is(mul, "mul") || num_elements(nc_op_get_operand(q, 1)) != 1 ||
      num_elements(w) < 1 || (n > 2 && num_elements(nc_op_get_operand(op, 2)) != 1) ||
      (n > 3 && num_elements(nc_op_get_operand(op, 3)) < 1))
    return false;
  nc_value *cv = nc_op_get_result(cast, 0), *yv = nc_op_get_result(mul, 0);
  nc_type *yt = nc_value_get_type(yv), *ct = nc_value_get_type(cv);
  if (!nc_type_has_static_shape(yt) || yt != ct || nc_type_get_element_type(ct) != nc_type_f32(ctx))
    return false;
  nc_value *sv = nc_op_get_operand(mul, nc_op_get_operand(mul, 0) == cv ? 1 : 0);
  nc_tensor *st = gp_constant_tensor(sv), *xs = gp_constant_tensor(nc_op_get_operand(q, 1));
  const int64_t *ys = nc_type_get_shape(yt);
  size_t yr = nc_type_get_rank(yt);
  int64_t m = conv ? ys[1] : ys[yr - 1], ns = st ? nc_tensor_num_elements(st) : 0;
  bool ok = st && xs && (ns == 1 || ns == m) && nc_tensor_get_f64(xs, 0) > 0;
  if (ok && ns == m && m > 1)
    ok = along_channels(st, conv, yr, m);
  nc_tensor *ws = ok ? nc_tensor_create(NC_DT_F32, 1, &ns, 0) : NULL;
  for (int64_t i = 0; ok && i < ns; i++) {
    double v = (double)((float)nc_tensor_get_f64(st, i) / (float)nc_tensor_get_f64(xs, 0));
    nc_tensor_set_f64(ws, i, v);
    ok = v > 0;
  }
  nc_value *wsv = NULL;
  if (ok) {
    nc_rewriter_set_insertion_point_before(rw, op);
    wsv = gp_create_tensor_constant(rw, ws, ns == 1 ? nc_type_tensor(ctx, 0, NULL, nc_type_f32(ctx), NULL)
                                                    : nc_type_tensor(ctx, 1, &ns, nc_type_f32(ctx), NULL),
                                    sv, "_weight_scale", "weight_scale", nc_op_get_loc(op));
  }
  nc_tensor_destroy(st);
  nc_tensor_destroy(xs);
  nc_tensor_destroy(ws);
  if (!wsv)
    return false;
  int64_t waxis = conv ? 0 : (int64_t)nc_type_get_rank(nc_value_get_type(w)) - 1;
  nc_value *xd = dequant(rw, op, xq, nc_op_get_operand(q, 1), n > 2 ? nc_op_get_operand(op, 2) : NULL, 1);
  nc_value *wd = dequant(rw, op, w, wsv, n > 3 ? nc_op_get_operand(op, 3) : NULL, waxis);
  if (!xd || !wd)
    return false;
  return replace_with_float_layer(rw, op, conv, xd, wd, yt, mul, cast);
}

/* Dynamic quantization as ONNX Runtime's quantize_dynamic writes it:
 *   (x_q, xs, x_zp) = DynamicQuantizeLinear(x)
 *   y = Mul(Cast<f32>(ConvInteger(x_q, w, x_zp, w_zp)), Mul(xs, ws))
 * with w, w_zp and ws constant (ws a scalar or one per output channel). The
 * input's scale is computed at run time, which a chip compiled ahead of
 * time cannot do: y becomes Conv(x, DequantizeLinear(w, ws, w_zp)), the
 * float layer the model quantized, and graph-quantize then gives x a
 * static scale from calibration like any float input (the weights keep the
 * model's codes). The results differ from ONNX Runtime's by the input's
 * quantization error: docs/quantization.md. */
static bool rewrite_dynamic(nc_op *op, nc_op *q, nc_op *cast, nc_op *mul, nc_rewriter *rw)
{
  bool conv = gp_is(op, "conv_integer");
  nc_context *ctx = nc_op_get_context(op);
  size_t n = nc_op_get_num_operands(op);
  nc_value *w = nc_op_get_operand(op, 1), *cv = nc_op_get_result(cast, 0), *yv = nc_op_get_result(mul, 0);
  if (nc_op_get_operand(op, 0) != nc_op_get_result(q, 0) || (n > 2 && nc_op_get_operand(op, 2) != nc_op_get_result(q, 2)))
    return false;
  nc_value *sv = nc_op_get_operand(mul, nc_op_get_operand(mul, 0) == cv ? 1 : 0);
  nc_op *smul = nc_value_get_defining_op(sv);
  if (!smul || !gp_is(smul, "mul") || nc_op_get_num_operands(smul) != 2)
    return false;
  nc_value *xs = nc_op_get_result(q, 1);
  nc_value *wsv = nc_op_get_operand(smul, 0) == xs ? nc_op_get_operand(smul, 1)
                  : nc_op_get_operand(smul, 1) == xs ? nc_op_get_operand(smul, 0)
                                                      : NULL;
  nc_type *yt = nc_value_get_type(yv), *ct = nc_value_get_type(cv);
  if (!wsv || !nc_type_has_static_shape(yt) || yt != ct || nc_type_get_element_type(ct) != nc_type_f32(ctx))
    return false;
  nc_tensor *ws = gp_constant_tensor(wsv);
  const int64_t *ys = nc_type_get_shape(yt);
  size_t yr = nc_type_get_rank(yt);
  int64_t m = conv ? ys[1] : ys[yr - 1], ns = ws ? nc_tensor_num_elements(ws) : 0;
  bool ok = ws && ws->dtype == NC_DT_F32 && (ns == 1 || ns == m);
  if (ok && ns == m && m > 1)
    ok = along_channels(ws, conv, yr, m);
  nc_value *wsc = NULL; /* the scales as a scalar or [M] */
  if (ok) {
    nc_rewriter_set_insertion_point_before(rw, op);
    nc_tensor *flat = nc_tensor_clone(ws);
    flat->rank = ns == 1 ? 0 : 1;
    flat->shape[0] = ns;
    wsc = gp_create_tensor_constant(rw, flat, ns == 1 ? nc_type_tensor(ctx, 0, NULL, nc_type_f32(ctx), NULL)
                                                      : nc_type_tensor(ctx, 1, &ns, nc_type_f32(ctx), NULL),
                                    wsv, "_weight_scale", "weight_scale", nc_op_get_loc(op));
    nc_tensor_destroy(flat);
  }
  nc_tensor_destroy(ws);
  if (!wsc)
    return false;
  int64_t waxis = conv ? 0 : (int64_t)nc_type_get_rank(nc_value_get_type(w)) - 1;
  nc_value *wd = dequant(rw, op, w, wsc, n > 3 ? nc_op_get_operand(op, 3) : NULL, waxis);
  if (!wd)
    return false;
  if (!replace_with_float_layer(rw, op, conv, nc_op_get_operand(q, 0), wd, yt, mul, cast))
    return false;
  if (!nc_value_get_first_use(sv))
    nc_rewriter_erase_op(rw, smul);
  return true;
}

/* The codes q holds if it is a constant, or a QuantizeLinear of constants
 * (Brevitas stores float weights and quantizes them in the graph), clamped
 * by a Clip after it; NULL otherwise. *qmax: the largest code, from the
 * type or the Clip's upper bound. */
static nc_tensor *quantized_constant(nc_value *q, int64_t *qmax)
{
  nc_op *d = nc_value_get_defining_op(q);
  nc_type *et = nc_type_get_element_type(nc_value_get_type(q));
  *qmax = ((int64_t)1 << (nc_type_get_width(et) - 1)) - 1;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (d && gp_is(d, "clip")) {
    nc_attr *a = nc_op_get_attr_str(d, "min"), *b = nc_op_get_attr_str(d, "max");
    if (!a || !b || nc_attr_get_kind(a) != NC_ATTR_INTEGER || nc_attr_get_kind(b) != NC_ATTR_INTEGER)
      return NULL;
    lo = nc_attr_get_int(a);
    hi = nc_attr_get_int(b);
    if (hi < 1 || hi > *qmax || lo > -hi)
      return NULL;
    *qmax = hi;
    d = nc_value_get_defining_op(nc_op_get_operand(d, 0));
    if (!d || !gp_is(d, "quantize_linear"))
      return NULL;
  }
  if (!d || !gp_is(d, "quantize_linear"))
    return gp_constant_tensor(q);
  size_t n = nc_op_get_num_operands(d);
  nc_tensor *x = gp_constant_tensor(nc_op_get_operand(d, 0)), *s = gp_constant_tensor(nc_op_get_operand(d, 1));
  nc_tensor *z = n > 2 ? gp_constant_tensor(nc_op_get_operand(d, 2)) : NULL;
  nc_tensor *r = x && s && (n < 3 || z) ? gp_tensor_for_type(nc_value_get_type(q), 0) : NULL;
  nc_quant_params p;
  char err[256];
  if (r && (!nc_graph_get_quant_params(d, &p) || !nc_kernel_quantize_linear(&p, x, s, z, r, err, sizeof err))) {
    nc_tensor_destroy(r);
    r = NULL;
  }
  for (int64_t i = 0; r && i < nc_tensor_num_elements(r); i++) {
    double v = nc_tensor_get_f64(r, i);
    nc_tensor_set_f64(r, i, v < (double)lo ? (double)lo : v > (double)hi ? (double)hi : v);
  }
  nc_tensor_destroy(x);
  nc_tensor_destroy(s);
  nc_tensor_destroy(z);
  return r;
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
  int64_t qmax = 0;
  nc_tensor *codes = weight ? quantized_constant(q, &qmax) : NULL, *sc = codes ? gp_constant_tensor(nc_op_get_operand(op, 1)) : NULL;
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
    nc_op_set_attr_str(cop, "nc.weight_qmax", nc_attr_integer(ctx, i64, qmax));
    nc_rewriter_replace_op(rw, op, (nc_value *[]){c});
  }
  nc_tensor_destroy(codes);
  nc_tensor_destroy(sc);
  nc_tensor_destroy(zp);
  nc_tensor_destroy(w);
  return ok;
}

/* Brevitas writes a b-bit quantizer (b < 8) as QuantizeLinear to int8
 * followed by Clip to the b-bit range. Saturating to int8 and then clamping
 * to [-2^(b-1), 2^(b-1) - 1] (or the narrow [-2^(b-1) + 1, ...]) is
 * saturating to that range, so the pair becomes one QuantizeLinear to the
 * b-bit integer type (graph.quantize_linear saturates to the type's full
 * range; a narrow range then differs only where the int8 code is -2^(b-1)).
 * graph-quantize reads the width of a pair from that type. */
/* True if v is absent or a constant of zeros. */
static bool zero_or_absent(nc_value *v)
{
  if (!v)
    return true;
  nc_tensor *z = gp_constant_tensor(v);
  bool zero = z != NULL;
  for (int64_t i = 0; zero && i < nc_tensor_num_elements(z); i++)
    zero = nc_tensor_get_f64(z, i) == 0;
  nc_tensor_destroy(z);
  return zero;
}

/* A zero constant shaped like zp (an int8 zero point) in the narrow type. */
static nc_value *narrow_zero(nc_rewriter *rw, nc_value *zp, unsigned bits, nc_location loc)
{
  nc_context *ctx = nc_type_get_context(nc_value_get_type(zp));
  nc_type *t = with_elt(ctx, nc_value_get_type(zp), nc_type_integer(ctx, bits, NC_SIGNLESS));
  nc_tensor *z = gp_tensor_for_type(t, 0);
  nc_value *r = z ? gp_create_tensor_constant(rw, z, t, zp, "", "zero_point", loc) : NULL;
  nc_tensor_destroy(z);
  return r;
}

static bool clip_to_narrow(nc_op *op, nc_rewriter *rw)
{
  nc_value *x = nc_op_get_operand(op, 0), *y = nc_op_get_result(op, 0);
  nc_op *q = nc_value_get_defining_op(x);
  nc_attr *lo = nc_op_get_attr_str(op, "min"), *hi = nc_op_get_attr_str(op, "max");
  nc_type *xt = nc_value_get_type(x), *et = nc_type_get_element_type(xt);
  if (!q || !gp_is(q, "quantize_linear") || !gp_only_user(x, op) || !lo || !hi ||
      nc_attr_get_kind(lo) != NC_ATTR_INTEGER || nc_attr_get_kind(hi) != NC_ATTR_INTEGER ||
      nc_type_get_kind(et) != NC_TYPE_INTEGER || nc_type_get_width(et) != 8 ||
      nc_type_get_signedness(et) == NC_UNSIGNED || !nc_value_get_first_use(y))
    return false;
  int64_t a = nc_attr_get_int(lo), b = nc_attr_get_int(hi);
  unsigned bits = b == 7 ? 4 : b == 1 ? 2 : 0;
  if (!bits || (a != -b && a != -b - 1))
    return false;
  size_t n = nc_op_get_num_operands(q);
  nc_op *src = nc_value_get_defining_op(nc_op_get_operand(q, 0));
  if (!zero_or_absent(n > 2 ? nc_op_get_operand(q, 2) : NULL) || (src && gp_is(src, "constant")))
    return false; /* weights: fold_weight reads the clip */
  for (nc_use *u = nc_value_get_first_use(y); u; u = nc_use_get_next(u)) {
    nc_op *d = nc_use_get_owner(u);
    if (!gp_is(d, "dequantize_linear") || nc_op_get_operand(d, 0) != y ||
        !zero_or_absent(nc_op_get_num_operands(d) > 2 ? nc_op_get_operand(d, 2) : NULL))
      return false;
  }
  nc_context *ctx = nc_op_get_context(op);
  nc_type *nt = with_elt(ctx, xt, nc_type_integer(ctx, bits, NC_SIGNLESS));
  nc_rewriter_set_insertion_point_before(rw, op);
  nc_value *ops[3] = {nc_op_get_operand(q, 0), nc_op_get_operand(q, 1), NULL};
  if (n > 2 && !(ops[2] = narrow_zero(rw, nc_op_get_operand(q, 2), bits, nc_op_get_loc(q))))
    return false;
  nc_attr *axis = nc_op_get_attr_str(q, "axis");
  nc_named_attr ax = {nc_ident_get_cstr(ctx, "axis"), axis};
  nc_op *nq = nc_graph_create_op(ctx, "graph.quantize_linear", nc_op_get_loc(q), ops[2] ? 3 : 2, ops, axis ? 1 : 0,
                                 &ax, 1, &nt);
  if (!nq)
    return false;
  nc_value_set_type(nc_op_get_result(nq, 0), nt);
  nc_rewriter_insert(rw, nq);
  /* the DequantizeLinears read the narrow codes, with narrow zero points */
  for (nc_use *u = nc_value_get_first_use(y); u; u = nc_use_get_next(u)) {
    nc_op *d = nc_use_get_owner(u);
    if (nc_op_get_num_operands(d) > 2) {
      nc_value *z = narrow_zero(rw, nc_op_get_operand(d, 2), bits, nc_op_get_loc(d));
      if (z)
        nc_op_set_operand(d, 2, z);
    }
  }
  nc_rewriter_replace_op(rw, op, (nc_value *[]){nc_op_get_result(nq, 0)});
  nc_rewriter_erase_op(rw, q);
  return true;
}

static const nc_pattern pattern = {"QOperatorToQDQ", 1, rewrite};
static const nc_pattern integer_pattern = {"IntegerOpToQDQ", 1, rewrite_integer};
static const nc_pattern clip_pattern = {"QuantizeClipToNarrow", 1, clip_to_narrow};
static const nc_pattern weight_pattern = {"FoldWeightDequantize", 1, fold_weight};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  nc_pattern_set *set = nc_pattern_set_create(ctx);
  nc_pattern_set_add(set, "graph.qlinear_conv", &pattern);
  nc_pattern_set_add(set, "graph.qlinear_matmul", &pattern);
  nc_pattern_set_add(set, "graph.conv_integer", &integer_pattern);
  nc_pattern_set_add(set, "graph.matmul_integer", &integer_pattern);
  nc_pattern_set_add(set, "graph.dequantize_linear", &weight_pattern);
  nc_pattern_set_add(set, "graph.clip", &clip_pattern);
  nc_pass_set_state(pass, set, gp_free_pattern_set);
  return true;
}

const nc_pass_def nc_graph_qoperator_to_qdq_pass = {
  .argument = "graph-qoperator-to-qdq",
  .name = "GraphQOperatorToQDQ",
  .group = "Graph",
  .summary = "Read pre-quantized models: QLinearConv / QLinearMatMul into the QDQ form, Brevitas's QuantizeLinear + "
             "Clip into int4 / int2 pairs, weight DequantizeLinears folded keeping the model's scales",
  .description =
    "Rewrites graph.qlinear_conv(x, xs, xz, w, ws, wz, ys, yz[, B]) into quantize_linear(conv(dequantize_linear(x, "
    "xs, xz), dequantize_linear(w, ws, wz), dequantize_linear(B, xs * ws)), ys, yz) and graph.qlinear_matmul "
    "likewise, which is the same function; graph-quantize then compiles it with the model's scales and codes, "
    "without calibration. Per-channel weight scales get axis 0 (conv) or the last dim of b (matmul). Ops with "
    "non-constant scales or zero points, or dynamic result shapes, are left unchanged. A conv / gemm / matmul "
    "weight's DequantizeLinear of constant signed codes (zero point 0) folds into an f32 constant keeping the "
    "model's scales (nc.weight_scale, nc.weight_axis, nc.weight_qmax), which graph-quantize reuses. Brevitas's "
    "sub-8-bit form, QuantizeLinear to int8 then Clip to the int4 / int2 range, becomes a QuantizeLinear to i4 / i2 "
    "on activations and folds with clipped weights. ConvInteger / MatMulInteger of a QuantizeLinear with a constant "
    "scale xs, followed by Cast to f32 and Mul by a constant s = xs * ws (per tensor or per output channel), becomes "
    "conv / matmul(dequantize_linear(x_q, xs, x_zp), dequantize_linear(w, s / xs, w_zp)).",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = gp_run_patterns,
};
