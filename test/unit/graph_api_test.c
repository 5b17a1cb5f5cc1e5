/* graph_api_test.c: the public C API of the graph dialect (graph.h).
 *
 * Shape inference through nc_graph_infer_types (static and dynamic dims,
 * hints for cast/quantize/split, errors reported as diagnostics), building
 * ops with nc_graph_create_op / nc_graph_create_constant, and the kernel
 * parameter readers with ONNX defaults applied, checked against the kernels'
 * own shape functions so the interpreter and the IR agree.
 */
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/graph.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static nc_context *ctx;
static char last_error[512];
static int n_errors;

static bool capture(const nc_diag *d, void *user)
{
  (void)user;
  if (nc_diag_get_severity(d) == NC_SEV_ERROR) {
    n_errors++;
    snprintf(last_error, sizeof last_error, "%s", nc_diag_get_message(d));
  }
  return true;
}

static nc_type *T(const char *s) { return nc_parse_type(ctx, s); }
static nc_attr *A(const char *s) { return nc_parse_attr(ctx, s); }

static bool type_is(nc_type *t, const char *want)
{
  if (!t)
    return false;
  char *s = nc_type_to_string(t);
  bool ok = !strcmp(s, want);
  if (!ok)
    fprintf(stderr, "  got type %s, want %s\n", s, want);
  free(s);
  return ok;
}

/* Infers one result of `op` from operand type strings and an attribute dict. */
static nc_type *infer1(const char *op, const char *attrs, int n, const char *const *in, nc_type *hint)
{
  nc_type *ts[8], *out[1] = {hint};
  for (int i = 0; i < n; i++)
    ts[i] = T(in[i]);
  return nc_graph_infer_types(ctx, op, nc_location_unknown(), (size_t)n, ts, attrs ? A(attrs) : NULL, 1, out)
             ? out[0]
             : NULL;
}

