/* dataflow_api_test.c: the dataflow dialect's C API (nc/dialects/dataflow/
 * dataflow.h): the isl attributes (building, escaping, reading into isl,
 * errors without aborts, the caller's isl error mode kept), node accessors,
 * tensor coordinates, describing a layer, wrapping ops into a node and
 * inlining it back, and the verifier catching bad isl text in attributes
 * built by code, also after it remembered a node's passed checks. Returns non-zero on any failure.
 */
#include <isl/options.h>
#include <isl/set.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/graph.h"
#include "nc/ir.h"
#include "nc/passes/dataflow_layers.h"

#include "check.h"

static char diags[4096];

static bool record(const nc_diag *d, void *user)
{
  (void)user;
  size_t len = strlen(diags);
  snprintf(diags + len, sizeof diags - len, "%s\n", nc_diag_get_message(d));
  return true;
}

static char *print(nc_op *op)
{
  nc_print_flags flags = {0};
  return nc_op_print_to_string(op, &flags, NULL);
}

static void test_attrs(nc_context *ctx, isl_ctx *ictx)
{
  nc_attr *s = nc_dataflow_set_attr_get(ctx, "{ S[i] : 0 <= i < 4 }");
  nc_attr *m = nc_dataflow_map_attr_get(ctx, "{ S[i] -> T[i] }");
  CHECK(nc_dataflow_attr_is_set(s) && !nc_dataflow_attr_is_map(s), "set kind");
  CHECK(nc_dataflow_attr_is_map(m) && !nc_dataflow_attr_is_set(m), "map kind");
  CHECK(!nc_dataflow_attr_is_set(nc_attr_string_cstr(ctx, "{ S[i] }")), "a string is not a set");
  CHECK(s == nc_dataflow_set_attr_get(ctx, "{ S[i] : 0 <= i < 4 }"), "uniqued");
  char *text = nc_attr_to_string(s);
  CHECK(text && !strcmp(text, "#dataflow.set<\"{ S[i] : 0 <= i < 4 }\">"), "printed as %s", text);
  free(text);

  /* escapes survive a print/parse round trip and are undone for isl */
  const char *odd = "{ S[i] : 0 <= i < 4 } \"q\" \\ \n";
  nc_attr *e = nc_dataflow_set_attr_get(ctx, odd);
  char *back = nc_dataflow_attr_get_text(e);
  CHECK(back && !strcmp(back, odd), "text back: %s", back);
  free(back);
  char *printed = nc_attr_to_string(e);
  nc_attr *reparsed = nc_parse_attr(ctx, printed ? printed : "");
  CHECK(!reparsed && strstr(diags, "unexpected text after the set"), "bad isl text rejected when parsed: %s", diags);
  diags[0] = 0;
  free(printed);

  isl_set *is = nc_dataflow_attr_get_isl_set(s, ictx);
  isl_set *want = isl_set_read_from_str(ictx, "{ S[i] : 0 <= i <= 3 }");
  CHECK(is && isl_set_is_equal(is, want) == isl_bool_true, "isl set");
  isl_set_free(is);
  isl_set_free(want);
  CHECK(!nc_dataflow_attr_get_isl_map(s, ictx), "a set is not a map");
  isl_map *im = nc_dataflow_attr_get_isl_map(m, ictx);
  CHECK(im != NULL, "isl map");
  CHECK(nc_dataflow_map_attr_from_isl(ctx, im) == nc_dataflow_map_attr_get(ctx, "{ S[i] -> T[i] }"),
        "from isl: isl's own printing");
  isl_map_free(im);

  /* errors come back as NULL with a message, and the caller's mode stays */
  isl_options_set_on_error(ictx, ISL_ON_ERROR_ABORT);
  char err[256] = "";
  CHECK(!nc_dataflow_parse_isl_set(ictx, "{ S[i] : i < }", err, sizeof err) && strstr(err, "syntax error"),
        "syntax error: %s", err);
  CHECK(!nc_dataflow_parse_isl_map(ictx, "{ S[i] : i < 3 }", err, sizeof err) && strstr(err, "a set was given"),
        "set for map: %s", err);
  CHECK(!nc_dataflow_parse_isl_set(ictx, "{ A[i]; B[i] }", err, sizeof err) && strstr(err, "union"), "union: %s", err);
  CHECK(!nc_dataflow_parse_isl_set(ictx, "", err, sizeof err), "empty text");
  CHECK(isl_options_get_on_error(ictx) == ISL_ON_ERROR_ABORT, "error mode restored");
  isl_options_set_on_error(ictx, ISL_ON_ERROR_CONTINUE);
  CHECK(!nc_dataflow_attr_get_text(nc_attr_unit(ctx)), "no text for other attributes");
}

