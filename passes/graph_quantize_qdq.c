/* graph_quantize_qdq.c: graph-quantize's reading of pre-quantized (QDQ)
 * graphs (docs/quantization.md, "Pre-quantized models").
 *
 * Quantization-aware training (torch.ao.quantization exported by
 * torch.onnx) and ONNX Runtime's QDQ quantizer mark each quantized
 * activation with a QuantizeLinear -> DequantizeLinear pair whose scale the
 * model already chose. graph-quantize takes those scales instead of
 * calibrating: a layer whose result feeds such a pair requantizes to that
 * pair's scale, the pair itself becomes the identity on int8, and the
 * function's input is quantized with the scale of the pair right after it.
 * Only the form nc's integer graph has is accepted (int8, int4 or int2 --
 * Brevitas's QuantizeLinear + Clip, which graph-qoperator-to-qdq narrows
 * -- zero point 0, one scale per tensor; the pair's width is the layer's);
 * anything else is an error at the node, since a silent recalibration
 * would throw the model's scales away. Weights keep the model's scales
 * too (gq_qdq_weight_scales).
 */
#include <math.h>

#include "graph_quantize_internal.h"

/* The per-tensor f32 value of the constant `v` (one element), or NAN. */
static double scalar_of(nc_value *v)
{
  nc_tensor *t = gp_constant_tensor(v);
  double r = t && nc_tensor_num_elements(t) == 1 ? nc_tensor_get_f64(t, 0) : NAN;
  nc_tensor_destroy(t);
  return r;
}

/* Reads q (graph.quantize_linear or graph.dequantize_linear): its scale, or
 * an error at q saying why nc cannot take it. */
static bool read_pair_op(nc_op *q, float *scale)
{
  const char *name = nc_ident_str(nc_op_get_name(q));
  nc_value *s = nc_op_get_operand(q, 1);
  nc_value *z = nc_op_get_num_operands(q) > 2 ? nc_op_get_operand(q, 2) : NULL;
  nc_value *quant = gp_is(q, "quantize_linear") ? nc_op_get_result(q, 0) : nc_op_get_operand(q, 0);
  nc_type *et = nc_type_get_element_type(nc_value_get_type(quant));
  nc_tensor *st = gp_constant_tensor(s);
  int64_t n = st ? nc_tensor_num_elements(st) : 0;
  nc_tensor_destroy(st);
  if (!st)
    return nc_op_emit_error(q, "graph-quantize: the scale of this '%s' is not a constant", name);
  if (n != 1)
    return nc_op_emit_error(q, "graph-quantize: this '%s' has %lld scales (per axis); activations take one scale "
                            "per tensor (weights are requantized per output channel by graph-quantize itself)",
                            name, (long long)n);
  double sc = scalar_of(s);
  if (!(sc > 0) || !isfinite(sc))
    return nc_op_emit_error(q, "graph-quantize: the scale of this '%s' is %g, expected a finite positive number",
                            name, sc);
  unsigned w = nc_type_get_kind(et) == NC_TYPE_INTEGER ? nc_type_get_width(et) : 0;
  if ((w != 8 && w != 4 && w != 2) || nc_type_get_signedness(et) == NC_UNSIGNED)
    return nc_op_emit_error(q, "graph-quantize: this '%s' is not int8; nc takes pre-quantized activations as "
                            "signed int8 (or int4 / int2) with zero point 0 (symmetric), e.g. torch's qint8 "
                            "per_tensor_symmetric", name);
  if (z && scalar_of(z) != 0)
    return nc_op_emit_error(q, "graph-quantize: the zero point of this '%s' is %g; nc takes pre-quantized "
                            "activations with zero point 0 (symmetric)", name, scalar_of(z));
  *scale = (float)sc;
  return true;
}

