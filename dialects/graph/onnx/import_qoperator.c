/* import_qoperator.c: the com.microsoft QOperator ops that ONNX Runtime's
 * quantizer writes beside ONNX's own QLinearConv / QLinearMatMul:
 * QLinearAdd, QLinearMul, QLinearConcat, QLinearGlobalAveragePool,
 * QLinearAveragePool, QLinearLeakyRelu, QLinearSigmoid, QLinearSoftmax and
 * QGemm.
 * ONNX Runtime defines each as its float op between a DequantizeLinear of
 * every input and a QuantizeLinear of the result, and that is how they
 * import: the QDQ form nc's graph-quantize already compiles with the
 * model's scales (no new graph op, and nc-run on the model computes what
 * ONNX Runtime's reference semantics say). Scales and zero points stay
 * operands, so non-constant ones are graph-quantize's to refuse. The
 * float op is built by the ONNX op's own import handler where one fits
 * (AveragePool, LeakyRelu, Sigmoid, Gemm: attributes as the float op's),
 * its result captured (node_ctx.capture) for the quantize.
 */
#include <stdio.h>
#include <string.h>

#include "import_internal.h"

/* DequantizeLinear(x, s[, z]) as f32 of x's shape. */
static imp_value *dequant(node_ctx *nc, const char *role, imp_value *x, imp_value *s, imp_value *z)
{
  imp_type t = x->type;
  t.dt = NC_DT_F32;
  imp_value *ops[3] = {x, s, z};
  return imp_emit_temp(nc, role, "graph.dequantize_linear", 3, ops, NULL, &t);
}

/* QuantizeLinear(y, s, z) into the node's output 0, of z's type (x's if z is absent). */
static bool quant(node_ctx *nc, imp_value *y, imp_value *s, imp_value *z, nc_dtype dt)
{
  imp_type t = y->type;
  t.dt = z ? z->type.dt : dt;
  imp_value *ops[3] = {y, s, z};
  return imp_emit(nc, "graph.quantize_linear", 3, ops, NULL, 1, &t) != NULL;
}

/* QLinearAdd / QLinearMul(A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale, C_zero_point). */
static bool qlinear_binary(node_ctx *nc, const char *op)
{
  imp_value *a = imp_input_required(nc, 0, "A"), *as = imp_input_required(nc, 1, "A_scale");
  imp_value *b = imp_input_required(nc, 3, "B"), *bs = imp_input_required(nc, 4, "B_scale");
  imp_value *cs = imp_input_required(nc, 6, "C_scale");
  if (!a || !as || !b || !bs || !cs)
    return false;
  imp_value *da = dequant(nc, "a_dequantize", a, as, imp_input(nc, 2));
  imp_value *db = da ? dequant(nc, "b_dequantize", b, bs, imp_input(nc, 5)) : NULL;
  imp_type t = {.dt = NC_DT_F32};
  if (!db || !imp_broadcast(nc, &a->type, &b->type, &t))
    return false;
  t.dt = NC_DT_F32;
  imp_value *ops[2] = {da, db};
  imp_value *y = imp_emit_temp(nc, "float", op, 2, ops, NULL, &t);
  return y && quant(nc, y, cs, imp_input(nc, 7), a->type.dt);
}

bool imp_qlinear_add(node_ctx *nc) { return qlinear_binary(nc, "graph.add"); }
bool imp_qlinear_mul(node_ctx *nc) { return qlinear_binary(nc, "graph.mul"); }

/* QLinearConcat(Y_scale, Y_zero_point, X0, X0_scale, X0_zero_point, ...), attribute axis. */
bool imp_qlinear_concat(node_ctx *nc)
{
  imp_value *ys = imp_input_required(nc, 0, "Y_scale");
  int64_t axis;
  if (!ys || !imp_attr_int(nc, "axis", 0, &axis))
    return false;
  if (nc->n_in < 5 || (nc->n_in - 2) % 3)
    return imp_error(nc, "has %zu inputs; QLinearConcat takes Y_scale, Y_zero_point and triples (X, X_scale, "
                     "X_zero_point)", nc->n_in);
  size_t n = (nc->n_in - 2) / 3;
  imp_value **parts = nc_arena_calloc(nc->im->arena, n * sizeof *parts);
  imp_type t = {0};
  int64_t ax = 0;
  for (size_t i = 0; i < n; i++) {
    imp_value *x = imp_input_required(nc, 2 + 3 * i, "X"), *s = imp_input_required(nc, 3 + 3 * i, "X_scale");
    if (!x || !s)
      return false;
    if (i == 0) {
      t = x->type;
      if (t.rank < 1 || !imp_axis(nc, "axis", axis, t.rank, false, &ax))
        return imp_error(nc, "needs inputs of known rank and an axis inside it");
      t.dims[ax] = 0;
    } else if (x->type.rank != t.rank) {
      return imp_error(nc, "input %zu has rank %d, the first has rank %d", i, x->type.rank, t.rank);
    }
    if (!imp_type_is_static(&x->type))
      return imp_unsupported(nc, "inputs of unknown shape");
    t.dims[ax] += x->type.dims[ax];
    char role[32];
    snprintf(role, sizeof role, "x%zu_dequantize", i);
    if (!(parts[i] = dequant(nc, role, x, s, imp_input(nc, 4 + 3 * i))))
      return false;
  }
  t.dt = NC_DT_F32;
  imp_attrs attrs = {0};
  imp_add_i64(nc, &attrs, "axis", ax);
  imp_value *y = imp_emit_temp(nc, "float", "graph.concat", n, parts, &attrs, &t);
  return y && quant(nc, y, ys, imp_input(nc, 1), parts[0] ? imp_input(nc, 2)->type.dt : NC_DT_I8);
}