static void test_inference(void)
{
  const char *conv_in[] = {"tensor<?x3x32x?xf32>", "tensor<16x3x3x3xf32>", "tensor<16xf32>"};
  CHECK(type_is(infer1("graph.conv", "{pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}", 3, conv_in, NULL),
                "tensor<?x16x16x?xf32>"),
        "conv with dynamic dims");
  const char *mm_in[] = {"tensor<2x1x3x4xf32>", "tensor<5x4x6xf32>"};
  CHECK(type_is(infer1("graph.matmul", NULL, 2, mm_in, NULL), "tensor<2x5x3x6xf32>"), "batched matmul");
  const char *add_in[] = {"tensor<?x4xi8>", "tensor<3x1xi8>"};
  CHECK(type_is(infer1("graph.add", NULL, 2, add_in, NULL), "tensor<3x4xi8>"), "broadcast against a dynamic dim");
  const char *rs_in[] = {"tensor<?x3x4xf32>"};
  CHECK(type_is(infer1("graph.reshape", "{shape = array<i64: 0, -1>}", 1, rs_in, NULL), "tensor<?x12xf32>"),
        "reshape copying a dynamic dim");

  /* the result element type of cast and quantize_linear comes from the hint */
  const char *cast_in[] = {"tensor<2x?xf32>"};
  CHECK(type_is(infer1("graph.cast", NULL, 1, cast_in, T("tensor<1x1xi8>")), "tensor<2x?xi8>"), "cast hint");
  n_errors = 0;
  CHECK(!infer1("graph.cast", NULL, 1, cast_in, NULL) && n_errors == 1, "cast without a hint must fail");
  CHECK(!infer1("graph.cast", NULL, 1, cast_in, T("tensor<2x2xsi8>")) &&
            strstr(last_error, "result #0 must be ranked tensor of any graph element type"),
        "cast to a type graph does not allow: %s", last_error);
  const char *q_in[] = {"tensor<4xf32>", "tensor<f32>", "tensor<i4>"};
  CHECK(type_is(infer1("graph.quantize_linear", NULL, 2, q_in, NULL), "tensor<4xui8>"), "ONNX default ui8");
  CHECK(type_is(infer1("graph.quantize_linear", NULL, 3, q_in, NULL), "tensor<4xi4>"), "zero point's type");
  CHECK(type_is(infer1("graph.quantize_linear", NULL, 2, q_in, T("tensor<4xi16>")), "tensor<4xi16>"), "hint");

  /* split: the number of results is the caller's */
  nc_type *in[1] = {T("tensor<7x?xf32>")}, *out[3] = {NULL, NULL, NULL};
  CHECK(nc_graph_infer_types(ctx, "graph.split", nc_location_unknown(), 1, in, NULL, 3, out) &&
            type_is(out[0], "tensor<3x?xf32>") && type_is(out[2], "tensor<1x?xf32>"),
        "split into equal parts");

  /* errors are diagnostics with the op's prefix */
  const char *bad_in[] = {"tensor<1x3x8x8xf32>", "tensor<16x4x3x3xf32>"};
  n_errors = 0;
  CHECK(!infer1("graph.conv", NULL, 2, bad_in, NULL) && n_errors == 1 &&
            !strcmp(last_error, "'graph.conv' op expects input channels (3) to equal weight channels x group (4)"),
        "channel mismatch: %s", last_error);
  n_errors = 0;
  CHECK(!infer1("graph.relu", "{alpha = 1 : i64}", 1, cast_in, NULL) || n_errors == 0, "discardable attrs are fine");
  CHECK(!infer1("graph.concat", NULL, 1, cast_in, NULL) && strstr(last_error, "requires attribute 'axis'"),
        "required attribute: %s", last_error);
  CHECK(!infer1("graph.conv", NULL, 1, cast_in, NULL) && strstr(last_error, "expects 2 to 3 operands, got 1"),
        "operand count: %s", last_error);
  CHECK(!infer1("func.return", NULL, 1, cast_in, NULL) && strstr(last_error, "not a registered graph op"),
        "not a graph op: %s", last_error);

  CHECK(nc_graph_types_compatible(T("tensor<2x?xf32>"), T("tensor<?x3xf32>")), "compatible dims");
  CHECK(!nc_graph_types_compatible(T("tensor<2x3xf32>"), T("tensor<2x4xf32>")), "different dims");
  CHECK(!nc_graph_types_compatible(T("tensor<2x3xf32>"), T("tensor<2x3xf16>")), "different element types");
  CHECK(!nc_graph_types_compatible(T("tensor<2x3xf32>"), T("tensor<6xf32>")), "different ranks");
}

static const char *module_src =
  "func.func @f(%x: tensor<1x4x9x9xf32>, %w: tensor<8x2x3x3xf32>, %a: tensor<3x4xf32>, %i: tensor<6xi8>, "
  "%wt: tensor<4x2x3x3xf32>, %i8x: tensor<1x1x4x4xi8>, %i8w: tensor<2x1x3x3xi8>, %zp: tensor<i8>) {\n"
  "  %0 = graph.conv %x, %w {group = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, "
  "tensor<8x2x3x3xf32>) -> tensor<1x8x4x4xf32>\n"
  "  %1 = graph.conv %x, %w {group = 2 : i64, auto_pad = \"SAME_LOWER\", dilations = array<i64: 2, 1>, pads = "
  "array<i64: 0, 0, 0, 0>, activation = \"clip\", activation_max = 6.0 : f32} : (tensor<1x4x9x9xf32>, "
  "tensor<8x2x3x3xf32>) -> tensor<1x8x9x9xf32>\n"
  "  %2 = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : "
  "(tensor<1x4x9x9xf32>) -> tensor<1x4x4x4xf32>\n"
  "  %3 = graph.gemm %a, %a {trans_b = 1 : i64, beta = 0.5 : f32} : (tensor<3x4xf32>, tensor<3x4xf32>) -> "
  "tensor<3x3xf32>\n"
  "  %4 = graph.reduce_sum %a {axes = array<i64: -1>, keepdims = 0 : i64} : (tensor<3x4xf32>) -> tensor<3xf32>\n"
  "  %5 = graph.slice %a {starts = array<i64: 1>, ends = array<i64: 3>, axes = array<i64: 1>} : (tensor<3x4xf32>) "
  "-> tensor<3x2xf32>\n"
  "  %6 = graph.pad %i {pads = array<i64: 1, 2>, mode = \"edge\"} : (tensor<6xi8>) -> tensor<9xi8>\n"
  "  %7 = graph.leaky_relu %a {alpha = 0.25 : f32} : (tensor<3x4xf32>) -> tensor<3x4xf32>\n"
  "  %8 = graph.selu %a : (tensor<3x4xf32>) -> tensor<3x4xf32>\n"
  "  %9 = graph.clip %i {max = 5 : i64} : (tensor<6xi8>) -> tensor<6xi8>\n"
  "  %10 = graph.softmax %a : (tensor<3x4xf32>) -> tensor<3x4xf32>\n"
  "  %11 = graph.lrn %x {size = 3 : i64} : (tensor<1x4x9x9xf32>) -> tensor<1x4x9x9xf32>\n"
  "  %12 = graph.max %a, %a : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>\n"
  "  %13 = graph.sub %a, %a : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>\n"
  "  %14 = graph.conv_transpose %x, %wt {strides = array<i64: 2, 2>, output_shape = array<i64: 19, 18>} : "
  "(tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x19x18xf32>\n"
  "  %15 = graph.conv_integer %i8x, %i8w, %zp : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>, tensor<i8>) -> "
  "tensor<1x2x2x2xi32>\n"
  "  return\n"
  "}\n";

