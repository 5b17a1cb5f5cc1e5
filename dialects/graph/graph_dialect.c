/* graph_dialect.c: the op table of the `graph` dialect, nc's tensor level
 * (one op per ONNX operator, ONNX semantics; see docs/design/graph-dialect.md).
 *
 * Everything about an op is declared here as data: operands and results with
 * their type constraints, attributes with constraints and ONNX defaults,
 * traits, the uniform assembly format, the hooks, and the documentation that
 * `nc-opt --dump-dialect-docs=graph` turns into docs/dialects/graph.md. The
 * hooks live in graph_verify.c (verification = shape inference + comparison
 * with the declared types), graph_shape_*.c (shape inference) and
 * graph_fold.c. The table's order is the order of graph_kind.
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
static bool p_max_pool(const nc_type *t) { return p_float(t) || (p_int(t) && nc_type_get_width(elt(t)) == 8); }
static bool p_i32(const nc_type *t)
{
  return ranked(t) && nc_type_is_signless_integer(elt(t)) && nc_type_get_width(elt(t)) == 32;
}

static const nc_type_constraint tc_any = {"ranked tensor of any graph element type", p_any};
static const nc_type_constraint tc_float = {"ranked tensor of floating-point values", p_float};
static const nc_type_constraint tc_numeric = {"ranked tensor of integer or floating-point values", p_numeric};
static const nc_type_constraint tc_max_pool = {"ranked tensor of floating-point or 8-bit integer values", p_max_pool};
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

#define HOOK(K)                                                                                                  \
  static bool infer_##K(nc_context *ctx, nc_location loc, size_t no, nc_type *const *ot, nc_attr *props, size_t nr, \
                        nc_type **t)                                                                             \
  {                                                                                                              \
    return graph_infer_hook(K, ctx, loc, no, ot, props, nr, t);                                                  \
  }
HOOK(G_CONSTANT) HOOK(G_IDENTITY) HOOK(G_CAST)
HOOK(G_CONV) HOOK(G_CONV_TRANSPOSE) HOOK(G_MATMUL) HOOK(G_GEMM)
HOOK(G_ADD) HOOK(G_SUB) HOOK(G_MUL) HOOK(G_DIV) HOOK(G_POW)
HOOK(G_MAX) HOOK(G_MIN) HOOK(G_SUM) HOOK(G_MEAN)
HOOK(G_SQRT) HOOK(G_EXP) HOOK(G_NEG) HOOK(G_ABS) HOOK(G_LOG) HOOK(G_RECIPROCAL) HOOK(G_RELU) HOOK(G_SIGMOID)
HOOK(G_TANH) HOOK(G_SOFTPLUS) HOOK(G_SOFTSIGN)
HOOK(G_LEAKY_RELU) HOOK(G_PRELU) HOOK(G_ELU) HOOK(G_SELU) HOOK(G_CLIP)
HOOK(G_MAX_POOL) HOOK(G_AVG_POOL) HOOK(G_GLOBAL_AVG_POOL) HOOK(G_GLOBAL_MAX_POOL)
HOOK(G_REDUCE_MEAN) HOOK(G_REDUCE_SUM) HOOK(G_REDUCE_MAX) HOOK(G_REDUCE_MIN)
HOOK(G_LRN) HOOK(G_BATCH_NORM) HOOK(G_INSTANCE_NORM)
HOOK(G_CONCAT) HOOK(G_SPLIT) HOOK(G_SLICE) HOOK(G_RESHAPE) HOOK(G_FLATTEN) HOOK(G_SQUEEZE) HOOK(G_UNSQUEEZE)
HOOK(G_TRANSPOSE) HOOK(G_PAD)
HOOK(G_SOFTMAX) HOOK(G_LOG_SOFTMAX)
HOOK(G_QUANTIZE_LINEAR) HOOK(G_DEQUANTIZE_LINEAR) HOOK(G_QLINEAR_CONV) HOOK(G_QLINEAR_MATMUL) HOOK(G_CONV_INTEGER)
HOOK(G_MATMUL_INTEGER) HOOK(G_REQUANTIZE)
#undef HOOK

/* --- operands, results, attributes -------------------------------------------------------------- */