/* QLinearGlobalAveragePool(X, x_scale, x_zero_point, y_scale, y_zero_point), attribute channels_last. */
bool imp_qlinear_global_average_pool(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X"), *xs = imp_input_required(nc, 1, "x_scale");
  imp_value *ys = imp_input_required(nc, 3, "y_scale");
  int64_t last;
  if (!x || !xs || !ys || !imp_attr_int(nc, "channels_last", 0, &last))
    return false;
  if (last)
    return imp_unsupported(nc, "channels_last = 1");
  if (x->type.rank < 3)
    return imp_error(nc, "needs an input [N, C, D1, ...] of known rank");
  imp_value *dx = dequant(nc, "x_dequantize", x, xs, imp_input(nc, 2));
  imp_type t = x->type;
  t.dt = NC_DT_F32;
  for (int d = 2; d < t.rank; d++)
    t.dims[d] = 1, t.sym[d] = 0;
  imp_value *y = dx ? imp_emit_temp(nc, "float", "graph.global_avg_pool", 1, &dx, NULL, &t) : NULL;
  return y && quant(nc, y, ys, imp_input(nc, 4), x->type.dt);
}

/* The float op `onnx_op` of the dequantized inputs `in`, built by its import
 * handler with the node's attributes; its result, or NULL. */
static imp_value *float_op(node_ctx *nc, const char *onnx_op, size_t n, imp_value **in)
{
  const imp_op *h = imp_find_handler(onnx_op);
  imp_value *y = NULL;
  node_ctx sub = *nc;
  sub.op = h;
  sub.in = in;
  sub.n_in = n;
  sub.capture = &y;
  return h && h->fn(&sub) ? y : NULL;
}

/* Q(X, X_scale, X_zero_point, Y_scale, Y_zero_point): one input, the float op of ONNX type onnx_op. */
static bool qlinear_unary(node_ctx *nc, const char *onnx_op)
{
  imp_value *x = imp_input_required(nc, 0, "X"), *xs = imp_input_required(nc, 1, "X_scale");
  imp_value *ys = imp_input_required(nc, 3, "Y_scale");
  if (!x || !xs || !ys)
    return false;
  imp_value *dx = dequant(nc, "x_dequantize", x, xs, imp_input(nc, 2));
  imp_value *y = dx ? float_op(nc, onnx_op, 1, &dx) : NULL;
  return y && quant(nc, y, ys, imp_input(nc, 4), x->type.dt);
}

bool imp_qlinear_sigmoid(node_ctx *nc) { return qlinear_unary(nc, "Sigmoid"); }
bool imp_qlinear_leaky_relu(node_ctx *nc) { return qlinear_unary(nc, "LeakyRelu"); }

/* QLinearAveragePool: AveragePool's attributes, and channels_last (0 only). */
bool imp_qlinear_average_pool(node_ctx *nc)
{
  int64_t last;
  if (!imp_attr_int(nc, "channels_last", 0, &last))
    return false;
  if (last)
    return imp_unsupported(nc, "channels_last = 1");
  return qlinear_unary(nc, "AveragePool");
}

/* QLinearSoftmax: `axis` (default -1) and `opset`, the Softmax version whose
 * semantics it has: before 13 the input is viewed as 2-D at the axis, which
 * equals softmax along the axis only when every dim after it is 1. */
