/* dataflow_api_test.c: the dataflow dialect's C API (nc/dialects/dataflow/
 * dataflow.h): the isl attributes (building, escaping, reading into isl,
 * errors without aborts, the caller's isl error mode kept), node accessors,
 * tensor coordinates, describing a layer, wrapping ops into a node and
 * inlining it back, and the verifier catching bad isl text in attributes
 * built by code. Returns non-zero on any failure.
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
  CHECK(ok && !strcmp(desc.kind, "conv") && desc.macs == 2 * 4 * 4 * 9 && desc.n_reads == 1, "describe: %s", err);
  CHECK(ok && !strcmp(desc.domain, "{ S[oy] : 0 <= oy <= 3 }"), "domain %s", ok ? desc.domain : "");
  nc_op *n1 = ok ? nc_dataflow_node_wrap(group, 2, "conv1", &desc) : NULL;
  nc_dataflow_layer_desc_clear(&desc);
  free(inputs);

  /* the add: two inputs, the node's result and %y */
  nc_op *group2[] = {add};
  n = nc_dataflow_group_inputs(group2, 1, &inputs);
  CHECK(n == 2 && n1 && inputs[0] == nc_op_get_result(n1, 0) && inputs[1] == nc_block_get_arg(body, 1), "add inputs");
  ok = nc_dataflow_describe_layer(add, n, inputs, nc_op_get_result(add, 0), NC_DEPS_PER_PIXEL, ictx, &desc, err,
                                  sizeof err);
  CHECK(ok && !strcmp(desc.kind, "add") && desc.n_reads == 2, "describe add: %s", err);
  nc_op *n2 = ok ? nc_dataflow_node_wrap(group2, 1, "add1", &desc) : NULL;
  nc_dataflow_layer_desc_clear(&desc);
  free(inputs);
  CHECK(nc_op_verify(module), "wrapped module verifies: %s", diags);

  CHECK(nc_dataflow_num_nodes(func) == 2 && nc_dataflow_first_node(func) == n1 && nc_dataflow_next_node(n1) == n2 &&
          !nc_dataflow_next_node(n2), "pipeline order");
  if (n1 && n2) {
    CHECK(!strcmp(nc_dataflow_node_get_name(n1), "conv1") && !strcmp(nc_dataflow_node_get_kind(n2), "add"), "names");
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
  isl_ctx_free(ictx);
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  printf("dataflow_api_test: %s\n", failures ? "FAIL" : "ok");
  return failures != 0;
}