static nc_op *nth_op(nc_op *module, int n)
{
  nc_op *fn = nc_block_get_first_op(nc_module_get_body(module));
  nc_op *op = nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(fn, 0)));
  while (n-- > 0 && op)
    op = nc_op_get_next(op);
  return op;
}

static void test_params(nc_op *m)
{
  nc_op *conv = nth_op(m, 0), *conv2 = nth_op(m, 1);
  nc_conv_params cp;
  CHECK(nc_graph_get_conv_params(conv, &cp), "conv params");
  CHECK(cp.group == 2 && cp.strides[0] == 2 && cp.strides[1] == 2 && cp.dilations[0] == 1 && cp.dilations[1] == 1 &&
            cp.pads[0] == 0 && cp.pads[3] == 0 && cp.kernel_shape[0] == 0 && cp.auto_pad == NC_AUTO_PAD_NOTSET,
        "conv defaults");
  /* the kernel's shape function agrees with the verified result type */
  nc_type *x = nc_value_get_type(nc_op_get_operand(conv, 0)), *w = nc_value_get_type(nc_op_get_operand(conv, 1));
  int64_t shape[4];
  for (int k = 0; k < 2; k++) {
    nc_op *c = k ? conv2 : conv;
    CHECK(nc_graph_get_conv_params(c, &cp) &&
              nc_kernel_conv_shape(&cp, 4, nc_type_get_shape(x), nc_type_get_shape(w), shape, NULL, 0) &&
              !memcmp(shape, nc_type_get_shape(nc_value_get_type(nc_op_get_result(c, 0))), sizeof shape),
          "kernel and IR agree on conv %d", k);
  }
  CHECK(nc_graph_get_conv_params(conv2, &cp) && cp.auto_pad == NC_AUTO_PAD_SAME_LOWER && cp.dilations[0] == 2,
        "explicit conv attributes");
  nc_graph_activation act;
  CHECK(nc_graph_get_activation(conv2, &act) && act.kind == NC_GRAPH_ACT_CLIP && !act.has_min && act.has_max &&
            act.max == 6.0,
        "fused clip");
  CHECK(nc_graph_get_activation(conv, &act) && act.kind == NC_GRAPH_ACT_NONE, "no activation");
  nc_pool_params pp;
  CHECK(!nc_graph_get_conv_params(nth_op(m, 2), &cp), "conv params of a pool");
  CHECK(nc_graph_get_pool_params(nth_op(m, 2), &pp) && pp.kernel_shape[1] == 3 && pp.strides[0] == 2 &&
            pp.dilations[0] == 1 && pp.ceil_mode && !pp.count_include_pad,
        "pool params");
  CHECK(nc_kernel_pool_shape(&pp, 4, nc_type_get_shape(x), shape, NULL, 0) && shape[2] == 4 && shape[3] == 4,
        "kernel and IR agree on max_pool");
  nc_gemm_params gp;
  CHECK(nc_graph_get_gemm_params(nth_op(m, 3), &gp) && gp.alpha == 1.0 && gp.beta == 0.5 && !gp.trans_a &&
            gp.trans_b,
        "gemm params");
  nc_reduce_op rk;
  nc_reduce_params rp;
  CHECK(nc_graph_get_reduce_params(nth_op(m, 4), &rk, &rp) && rk == NC_REDUCE_SUM && rp.naxes == 1 &&
            rp.axes[0] == -1 && !rp.keepdims && !rp.noop_with_empty_axes,
        "reduce params");
  nc_slice_params sp;
  CHECK(nc_graph_get_slice_params(nth_op(m, 5), &sp) && sp.n == 1 && sp.starts[0] == 1 && sp.ends[0] == 3 &&
            sp.axes[0] == 1 && !sp.steps,
        "slice params");
  nc_pad_params pdp;
  double value = -1;
  CHECK(nc_graph_get_pad_params(nth_op(m, 6), &pdp, &value) && pdp.mode == NC_PAD_EDGE && pdp.pads[1] == 2 &&
            value == 0.0 && pdp.naxes == 0,
        "pad params");
  nc_unary_op uk;
  nc_unary_params up;
  CHECK(nc_graph_get_unary_op(nth_op(m, 7), &uk, &up) && uk == NC_UNARY_LEAKY_RELU && up.alpha == 0.25, "leaky_relu");
  CHECK(nc_graph_get_unary_op(nth_op(m, 8), &uk, &up) && uk == NC_UNARY_SELU && fabs(up.alpha - 1.6732632) < 1e-6 &&
            fabs(up.gamma - 1.0507010) < 1e-6,
        "selu defaults");
  nc_graph_clip_bounds cb;
  CHECK(nc_graph_get_clip_bounds(nth_op(m, 9), &cb) && !cb.is_float && !cb.has_min && cb.has_max && cb.max_i == 5,
        "integer clip");
  nc_softmax_params smp;
  CHECK(nc_graph_get_softmax_params(nth_op(m, 10), &smp) && smp.axis == -1 && !smp.coerce_2d, "softmax default axis");
  nc_lrn_params lp;
  CHECK(nc_graph_get_lrn_params(nth_op(m, 11), &lp) && lp.size == 3 && fabs(lp.alpha - 1e-4) < 1e-12 &&
            lp.beta == 0.75 && lp.bias == 1.0,
        "lrn defaults");
  nc_variadic_op vk;
  nc_binary_op bk;
  CHECK(nc_graph_get_variadic_op(nth_op(m, 12), &vk) && vk == NC_VARIADIC_MAX, "variadic max");
  CHECK(nc_graph_get_binary_op(nth_op(m, 13), &bk) && bk == NC_BINARY_SUB, "binary sub");
  CHECK(!nc_graph_get_binary_op(nth_op(m, 12), &bk), "max is not binary");
  nc_conv_transpose_params tp;
  nc_op *ct = nth_op(m, 14);
  CHECK(nc_graph_get_conv_transpose_params(ct, &tp) && tp.has_output_shape && tp.output_shape[1] == 18 &&
            tp.strides[0] == 2 && tp.group == 1,
        "conv_transpose params");
  nc_type *wt = nc_value_get_type(nc_op_get_operand(ct, 1));
  CHECK(nc_kernel_conv_transpose_shape(&tp, 4, nc_type_get_shape(x), nc_type_get_shape(wt), shape, NULL, 0) &&
            !memcmp(shape, nc_type_get_shape(nc_value_get_type(nc_op_get_result(ct, 0))), sizeof shape),
        "kernel and IR agree on conv_transpose");

  /* optional operands are positional: the third operand is x_zero_point */
  nc_op *ci = nth_op(m, 15);
  CHECK(nc_graph_get_conv_params(ci, &cp) && cp.group == 1, "conv_integer params");
  CHECK(nc_op_get_operand_by_name(ci, "x_zero_point") == nc_op_get_operand(ci, 2) &&
            !nc_op_get_operand_by_name(ci, "w_zero_point"),
        "positional optional operands");

  /* re-inference of a verified op gives its declared types */
  nc_type *types[1];
  CHECK(nc_graph_infer_result_types(conv, types) && types[0] == nc_value_get_type(nc_op_get_result(conv, 0)),
        "nc_graph_infer_result_types");
  CHECK(nc_graph_attr_int(conv, "group", 1) == 2 && nc_graph_attr_int(conv, "missing", 7) == 7, "attr_int");
  CHECK(!strcmp(nc_graph_attr_string(conv, "auto_pad", "NOTSET"), "NOTSET"), "attr_string default");
  size_t n;
  CHECK(nc_graph_attr_ints(conv, "strides", &n) && n == 2 && !nc_graph_attr_ints(conv, "pads", &n) && n == 0,
        "attr_ints");
}