int gq_qdq_check(nc_op *op, float *scale)
{
  bool q = gp_is(op, "quantize_linear");
  if (!q && !gp_is(op, "dequantize_linear"))
    return 0;
  if (!read_pair_op(op, scale))
    return -1;
  const char *name = nc_ident_str(nc_op_get_name(op));
  if (q) { /* every user a dequantize_linear of the same scale */
    for (nc_use *u = nc_value_get_first_use(nc_op_get_result(op, 0)); u; u = nc_use_get_next(u)) {
      nc_op *user = nc_use_get_owner(u);
      float s2;
      if (!gp_is(user, "dequantize_linear")) {
        bool qop = gp_is(user, "qlinear_conv") || gp_is(user, "qlinear_matmul") || gp_is(user, "conv_integer") ||
                   gp_is(user, "matmul_integer");
        (void)nc_op_emit_error(user, "graph-quantize: '%s' of a quantized value: only DequantizeLinear may use "
                               "a QuantizeLinear result (QDQ form)%s", nc_ident_str(nc_op_get_name(user)),
                               !qop ? ""
                               : gp_is(user, "qlinear_conv") || gp_is(user, "qlinear_matmul")
                                 ? "; run graph-optimize (graph-qoperator-to-qdq) first, which rewrites QLinearConv "
                                   "and QLinearMatMul into that form"
                                 : "; ConvInteger and MatMulInteger compile when Cast to f32 and Mul by the "
                                   "constant x_scale * w_scale follow them, or DynamicQuantizeLinear before and Mul by "
                                   "x_scale * w_scale after (graph-qoperator-to-qdq); others are not compiled: "
                                   "export the model in QDQ form");
        return -1;
      }
      if (!read_pair_op(user, &s2))
        return -1;
      if (s2 != *scale) {
        (void)nc_op_emit_error(user, "graph-quantize: this DequantizeLinear's scale %g differs from its "
                               "QuantizeLinear's %g", (double)s2, (double)*scale);
        return -1;
      }
    }
    return 1;
  }
  nc_op *d = nc_value_get_defining_op(nc_op_get_operand(op, 0));
  if (!d || !gp_is(d, "quantize_linear")) {
    (void)nc_op_emit_error(op, "graph-quantize: this '%s' of a stored integer tensor was not folded into a "
                            "constant (run graph-optimize first); only QuantizeLinear -> DequantizeLinear pairs "
                            "of activations are taken as they are", name);
    return -1;
  }
  return 1;
}

bool gq_qdq_model_scale(nc_value *v, float *scale)
{
  for (nc_use *u = nc_value_get_first_use(v); u; u = nc_use_get_next(u)) {
    nc_op *user = nc_use_get_owner(u);
    if (gp_is(user, "quantize_linear") && gq_qdq_check(user, scale) == 1)
      return true;
  }
  return false;
}

bool gq_qdq_weight_scales(nc_value *w, int64_t out_axis, int64_t channels, int qmax, double *sw)
{
  nc_op *c = nc_value_get_defining_op(w);
  nc_attr *sa = c && gp_is(c, "constant") ? nc_op_get_attr_str(c, "nc.weight_scale") : NULL;
  nc_attr *aa = sa ? nc_op_get_attr_str(c, "nc.weight_axis") : NULL;
  nc_attr *qa = sa ? nc_op_get_attr_str(c, "nc.weight_qmax") : NULL;
  if (!aa || !qa || nc_attr_get_kind(aa) != NC_ATTR_INTEGER || nc_attr_get_kind(qa) != NC_ATTR_INTEGER ||
      nc_attr_get_int(qa) > qmax)
    return false;
  int64_t axis = nc_attr_get_int(aa);
  nc_tensor *s = gp_tensor_from_attr(sa);
  int64_t n = s ? nc_tensor_num_elements(s) : 0;
  bool ok = s && s->dtype == NC_DT_F32 && (n == 1 ? axis == -1 : axis == out_axis && n == channels);
  for (int64_t i = 0; ok && i < n; i++)
    ok = nc_tensor_get_f64(s, i) > 0 && isfinite(nc_tensor_get_f64(s, i));
  for (int64_t ch = 0; ok && ch < channels; ch++)
    sw[ch] = nc_tensor_get_f64(s, n == 1 ? 0 : ch);
  nc_tensor_destroy(s);
  return ok;
}

int gq_qdq_model_bits(nc_value *v)
{
  float scale;
  for (nc_use *u = nc_value_get_first_use(v); u; u = nc_use_get_next(u)) {
    nc_op *user = nc_use_get_owner(u);
    if (gp_is(user, "quantize_linear") && gq_qdq_check(user, &scale) == 1)
      return (int)nc_type_get_width(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(user, 0))));
  }
  return 0;
}