static void test_coords(nc_context *ctx)
{
  int64_t d[8];
  nc_type *f32 = nc_type_f32(ctx);
  CHECK(nc_dataflow_tensor_coords(nc_type_tensor(ctx, 4, (int64_t[]){1, 3, 5, 7}, f32, NULL), d) == 3 &&
          d[0] == 3 && d[1] == 5 && d[2] == 7, "[1, C, H, W] is T[c, y, x]");
  CHECK(nc_dataflow_tensor_coords(nc_type_tensor(ctx, 2, (int64_t[]){1, 9}, f32, NULL), d) == 1 && d[0] == 9,
        "[1, K] is F[i]");
  CHECK(nc_dataflow_tensor_coords(nc_type_tensor(ctx, 2, (int64_t[]){2, 9}, f32, NULL), d) == 2, "batch 2 kept");
  CHECK(nc_dataflow_tensor_coords(nc_type_tensor(ctx, 1, (int64_t[]){1}, f32, NULL), d) == 1, "[1] kept");
  CHECK(nc_dataflow_tensor_coords(nc_type_tensor(ctx, 2, (int64_t[]){1, NC_DYNAMIC}, f32, NULL), d) == -1,
        "dynamic refused");
  CHECK(nc_dataflow_tensor_coords(f32, d) == -1, "scalar refused");
}

static const char *graph_text =
  "func.func @f(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {\n"
  "  %w = graph.constant {value = dense<5.000000e-01> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>\n"
  "  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> "
  "tensor<1x2x4x4xf32>\n"
  "  %r = graph.relu %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>\n"
  "  %a = graph.add %r, %y : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>\n"
  "  return %a : tensor<1x2x4x4xf32>\n"
  "}\n";

