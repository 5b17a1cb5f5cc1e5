/* onnx_borrow_test.c: initializers imported from a model file borrow the
 * file's mapping instead of being copied (dense_resource blobs that point
 * into it), and the mapping lives exactly as long as someone needs it.
 *
 * The model is built with protobuf-c and written to a temporary file: four
 * f32 initializers whose names have 1..4 characters, so their raw_data lie
 * at different offsets mod 4 in the file. Checked: an aligned one is
 * borrowed (its bytes lie in the recorded mapping), a misaligned one is
 * copied (the blob honours its alignment), every value reads back equal
 * (more than 2 MB each: the large copies' path);
 * the module outlives the importer's model (nc_onnx_import_file destroys
 * it); dropping one blob keeps the mapping for the others; the mapping goes
 * with the context when the importer is gone first, and with the model when
 * the context goes first; the IR prints and parses back with equal values.
 * Run under ASan (the sanitizer build) a use after the unmap would fail.
 */
#include "../../dialects/graph/onnx/onnx_proto.h" /* private: protobuf-c structs */

#include <stdint.h>
#include <unistd.h>

#include "ir_check.h"
#include "nc/support/mapped.h"

/* N floats: more than 2 MB each, so a copied one also takes the importer's
 * huge-page path for large copies, with a partial run at its end */
enum { N = (2 << 20) / 4 + 1000, K = 4 };

static float vals[K][N];

/* Writes y = x + w0 + w1 + w2 + w3 (x, y, wi: [N] f32) to path. */
static void write_model(const char *path)
{
  static char *names[K] = {"a", "bb", "ccc", "dddd"}, *sums[K] = {"s0", "s1", "s2", "y"};
  Onnx__ModelProto model = ONNX__MODEL_PROTO__INIT;
  Onnx__OperatorSetIdProto opset = ONNX__OPERATOR_SET_ID_PROTO__INIT, *opsets[1] = {&opset};
  Onnx__GraphProto graph = ONNX__GRAPH_PROTO__INIT;
  Onnx__TensorProto w[K], *inits[K];
  Onnx__NodeProto add[K], *nodes[K];
  char *ins[K][2], *outs[K][1];
  int64_t dims[1] = {N};
  Onnx__TensorShapeProto__Dimension d = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT, *dp[1] = {&d};
  d.value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
  d.dim_value = N;
  Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
  shape.n_dim = 1, shape.dim = dp;
  Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
  tt.has_elem_type = 1, tt.elem_type = NC_ONNX_FLOAT, tt.shape = &shape;
  Onnx__TypeProto tp = ONNX__TYPE_PROTO__INIT;
  tp.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE, tp.tensor_type = &tt;
  Onnx__ValueInfoProto in = ONNX__VALUE_INFO_PROTO__INIT, out = ONNX__VALUE_INFO_PROTO__INIT, *inp[1] = {&in},
                       *outp[1] = {&out};
  in.name = "x", in.type = &tp, out.name = "y", out.type = &tp;
  for (int k = 0; k < K; k++) {
    for (int i = 0; i < N; i++)
      vals[k][i] = (float)(k * 1000 + i) * 0.25f - 3.0f;
    w[k] = (Onnx__TensorProto)ONNX__TENSOR_PROTO__INIT;
    w[k].name = names[k];
    w[k].has_data_type = 1, w[k].data_type = NC_ONNX_FLOAT;
    w[k].n_dims = 1, w[k].dims = dims;
    w[k].has_raw_data = 1, w[k].raw_data.len = sizeof vals[k], w[k].raw_data.data = (uint8_t *)vals[k];
    inits[k] = &w[k];
    add[k] = (Onnx__NodeProto)ONNX__NODE_PROTO__INIT;
    add[k].op_type = "Add";
    ins[k][0] = k ? sums[k - 1] : "x", ins[k][1] = names[k], outs[k][0] = sums[k];
    add[k].n_input = 2, add[k].input = ins[k], add[k].n_output = 1, add[k].output = outs[k];
    nodes[k] = &add[k];
  }
  graph.name = "main";
  graph.n_initializer = K, graph.initializer = inits;
  graph.n_node = K, graph.node = nodes;
  graph.n_input = 1, graph.input = inp, graph.n_output = 1, graph.output = outp;
  opset.domain = "", opset.has_version = 1, opset.version = 13;
  model.has_ir_version = 1, model.ir_version = 8;
  model.n_opset_import = 1, model.opset_import = opsets;
  model.graph = &graph;
  size_t len = onnx__model_proto__get_packed_size(&model);
  uint8_t *buf = malloc(len);
  onnx__model_proto__pack(&model, buf);
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(buf, 1, len, f) == len && !fclose(f), "cannot write %s", path);
  free(buf);
}

typedef struct blobs {
  nc_resource *r[K];
  int n;
} blobs;

static nc_walk_result collect(nc_op *op, void *user)
{
  blobs *b = user;
  nc_attr *v = nc_op_get_attr_str(op, "value");
  if (v && nc_attr_get_kind(v) == NC_ATTR_DENSE_RESOURCE && b->n < K)
    b->r[b->n++] = nc_attr_dense_resource_get(v);
  return NC_WALK_ADVANCE;
}

