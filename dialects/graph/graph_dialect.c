/* graph_dialect.c: the op table of the `graph` dialect, nc's tensor level
 * (one op per ONNX operator, ONNX semantics; see docs/design/graph-dialect.md).
 *
 * The ops themselves are rows of graph_ops.def; this file holds what the
 * rows name for the op definitions (type constraints, operand, result and
 * attribute arrays with ONNX defaults, trait shorthands, the shared pieces of
 * descriptions) and expands the rows into the nc_op_def table that the
 * verifier, the parser and printer, and `nc-opt --dump-dialect-docs=graph`
 * (docs/dialects/graph.md) read. The hooks live in graph_verify.c
 * (verification = shape inference + comparison with the declared types),
 * graph_shape_*.c (shape inference) and graph_fold.c.
 */
#include "graph_internal.h"

/* --- type constraints ------------------------------------------------------------------------- */

/* The element types graph tensors may hold: f16, bf16, f32, f64; signless
 * i1, i2, i4, i8, i16, i32, i64; unsigned ui2, ui4, ui8, ui16, ui32, ui64. */
static bool elt_ok(const nc_type *e)
{
  if (nc_type_is_float(e))
    return true;
  if (!nc_type_is_integer(e))
    return false;
  unsigned w = nc_type_get_width(e);
  bool pow2 = w == 2 || w == 4 || w == 8 || w == 16 || w == 32 || w == 64;
  switch (nc_type_get_signedness(e)) {
  case NC_SIGNLESS: return w == 1 || pow2;
  case NC_UNSIGNED: return pow2;
  default: return false;
  }
}

static nc_type *elt(const nc_type *t) { return nc_type_get_element_type(t); }
static bool ranked(const nc_type *t) { return nc_type_get_kind(t) == NC_TYPE_TENSOR && elt_ok(elt(t)); }
static bool p_any(const nc_type *t) { return ranked(t); }
static bool p_float(const nc_type *t) { return ranked(t) && nc_type_is_float(elt(t)); }
static bool p_int(const nc_type *t) { return ranked(t) && nc_type_is_integer(elt(t)) && nc_type_get_width(elt(t)) > 1; }
static bool p_numeric(const nc_type *t) { return p_float(t) || p_int(t); }
static bool p_quant(const nc_type *t) { return p_int(t) && nc_type_get_width(elt(t)) <= 32; }
static bool p_max_pool(const nc_type *t)
{
  unsigned w = p_int(t) ? nc_type_get_width(elt(t)) : 0;
  return p_float(t) || w == 8 || w == 4 || w == 2; /* the widths graph-quantize makes */
}
static bool p_i32(const nc_type *t)
{
  return ranked(t) && nc_type_is_signless_integer(elt(t)) && nc_type_get_width(elt(t)) == 32;
}

static const nc_type_constraint tc_any = {"ranked tensor of any graph element type", p_any};
static const nc_type_constraint tc_float = {"ranked tensor of floating-point values", p_float};
static const nc_type_constraint tc_numeric = {"ranked tensor of integer or floating-point values", p_numeric};
static const nc_type_constraint tc_max_pool = {"ranked tensor of floating-point or 8-, 4- or 2-bit integer values", p_max_pool};
static const nc_type_constraint tc_quant = {"ranked tensor of 2- to 32-bit integer values", p_quant};
static const nc_type_constraint tc_i32 = {"ranked tensor of 32-bit signless integer values", p_i32};

/* clip bounds: f32 for float tensors, i64 for integer tensors */
static bool a_f32_or_i64(const nc_attr *a)
{
  nc_type *t = nc_attr_get_type(a);
  if (nc_attr_get_kind(a) == NC_ATTR_FLOAT)
    return nc_type_get_kind(t) == NC_TYPE_F32;
  return nc_attr_get_kind(a) == NC_ATTR_INTEGER && nc_type_is_signless_integer(t) && nc_type_get_width(t) == 64;
}
static const nc_attr_constraint ac_f32_or_i64 = {"32-bit float or 64-bit signless integer attribute", a_f32_or_i64,
                                                  NC_ATTR_SYNTAX_FULL};