static void test_wrap_inline(nc_context *ctx, isl_ctx *ictx)
{
  nc_op *module = nc_parse_string(ctx, graph_text, strlen(graph_text), "f.mlir");
  CHECK(module && nc_op_verify(module), "parse");
  if (!module)
    return;
  char *before = print(module);
  nc_op *func = nc_block_get_first_op(nc_module_get_body(module));
  nc_block *body = nc_region_get_first_block(nc_op_get_region(func, 0));
  nc_op *w = nc_block_get_first_op(body), *conv = nc_op_get_next(w), *relu = nc_op_get_next(conv);
  nc_op *add = nc_op_get_next(relu);

  /* the conv and its relu: one input, the weights moved in */
  nc_op *group[] = {conv, relu};
  nc_value **inputs;
  size_t n = nc_dataflow_group_inputs(group, 2, &inputs);
  CHECK(n == 1 && inputs[0] == nc_block_get_arg(body, 0), "conv group inputs: %zu", n);
  nc_dataflow_layer_desc desc;
  char err[512];
  bool ok = nc_dataflow_describe_layer(conv, n, inputs, nc_op_get_result(relu, 0), NC_DEPS_PER_ROW, ictx, &desc, err,
                                       sizeof err);
  CHECK(ok && !desc.kind && !strcmp(desc.name_hint, "conv") && desc.macs == 2 * 4 * 4 * 9 && desc.n_reads == 1, "describe: %s", err);
  CHECK(ok && !strcmp(desc.domain, "{ S[oy] : 0 <= oy <= 3 }"), "domain %s", ok ? desc.domain : "");
  nc_op *n1 = ok ? nc_dataflow_node_wrap(group, 2, "conv1", &desc) : NULL;
  CHECK(n1 && nc_dataflow_record_layer(n1), "record the conv's layer: %s", diags);
  nc_dataflow_layer_desc_clear(&desc);
  free(inputs);

  /* the add: two inputs, the node's result and %y */
  nc_op *group2[] = {add};
  n = nc_dataflow_group_inputs(group2, 1, &inputs);
  CHECK(n == 2 && n1 && inputs[0] == nc_op_get_result(n1, 0) && inputs[1] == nc_block_get_arg(body, 1), "add inputs");
  ok = nc_dataflow_describe_layer(add, n, inputs, nc_op_get_result(add, 0), NC_DEPS_PER_PIXEL, ictx, &desc, err,
                                  sizeof err);
  CHECK(ok && !strcmp(desc.name_hint, "add") && desc.n_reads == 2, "describe add: %s", err);
  nc_op *n2 = ok ? nc_dataflow_node_wrap(group2, 1, "add1", &desc) : NULL;
  CHECK(n2 && nc_dataflow_record_layer(n2), "record the add's layer: %s", diags);
  nc_dataflow_layer_desc_clear(&desc);
  free(inputs);
  CHECK(nc_op_verify(module), "wrapped module verifies: %s", diags);

  CHECK(nc_dataflow_num_nodes(func) == 2 && nc_dataflow_first_node(func) == n1 && nc_dataflow_next_node(n1) == n2 &&
          !nc_dataflow_next_node(n2), "pipeline order");
  if (n1 && n2) {
    CHECK(!strcmp(nc_dataflow_node_get_name(n1), "conv1") && !strcmp(nc_dataflow_node_get_kind(n2), "eltwise"), "names");
    nc_dataflow_layer l1, l2;
    CHECK(nc_dataflow_node_get_layer(n1, &l1) && l1.kind == NC_DATAFLOW_LAYER_CONV && l1.kernel[0] == 3 &&
            l1.kernel[1] == 3 && l1.pads[0] == 1 && l1.pads[3] == 1 && l1.stride[0] == 1 && l1.group == 1 &&
            l1.weights && l1.clamp_min == 0 && l1.clamp_max == INT64_MAX && !l1.n_requant && l1.n_inputs == 1 &&
            l1.input_bits == 0, "the conv's layer (float: no widths; relu: clamp_min 0)");
    CHECK(nc_dataflow_node_get_layer(n2, &l2) && l2.kind == NC_DATAFLOW_LAYER_ELTWISE &&
            l2.op == NC_DATAFLOW_ELTWISE_ADD && l2.n_inputs == 2 && !l2.weights, "the add's layer");
    CHECK(nc_dataflow_node_get_macs(n1) == 288 && nc_dataflow_node_get_macs(n2) == 0, "macs");
    CHECK(!nc_dataflow_node_get_producer(n1, 0) && nc_dataflow_node_get_producer(n2, 0) == n1 &&
            !nc_dataflow_node_get_producer(n2, 1) && !nc_dataflow_node_get_producer(n2, 2), "producers");
    CHECK(nc_dataflow_node_get_layer_op(n1) && nc_op_is(nc_dataflow_node_get_layer_op(n1), "graph.conv"), "layer op");
    CHECK(nc_dataflow_node_find_op(n1, "graph.relu") && !nc_dataflow_node_find_op(n1, "graph.add"), "find op");
    CHECK(nc_dataflow_node_find_op(n1, "graph.constant") &&
            nc_op_get_block(nc_dataflow_node_find_op(n1, "graph.constant")) == nc_dataflow_node_get_body(n1),
          "the weights moved into the node");
    nc_conv_params p;
    CHECK(nc_graph_get_conv_params(nc_dataflow_node_get_layer_op(n1), &p) && p.pads[0] == 1, "layer parameters");
    nc_op *y = nc_dataflow_node_get_yield(n2);
    CHECK(y && nc_op_get_operand(y, 0) == nc_op_get_result(nc_dataflow_node_get_layer_op(n2), 0), "yield");
    CHECK(!nc_dataflow_node_has_deps(n1) && !nc_dataflow_node_get_earliest(n1, 0, ictx) &&
            nc_dataflow_node_get_buffer_elements(n1, 0) == -1, "no deps yet");
    isl_union_map *reads = nc_dataflow_node_get_reads(n2, ictx);
    isl_union_map *want = isl_union_map_read_from_str(
      ictx, "{ S[y, x] -> In0[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 4; "
            "S[y, x] -> In1[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 4 }");
    CHECK(reads && isl_union_map_is_equal(reads, want) == isl_bool_true, "add reads");
    isl_union_map_free(reads);
    isl_union_map_free(want);
    isl_map *wr = nc_dataflow_node_get_writes(n1, ictx);
    isl_map *wwant = isl_map_read_from_str(ictx, "{ S[oy] -> Out[k, oy, ox] : 0 <= oy < 4 and 0 <= k < 2 and 0 <= ox < 4 }");
    CHECK(wr && isl_map_is_equal(wr, wwant) == isl_bool_true, "conv writes");
    isl_map_free(wr);
    isl_map_free(wwant);

    /* a domain that is not isl is the verifier's error at the node */
    nc_attr *saved = nc_op_get_attr_str(n2, "domain");
    nc_op_set_attr_str(n2, "domain", nc_dataflow_set_attr_get(ctx, "{ S[y, x] : y < }"));
    diags[0] = 0;
    CHECK(!nc_op_verify(module) && strstr(diags, "domain: invalid isl set"), "bad domain: %s", diags);
    nc_op_set_attr_str(n2, "domain", saved);

    nc_dataflow_node_inline(n2);
    nc_dataflow_node_inline(n1);
    CHECK(nc_op_verify(module), "inlined module verifies");
    char *after = print(module);
    CHECK(before && after && !strcmp(before, after), "inline gives back the graph:\n%s\n---\n%s", before, after);
    free(after);
  }
  free(before);
  nc_op_destroy(module);
}