bool imp_qlinear_softmax(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X"), *xs = imp_input_required(nc, 1, "X_scale");
  imp_value *ys = imp_input_required(nc, 3, "y_scale");
  int64_t axis, opset;
  if (!x || !xs || !ys || !imp_attr_int(nc, "axis", -1, &axis) || !imp_attr_int(nc, "opset", 0, &opset))
    return false;
  if (opset < 1)
    return imp_error(nc, "needs the attribute 'opset' (the Softmax version it follows)");
  if (x->type.rank < 1 || !imp_axis(nc, "axis", axis, x->type.rank, false, &axis))
    return imp_error(nc, "needs an input of known rank and an axis inside it");
  for (int d = (int)axis + 1; opset < 13 && d < x->type.rank; d++)
    if (x->type.dims[d] != 1)
      return imp_unsupported(nc, "opset %lld semantics (a 2-D view) on an axis with dims after it",
                             (long long)opset);
  imp_value *dx = dequant(nc, "x_dequantize", x, xs, imp_input(nc, 2));
  imp_type t = x->type;
  t.dt = NC_DT_F32;
  imp_attrs attrs = {0};
  if (axis != x->type.rank - 1)
    imp_add_i64(nc, &attrs, "axis", axis);
  imp_value *y = dx ? imp_emit_temp(nc, "float", "graph.softmax", 1, &dx, &attrs, &t) : NULL;
  return y && quant(nc, y, ys, imp_input(nc, 4), x->type.dt);
}

/* QGemm(A, a_scale, a_zero_point, B, b_scale, b_zero_point, C, y_scale, y_zero_point): Gemm of the dequantized
 * A and B (B per output column: axis 1, or 0 with transB) plus the int32 bias C dequantized with a_scale * b_scale
 * (computed here from the constant scales, in f32 as ONNX Runtime does); quantized with y_scale when given, else
 * the float result is the output. */
bool imp_qgemm(node_ctx *nc)
{
  imp_value *a = imp_input_required(nc, 0, "A"), *as = imp_input_required(nc, 1, "a_scale");
  imp_value *b = imp_input_required(nc, 3, "B"), *bs = imp_input_required(nc, 4, "b_scale");
  imp_value *c = imp_input(nc, 6), *ys = imp_input(nc, 7);
  int64_t tb;
  if (!a || !b || !as || !bs || !imp_attr_int(nc, "transB", 0, &tb))
    return false;
  imp_value *da = dequant(nc, "a_dequantize", a, as, imp_input(nc, 2));
  imp_type bt = b->type;
  bt.dt = NC_DT_F32;
  imp_attrs bax = {0};
  imp_add_i64(nc, &bax, "axis", tb ? 0 : 1);
  imp_value *bops[3] = {b, bs, imp_input(nc, 5)};
  imp_value *db = da ? imp_emit_temp(nc, "b_dequantize", "graph.dequantize_linear", 3, bops, &bax, &bt) : NULL;
  imp_value *dc = NULL;
  if (db && c) {
    nc_tensor *sa = imp_known(nc->im, as), *sb = imp_known(nc->im, bs);
    if (!sa || !sb || sa->dtype != NC_DT_F32 || sb->dtype != NC_DT_F32 || nc_tensor_num_elements(sa) != 1)
      return imp_unsupported(nc, "a bias with scales that are not constant f32 (a scalar a_scale)");
    int64_t n = nc_tensor_num_elements(sb);
    nc_tensor *prod = imp_fold_alloc(nc, NC_DT_F32, sb->rank, sb->shape);
    if (!prod)
      return imp_error(nc, "b_scale is too large");
    for (int64_t i = 0; i < n; i++)
      ((float *)prod->data)[i] = ((const float *)sa->data)[0] * ((const float *)sb->data)[i];
    imp_value *cs = imp_new_known(nc, prod, "bias_scale");
    imp_type ct = c->type;
    ct.dt = NC_DT_F32;
    imp_attrs cax = {0};
    imp_add_i64(nc, &cax, "axis", 0);
    imp_value *cops[2] = {c, cs};
    dc = cs ? imp_emit_temp(nc, "c_dequantize", "graph.dequantize_linear", 2, cops, &cax, &ct) : NULL;
    if (!dc)
      return false;
  }
  if (!db)
    return false;
  imp_value *in[3] = {da, db, dc};
  if (!ys) {
    const imp_op *h = imp_find_handler("Gemm");
    node_ctx sub = *nc;
    sub.op = h;
    sub.in = in;
    sub.n_in = dc ? 3 : 2;
    return h && h->fn(&sub);
  }
  imp_value *y = float_op(nc, "Gemm", dc ? 3 : 2, in);
  return y && quant(nc, y, ys, imp_input(nc, 8), a->type.dt);
}

/* DynamicQuantizeLinear(x) -> (y ui8, y_scale f32 scalar, y_zero_point ui8 scalar). */
bool imp_dynamic_quantize(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "x");
  if (!x)
    return false;
  if (x->type.dt != NC_DT_F32)
    return imp_unsupported(nc, "an input of type %s (f32 only)", nc_dtype_name(x->type.dt));
  imp_type t[3] = {x->type, {.dt = NC_DT_F32}, {.dt = NC_DT_U8}};
  t[0].dt = NC_DT_U8;
  return imp_emit(nc, nc->op->graph, 1, &x, NULL, 3, t) != NULL;
}