/* --- infer_types hooks: one per op, all running graph_infer -------------------------------------- */

#define GRAPH_OP(KIND, ...)                                                                                    \
  static bool infer_##KIND(nc_context *ctx, nc_location loc, size_t no, nc_type *const *ot, nc_attr *props,      \
                           size_t nr, nc_type **t)                                                              \
  {                                                                                                              \
    return graph_infer_hook(KIND, ctx, loc, no, ot, props, nr, t);                                               \
  }
#include "graph_ops.def"

/* --- operands, results, attributes -------------------------------------------------------------- */

#define FORMAT "operands attr-dict `:` functional-type(operands, results)"
#define N(a) (a), NC_COUNTOF(a)

static const nc_value_def r_any[] = {{"output", &tc_any, NC_ARITY_ONE, NULL}};
static const nc_value_def r_float[] = {{"output", &tc_float, NC_ARITY_ONE, NULL}};
static const nc_value_def r_numeric[] = {{"output", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def r_quant[] = {{"output", &tc_quant, NC_ARITY_ONE, "the quantized result"}};
static const nc_value_def r_i32[] = {{"output", &tc_i32, NC_ARITY_ONE, "the exact int32 result"}};
static const nc_value_def r_split[] = {{"outputs", &tc_any, NC_ARITY_VARIADIC, "the parts, in order"}};
static const nc_value_def r_dynamic_quant[] = {{"y", &tc_quant, NC_ARITY_ONE, "ui8, x's shape"},
                                               {"y_scale", &tc_float, NC_ARITY_ONE, "f32 scalar"},
                                               {"y_zero_point", &tc_quant, NC_ARITY_ONE, "ui8 scalar"}};

static const nc_value_def o_x_any[] = {{"input", &tc_any, NC_ARITY_ONE, NULL}};
static const nc_value_def o_x_float[] = {{"input", &tc_float, NC_ARITY_ONE, NULL}};
static const nc_value_def o_x_numeric[] = {{"input", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def o_x_spatial[] = {
  {"input", &tc_max_pool, NC_ARITY_ONE, "[N, C, D1, ..., Dk] (float, or 8-, 4- or 2-bit integers in a quantized graph)"}};
static const nc_value_def o_x_max_pool[] = {{"input", &tc_max_pool, NC_ARITY_ONE, "[N, C, D1, ..., Dk]"}};
static const nc_value_def r_max_pool[] = {{"output", &tc_max_pool, NC_ARITY_ONE, NULL}};
static const nc_value_def o_ab_numeric[] = {{"a", &tc_numeric, NC_ARITY_ONE, NULL},
                                            {"b", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def o_xs_numeric[] = {{"inputs", &tc_numeric, NC_ARITY_VARIADIC, "one or more tensors"}};
static const nc_value_def o_xs_any[] = {{"inputs", &tc_any, NC_ARITY_VARIADIC, "one or more tensors of one rank"}};
static const nc_value_def o_conv[] = {
  {"x", &tc_float, NC_ARITY_ONE, "input [N, C, D1, ..., Dk]"},
  {"w", &tc_float, NC_ARITY_ONE, "weights [M, C/group, K1, ..., Kk]"},
  {"b", &tc_float, NC_ARITY_OPTIONAL, "bias [M]"},
};
static const nc_value_def o_conv_transpose[] = {
  {"x", &tc_float, NC_ARITY_ONE, "input [N, C, D1, ..., Dk]"},
  {"w", &tc_float, NC_ARITY_ONE, "weights [C, M/group, K1, ..., Kk]"},
  {"b", &tc_float, NC_ARITY_OPTIONAL, "bias [M]"},
};
static const nc_value_def o_gemm[] = {
  {"a", &tc_numeric, NC_ARITY_ONE, "[M, K] ([K, M] with trans_a)"},
  {"b", &tc_numeric, NC_ARITY_ONE, "[K, N] ([N, K] with trans_b)"},
  {"c", &tc_numeric, NC_ARITY_OPTIONAL, "added, unidirectionally broadcast to [M, N]"},
};
static const nc_value_def o_pow[] = {{"x", &tc_numeric, NC_ARITY_ONE, "the base"},
                                     {"y", &tc_numeric, NC_ARITY_ONE, "the exponent (any numeric type)"}};
static const nc_value_def o_prelu[] = {{"x", &tc_numeric, NC_ARITY_ONE, NULL},
                                       {"slope", &tc_numeric, NC_ARITY_ONE, "unidirectionally broadcast to x"}};
static const nc_value_def o_batch_norm[] = {
  {"x", &tc_float, NC_ARITY_ONE, "[N, C, D1, ...]"}, {"scale", &tc_float, NC_ARITY_ONE, "[C]"},
  {"b", &tc_float, NC_ARITY_ONE, "[C]"}, {"mean", &tc_float, NC_ARITY_ONE, "[C], the running mean"},
  {"var", &tc_float, NC_ARITY_ONE, "[C], the running variance"},
};
static const nc_value_def o_instance_norm[] = {
  {"x", &tc_float, NC_ARITY_ONE, "[N, C, D1, ...]"}, {"scale", &tc_float, NC_ARITY_ONE, "[C]"},
  {"b", &tc_float, NC_ARITY_ONE, "[C]"},
};
static const nc_value_def o_quantize[] = {
  {"x", &tc_float, NC_ARITY_ONE, NULL},
  {"y_scale", &tc_float, NC_ARITY_ONE, "scalar or [1] (per tensor), or [x.shape[axis]] (per axis)"},
  {"y_zero_point", &tc_quant, NC_ARITY_OPTIONAL, "shaped as y_scale, of the result's element type"},
};
static const nc_value_def o_dequantize[] = {
  {"x", &tc_quant, NC_ARITY_ONE, NULL},
  {"x_scale", &tc_float, NC_ARITY_ONE, "scalar or [1] (per tensor), or [x.shape[axis]] (per axis)"},
  {"x_zero_point", &tc_quant, NC_ARITY_OPTIONAL, "shaped as x_scale, of x's element type"},
};
static const nc_value_def o_qlinear_conv[] = {
  {"x", &tc_quant, NC_ARITY_ONE, "[N, C, D1, ..., Dk]"}, {"x_scale", &tc_float, NC_ARITY_ONE, "scalar"},
  {"x_zero_point", &tc_quant, NC_ARITY_ONE, "scalar of x's element type"},
  {"w", &tc_quant, NC_ARITY_ONE, "[M, C/group, K1, ..., Kk]"},
  {"w_scale", &tc_float, NC_ARITY_ONE, "scalar or [M]"},
  {"w_zero_point", &tc_quant, NC_ARITY_ONE, "scalar or [M] of w's element type"},
  {"y_scale", &tc_float, NC_ARITY_ONE, "scalar"},
  {"y_zero_point", &tc_quant, NC_ARITY_ONE, "scalar of the result's element type"},
  {"b", &tc_i32, NC_ARITY_OPTIONAL, "int32 bias [M]"},
};
static const nc_value_def o_qlinear_matmul[] = {
  {"a", &tc_quant, NC_ARITY_ONE, NULL}, {"a_scale", &tc_float, NC_ARITY_ONE, "scalar or per row"},
  {"a_zero_point", &tc_quant, NC_ARITY_ONE, "as a_scale, of a's element type"},
  {"b", &tc_quant, NC_ARITY_ONE, NULL}, {"b_scale", &tc_float, NC_ARITY_ONE, "scalar or per column"},
  {"b_zero_point", &tc_quant, NC_ARITY_ONE, "as b_scale, of b's element type"},
  {"y_scale", &tc_float, NC_ARITY_ONE, "scalar"},
  {"y_zero_point", &tc_quant, NC_ARITY_ONE, "scalar of the result's element type"},
};
static const nc_value_def o_conv_integer[] = {
  {"x", &tc_quant, NC_ARITY_ONE, "[N, C, D1, ..., Dk]"}, {"w", &tc_quant, NC_ARITY_ONE, "[M, C/group, K1, ..., Kk]"},
  {"x_zero_point", &tc_quant, NC_ARITY_OPTIONAL, "scalar of x's element type (absent: 0)"},
  {"w_zero_point", &tc_quant, NC_ARITY_OPTIONAL, "scalar or [M] of w's element type (absent: 0)"},
};
static const nc_value_def o_matmul_integer[] = {
  {"a", &tc_quant, NC_ARITY_ONE, NULL}, {"b", &tc_quant, NC_ARITY_ONE, NULL},
  {"a_zero_point", &tc_quant, NC_ARITY_OPTIONAL, "scalar or per row of a (absent: 0)"},
  {"b_zero_point", &tc_quant, NC_ARITY_OPTIONAL, "scalar or per column of b (absent: 0)"},
};
static const nc_value_def o_requantize[] = {
  {"acc", &tc_i32, NC_ARITY_ONE, "the int32 accumulator, e.g. [N, C, D1, ..., Dk]"},
  {"bias", &tc_i32, NC_ARITY_OPTIONAL, "int32 bias: one element, or [C] added along `axis`"},
};
static const nc_value_def o_concat_integer[] = {
  {"inputs", &tc_quant, NC_ARITY_VARIADIC, "quantized tensors, input i worth multiplier[i] * 2^-shift[i] output steps"},
};
static const nc_value_def o_mul_integer[] = {
  {"a", &tc_quant, NC_ARITY_ONE, "quantized input"},
  {"b", &tc_quant, NC_ARITY_ONE, "quantized input broadcasting to a's shape (e.g. [1, C, 1, 1])"},
};
static const nc_value_def o_lut_integer[] = {{"x", &tc_quant, NC_ARITY_ONE, "quantized input (the table's index)"}};
static const nc_value_def o_eltwise_integer[] = {
  {"a", &tc_quant, NC_ARITY_ONE, "quantized input, real value multiplier[0] * 2^-shift[0] * s_y per step"},
  {"b", &tc_quant, NC_ARITY_ONE, "quantized input of a's shape, real value multiplier[1] * 2^-shift[1] * s_y per step"},
};

#define FUSION_ATTRS                                                                                    \
  {"activation", &nc_ac_string, true, NULL,                                                             \
   "fused activation applied to the result: \"relu\", \"leaky_relu\", \"clip\", \"sigmoid\" or \"tanh\""}, \
  {"activation_alpha", &nc_ac_f32, true, NULL, "alpha of a fused leaky_relu (default 0.01)"},            \
  {"activation_min", &nc_ac_f32, true, NULL, "lower bound of a fused clip (absent: none)"},              \
  {"activation_max", &nc_ac_f32, true, NULL, "upper bound of a fused clip (absent: none)"}
#define CONV_ATTRS                                                                                      \
  {"kernel_shape", &nc_ac_i64_array, true, NULL, "spatial kernel dims (absent: taken from w)"},          \
  {"strides", &nc_ac_i64_array, true, NULL, "stride per spatial dim (default 1s)"},                      \
  {"pads", &nc_ac_i64_array, true, NULL, "[x1_begin, x2_begin, ..., x1_end, x2_end, ...] (default 0s)"}, \
  {"dilations", &nc_ac_i64_array, true, NULL, "dilation per spatial dim (default 1s)"},                  \
  {"group", &nc_ac_i64, true, NULL, "number of channel groups (C for depthwise; default 1)"},             \
  {"auto_pad", &nc_ac_string, true, NULL, "NOTSET (use pads), SAME_UPPER, SAME_LOWER or VALID (default \"NOTSET\")"}

static const nc_attr_def a_constant[] = {
  {"value", &nc_ac_elements, false, NULL, "the tensor (dense or dense_resource)"}};
static const nc_attr_def a_cast[] = {
  {"saturate", &nc_ac_i64, true, NULL, "float to 8-bit float conversions saturate (ONNX 19; default 1)"}};
static const nc_attr_def a_conv[] = {CONV_ATTRS, FUSION_ATTRS};
static const nc_attr_def a_qconv[] = {CONV_ATTRS};
static const nc_attr_def a_conv_transpose[] = {
  CONV_ATTRS,
  {"output_padding", &nc_ac_i64_array, true, NULL, "extra size at the end of each spatial output dim (default 0s)"},
  {"output_shape", &nc_ac_i64_array, true, NULL, "spatial output dims; pads are then computed"},
  FUSION_ATTRS,
};
static const nc_attr_def a_fusion[] = {FUSION_ATTRS};
static const nc_attr_def a_gemm[] = {
  {"alpha", &nc_ac_f32, true, NULL, "multiplier of a * b (default 1.0)"},
  {"beta", &nc_ac_f32, true, NULL, "multiplier of c (default 1.0)"},
  {"trans_a", &nc_ac_i64, true, NULL, "1: transpose a first (default 0)"},
  {"trans_b", &nc_ac_i64, true, NULL, "1: transpose b first (default 0)"},
  FUSION_ATTRS,
};
static const nc_attr_def a_leaky_relu[] = {{"alpha", &nc_ac_f32, true, NULL, "slope for x < 0 (default 0.01)"}};
static const nc_attr_def a_elu[] = {{"alpha", &nc_ac_f32, true, NULL, "scale of exp(x) - 1 for x < 0 (default 1.0)"}};
static const nc_attr_def a_selu[] = {
  {"alpha", &nc_ac_f32, true, NULL, "default 1.67326319217681884765625"},
  {"gamma", &nc_ac_f32, true, NULL, "default 1.05070102214813232421875"},
};
static const nc_attr_def a_celu[] = {
  {"alpha", &nc_ac_f32, true, NULL, "scale of the negative part (default 1.0)"}};
static const nc_attr_def a_clip[] = {
  {"min", &ac_f32_or_i64, true, NULL, "lower bound (f32 for float tensors, i64 for integer tensors; absent: none)"},
  {"max", &ac_f32_or_i64, true, NULL, "upper bound (f32 for float tensors, i64 for integer tensors; absent: none)"},
};
static const nc_attr_def a_max_pool[] = {
  {"kernel_shape", &nc_ac_i64_array, false, NULL, "window dims, one per spatial dim"},
  {"strides", &nc_ac_i64_array, true, NULL, "default 1s"},
  {"pads", &nc_ac_i64_array, true, NULL, "[x1_begin, ..., x1_end, ...] (default 0s)"},
  {"dilations", &nc_ac_i64_array, true, NULL, "default 1s"},
  {"auto_pad", &nc_ac_string, true, NULL, "NOTSET, SAME_UPPER, SAME_LOWER or VALID (default \"NOTSET\")"},
  {"ceil_mode", &nc_ac_i64, true, NULL, "1: output sizes round up (default 0)"},
  {"storage_order", &nc_ac_i64, true, NULL, "0: row major, 1: column major (of the unused Indices output; default 0)"},
};
static const nc_attr_def a_avg_pool[] = {
  {"kernel_shape", &nc_ac_i64_array, false, NULL, "window dims, one per spatial dim"},
  {"strides", &nc_ac_i64_array, true, NULL, "default 1s"},
  {"pads", &nc_ac_i64_array, true, NULL, "[x1_begin, ..., x1_end, ...] (default 0s)"},
  {"auto_pad", &nc_ac_string, true, NULL, "NOTSET, SAME_UPPER, SAME_LOWER or VALID (default \"NOTSET\")"},
  {"ceil_mode", &nc_ac_i64, true, NULL, "1: output sizes round up (default 0)"},
  {"count_include_pad", &nc_ac_i64, true, NULL, "1: padding counts in the divisor (default 0)"},
};
static const nc_attr_def a_reduce[] = {
  {"axes", &nc_ac_i64_array, true, NULL, "reduced dims, may be negative (absent: all)"},
  {"keepdims", &nc_ac_i64, true, NULL, "1: reduced dims stay as size 1 (default 1)"},
  {"noop_with_empty_axes", &nc_ac_i64, true, NULL, "1: absent axes mean no reduction (default 0)"},
};
static const nc_attr_def a_lrn[] = {
  {"size", &nc_ac_i64, false, NULL, "number of channels summed over"},
  {"alpha", &nc_ac_f32, true, NULL, "default 0.0001"},
  {"beta", &nc_ac_f32, true, NULL, "default 0.75"},
  {"bias", &nc_ac_f32, true, NULL, "default 1.0"},
};
static const nc_attr_def a_norm[] = {{"epsilon", &nc_ac_f32, true, NULL, "added to the variance (default 1e-05)"}};
static const nc_attr_def a_concat[] = {{"axis", &nc_ac_i64, false, NULL, "the dim joined along, may be negative"}};
static const nc_attr_def a_split[] = {
  {"axis", &nc_ac_i64, true, NULL, "the dim split, may be negative (default 0)"},
  {"split", &nc_ac_i64_array, true, NULL, "part sizes, one per result (absent: equal parts, the last smaller)"},
};
static const nc_attr_def a_slice[] = {
  {"starts", &nc_ac_i64_array, false, NULL, "first index per sliced axis (negative: from the end)"},
  {"ends", &nc_ac_i64_array, false, NULL, "end index (exclusive) per sliced axis; clamped"},
  {"axes", &nc_ac_i64_array, true, NULL, "sliced axes (absent: 0, 1, ...)"},
  {"steps", &nc_ac_i64_array, true, NULL, "step per sliced axis, nonzero (absent: 1s)"},
};
static const nc_attr_def a_reshape[] = {
  {"shape", &nc_ac_i64_array, false, NULL, "new dims: -1 (at most one) is inferred, 0 copies the input dim"},
  {"allowzero", &nc_ac_i64, true, NULL, "1: 0 means an empty dim (default 0)"},
};
static const nc_attr_def a_flatten[] = {
  {"axis", &nc_ac_i64, true, NULL, "dims before it form the first output dim (default 1)"}};
static const nc_attr_def a_squeeze[] = {{"axes", &nc_ac_i64_array, true, NULL, "dims of size 1 to drop (absent: all)"}};
static const nc_attr_def a_unsqueeze[] = {
  {"axes", &nc_ac_i64_array, false, NULL, "positions of new size-1 dims in the result"}};
static const nc_attr_def a_transpose[] = {
  {"perm", &nc_ac_i64_array, true, NULL, "result dim i is input dim perm[i] (absent: reversed)"}};
static const nc_attr_def a_pad[] = {
  {"pads", &nc_ac_i64_array, false, NULL, "[x1_begin, x2_begin, ..., x1_end, ...], one pair per dim; negative crops"},
  {"mode", &nc_ac_string, true, NULL, "constant, reflect or edge (default \"constant\")"},
  {"value", &nc_ac_f32, true, NULL, "fill value of constant mode (default 0.0)"},
};
static const nc_attr_def a_resize[] = {
  {"sizes", &nc_ac_i64_array, false, NULL, "the result's size in each dim"},
  {"coordinate_transformation_mode", &nc_ac_string, true, NULL, "ONNX's (default \"half_pixel\")"},
  {"nearest_mode", &nc_ac_string, true, NULL, "ONNX's, for mode nearest (default \"round_prefer_floor\")"},
  {"mode", &nc_ac_string, true, NULL, "nearest or linear (default \"nearest\")"},
};
static const nc_attr_def a_channel_shuffle[] = {
  {"group", &nc_ac_i64, false, NULL, "the number of groups (divides the channels)"}};
static const nc_attr_def a_softmax[] = {{"axis", &nc_ac_i64, true, NULL, "the dim normalised over (default -1)"}};
static const nc_attr_def a_quantize[] = {
  {"axis", &nc_ac_i64, true, NULL, "the dim of per-axis scales (default 1)"},
  {"saturate", &nc_ac_i64, true, NULL, "float 8-bit results saturate (ONNX 19; default 1)"},
};
static const nc_attr_def a_dequantize[] = {{"axis", &nc_ac_i64, true, NULL, "the dim of per-axis scales (default 1)"}};
static const nc_attr_def a_requantize[] = {
  {"multiplier", &nc_ac_i64_array, false, NULL,
   "fixed-point multipliers in [0, 2^31): one (per tensor) or one per channel along `axis`"},
  {"shift", &nc_ac_i64_array, false, NULL, "right shifts in [0, 63], one per multiplier"},
  {"axis", &nc_ac_i64, true, NULL, "the channel dim of per-channel multipliers and bias (default 1)"},
  {"output_zero_point", &nc_ac_i64, true, NULL, "added after rounding, in the result type's range (default 0)"},
  {"activation", &nc_ac_string, true, NULL, "\"relu\": clamp below at output_zero_point (absent: none)"},
  {"clamp_min", &nc_ac_i64, true, NULL, "lower bound on the result's integers (a fused Clip; absent: none)"},
  {"clamp_max", &nc_ac_i64, true, NULL, "upper bound on the result's integers (a fused Clip; absent: none)"},
};
static const nc_attr_def a_concat_integer[] = {
  {"axis", &nc_ac_i64, false, NULL, "the dim joined along, may be negative"},
  {"multiplier", &nc_ac_i64_array, false, NULL, "fixed-point multipliers in [0, 2^31), one per input"},
  {"shift", &nc_ac_i64_array, false, NULL, "right shifts in [0, 63], one per input"},
  {"output_zero_point", &nc_ac_i64, true, NULL, "added after rescaling, in the result type's range (default 0)"},
};
static const nc_attr_def a_mul_integer[] = {
  {"multiplier", &nc_ac_i64, false, NULL, "fixed-point multiplier in [0, 2^31) of the product a * b"},
  {"shift", &nc_ac_i64, false, NULL, "right shift in [0, 63]"},
  {"output_zero_point", &nc_ac_i64, true, NULL, "added after rescaling, in the result type's range (default 0)"},
  {"activation", &nc_ac_string, true, NULL, "\"relu\": clamp below at output_zero_point (absent: none)"},
};
static const nc_attr_def a_lut_integer[] = {
  {"table", &nc_ac_i64_array, false, NULL, "2^bits entries (bits of the input type), indexed by x - its type's minimum"},
};
static const nc_attr_def a_softmax_integer[] = {
  {"table", &nc_ac_i64_array, false, NULL, "2^bits fixed-point values of exp((d - 2^bits + 1) * s_x) in [0, 2^31), d = 0 .. 2^bits - 1"},
};
static const nc_attr_def a_hard_sigmoid[] = {
  {"alpha", &nc_ac_f32, true, NULL, "slope (default 0.2)"},
  {"beta", &nc_ac_f32, true, NULL, "offset (default 0.5)"},
};
static const nc_attr_def a_eltwise_integer[] = {
  {"multiplier", &nc_ac_i64_array, false, NULL, "fixed-point multipliers in [0, 2^31), one per input"},
  {"shift", &nc_ac_i64_array, false, NULL, "right shifts in [0, 63], one per input"},
  {"output_zero_point", &nc_ac_i64, true, NULL, "added after rescaling, in the result type's range (default 0)"},
  {"activation", &nc_ac_string, true, NULL, "\"relu\": clamp below at output_zero_point (absent: none)"},
};

/* --- descriptions -------------------------------------------------------------------------------- */

#define D_BROADCAST "Operands broadcast as in numpy (dims align from the right; a dim of size 1 stretches)."
#define D_CONV_ATTRS                                                                                         \
  "Output size per spatial dim: `floor((in + pad_begin + pad_end - dilation * (kernel - 1) - 1) / stride) + 1`; " \
  "with `auto_pad` SAME_UPPER / SAME_LOWER the output is `ceil(in / stride)` and the padding is computed (the "   \
  "odd element at the end / beginning); VALID means no padding."
#define D_RESHAPE_CHAIN                                                                                  \
  "Applied to the result of a reshape-like op (reshape, flatten, squeeze, unsqueeze) used nowhere else, it "   \
  "becomes one graph.reshape of that op's input; one that undoes it folds away."
#define D_FUSION                                                                                             \
  " Graph passes may fuse a following activation into the op with the `activation` attributes."

static const nc_value_def r_same_o_x_float[] = {{"output", &tc_float, NC_ARITY_ONE, NULL}};
static const nc_value_def r_same_o_x_numeric[] = {{"output", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def r_same_o_x_any[] = {{"output", &tc_any, NC_ARITY_ONE, NULL}};

/* --- the op table, from graph_ops.def ------------------------------------------------------------------- */

#define T_CONSTANT NC_TRAIT_CONSTANT_LIKE
#define T_SAME_TYPE NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE
#define T_SAME_ELT NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE
#define T_SAME_SHAPE NC_TRAIT_SAME_OPERANDS_AND_RESULT_SHAPE
#define T_ELEMENTWISE NC_TRAIT_ELEMENTWISE
#define T_UNARY (T_SAME_TYPE | T_ELEMENTWISE)
#define T_COMMUTATIVE NC_TRAIT_COMMUTATIVE
#define T_IDEMPOTENT NC_TRAIT_IDEMPOTENT
#define T_INVOLUTION NC_TRAIT_INVOLUTION

/* graph.constant, the one op without operands, prints without them */
#define OPERANDS(a) .operands = N(a), .assembly_format = FORMAT
#define NO_OPERANDS .assembly_format = "attr-dict `:` functional-type(operands, results)"
#define ATTRS(a) .attrs = N(a)
#define NO_ATTRS .attrs = NULL
#define PATTERNS(a) .canonicalize = N(a)
#define NO_PATTERNS .canonicalize = NULL
#define DEF(OPS, RESULTS, ATTRS_, TRAITS, SHAPE, ACTIVATION, FOLD, PATTERNS_)                                \
  OPS, .results = N(RESULTS), ATTRS_, .traits = NC_TRAIT_PURE | (TRAITS), .fold = FOLD, PATTERNS_
#define GRAPH_OP(KIND, MNEMONIC, SUMMARY, ONNX, KERNEL, INTERP, QUANT, DEF_, DESCRIPTION)                      \
  {.name = MNEMONIC, .summary = SUMMARY, .description = DESCRIPTION, DEF_, .verify = graph_verify,             \
   .infer_types = infer_##KIND},

static const nc_op_def graph_ops[] = {
#include "graph_ops.def"
};

_Static_assert(NC_COUNTOF(graph_ops) == G_COUNT, "the op table and graph_kind disagree");

const nc_dialect_def nc_graph_dialect = {
  .name = "graph",
  .summary = "Tensor operations with ONNX semantics",
  .description =
    "nc's tensor level: one op per ONNX operator (opsets 7-21, normalised by the importer), with ONNX's semantics "
    "and attribute names in snake_case. A model is a `func.func` of graph ops; weights are `graph.constant` ops "
    "holding `dense_resource` blobs.\n\n"
    "Every op is `Pure` and prints as `graph.op %a, %b {attrs} : (operand types) -> result types`. Operands and "
    "results are ranked tensors (dims may be dynamic, `?`) of f16, bf16, f32, f64, i1 (bool), i2, i4, i8, i16, "
    "i32, i64 or the unsigned ui2 to ui64. Lists of ints are `array<i64: ...>`, floats are f32 attributes, modes are "
    "strings; an absent optional attribute means ONNX's default (given with each attribute below, `1s`/`0s` "
    "meaning one per spatial dim). Operator parameters that newer ONNX opsets pass as constant inputs (Slice "
    "starts, Reshape shape, Pad pads, Clip bounds, Squeeze/Unsqueeze/Reduce axes, Split sizes) are attributes here. "
    "Optional operands are positional, as in ONNX: one can only be present if those before it are.\n\n"
    "Each op infers its result types from its operands and attributes (static dims where the operands' are static, "
    "`?` otherwise); the verifier checks operand ranks, shapes, element types and attribute values, and that the "
    "declared result types agree with the inferred ones (same element type and rank, equal static dims). The C "
    "API in `nc/dialects/graph/graph.h` runs the same inference and reads attributes with their defaults into the "
    "kernel parameter structs of the reference interpreter.",
  .ops = graph_ops,
  .n_ops = NC_COUNTOF(graph_ops),
  .materialize_constant = graph_materialize_constant,
};

int graph_kind_of(const nc_op *op)
{
  uintptr_t d = (uintptr_t)nc_op_get_def(op), first = (uintptr_t)graph_ops;
  if (d < first || d >= first + sizeof graph_ops)
    return -1;
  return (int)((d - first) / sizeof graph_ops[0]);
}