static void test_describe_errors(nc_context *ctx, isl_ctx *ictx)
{
  const char *text = "func.func @g(%x: tensor<1x10xf32>) -> tensor<1x10xf32> {\n"
                     "  %s = graph.softmax %x : (tensor<1x10xf32>) -> tensor<1x10xf32>\n"
                     "  return %s : tensor<1x10xf32>\n}\n";
  nc_op *module = nc_parse_string(ctx, text, strlen(text), "g.mlir");
  nc_op *func = module ? nc_block_get_first_op(nc_module_get_body(module)) : NULL;
  nc_op *sm = func ? nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(func, 0))) : NULL;
  nc_dataflow_layer_desc desc;
  char err[256] = "";
  nc_value *in = sm ? nc_op_get_operand(sm, 0) : NULL;
  CHECK(sm && !nc_dataflow_describe_layer(sm, 1, &in, nc_op_get_result(sm, 0), NC_DEPS_PER_ROW, ictx, &desc, err,
                                          sizeof err) &&
          strstr(err, "has no dataflow layer"),
        "softmax: %s", err);
  if (module)
    nc_op_destroy(module);
}

/* A hand-written int8 conv node and its function's I/O record: every layer
 * field survives nc_dataflow_node_set_layer / get_layer, only non-defaults
 * are stored, and the I/O record resolves to the quantized values. */
static const char *layer_text =
  "func.func @g(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {dataflow.io = {inputs = [{argument = "
  "0 : i64, bits = 8 : i64, name = \"x\", scale = 1.562500e-02 : f64, zero_point = 3 : i64}], outputs = [{bits = 8 "
  ": i64, name = \"y\", result = 0 : i64, scale = 5.000000e-02 : f64, zero_point = 0 : i64}]}} {\n"
  "  %s = graph.constant {value = dense<1.562500e-02> : tensor<f32>} : () -> tensor<f32>\n"
  "  %z = graph.constant {value = dense<3> : tensor<i8>} : () -> tensor<i8>\n"
  "  %q = graph.quantize_linear %x, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>\n"
  "  %n = dataflow.node \"conv1\"(%q) {domain = #dataflow.set<\"{ S[] }\">, kind = \"conv\", macs = 0 : i64, params "
  "= {kernel = array<i64: 3, 3>}, reads = [#dataflow.map<\"{ S[] -> In0[c, y, x] : 0 <= c <= 0 and 0 <= y <= 3 and "
  "0 <= x <= 3 }\">], writes = #dataflow.map<\"{ S[] -> Out[c, y, x] : 0 <= c <= 1 and 0 <= y <= 3 and 0 <= x <= 3 "
  "}\">} ({\n"
  "  ^bb0(%a: tensor<1x1x4x4xi8>):\n"
  "    %w = graph.constant {value = dense<1> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>\n"
  "    %c = graph.conv_integer %a, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> "
  "tensor<1x2x4x4xi32>\n"
  "    %r = graph.requantize %c {multiplier = array<i64: 1073741824>, shift = array<i64: 31>, output_zero_point = 0 : "
  "i64} : (tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi8>\n"
  "    dataflow.yield %r : tensor<1x2x4x4xi8>\n"
  "  }) : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>\n"
  "  %t = graph.constant {value = dense<5.000000e-02> : tensor<f32>} : () -> tensor<f32>\n"
  "  %d = graph.dequantize_linear %n, %t : (tensor<1x2x4x4xi8>, tensor<f32>) -> tensor<1x2x4x4xf32>\n"
  "  return %d : tensor<1x2x4x4xf32>\n"
  "}\n";