static void test_create(nc_op *m)
{
  nc_op *fn = nc_block_get_first_op(nc_module_get_body(m));
  nc_block *body = nc_region_get_first_block(nc_op_get_region(fn, 0));
  nc_value *x = nc_block_get_arg(body, 0), *w = nc_block_get_arg(body, 1);
  nc_named_attr attrs[] = {{nc_ident_get_cstr(ctx, "pads"), A("array<i64: 1, 1, 1, 1>")},
                           {nc_ident_get_cstr(ctx, "group"), A("2 : i64")}};
  nc_op *conv = nc_graph_create_op(ctx, "graph.conv", nc_location_unknown(), 2, (nc_value *[]){x, w}, 2, attrs, 1, NULL);
  CHECK(conv && type_is(nc_value_get_type(nc_op_get_result(conv, 0)), "tensor<1x8x9x9xf32>"), "create conv");
  nc_op *cst = nc_graph_create_constant(ctx, A("dense<1.5> : tensor<8xf32>"), nc_location_unknown());
  CHECK(cst && type_is(nc_value_get_type(nc_op_get_result(cst, 0)), "tensor<8xf32>"), "create constant");
  nc_op *ret = nc_block_get_terminator(body);
  if (conv)
    nc_op_insert_before(conv, ret);
  if (cst) {
    nc_op_insert_before(cst, ret);
    CHECK(nc_op_get_constant_value(cst) == nc_op_get_attr_str(cst, "value"), "constant folds to its value");
    nc_op *bias = nc_graph_create_op(ctx, "graph.conv", nc_location_unknown(), 3,
                                     (nc_value *[]){x, w, nc_op_get_result(cst, 0)}, 2, attrs, 1, NULL);
    CHECK(bias != NULL, "conv with a bias");
    if (bias)
      nc_op_insert_before(bias, ret);
  }
  n_errors = 0;
  CHECK(nc_op_verify(m) && n_errors == 0, "module with created ops verifies: %s", last_error);
  n_errors = 0;
  nc_op *bad = nc_graph_create_op(ctx, "graph.conv", nc_location_unknown(), 2, (nc_value *[]){w, x}, 0, NULL, 1, NULL);
  CHECK(!bad && n_errors == 1, "create with bad operands fails");
  CHECK(!nc_graph_create_constant(ctx, A("1.0 : f32"), nc_location_unknown()), "constant of a scalar attribute");
}

int main(void)
{
  ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  unsigned h = nc_context_push_diag_handler(ctx, capture, NULL);
  test_inference();
  nc_op *m = nc_parse_string(ctx, module_src, strlen(module_src), "graph_api_test.mlir");
  CHECK(m && nc_op_verify(m), "test module verifies: %s", last_error);
  if (m) {
    test_params(m);
    test_create(m);
    nc_op_destroy(m);
  }
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  if (failures)
    fprintf(stderr, "%d failures\n", failures);
  return failures ? 1 : 0;
}