/* The blobs of `module` by initializer (named as the initializers are). */
static void find_blobs(nc_op *module, nc_resource **by_init)
{
  blobs b = {.n = 0};
  nc_op_walk(module, NC_WALK_PRE_ORDER, collect, &b);
  CHECK(b.n == K, "%d blobs", b.n);
  for (int i = 0; i < b.n; i++) {
    const char *name = nc_ident_str(nc_resource_get_name(b.r[i]));
    size_t k = strlen(name) - 1;
    if (k < K)
      by_init[k] = b.r[i];
  }
}

/* Every blob holds its initializer's floats, aligned for them; `lent`
 * gets which ones point into the model file's mapping. */
static void check_values(nc_resource *const *r, bool *lent, const char *what)
{
  for (int k = 0; k < K; k++) {
    const void *p = r[k] ? nc_resource_get_data(r[k]) : NULL;
    size_t off;
    CHECK(p && nc_resource_get_size(r[k]) == sizeof vals[k] && !memcmp(p, vals[k], sizeof vals[k]) &&
              (uintptr_t)p % 4 == 0,
          "%s: initializer %d reads back", what, k);
    if (lent && p) {
      lent[k] = nc_mapped_file_find(p, &off) != NULL;
      CHECK(lent[k] == nc_resource_is_borrowed(r[k]), "%s: %d borrowed iff in the file's mapping", what, k);
    }
  }
}

int main(void)
{
  char dir[] = "/tmp/nc_onnx_borrow_XXXXXX";
  if (!mkdtemp(dir)) {
    fprintf(stderr, "cannot make a temporary directory\n");
    return 1;
  }
  char path[64];
  snprintf(path, sizeof path, "%s/m.onnx", dir);
  write_model(path);

  /* the importer's model is gone when nc_onnx_import_file returns */
  nc_context *ctx = ir_context();
  nc_op *module = nc_onnx_import_file(ctx, path);
  CHECK(module, "imported");
  nc_resource *r[K] = {0};
  bool lent[K] = {0};
  const void *in_map = NULL;
  int lent_k = -1, copied_k = -1;
  if (module) {
    find_blobs(module, r);
    check_values(r, lent, "after import");
    for (int k = 0; k < K; k++) {
      if (lent[k] && lent_k < 0)
        lent_k = k, in_map = nc_resource_get_data(r[k]);
      if (!lent[k] && copied_k < 0)
        copied_k = k;
    }
  }
  CHECK(lent_k >= 0 && copied_k >= 0, "the fixture gives an aligned and a misaligned initializer");
  size_t off;
  if (lent_k >= 0) {
    CHECK(!memcmp(nc_resource_get_data(r[lent_k]), vals[lent_k], sizeof vals[lent_k]), "read after the model is gone");
    /* another blob borrowing: dropping this one keeps the mapping */
    int other = -1;
    for (int k = 0; k < K; k++)
      if (lent[k] && k != lent_k)
        other = k;
    if (other >= 0) {
      nc_resource_drop_data(r[lent_k]);
      CHECK(nc_mapped_file_find(nc_resource_get_data(r[other]), &off), "still mapped for the other blob");
      CHECK(!memcmp(nc_resource_get_data(r[other]), vals[other], sizeof vals[other]), "the other blob reads");
    }
  }

  /* printed and parsed back in a fresh context: the same values, now owned */
  char *text = module ? ir_print(module, false) : NULL;
  nc_context *ctx2 = ir_context();
  nc_op *back = text ? ir_parse(ctx2, text) : NULL;
  CHECK(back, "parsed back");
  if (back) {
    nc_resource *r2[K] = {0};
    find_blobs(back, r2);
    /* the blob dropped above printed no data; the others must match */
    for (int k = 0; k < K; k++)
      if (r2[k] && nc_resource_get_data(r2[k]))
        CHECK(!memcmp(nc_resource_get_data(r2[k]), vals[k], sizeof vals[k]) && !nc_resource_is_borrowed(r2[k]),
              "round trip of %d", k);
    nc_op_destroy(back);
  }
  free(text);
  nc_context_destroy(ctx2);

  /* the module goes, the context still holds the blobs: still mapped */
  if (module)
    nc_op_destroy(module);
  if (in_map)
    CHECK(nc_mapped_file_find(in_map, &off) || !lent[lent_k], "mapped while the context holds borrowed blobs");
  nc_context_destroy(ctx);
  CHECK(!in_map || !nc_mapped_file_find(in_map, &off), "unmapped with the context, the model long gone");

  /* the other order: the context goes first, then the model */
  char err[512];
  nc_onnx_model *m = nc_onnx_model_load(path, err, sizeof err);
  CHECK(m, "loaded: %s", err);
  ctx = ir_context();
  module = m ? nc_onnx_import_model(ctx, m, NULL) : NULL;
  const void *p = NULL;
  if (module) {
    nc_resource *r3[K] = {0};
    find_blobs(module, r3);
    check_values(r3, NULL, "second import");
    p = lent_k >= 0 && r3[lent_k] ? nc_resource_get_data(r3[lent_k]) : NULL;
    CHECK(!p || nc_resource_is_borrowed(r3[lent_k]), "borrowed again");
    nc_op_destroy(module);
  }
  nc_context_destroy(ctx);
  CHECK(!p || nc_mapped_file_find(p, &off), "the model still holds its mapping");
  nc_onnx_model_destroy(m);
  CHECK(!p || !nc_mapped_file_find(p, &off), "unmapped with the model, the context long gone");

  unlink(path);
  rmdir(dir);
  return ir_check_status("onnx_borrow_test");
}