static void test_layer_round_trip(nc_context *ctx)
{
  nc_dataflow_layer_kind k;
  CHECK(nc_dataflow_layer_kind_from_name("max_pool", &k) && k == NC_DATAFLOW_LAYER_MAX_POOL &&
          !strcmp(nc_dataflow_layer_kind_name(NC_DATAFLOW_LAYER_GLOBAL_AVG_POOL), "global_avg_pool") &&
          !nc_dataflow_layer_kind_from_name("pool", &k) && *nc_dataflow_layer_kind_summary(NC_DATAFLOW_LAYER_LUT),
        "the kind table");
  nc_op *module = nc_parse_string(ctx, layer_text, strlen(layer_text), "g.mlir");
  CHECK(module && nc_op_verify(module), "parse: %s", diags);
  if (!module)
    return;
  nc_op *func = nc_block_get_first_op(nc_module_get_body(module));
  nc_op *node = nc_dataflow_first_node(func);
  nc_dataflow_layer l;
  CHECK(node && nc_dataflow_node_get_layer(node, &l) && l.kind == NC_DATAFLOW_LAYER_CONV && l.kernel[0] == 3 &&
          l.stride[1] == 1 && l.dilation[0] == 1 && l.group == 1 && l.clamp_min == INT64_MIN && !l.weights &&
          l.input_bits == 8 && l.output_bits == 8 && l.n_inputs == 1, "the defaults");

  nc_attr *w = nc_op_get_attr_str(nc_dataflow_node_find_op(node, "graph.constant"), "value");
  int64_t m[2] = {1073741824, 1518500250}, sh[2] = {31, 38};
  nc_dataflow_layer in = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_CONV);
  in.kernel[0] = in.kernel[1] = 3;
  in.stride[0] = 2;
  in.pads[0] = in.pads[1] = in.pads[2] = in.pads[3] = 1;
  in.n_inputs = 1;
  in.input_zero_points[0] = 3;
  in.weight_zero_point = -1;
  in.weights = w;
  in.n_requant = 2;
  in.multiplier = m;
  in.shift = sh;
  in.output_zero_point = -5;
  in.clamp_min = 0;
  in.clamp_max = 127;
  nc_dataflow_node_set_layer(node, &in);
  nc_dataflow_layer out;
  CHECK(nc_dataflow_node_get_layer(node, &out), "get after set");
  CHECK(out.kind == in.kind && out.kernel[1] == 3 && out.stride[0] == 2 && out.stride[1] == 1 && out.pads[3] == 1 &&
          out.input_zero_points[0] == 3 && out.weight_zero_point == -1 && out.weights == w && out.n_requant == 2 &&
          out.multiplier[1] == 1518500250 && out.shift[1] == 38 && out.output_zero_point == -5 &&
          out.clamp_min == 0 && out.clamp_max == 127 && out.weight_bits == 8 && !out.bias && !out.lut,
        "the fields round trip");
  nc_attr *params = nc_op_get_attr_str(node, "params");
  CHECK(params && !nc_attr_dict_get_str(params, "dilation") && !nc_attr_dict_get_str(params, "group") &&
          nc_attr_dict_get_str(params, "weights") == w, "only non-defaults stored, the weights not copied");
  CHECK(nc_op_verify(module), "the node verifies: %s", diags);

  /* back to the defaults: no params at all */
  in = nc_dataflow_layer_make(NC_DATAFLOW_LAYER_GLOBAL_MAX_POOL);
  nc_dataflow_node_set_layer(node, &in);
  CHECK(!nc_op_get_attr_str(node, "params") && !strcmp(nc_dataflow_node_get_kind(node), "global_max_pool"),
        "defaults store no params");

  nc_dataflow_io io;
  nc_block *body = nc_region_get_first_block(nc_op_get_region(func, 0));
  CHECK(nc_dataflow_func_get_num_io(func, false) == 1 && nc_dataflow_func_get_num_io(func, true) == 1, "io count");
  CHECK(nc_dataflow_func_get_io(func, false, 0, &io) && !strcmp(io.name, "x") && io.scale == 0.015625 &&
          io.zero_point == 3 && io.bits == 8 &&
          nc_op_is(nc_value_get_defining_op(io.value), "graph.quantize_linear") &&
          nc_op_get_operand(nc_value_get_defining_op(io.value), 0) == nc_block_get_arg(body, 0), "the input record");
  CHECK(nc_dataflow_func_get_io(func, true, 0, &io) && !strcmp(io.name, "y") && io.scale == 0.05 &&
          io.value == nc_op_get_result(node, 0), "the output record");
  CHECK(!nc_dataflow_func_get_io(func, true, 1, &io), "no second output");
  nc_op_destroy(module);
}