#define FORMAT "operands attr-dict `:` functional-type(operands, results)"
#define N(a) (a), NC_COUNTOF(a)

static const nc_value_def r_any[] = {{"output", &tc_any, NC_ARITY_ONE, NULL}};
static const nc_value_def r_float[] = {{"output", &tc_float, NC_ARITY_ONE, NULL}};
static const nc_value_def r_numeric[] = {{"output", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def r_quant[] = {{"output", &tc_quant, NC_ARITY_ONE, "the quantized result"}};
static const nc_value_def r_i32[] = {{"output", &tc_i32, NC_ARITY_ONE, "the exact int32 result"}};
static const nc_value_def r_split[] = {{"outputs", &tc_any, NC_ARITY_VARIADIC, "the parts, in order"}};

static const nc_value_def o_x_any[] = {{"input", &tc_any, NC_ARITY_ONE, NULL}};
static const nc_value_def o_x_float[] = {{"input", &tc_float, NC_ARITY_ONE, NULL}};
static const nc_value_def o_x_numeric[] = {{"input", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def o_x_spatial[] = {{"input", &tc_float, NC_ARITY_ONE, "[N, C, D1, ..., Dk]"}};
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

#define UNARY(K, NAME, TC, SUMMARY, DESC, TRAITS)                                                          \
  {                                                                                                        \
    .name = NAME, .summary = SUMMARY, .description = DESC, .operands = N(TC), .results = N(r_same_##TC),  \
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_ELEMENTWISE | (TRAITS),    \
    .verify = graph_verify, .infer_types = infer_##K, .assembly_format = FORMAT,                          \
  }
static const nc_value_def r_same_o_x_float[] = {{"output", &tc_float, NC_ARITY_ONE, NULL}};
static const nc_value_def r_same_o_x_numeric[] = {{"output", &tc_numeric, NC_ARITY_ONE, NULL}};
static const nc_value_def r_same_o_x_any[] = {{"output", &tc_any, NC_ARITY_ONE, NULL}};

#define OP(K, NAME, SUMMARY, DESC, OPERANDS, RESULTS, TRAITS)                                           \
  .name = NAME, .summary = SUMMARY, .description = DESC, .operands = N(OPERANDS), .results = N(RESULTS), \
  .traits = NC_TRAIT_PURE | (TRAITS), .verify = graph_verify, .infer_types = infer_##K, .assembly_format = FORMAT

static const nc_op_def graph_ops[] = {
  {
    .name = "graph.constant",
    .summary = "A constant tensor",
    .description = "The tensor in `value`: a `dense<...>` literal or, for weights, a `dense_resource<name>` blob "
                   "held by the module. The result type is the value's type. ONNX initializers and Constant nodes "
                   "import as graph.constant; folds produce it through the dialect's constant materializer.",
    .results = N(r_any), .attrs = N(a_constant),
    .traits = NC_TRAIT_PURE | NC_TRAIT_CONSTANT_LIKE,
    .verify = graph_verify, .fold = graph_fold_constant, .infer_types = infer_G_CONSTANT,
    .assembly_format = "attr-dict `:` functional-type(operands, results)",
  },
  {
    .name = "graph.identity", .summary = "Identity",
    .description = "ONNX Identity: the result is the input. Folds away.",
    .operands = N(o_x_any), .results = N(r_same_o_x_any),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_ELEMENTWISE,
    .verify = graph_verify, .fold = graph_fold_identity, .infer_types = infer_G_IDENTITY, .assembly_format = FORMAT,
  },
  {
    OP(G_CAST, "graph.cast", "Element type conversion",
       "ONNX Cast: converts each element to the result's element type (ONNX's `to`), which the declared result "
       "type gives. Float to integer truncates toward zero; integer to narrower integer wraps; to bool is `x != 0`. "
       "`saturate` only matters for 8-bit float targets. A cast to the same type folds away.",
       o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_SHAPE | NC_TRAIT_ELEMENTWISE),
    .attrs = N(a_cast), .fold = graph_fold_cast,
  },
  {
    OP(G_CONV, "graph.conv", "Convolution",
       "ONNX Conv over 1 to 3 spatial dims: `y[n, m] = b[m] + sum_c sum_k x[n, c, s*o + d*k - pad] * w[m, c, k]` "
       "within each of `group` channel groups; x is [N, C, D1..Dk], w is [M, C/group, K1..Kk], b is [M], y is "
       "[N, M, O1..Ok]. " D_CONV_ATTRS D_FUSION,
       o_conv, r_float, 0),
    .attrs = N(a_conv),
  },
  {
    OP(G_CONV_TRANSPOSE, "graph.conv_transpose", "Transposed convolution",
       "ONNX ConvTranspose: the gradient of Conv with respect to its input. x is [N, C, D1..Dk], w is "
       "[C, M/group, K1..Kk], y is [N, M, O1..Ok] with `O = stride * (in - 1) + output_padding + dilation * "
       "(kernel - 1) + 1 - pad_begin - pad_end`, or `output_shape` when given (the padding is then computed; "
       "SAME_UPPER puts the smaller half at the beginning), or `in * stride` with SAME_*." D_FUSION,
       o_conv_transpose, r_float, 0),
    .attrs = N(a_conv_transpose),
  },
  {
    OP(G_MATMUL, "graph.matmul", "Matrix product",
       "ONNX MatMul, as numpy.matmul: the last two dims multiply ([.., M, K] x [.., K, N] -> [.., M, N]), the "
       "leading (batch) dims broadcast; a 1-D a is [1, K] and a 1-D b is [K, 1], with the added dim dropped from "
       "the result." D_FUSION,
       o_ab_numeric, r_numeric, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
    .attrs = N(a_fusion),
  },
  {
    OP(G_GEMM, "graph.gemm", "General matrix multiplication",
       "ONNX Gemm: `y = alpha * a' * b' + beta * c` with `a' = trans_a ? a^T : a` ([M, K]) and `b' = trans_b ? "
       "b^T : b` ([K, N]); c (optional) broadcasts unidirectionally to [M, N]." D_FUSION,
       o_gemm, r_numeric, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
    .attrs = N(a_gemm),
  },
  {
    OP(G_ADD, "graph.add", "Elementwise addition",
       "ONNX Add: `a + b`; integers wrap. " D_BROADCAST D_FUSION, o_ab_numeric, r_numeric,
       NC_TRAIT_COMMUTATIVE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
    .attrs = N(a_fusion),
  },
  {OP(G_SUB, "graph.sub", "Elementwise subtraction", "ONNX Sub: `a - b`; integers wrap. " D_BROADCAST, o_ab_numeric,
      r_numeric, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE)},
  {OP(G_MUL, "graph.mul", "Elementwise multiplication", "ONNX Mul: `a * b`; integers wrap. " D_BROADCAST,
      o_ab_numeric, r_numeric, NC_TRAIT_COMMUTATIVE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE)},
  {OP(G_DIV, "graph.div", "Elementwise division",
      "ONNX Div: `a / b`; integer division truncates toward zero. " D_BROADCAST, o_ab_numeric, r_numeric,
      NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE)},
  {OP(G_POW, "graph.pow", "Elementwise power",
      "ONNX Pow: `x ^ y`; the result has x's element type, the exponent may have any numeric type. " D_BROADCAST,
      o_pow, r_numeric, 0)},
  {OP(G_MAX, "graph.max", "Elementwise maximum of one or more tensors",
      "ONNX Max over all operands (NaN propagates). " D_BROADCAST, o_xs_numeric, r_numeric,
      NC_TRAIT_COMMUTATIVE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .fold = graph_fold_variadic},
  {OP(G_MIN, "graph.min", "Elementwise minimum of one or more tensors",
      "ONNX Min over all operands (NaN propagates). " D_BROADCAST, o_xs_numeric, r_numeric,
      NC_TRAIT_COMMUTATIVE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .fold = graph_fold_variadic},
  {OP(G_SUM, "graph.sum", "Elementwise sum of one or more tensors",
      "ONNX Sum: the operands added left to right. " D_BROADCAST, o_xs_numeric, r_numeric,
      NC_TRAIT_COMMUTATIVE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .fold = graph_fold_variadic},
  {OP(G_MEAN, "graph.mean", "Elementwise mean of one or more tensors",
      "ONNX Mean: the sum of the operands divided by their count. " D_BROADCAST, o_xs_numeric, r_numeric,
      NC_TRAIT_COMMUTATIVE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .fold = graph_fold_variadic},
  UNARY(G_SQRT, "graph.sqrt", o_x_float, "Square root", "ONNX Sqrt: `sqrt(x)` (NaN for x < 0).", 0),
  UNARY(G_EXP, "graph.exp", o_x_float, "Exponential", "ONNX Exp: `e^x`.", 0),
  UNARY(G_NEG, "graph.neg", o_x_numeric, "Negation", "ONNX Neg: `-x`; integers wrap.", NC_TRAIT_INVOLUTION),
  UNARY(G_ABS, "graph.abs", o_x_numeric, "Absolute value", "ONNX Abs: `|x|`; integers wrap.", NC_TRAIT_IDEMPOTENT),
  UNARY(G_LOG, "graph.log", o_x_float, "Natural logarithm", "ONNX Log: `ln(x)`.", 0),
  UNARY(G_RECIPROCAL, "graph.reciprocal", o_x_float, "Reciprocal", "ONNX Reciprocal: `1 / x`.", 0),
  UNARY(G_RELU, "graph.relu", o_x_numeric, "Rectified linear unit", "ONNX Relu: `max(0, x)`.", NC_TRAIT_IDEMPOTENT),
  UNARY(G_SIGMOID, "graph.sigmoid", o_x_float, "Logistic sigmoid", "ONNX Sigmoid: `1 / (1 + e^-x)`.", 0),
  UNARY(G_TANH, "graph.tanh", o_x_float, "Hyperbolic tangent", "ONNX Tanh: `tanh(x)`.", 0),
  UNARY(G_SOFTPLUS, "graph.softplus", o_x_float, "Softplus", "ONNX Softplus: `ln(e^x + 1)`.", 0),
  UNARY(G_SOFTSIGN, "graph.softsign", o_x_float, "Softsign", "ONNX Softsign: `x / (1 + |x|)`.", 0),
  {
    .name = "graph.leaky_relu", .summary = "Leaky rectified linear unit",
    .description = "ONNX LeakyRelu: `x < 0 ? alpha * x : x`.",
    .operands = N(o_x_float), .results = N(r_same_o_x_float), .attrs = N(a_leaky_relu),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_ELEMENTWISE,
    .verify = graph_verify, .infer_types = infer_G_LEAKY_RELU, .assembly_format = FORMAT,
  },
  {OP(G_PRELU, "graph.prelu", "Parametric rectified linear unit",
      "ONNX PRelu: `x < 0 ? slope * x : x`, with slope broadcast unidirectionally to x's shape (typically [C, 1, 1] "
      "for per-channel slopes of an [N, C, H, W] input). The result has x's type.",
      o_prelu, r_numeric, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE)},
  {
    .name = "graph.elu", .summary = "Exponential linear unit",
    .description = "ONNX Elu: `x < 0 ? alpha * (e^x - 1) : x`.",
    .operands = N(o_x_float), .results = N(r_same_o_x_float), .attrs = N(a_elu),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_ELEMENTWISE,
    .verify = graph_verify, .infer_types = infer_G_ELU, .assembly_format = FORMAT,
  },
  {
    .name = "graph.selu", .summary = "Scaled exponential linear unit",
    .description = "ONNX Selu: `x <= 0 ? gamma * (alpha * e^x - alpha) : gamma * x`.",
    .operands = N(o_x_float), .results = N(r_same_o_x_float), .attrs = N(a_selu),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_ELEMENTWISE,
    .verify = graph_verify, .infer_types = infer_G_SELU, .assembly_format = FORMAT,
  },
  {
    .name = "graph.clip", .summary = "Clamp to a range",
    .description = "ONNX Clip: `min(max(x, min), max)`; an absent bound does not limit. The bounds are f32 "
                   "attributes for float tensors and i64 attributes for integer tensors (the importer turns ONNX's "
                   "constant min/max inputs into them). If min > max every element becomes max.",
    .operands = N(o_x_numeric), .results = N(r_same_o_x_numeric), .attrs = N(a_clip),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_ELEMENTWISE,
    .verify = graph_verify, .infer_types = infer_G_CLIP, .assembly_format = FORMAT,
  },
  {
    OP(G_MAX_POOL, "graph.max_pool", "Max pooling",
       "ONNX MaxPool over 1 to 3 spatial dims of x [N, C, D1..Dk]: the maximum of each window; padding never "
       "wins. Output sizes as for graph.conv with `kernel_shape`; with `ceil_mode` they round up, dropping a "
       "window that would start in the end padding. Only the values (not ONNX's optional Indices) are produced.",
       o_x_max_pool, r_max_pool, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
    .attrs = N(a_max_pool),
  },
  {
    OP(G_AVG_POOL, "graph.avg_pool", "Average pooling",
       "ONNX AveragePool over 1 to 3 spatial dims: the mean of each window. The divisor counts the window's "
       "elements inside the input, or with `count_include_pad` inside the padded input. Output sizes as for "
       "graph.max_pool.",
       o_x_spatial, r_float, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
    .attrs = N(a_avg_pool),
  },
  {OP(G_GLOBAL_AVG_POOL, "graph.global_avg_pool", "Global average pooling",
      "ONNX GlobalAveragePool: the mean over all spatial dims; x [N, C, D1..Dk] gives [N, C, 1..1].", o_x_spatial,
      r_float, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE)},
  {OP(G_GLOBAL_MAX_POOL, "graph.global_max_pool", "Global max pooling",
      "ONNX GlobalMaxPool: the maximum over all spatial dims; x [N, C, D1..Dk] gives [N, C, 1..1].", o_x_max_pool,
      r_max_pool, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE)},
  {OP(G_REDUCE_MEAN, "graph.reduce_mean", "Mean over dims",
      "ONNX ReduceMean over `axes` (all dims when absent, unless `noop_with_empty_axes`); reduced dims are kept "
      "as size 1 with `keepdims`, dropped otherwise.",
      o_x_numeric, r_numeric, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_reduce)},
  {OP(G_REDUCE_SUM, "graph.reduce_sum", "Sum over dims", "ONNX ReduceSum; axes and keepdims as for graph.reduce_mean.",
      o_x_numeric, r_numeric, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_reduce)},
  {OP(G_REDUCE_MAX, "graph.reduce_max", "Maximum over dims",
      "ONNX ReduceMax; axes and keepdims as for graph.reduce_mean.", o_x_numeric, r_numeric,
      NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_reduce)},
  {OP(G_REDUCE_MIN, "graph.reduce_min", "Minimum over dims",
      "ONNX ReduceMin; axes and keepdims as for graph.reduce_mean.", o_x_numeric, r_numeric,
      NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_reduce)},
  {
    .name = "graph.lrn", .summary = "Local response normalization",
    .description = "ONNX LRN across channels of x [N, C, D1..]: `y = x / (bias + alpha / size * sum x[c']^2)^beta` "
                   "with c' from `c - floor((size - 1) / 2)` to `c + ceil((size - 1) / 2)`.",
    .operands = N(o_x_float), .results = N(r_same_o_x_float), .attrs = N(a_lrn),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE,
    .verify = graph_verify, .infer_types = infer_G_LRN, .assembly_format = FORMAT,
  },
  {OP(G_BATCH_NORM, "graph.batch_norm", "Batch normalization (inference)",
      "ONNX BatchNormalization in inference mode: `y = (x - mean) / sqrt(var + epsilon) * scale + b` per channel "
      "(dim 1) of x. The result has x's type; only the one output of inference mode exists.",
      o_batch_norm, r_float, 0),
   .attrs = N(a_norm)},
  {OP(G_INSTANCE_NORM, "graph.instance_norm", "Instance normalization",
      "ONNX InstanceNormalization: per sample and channel, `y = scale * (x - mean) / sqrt(var + epsilon) + b` "
      "with the mean and population variance over the spatial dims of x [N, C, D1..].",
      o_instance_norm, r_float, 0),
   .attrs = N(a_norm)},
  {OP(G_CONCAT, "graph.concat", "Concatenation",
      "ONNX Concat: joins the operands along `axis`; all other dims must agree.", o_xs_any, r_any,
      NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_concat)},
  {OP(G_SPLIT, "graph.split", "Split into parts",
      "ONNX Split: cuts x along `axis` into one part per result, of the sizes in `split`, or without it into equal "
      "parts of `ceil(dim / n)` (the last one smaller).",
      o_x_any, r_split, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_split)},
  {OP(G_SLICE, "graph.slice", "Strided slice",
      "ONNX Slice: for each listed axis takes `start, start + step, ...` up to `end` (exclusive). Negative starts "
      "and ends count from the end; they are clamped to the dim (to [0, dim] for positive steps, [-1, dim - 1] for "
      "negative ones); the length is `max(0, ceil((end - start) / step))`. Use a large end (INT64_MAX) for 'to the "
      "end'.",
      o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_slice)},
  {OP(G_RESHAPE, "graph.reshape", "Reshape",
      "ONNX Reshape to `shape`: one -1 entry is inferred from the element count; a 0 copies the input dim at that "
      "index (or, with `allowzero`, means a dim of size 0). Folds away when the result type is the input type.",
      o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_reshape), .fold = graph_fold_reshape},
  {OP(G_FLATTEN, "graph.flatten", "Flatten to 2-D",
      "ONNX Flatten: `[d0 * .. * d(axis-1), d(axis) * .. * dn]`; `axis` is in [-rank, rank]. " D_RESHAPE_CHAIN,
      o_x_any, r_any,
      NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_flatten), .fold = graph_fold_reshape, .canonicalize = N(graph_reshape_like_patterns)},
  {OP(G_SQUEEZE, "graph.squeeze", "Remove size-1 dims",
      "ONNX Squeeze: drops the listed dims, which must have size 1, or without `axes` every static dim of size 1 "
      "(dynamic dims are then kept; list them in `axes` to drop them). " D_RESHAPE_CHAIN,
      o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_squeeze), .fold = graph_fold_reshape, .canonicalize = N(graph_reshape_like_patterns)},
  {OP(G_UNSQUEEZE, "graph.unsqueeze", "Insert size-1 dims",
      "ONNX Unsqueeze: inserts dims of size 1 at the listed positions of the result (rank + number of axes; "
      "negative positions count from its end). " D_RESHAPE_CHAIN,
      o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_unsqueeze), .fold = graph_fold_reshape, .canonicalize = N(graph_reshape_like_patterns)},
  {OP(G_TRANSPOSE, "graph.transpose", "Permute dims",
      "ONNX Transpose: result dim i is input dim `perm[i]`. The identity permutation folds away, two transposes "
      "fold into one, and one that only moves size-1 dims becomes a graph.reshape.",
      o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_transpose), .fold = graph_fold_transpose, .canonicalize = N(graph_transpose_patterns)},
  {OP(G_PAD, "graph.pad", "Pad",
      "ONNX Pad: adds `pads[i]` elements before and `pads[rank + i]` after dim i (negative values crop), filled "
      "with `value` (constant mode), the mirror image without the edge (reflect) or the edge value (edge).",
      o_x_any, r_any, NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE),
   .attrs = N(a_pad)},
  {
    .name = "graph.softmax", .summary = "Softmax",
    .description = "ONNX Softmax (opset 13 semantics): `e^x / sum(e^x)` along `axis`. The importer rewrites older "
                   "opsets, which flattened the dims from `axis` on.",
    .operands = N(o_x_float), .results = N(r_same_o_x_float), .attrs = N(a_softmax),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE,
    .verify = graph_verify, .infer_types = infer_G_SOFTMAX, .assembly_format = FORMAT,
  },
  {
    .name = "graph.log_softmax", .summary = "Log of softmax",
    .description = "ONNX LogSoftmax (opset 13 semantics): `x - max - ln(sum(e^(x - max)))` along `axis`.",
    .operands = N(o_x_float), .results = N(r_same_o_x_float), .attrs = N(a_softmax),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE,
    .verify = graph_verify, .infer_types = infer_G_LOG_SOFTMAX, .assembly_format = FORMAT,
  },
  {OP(G_QUANTIZE_LINEAR, "graph.quantize_linear", "Quantize floats to integers",
      "ONNX QuantizeLinear: `y = saturate(round_half_even(x / y_scale) + y_zero_point)`. The result's element type "
      "is the declared one (that of y_zero_point when present; ui8 is ONNX's default); i2, i4, i8, i16, i32 and "
      "their unsigned forms are allowed. Scales are per tensor or, along `axis`, per channel.",
      o_quantize, r_quant, 0),
   .attrs = N(a_quantize)},
  {OP(G_DEQUANTIZE_LINEAR, "graph.dequantize_linear", "Dequantize integers to floats",
      "ONNX DequantizeLinear: `y = (x - x_zero_point) * x_scale`, of x_scale's element type. Scales are per tensor "
      "or, along `axis`, per channel.",
      o_dequantize, r_float, 0),
   .attrs = N(a_dequantize)},
  {OP(G_QLINEAR_CONV, "graph.qlinear_conv", "Quantized convolution",
      "ONNX QLinearConv: the convolution of `x - x_zero_point` and `w - w_zero_point` plus the int32 bias, exact "
      "in int32, then requantized with `x_scale * w_scale / y_scale` and y_zero_point to the result's element type "
      "(that of y_zero_point). Attributes and output sizes as for graph.conv.",
      o_qlinear_conv, r_quant, 0),
   .attrs = N(a_qconv)},
  {OP(G_QLINEAR_MATMUL, "graph.qlinear_matmul", "Quantized matrix product",
      "ONNX QLinearMatMul: `(a - a_zero_point) @ (b - b_zero_point)` exact in int32, requantized with "
      "`a_scale * b_scale / y_scale` and y_zero_point to the result's element type (that of y_zero_point). Shapes "
      "as for graph.matmul.",
      o_qlinear_matmul, r_quant, 0)},
  {OP(G_CONV_INTEGER, "graph.conv_integer", "Integer convolution",
      "ONNX ConvInteger: the convolution of `x - x_zero_point` and `w - w_zero_point`, exact in int32 (padding "
      "holds x_zero_point). Optional operands are positional: a w_zero_point needs an x_zero_point before it. "
      "Attributes and output sizes as for graph.conv.",
      o_conv_integer, r_i32, 0),
   .attrs = N(a_qconv)},
  {OP(G_MATMUL_INTEGER, "graph.matmul_integer", "Integer matrix product",
      "ONNX MatMulInteger: `(a - a_zero_point) @ (b - b_zero_point)`, exact in int32. Optional operands are "
      "positional: a b_zero_point needs an a_zero_point before it. Shapes as for graph.matmul.",
      o_matmul_integer, r_i32, 0)},
  {OP(G_REQUANTIZE, "graph.requantize", "Fixed-point requantization",
      "Integer-only requantization of an int32 accumulator (the output stage of an int8 conv or matmul, as "
      "graph-quantize emits it): `v = acc + bias[c]` (wrapping in int32), `r = round_half_even(v * multiplier[c] / "
      "2^shift[c]) + output_zero_point` with the product exact in 64 bits and one rounding, ties to even; with "
      "activation \"relu\" `r = max(r, output_zero_point)`; then `y = saturate(r)` to the result's element type "
      "(the declared one; i8 by default). `c` is the index along `axis` when there are several multipliers or bias "
      "entries, else every element uses the one entry. A real scale s is `multiplier * 2^-shift` "
      "(nc_fixed_point_from_scale). Every simulator must reproduce it bit for bit.",
      o_requantize, r_quant, 0),
   .attrs = N(a_requantize)},
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