/* The verifier remembers a node's passed accesses (domain, reads, writes)
 * apart from its dependences (earliest, control): a bad dependence added
 * after the accesses passed, or a bad access under dependences that
 * passed, is still reported; the access box's lower and upper bounds hold. */
static const char *memo_text =
  "func.func @m(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {\n"
  "  %n = dataflow.node \"n\"(%x) {domain = #dataflow.set<\"{ S[i] : 0 <= i < 4 }\">, kind = \"eltwise\", macs = 0 : "
  "i64, reads = [#dataflow.map<\"{ S[i] -> In0[i] }\">], writes = #dataflow.map<\"{ S[i] -> Out[i] }\">} ({\n"
  "  ^bb0(%a: tensor<1x4xf32>):\n"
  "    dataflow.yield %a : tensor<1x4xf32>\n"
  "  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
  "  return %n : tensor<1x4xf32>\n"
  "}\n";

static void test_verify_memo(nc_context *ctx)
{
  nc_op *module = nc_parse_string(ctx, memo_text, strlen(memo_text), "m.mlir");
  CHECK(module && nc_op_verify(module), "parse: %s", diags);
  if (!module)
    return;
  nc_op *node = nc_dataflow_first_node(nc_block_get_first_op(nc_module_get_body(module)));
  nc_attr *reads = nc_op_get_attr_str(node, "reads");
  nc_attr *one[1];
  one[0] = nc_dataflow_map_attr_get(ctx, "{ S[i] -> Q[i] }");
  nc_op_set_attr_str(node, "earliest", nc_attr_array(ctx, 1, one));
  diags[0] = 0;
  CHECK(!nc_op_verify(module) && strstr(diags, "earliest[0] must name the producer's statement P"),
        "a bad dependence after the accesses passed: %s", diags);
  one[0] = nc_dataflow_map_attr_get(ctx, "{ S[i] -> P[i] }");
  nc_op_set_attr_str(node, "earliest", nc_attr_array(ctx, 1, one));
  CHECK(nc_op_verify(module), "a good dependence: %s", diags);
  static const char *const bad[] = {"{ S[i] -> In0[i + 1] }", "{ S[i] -> In0[i - 1] }"};
  for (int k = 0; k < 2; k++) {
    one[0] = nc_dataflow_map_attr_get(ctx, bad[k]);
    nc_op_set_attr_str(node, "reads", nc_attr_array(ctx, 1, one));
    diags[0] = 0;
    CHECK(!nc_op_verify(module) && strstr(diags, "reads[0] accesses elements outside its tensor"),
          "a bad access under passed dependences (%s): %s", bad[k], diags);
  }
  one[0] = nc_dataflow_map_attr_get(ctx, "{ S[i] -> In0[3 - i] }");
  nc_op_set_attr_str(node, "reads", nc_attr_array(ctx, 1, one));
  CHECK(nc_op_verify(module), "reads at both ends of the tensor: %s", diags);
  nc_op_set_attr_str(node, "reads", reads);
  CHECK(nc_op_verify(module), "restored: %s", diags);
  nc_op_destroy(module);
}

int main(void)
{
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  unsigned h = nc_context_push_diag_handler(ctx, record, NULL);
  isl_ctx *ictx = isl_ctx_alloc();
  isl_options_set_on_error(ictx, ISL_ON_ERROR_CONTINUE);
  test_attrs(ctx, ictx);
  test_coords(ctx);
  test_wrap_inline(ctx, ictx);
  test_describe_errors(ctx, ictx);
  test_layer_round_trip(ctx);
  test_verify_memo(ctx);
  isl_ctx_free(ictx);
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  printf("dataflow_api_test: %s\n", failures ? "FAIL" : "ok");
  return failures != 0;
}
